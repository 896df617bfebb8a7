"""One starting state per resolution kind, for end-to-end tests of the resolutions API.

``CASES`` maps every kind of :data:`adjudicator.kinds.KINDS` to ``(vector, state)``:
the spec test vector the state comes from (its id, e.g. ``"TV-12"``, or a short
description where the spec has none for that procedure) and the starting state as
plain JSON data (``json.loads(json.dumps(state)) == state``).

The states are the ones the game tests use (tests/statecraft, tests/game1630,
tests/nations, tests/versailles), written out here with small builders that
mirror the test helper modules; from the game tests it imports only the
Versailles builders (tests/versailles/helpers.py).  It is a module of the
``tests`` package: under pytest, and as a script run from the repository root.

Driving a case: answer each step with :func:`answer_for` (a decision's or sealed
step's default where it has one, otherwise a legal choice; the dice
``[1 + (k % sides) for k in range(count)]``); every case reaches its Outcome in
well under :data:`MAX_STEPS` steps.  ``python -m tests.service.resolution_cases``
(from the repository root) drives them all and prints what happened.

Choices made for the service tests:

* ``1630.vote`` (TV-05): five seats; Tim, Martin and P4 hold hands (private);
  the four others answer a sealed placement step, and the players with a pile in
  ENGLAND answer the sealed ballot (Tim and Simon when every placement is the
  default ``[]``; Martin too if he places his ENGLAND card).
* ``statecraft.conflict`` (TV-30): CHN is a bot (``is_bot``) with a spy; three
  factions roll dice and the bot's reroll decision is answered with its default.
* Where a vector asks nothing but the procedure can ask something, a variant of
  the vector that asks is used and named so ("TV-35 variant: ..."); procedures
  that never ask anything (the scorings, nations.player_order) have no steps.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Mapping

MAX_STEPS = 200


# --- builders (mirroring the test helper modules) ---------------------------------------------

# statecraft (tests/statecraft/helpers.py)

def power(pp=10, leader_value=1, pool=10, support=4, **more) -> dict:
    return {"pp": pp, "leader_value": leader_value, "pool": pool, "support": support, **more}


def land(name, ct, influence, fg=None, row=1, col=1, conflict=None, **more) -> dict:
    """A grid country; the conflict marker follows from the total unless given."""
    if conflict is None:
        conflict = sum(influence.values()) > ct
    return {"name": name, "row": row, "col": col, "ct": ct, "influence": dict(influence), "fg": fg,
            "conflict": conflict, **more}


SANCTIONS = {"name": "International Trade Sanctions", "majority": ["SWAP_RESOURCES"], "minority": ["PP_DELTA(-2)"]}


def institutions(**votes) -> dict:
    return {"DAVOS": {}, "IMF": {}, "PRESS": {}, "UN": {}, **votes}


# 1630 (tests/game1630/helpers.py)

def card(card_id: str, country: str, value: int) -> dict:
    return {"id": card_id, "kind": "INFLUENCE", "country": country, "value": value}


def pile(state: str, *cards: dict) -> dict:
    return {"state": state, "cards": list(cards)}


def named_pile(owner: str, country: str, values, state: str = "DOMINANT") -> dict:
    return pile(state, *(card(f"{owner}-{country}-{i}", country, v) for i, v in enumerate(values)))


# nations (tests/nations/helpers.py)

def nation(strength=0, stability=0, vp=0, **fields) -> dict:
    resources = {t: fields.pop(t) for t in ("gold", "stone", "food", "knowledge") if t in fields}
    return {"strength_bonus": strength, "stability_bonus": stability, "vp": vp, "resources": resources, **fields}


def game(nations: dict, order=None, **fields) -> dict:
    return {"nations": nations, "player_order": list(order or nations), **fields}


def event_card(*events, famine=0) -> dict:
    result = {"id": "event*", "famine": famine}
    for key, event in zip(("event1", "event2"), events):
        result[key] = event
    return result


def part(selector, polarity, *effects, **extra) -> dict:
    return {"selector": selector, "polarity": polarity, "effects": list(effects), **extra}


# versailles: the builders of its own tests (tests/versailles/helpers.py)
from tests.versailles.helpers import tv10_state, tv22_state  # noqa: E402


# --- the cases --------------------------------------------------------------------------------

def _statecraft() -> dict[str, tuple[str, dict]]:
    return {
        # TV-18: X (CT 4): RUS 2*, CHN 1; CHN has 3 bribe tokens (a decision per bribe).
        "statecraft.bribes": ("TV-18", {
            "powers": {"RUS": power(leader_value=2), "CHN": power(leader_value=1, planned_bribes=3)},
            "grid": [land("X", 4, {"RUS": 2, "CHN": 1}, fg="RUS")], "actor": "CHN"}),
        # TV-30 (reconstructed as in tests/statecraft/test_conflict.py): CHN is a bot with a spy;
        # USA, CHN and DEMO roll, then the spy decisions (the bot's default is its §9.6 rule).
        "statecraft.conflict": ("TV-30", {
            "powers": {"USA": power(pp=20, spy=1), "CHN": power(pp=10, spy=1, is_bot=True)},
            "grid": [land("Mexico", 5, {"CHN": 1, "USA": 3, "DEMO": 2}, fg="CHN")], "country": "Mexico"}),
        # TV-12 in the grid phase: Nigeria's conflict, dice and spies, then its reward.
        "statecraft.country_grid": ("TV-12", {
            "powers": {"CHN": power(pp=12, spy=2, base_market=[]), "USA": power(pp=10, spy=1, base_market=[])},
            "grid": [land("Nigeria", 3, {"CHN": 2, "DEMO": 1, "USA": 2}, fg="CHN", reward=["PP_HYDROCARBONS"])]}),
        # TV-39: the USA's demonstrator effect in W causes a conflict and freezes the FG.
        "statecraft.effect": ("TV-39", {
            "powers": {"USA": power(support=5), "CHN": power()}, "actor": "USA", "effects": ["PLACE_DEMO"],
            "grid": [land("W", 3, {"CHN": 1, "DEMO": 1, "USA": 1}, fg="CHN")]}),
        # TV-38: round 2, EU holds 5 pool tokens + 2 spies, the USA 5; both plan in one sealed step
        # (no default: each split is its player's, so answer_for gives a legal plan).
        "statecraft.agenda": ("TV-38", {
            "powers": {"EU": power(pool=10, spy=2), "USA": power(pool=24, leader_value=2)}, "bag": {"DEMO": 3}}),
        # TV-21: game end with Z still in conflict (dice, a spy decision), then the scores.
        "statecraft.final_scoring": ("TV-21", {
            "powers": {"RUS": power(pp=7, support=3, spy=1), "EU": power(pp=3, support=3)},
            "grid": [land("Z", 3, {"RUS": 2, "DEMO": 2}, fg="RUS", reward=["PP_DELTA(4)"]),
                     land("Calm", 4, {"EU": 1}, fg="EU", col=2, reward=["PP_DELTA(4)"])],
            "options": {"support_final_pp": [-2, -1, 0, 0, 1, 2, 3, 4, 5]}}),
        # TV-06: the voting from the bag (draws as dice with the bag as faces), then the resolution.
        "statecraft.governance": ("TV-06", {
            "powers": {"EU": power(pp=10, leader_value=3), "RUS": power(pp=10, leader_value=2),
                       "CHN": power(pp=10, leader_value=1)},
            "bag": {"EU": 3, "RUS": 2, "CHN": 2, "DEMO": 3}, "un_card": SANCTIONS}),
        # TV-36: the bot RUS places 4 influence tokens (its plan is the decision's default).
        "statecraft.influence": ("TV-36", {
            "powers": {"RUS": power(planned_influence=4, is_bot=True, primary_symbols=["P"], leader_value=1),
                       "EU": power(leader_value=3), "USA": power(leader_value=2)},
            "actor": "RUS", "marker_1": {"row": 1, "col": 1},
            "grid": [land("C1", 3, {"EU": 2}, fg="EU", col=1, symbols=["P"]),
                     land("C2", 3, {"RUS": 1}, fg="RUS", col=2, symbols=["P"]),
                     land("C3", 5, {"USA": 1}, fg="USA", col=3),
                     land("C4", 4, {"EU": 3, "DEMO": 1}, fg="EU", col=4, symbols=["P"])]}),
        # TV-07: the UN's majority (CHN swaps resources) and minority.
        "statecraft.institution_resolution": ("TV-07", {
            "powers": {p: power(pp=10, leader_value=i) for i, p in enumerate(["EU", "USA", "CHN", "RUS"])},
            "institutions": institutions(UN={"CHN": 3, "EU": 2, "USA": 1}), "un_card": SANCTIONS}),
        # TV-06: the voting alone.
        "statecraft.voting": ("TV-06", {
            "powers": {"EU": power(pp=10, leader_value=3), "RUS": power(pp=10, leader_value=2),
                       "CHN": power(pp=10, leader_value=1)},
            "bag": {"EU": 3, "RUS": 2, "CHN": 2, "DEMO": 3}, "un_card": SANCTIONS}),
    }


def _game1630() -> dict[str, tuple[str, dict]]:
    return {
        # TV-13: Martin's end-of-turn scoring (no steps).
        "1630.scoring": ("TV-13", {
            "players": ["Martin"],
            "displays": {"Martin": {"ENGLAND": named_pile("Martin", "ENGLAND", [5]),
                                    "SWEDEN": named_pile("Martin", "SWEDEN", [4]),
                                    "SPAIN": named_pile("Martin", "SPAIN", [2])}},
            "vp_counters": {"Martin": ["ENGLAND", "SWEDEN", "SPAIN"]},
            "countries": {"ENGLAND": {"prestige": 1}, "SWEDEN": {"prestige": 3}, "SPAIN": {"prestige": 5}},
            "vp": {"Martin": 10}}),
        # TV-05: Tim calls ENGLAND; Tim, Martin and Simon (with piles) vote in the sealed ballot;
        # Tim, Martin and P4 hold hands (private), P4 and P5 are asked only for placements.
        "1630.vote": ("TV-05", {
            "players": ["Tim", "Martin", "Simon", "P4", "P5"], "caller": "Tim",
            "displays": {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3, 2])},
                         "Simon": {"ENGLAND": named_pile("Simon", "ENGLAND", [6])}},
            "hands": {"Tim": [card("Tim-E2", "ENGLAND", 2), card("Tim-F1", "FRANCE", 1)],
                      "Martin": [card("Martin-E5", "ENGLAND", 5)],
                      "P4": [card("P4-E3", "ENGLAND", 3)]},
            "countries": {"ENGLAND": {"side": "RED"}}}),
        # TV-11: England attacks France (two dice per side).
        "1630.war": ("TV-11", {
            "attacker": "ENGLAND", "defender": "FRANCE",
            "countries": {"ENGLAND": {"military_ability": 1, "army_size": 1, "leader": True, "prestige": 1},
                          "FRANCE": {"military_ability": 1, "army_size": 2, "prestige": 3}}}),
    }


PAY_OR_BACK = {"name": "pay or back*", "parts": [part("all", "bad", choice={"options": [
    {"name": "pay", "effects": [{"pay": {"food": 2}}]},
    {"name": "back", "effects": [{"order": "last"}]}]})]}


def _nations() -> dict[str, tuple[str, dict]]:
    return {
        # TV-29: pay 2 food or go to the back; each nation's choice has no default (§4.15).
        "nations.event": ("TV-29", game({"China": nation(food=3), "Persia": nation(food=3), "Rome": nation(food=3)},
                                        current_event=event_card(PAY_OR_BACK))),
        # TV-35 with B short of knowledge too (knowledge 1, gold 2, stone 2 instead of knowledge 5), so
        # that the famine asks B where the shortage spills (§4.1.2); TV-35 itself asks nothing.
        "nations.famine": ("TV-35 variant: B's spill is asked", game(
            {"A": nation(food=6), "B": nation(food=1, knowledge=1, gold=2, stone=2, vp=7)},
            current_event=event_card(famine=4))),
        # TV-38: X totals 25 (VP 12, colony 3, wonder 4, Ziggurat 3 workers 2, Hoplites 1 worker 1, and
        # TV-37's part E: 21 resources + strength 10 + stability 6 = 37 -> 3); Y also 25, ahead in order.
        "nations.final_scoring": ("TV-38", game({
            "Y": nation(vp=25),
            "X": nation(strength=10, stability=6, vp=12, gold=7, stone=3, food=5, knowledge=6,
                        colonies=[{"id": "colony*", "vp": 3}], wonders_done=[{"id": "wonder*", "vp": 4}],
                        bm_slots=[{"card": {"id": "Ziggurat*", "type": "building", "worker_vp": [1, 1]}, "workers": 3},
                                  {"card": {"id": "Hoplites*", "type": "military", "worker_vp": [1]}, "workers": 1}]),
        }, order=["Y", "X"])),
        # TV-19: A loses 6 food and chooses where the shortage spills.
        "nations.forced_loss": ("TV-19", {
            **game({"A": nation(food=1, knowledge=2, gold=1, stone=5, vp=10)}),
            "losses": [{"nation": "A", "resource": "food", "amount": 6}]}),
        # TV-36: era-end knowledge scoring at the end of Antiquity (round 2).
        "nations.knowledge_scoring": ("TV-36", game(
            {nid: nation(knowledge=k, vp=2) for nid, k in {"blue": 13, "yellow": 11, "green": 11, "red": 4}.items()},
            round=2)),
        # TV-22: determining player order.
        "nations.player_order": ("TV-22", game(
            {"A": nation(strength=10, stability=2), "B": nation(strength=10, stability=5),
             "C": nation(strength=12, stability=0), "D": nation(strength=3, stability=3)}, order=["D", "A", "B", "C"])),
        # TV-21 (revolt) with 2 stone added, so that the knowledge shortage asks A whether it spills into
        # gold or stone (§4.1.2); TV-21 itself has only gold to spill into and asks nothing.
        "nations.production": ("TV-21 variant: A's spill is asked", game(
            {"A": nation(stability=-3, knowledge=2, gold=4, food=0, stone=2, vp=5)})),
        # No single vector: the whole resolution phase of tests/nations/test_nations_round.py
        # (production, player order, war, event, famine, era scoring; B's spill is asked).
        "nations.resolution": ("whole resolution phase (§4.16, tests/nations)", game({
            "A": nation(strength=9, stability=1, food=1, knowledge=6, vp=5,
                        production_items=[{"resource": "food", "amount": -3}]),
            "B": nation(strength=2, stability=1, food=4, gold=2, stone=2, knowledge=0, vp=5),
        }, order=["B", "A"], round=2, pass_order=["A", "B"],
            war={"card": {"id": "W", "loss": {"food": 3}}, "marker": 9},
            current_event=event_card({"parts": [part({"worst": "strength"}, "bad", {"lose": {"food": 4}})]},
                                     famine=1))),
        # TV-23 with a war card losing food 5 and gold 2 (and 2 gold for C), so that C splits its stability
        # reduction over the two resources ([A-5], §4.15); TV-23's one-resource card asks nothing.
        "nations.war": ("TV-23 variant: C's reduction split is asked", game({
            "A": nation(strength=8, stability=2, food=6, knowledge=5, vp=10),
            "B": nation(strength=10, stability=0, food=6, knowledge=5, vp=10),
            "C": nation(strength=6, stability=3, food=4, gold=2, knowledge=5, vp=10),
            "D": nation(strength=7, stability=-2, food=3, knowledge=4, vp=10),
        }, war={"card": {"id": "W*", "loss": {"food": 5, "gold": 2}, "vp_loss": 1}, "marker": 8, "buyer": "A"})),
    }


def _versailles() -> dict[str, tuple[str, dict]]:
    unsettle = tv10_state()
    unsettle["issue"] = "CONSTANTINOPLE"
    return {
        # TV-22: full score and tie-break (no steps).
        "versailles.final_scoring": ("TV-22", tv22_state()),
        # No vector (§6.9 [A-16]): an event unsettles CONSTANTINOPLE on TV-10's board.
        "versailles.unsettle": ("§6.9 unsettle CONSTANTINOPLE on the TV-10 board", unsettle),
        # TV-10: the comprehensive uprising example (check dice, modifiers, bidding, option).
        "versailles.uprising": ("TV-10", tv10_state()),
    }


CASES: dict[str, tuple[str, dict]] = {**_statecraft(), **_game1630(), **_nations(), **_versailles()}
CASES = dict(sorted(CASES.items()))


# --- answering ----------------------------------------------------------------------------------

def dice_for(step) -> list[int]:
    """The roll the tests give: 1, 2, ... cycling through the die's sides."""
    count, sides = (step["count"], step["sides"]) if isinstance(step, Mapping) else (step.count, step.sides)
    return [1 + (k % sides) for k in range(count)]


