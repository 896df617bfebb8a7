"""Resolution step 4: the two historical events of the current event card (spec §4.8).

Events are resolved from the top down: event 2's targets are worked out on
the state event 1 left [A-17].  For each event, every part's targets are
selected first (§4.3 tie rules), then the nations that must choose do so in
reverse player order, seeing earlier choices, and finally the event is
applied to all of them at once.
"""
from __future__ import annotations

from ..procedure import NO_DEFAULT, Decision, Outcome, Procedure
from .losses import force_loss, ledgers, lose_vp, report
from .ranking import leader, metric_values, ranked, select
from .state import (FOURTH_CRUSADE, GLORIOUS_REVOLUTION, OLYMPIC_GAMES, GameStateSchema, checked, strength, widening,
                    working_copy)
from .workers import lose_worker, take_worker

CHOICE = "event_choice"


def options_of(part: dict) -> dict[str, list] | None:
    """The part's options by name; an all-or-nothing package is a take/refuse choice (§4.8.7)."""
    if part["choice"] is not None:
        return {o["name"]: o["effects"] for o in part["choice"]["options"]}
    if part["all_or_nothing"] is not None:
        return {"take": part["all_or_nothing"], "refuse": []}
    return None


def payments(effects: list) -> dict[str, int]:
    """What a package makes its own nation pay, by resource."""
    owed: dict[str, int] = {}
    for effect in effects:
        if "pay" in effect and effect["to"] == "self":
            for t, n in effect["pay"].items():
                owed[t] = owed.get(t, 0) + n
    return owed


def affordable(nation: dict, effects: list, committed: dict[str, int] | None = None) -> bool:
    """A voluntary payment must be payable in full (§4.1.1), on top of what the nation already chose to pay."""
    committed = committed or {}
    return all(nation["resources"][t] >= n + committed.get(t, 0) for t, n in payments(effects).items())


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


def hooked(state: dict, part: dict) -> str | None:
    """The part's §4.14 ruling when it applies: all three are 5-player rulings, so never with fewer."""
    return part["hook"] if part["hook"] is not None and widening(state) == 2 else None


def targets_of(state: dict, part: dict) -> list[str]:
    """The nations a part reaches, in player order (§4.3), or as its 5-player ruling says (§4.14)."""
    order = state["player_order"]
    hook = hooked(state, part)
    if hook == OLYMPIC_GAMES:
        # The most and the second most stable, ties broken by player order: always two.
        top = set(ranked(state, order, part["selector"])[:2])
        return [nid for nid in order if nid in top]
    if hook == FOURTH_CRUSADE:
        # The bonus goes to the strongest and every nation tied with it.
        values = metric_values(state, part["selector"]["best"])
        best = values[leader(state, order, part["selector"])]
        return [nid for nid in order if values[nid] == best]
    return select(state, part["selector"], part["polarity"])


def choosers_of(state: dict, part: dict, reached: list[str]) -> list[str]:
    """Who decides a part's choice: each target, or one leader for all of them."""
    if options_of(part) is None or not reached:
        return []
    single = part["choice"] is not None and part["choice"]["single_chooser"]
    if single or hooked(state, part) == FOURTH_CRUSADE:  # the strongest decides, ties by player order
        return [leader(state, reached, part["selector"])]
    return list(reached)


def choose(state: dict, event: dict, key: str, parts: list[dict], targets: list[list[str]]):
    """Generator: every choice of one event, in reverse player order.  Returns {part index: {decider: option}}."""
    order = state["player_order"]
    asks = [(nid, index) for index, (part, reached) in enumerate(zip(parts, targets))
            for nid in choosers_of(state, part, reached)]
    asks.sort(key=lambda ask: (-order.index(ask[0]), ask[1]))
    for index, part in enumerate(parts):
        if hooked(state, part) == GLORIOUS_REVOLUTION:
            # The second most stable chooses first, then the most stable: the same slots, least stable first.
            slots = [i for i, (_, p) in enumerate(asks) if p == index]
            for i, nid in zip(slots, reversed(ranked(state, [asks[i][0] for i in slots], part["selector"]))):
                asks[i] = (nid, index)
    chosen: dict[int, dict[str, str | None]] = {index: {} for _, index in asks}
    committed: dict[str, dict[str, int]] = {nid: {} for nid in order}  # payments chosen so far in this event
    for nid, index in asks:
        part, reached = parts[index], targets[index]
        options = options_of(part)
        # A chooser deciding for several nations can take an option only if each of them can pay it (§4.1.1).
        deciding_for = list(reached) if choosers_of(state, part, reached) != list(reached) else [nid]
        legal = [name for name, effects in options.items()
                 if all(affordable(state["nations"][n], effects, committed[n]) for n in deciding_for)]
        if len(legal) <= 1:  # one legal answer is not asked; none means nothing applies
            chosen[index][nid] = legal[0] if legal else None
        else:
            chosen[index][nid] = yield from ask_choice(state, event, key, index, nid, reached, deciding_for, legal,
                                                       chosen)
        for n in deciding_for:
            for t, amount in payments(options[chosen[index][nid]] if chosen[index][nid] else []).items():
                committed[n][t] = committed[n].get(t, 0) + amount
    return chosen


