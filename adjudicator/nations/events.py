"""Resolution step 4: the two historical events of the current event card (spec §4.8).

Events are resolved from the top down: event 2's targets are worked out on
the state event 1 left [A-17].  For each event, every part's targets are
selected first (§4.3 tie rules), then the nations that must choose do so in
reverse player order, seeing earlier choices, and finally the event is
applied to all of them at once.
"""
from __future__ import annotations

from ..procedure import Decision, Outcome, Procedure
from .losses import force_loss, ledgers, lose_vp, report
from .ranking import leader, select
from .state import GameStateSchema, checked, strength, working_copy
from .workers import lose_worker, take_worker

CHOICE = "event_choice"


def options_of(part: dict) -> dict[str, list] | None:
    """The part's options by name; an all-or-nothing package is a take/refuse choice (§4.8.7)."""
    if part["choice"] is not None:
        return {o["name"]: o["effects"] for o in part["choice"]["options"]}
    if part["all_or_nothing"] is not None:
        return {"take": part["all_or_nothing"], "refuse": []}
    return None


def affordable(nation: dict, effects: list) -> bool:
    """A voluntary payment must be payable in full (§4.1.1)."""
    owed: dict[str, int] = {}
    for effect in effects:
        if "pay" in effect and effect["to"] == "self":
            for t, n in effect["pay"].items():
                owed[t] = owed.get(t, 0) + n
    return all(nation["resources"][t] >= n for t, n in owed.items())


def reorder(order: list[str], moves: list[tuple[str, object]]) -> list[str]:
    """§4.8.4: movers keep their old order among themselves, and so do the others."""
    for where in ("first", "last"):
        movers = {nid for nid, to in moves if to == where}
        stay = [nid for nid in order if nid not in movers]
        moved = [nid for nid in order if nid in movers]
        order = moved + stay if where == "first" else stay + moved
    for position in sorted({to for _, to in moves if isinstance(to, int)}):
        movers = {nid for nid, to in moves if to == position}
        stay = [nid for nid in order if nid not in movers]
        at = min(position - 1, len(stay))
        order = stay[:at] + [nid for nid in order if nid in movers] + stay[at:]
    return order


def choose(state: dict, key: str, parts: list[dict], targets: list[list[str]]):
    """Generator: every choice of one event, in reverse player order.  Returns {part index: {decider: option}}."""
    order = state["player_order"]
    asks = []  # (nation, part index)
    for index, (part, reached) in enumerate(zip(parts, targets)):
        if options_of(part) is None or not reached:
            continue
        single = part["choice"] is not None and part["choice"]["single_chooser"]
        for nid in ([leader(state, reached, part["selector"])] if single else reached):
            asks.append((nid, index))
    asks.sort(key=lambda ask: (-order.index(ask[0]), ask[1]))
    chosen: dict[int, dict[str, str | None]] = {index: {} for _, index in asks}
    for nid, index in asks:
        part = parts[index]
        options = options_of(part)
        legal = [name for name, effects in options.items() if affordable(state["nations"][nid], effects)]
        if len(legal) <= 1:  # one legal answer is not asked; none means nothing applies
            chosen[index][nid] = legal[0] if legal else None
            continue
        default = part["choice"]["default"] if part["choice"] is not None else None
        chosen[index][nid] = yield Decision(
            nid, CHOICE, legal, default if default in legal else None,
            details={"event": key, "part": index, "options": {name: options[name] for name in legal},
                     "chosen": {n: c for i in sorted(chosen) for n, c in chosen[i].items()}})
    return chosen


def apply_effect(state: dict, nid: str, effect: dict, book, moves: list):
    """Generator: one primitive for one nation (§4.8.6-4.8.8)."""
    nation = state["nations"][nid]
    if "gain" in effect:
        for t, n in effect["gain"].items():
            nation["resources"][t] += n
            book.gained[t] += n
    elif "pay" in effect:
        for t, n in effect["pay"].items():  # checked affordable when chosen
            nation["resources"][t] -= n
            book.lost[t] += n
    elif "lose" in effect:
        for t, n in effect["lose"].items():
            yield from force_loss(state, nid, t, n, book)
    elif "vp" in effect:
        if effect["vp"] >= 0:
            nation["vp"] += effect["vp"]
        else:
            book.other_vp += lose_vp(nation, -effect["vp"])
    elif "workers" in effect:
        step = take_worker if effect["workers"] > 0 else lose_worker
        for _ in range(abs(effect["workers"])):
            if not (yield from step(state, nid)):
                break
    elif "order" in effect:
        moves.append((nid, effect["order"]))
    elif "strength" in effect:
        # Strength is derived; a delta moves its flat part, never below 0 (Sinking of the Vasa).
        nation["strength_bonus"] += max(effect["strength"], -strength(nation))
    elif "architects_free" in effect:
        nation["free_architects"] += effect["architects_free"]


def resolve_event(state: dict, key: str, event: dict, books: dict):
    """Generator: one event, completely.  Returns what happened."""
    parts = event["parts"]
    targets = [select(state, part["selector"], part["polarity"]) for part in parts]
    chosen = yield from choose(state, key, parts, targets)
    # Everyone has chosen: apply the event to all at once.  Voluntary payments
    # go first, so a payment checked when chosen is still payable.
    plan = []  # (nation, effect) in application order
    for index, (part, reached) in enumerate(zip(parts, targets)):
        options = options_of(part)
        decisions = chosen.get(index, {})
        for nid in reached:
            picked = decisions.get(nid, next(iter(decisions.values()), None))  # a single chooser decides for all
            effects = part["effects"] + (options[picked] if options and picked else [])
            plan += [(nid, e) for e in effects if e["to"] == "self"]
        for picked in decisions.values():  # "to others" effects count once per decision
            for effect in (options[picked] if picked else []):
                if effect["to"] == "others":
                    plan += [(nid, effect) for nid in state["player_order"] if nid not in reached]
        for effect in part["effects"]:
            if effect["to"] == "others" and reached:
                plan += [(nid, effect) for nid in state["player_order"] if nid not in reached]
    moves: list = []
    for nid, effect in sorted(plan, key=lambda item: "pay" not in item[1]):  # stable: pays first
        yield from apply_effect(state, nid, effect, books[nid], moves)
    if moves:
        state["player_order"] = reorder(state["player_order"], moves)
    return {"event": key, "name": event["name"],
            "parts": [{"targets": reached, "choices": chosen.get(i, {})} for i, reached in enumerate(targets)]}


def resolve_events(state: dict):
    state = working_copy(state)
    card = state["current_event"]
    books = ledgers(state)
    happened = []
    for key in ("event1", "event2"):
        if card is not None and card[key] is not None:
            happened.append((yield from resolve_event(state, key, card[key], books)))
    result = {"card": card["id"] if card else None, "events": happened,
              "player_order": list(state["player_order"]), "nations": report(books)}
    return Outcome(result, checked(state))


EVENT = Procedure("nations.event", GameStateSchema, resolve_events)