def _candidates(choices, details: Mapping) -> list:
    """Answers worth trying, best first, for a decision without a default."""
    candidates: list = list(choices) if choices is not None else []
    spaces, tokens = details.get("spaces"), details.get("tokens")
    if isinstance(spaces, list) and spaces and isinstance(tokens, int):  # statecraft agenda: all on one space
        candidates.append({space: tokens if i == 0 else 0 for i, space in enumerate(spaces)})
    room, must = details.get("room"), details.get("must_place")
    if isinstance(room, Mapping) and isinstance(must, int):  # statecraft influence: fill the rooms in order
        plan, left = {}, must
        for name, space in room.items():
            take = min(space, left)
            if take > 0:
                plan[name] = take
                left -= take
        candidates.append(plan)
    return candidates + [None, "pass", [], {}]


def _decision_answer(decision) -> Any:
    """A decision's default, else the first candidate it accepts (for a step dict, which cannot be
    asked, the first candidate)."""
    if isinstance(decision, Mapping):
        if decision.get("has_default"):
            return decision["default"]
        return _candidates(decision.get("choices"), decision.get("details") or {})[0]
    if decision.has_default:
        return decision.default
    for candidate in _candidates(decision.choices, decision.details):
        if decision.refusal(candidate) is None:
            return candidate
    raise ValueError(f"no legal answer known for {decision.participant}: {decision.question} "
                     f"({dict(decision.details)!r})")