def ask_choice(state: dict, event: dict, key: str, index: int, nid: str, reached: list[str],
               deciding_for: list[str], legal: list[str], chosen: dict):
    """Generator: one nation's event choice, with what it needs to decide (§4.8.3).

    No default unless the card data names one (§4.15): the service waits for the nation or the director.
    """
    part = event["parts"][index]
    options = options_of(part)
    default = part["choice"]["default"] if part["choice"] is not None else None
    details = {"event": key, "name": event["name"], "part": index, "selector": part["selector"],
               "polarity": part["polarity"], "hook": hooked(state, part), "targets": list(reached),
               "deciding_for": list(deciding_for), "options": {name: options[name] for name in legal},
               "chosen": {n: c for i in sorted(chosen) for n, c in chosen[i].items()},
               "resources": {n: dict(state["nations"][n]["resources"]) for n in deciding_for},
               "player_order": list(state["player_order"])}
    return (yield Decision(nid, CHOICE, legal, default if default in legal else NO_DEFAULT, details=details))


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
    targets = [targets_of(state, part) for part in parts]
    # The 5-player rulings place nations by their rank when the event is resolved (§4.14).
    ranks = [ranked(state, reached, part["selector"]) if hooked(state, part) else None
             for part, reached in zip(parts, targets)]
    chosen = yield from choose(state, event, key, parts, targets)
    # Everyone has chosen: apply the event to all at once.  Voluntary payments
    # go first, so a payment checked when chosen is still payable.
    plan = []  # (nation, effect, part index) in application order
    for index, (part, reached) in enumerate(zip(parts, targets)):
        options = options_of(part)
        decisions = chosen.get(index, {})
        for nid in reached:
            picked = decisions.get(nid, next(iter(decisions.values()), None))  # a single chooser decides for all
            effects = part["effects"] + (options[picked] if options and picked else [])
            if hooked(state, part) == OLYMPIC_GAMES:
                # The most stable goes to position 1, the second most stable to position 2.
                position = ranks[index].index(nid) + 1
                effects = [{**e, "order": position} if e.get("order") == "first" else e for e in effects]
            plan += [(nid, e, index) for e in effects if e["to"] == "self"]
        for picked in decisions.values():  # "to others" effects count once per decision
            for effect in (options[picked] if picked else []):
                if effect["to"] == "others":
                    plan += [(nid, effect, index) for nid in state["player_order"] if nid not in reached]
        for effect in part["effects"]:
            if effect["to"] == "others" and reached:
                plan += [(nid, effect, index) for nid in state["player_order"] if nid not in reached]
    moves: list = []
    ranked_last: dict[int, list] = {}  # Glorious Revolution: movers to the back, placed by rank
    for nid, effect, index in sorted(plan, key=lambda item: "pay" not in item[1]):  # stable: pays first
        glorious = (hooked(state, parts[index]) == GLORIOUS_REVOLUTION and effect.get("order") == "last"
                    and nid in targets[index])  # a "to: others" move is an ordinary one
        yield from apply_effect(state, nid, effect, books[nid], ranked_last.setdefault(index, []) if glorious else moves)
    if moves:
        state["player_order"] = reorder(state["player_order"], moves)
    for index, movers in ranked_last.items():
        # The second most stable goes last and the most stable second-to-last.
        back = [nid for nid in ranks[index] if nid in {m for m, _ in movers}]
        state["player_order"] = [nid for nid in state["player_order"] if nid not in back] + back
    return {"event": key, "name": event["name"],
            "parts": [{"targets": reached, "hook": hooked(state, part), "choices": chosen.get(i, {})}
                      for i, (part, reached) in enumerate(zip(parts, targets))]}


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


EVENT = Procedure(
    "nations.event", GameStateSchema, resolve_events, version="2",
    summary="Resolution step 4 (§4.8): the two historical events of the current event card, top down, with the tie "
            "rules, the 5-player widening and the 5-player rulings of Olympic Games, Glorious Revolution and Fourth "
            "Crusade (§4.14).",
    participants="The nations, by their ids in the state's nations: the targets of an event with a choice choose in "
                 "reverse player order (no default: the service waits), and nations gaining or losing workers or "
                 "running out of knowledge make those choices. Nothing is rolled.")