def answer_for(kind: str, step) -> Any:
    """The answer the end-to-end tests give to ``step`` of a resolution of ``kind``.

    ``step`` is a :class:`~adjudicator.procedure.Decision`, ``Sealed`` or ``Dice``, or its
    ``to_dict()`` as the API shows it.  A decision gets its default when it has one;
    one without (``NO_DEFAULT``) gets a legal choice: the first of its ``choices`` that
    ``refusal`` accepts, or a value built from its details that it accepts.  A sealed
    step gets its default when every part has one, else each part answered that way.
    Dice get ``[1 + (k % sides) for k in range(count)]``.
    """
    kind_of = step.get("type") if isinstance(step, Mapping) else type(step).__name__.lower()
    if kind_of == "dice":
        return dice_for(step)
    if kind_of == "sealed":
        decisions = step["decisions"] if isinstance(step, Mapping) else step.decisions
        return {(d["participant"] if isinstance(d, Mapping) else d.participant): _decision_answer(d)
                for d in decisions}
    if kind_of == "decision":
        return _decision_answer(step)
    raise ValueError(f"{kind}: nothing to answer at {step!r}")


# --- the check ------------------------------------------------------------------------------

def drive(kind: str, state: dict | None = None, max_steps: int = MAX_STEPS):
    """Drive a case to its Outcome as the e2e test does; returns (log, outcome, steps met).

    Every answer is given after a JSON round trip, and the log is replayed from JSON too.
    """
    from adjudicator.kinds import KINDS
    from adjudicator.procedure import Outcome, answer, next_step

    procedure = KINDS[kind]
    state = CASES[kind][1] if state is None else state
    assert json.loads(json.dumps(state)) == state, f"{kind}: the state does not survive JSON"
    procedure.load(state)
    log: list = []
    steps: list = []
    step = next_step(procedure, state, log)
    while not isinstance(step, Outcome):
        if len(steps) >= max_steps:
            raise AssertionError(f"{kind}: no outcome after {max_steps} steps")
        steps.append(step)
        value = json.loads(json.dumps(answer_for(kind, step)))
        shown = json.loads(json.dumps(step.to_dict()))
        assert answer_for(kind, shown) == value, f"{kind}: the step as the API shows it gets another answer"
        log, step = answer(procedure, state, log, value)
    assert next_step(procedure, state, json.loads(json.dumps(log))) == step, f"{kind}: the replay differs"
    return log, step, steps


def main() -> int:
    from adjudicator.kinds import KINDS

    problems = 0
    missing = sorted(set(KINDS) - set(CASES))
    unknown = sorted(set(CASES) - set(KINDS))
    for kind in missing:
        print(f"MISSING  {kind}: no case")
    for kind in unknown:
        print(f"UNKNOWN  {kind}: not a kind")
    problems += len(missing) + len(unknown)
    for kind, (vector, _) in CASES.items():
        if kind not in KINDS:
            continue
        try:
            log, outcome, steps = drive(kind)
        except Exception as error:  # report every case, then fail
            problems += 1
            print(f"FAIL     {kind} [{vector}]: {type(error).__name__}: {error}")
            continue
        kinds_met = sorted({type(s).__name__ for s in steps})
        print(f"ok       {kind} [{vector}]: {len(steps)} steps {kinds_met}; "
              f"outcome result {sorted(outcome.result)}; state {sorted(outcome.state)}")
    print(f"{len(CASES)} cases, {len(KINDS)} kinds, {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
