"""Properties over random states (spec §2.8): invariants hold after every resolution, a replay
of the log gives the same outcome, and taking the default at every decision (or any legal
answer), sent through JSON as a service stores it, terminates with an outcome, for every kind."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.budget import examples

from adjudicator.kinds import KINDS
from adjudicator.nations import (EVENT, FAMINE, FINAL_SCORING, FORCED_LOSS, KNOWLEDGE_SCORING, PLAYER_ORDER, PRODUCTION,
                                 RESOLUTION, WAR)
from adjudicator.nations.state import GameStateSchema, RESOURCES, invariant_violations
from adjudicator.procedure import Decision, Outcome, answer, next_step

NAMES = ["China", "Persia", "Rome", "Egypt", "Greece"]
METRICS = ["strength", "stability", "pass", "vp", "gold", "food", "knowledge"]
STEPS = [PRODUCTION, WAR, EVENT, FAMINE]  # §3.1 steps 1, 3, 4, 5
NATIONS_KINDS = [FORCED_LOSS, PRODUCTION, PLAYER_ORDER, WAR, EVENT, FAMINE, KNOWLEDGE_SCORING, RESOLUTION, FINAL_SCORING]

amounts = st.dictionaries(st.sampled_from(RESOURCES), st.integers(0, 6), max_size=2)
effect = st.one_of(
    st.builds(lambda a: {"gain": a}, amounts),
    st.builds(lambda a: {"lose": a}, amounts),
    st.builds(lambda a: {"pay": a}, amounts),
    st.builds(lambda n: {"vp": n}, st.integers(-3, 3)),
    st.builds(lambda n: {"workers": n}, st.integers(-2, 2)),
    st.builds(lambda p: {"order": p}, st.sampled_from(["first", "last", 1, 2, 4])),
    st.builds(lambda n: {"strength": n}, st.integers(-6, 6)),
    st.builds(lambda n: {"architects_free": n}, st.integers(0, 2)),
).flatmap(lambda e: st.sampled_from([e, {**e, "to": "others"}]))
selector = st.one_of(st.just("all"), st.builds(lambda m: {"best": m}, st.sampled_from(METRICS)),
                     st.builds(lambda m: {"worst": m}, st.sampled_from(METRICS)),
                     st.builds(lambda ms: {"except_best": ms}, st.lists(st.sampled_from(METRICS), min_size=1, max_size=2)))
option = st.builds(lambda name, effects: {"name": name, "effects": [e for e in effects if e.get("to") != "others"
                                                                     or "pay" not in e]},
                   st.sampled_from(["x", "y", "z"]), st.lists(effect, max_size=2))
choice = st.builds(lambda options, single: {"options": options, "single_chooser": single},
                   st.lists(option, min_size=2, max_size=3, unique_by=lambda o: o["name"]), st.booleans())


def with_hook(part, hook):
    """A §4.14 5-player ruling where the data allows one: a "best" selector, and good for two of them."""
    if hook is None or not (isinstance(part["selector"], dict) and "best" in part["selector"]):
        return part
    if hook != "Glorious Revolution" and part["polarity"] != "good":
        return part
    return {**part, "hook": hook}


part = st.builds(lambda sel, pol, effects, ch, hook: with_hook({"selector": sel, "polarity": pol, "choice": ch,
                                                                "effects": [e for e in effects if "pay" not in e]}, hook),
                 selector, st.sampled_from(["good", "bad"]), st.lists(effect, max_size=2), st.none() | choice,
                 st.none() | st.sampled_from(["Olympic Games", "Glorious Revolution", "Fourth Crusade"]))
event = st.builds(lambda parts: {"parts": parts}, st.lists(part, min_size=1, max_size=2))
army = st.builds(lambda kind, s, b, u, w, vp: {"card": {"id": kind, "type": kind,
                                                        "per_worker": {"strength": s, "stability": b}, "upkeep": u,
                                                        "worker_vp": vp}, "workers": w},
                 st.sampled_from(["military", "building"]), st.integers(0, 4), st.integers(-2, 1), amounts,
                 st.integers(0, 3), st.lists(st.integers(0, 2), max_size=3))
section = st.builds(lambda kind, present: {"kind": kind, "present": present},
                    st.sampled_from(["food", "stability"]), st.integers(0, 3))


@st.composite
def states(draw):
    names = NAMES[:draw(st.sampled_from([1, 2, 3, 4, 5, 5]))]  # the 5-player rules more often
    nations = {nid: {
        "resources": draw(st.fixed_dictionaries({t: st.integers(0, 8) for t in RESOURCES})),
        "vp": draw(st.integers(0, 4)),
        "shortage_vp_charged": draw(st.fixed_dictionaries({t: st.booleans() for t in RESOURCES})),
        "population": draw(st.lists(section, min_size=0, max_size=3)),
        "overflow": draw(st.integers(0, 1)),
        "idle_workers": draw(st.integers(0, 2)),
        "bm_slots": draw(st.lists(army, max_size=2)),
        "strength_bonus": draw(st.integers(-3, 12)),
        "stability_bonus": draw(st.integers(-6, 6)),
        "production_items": draw(st.lists(st.builds(lambda t, a: {"resource": t, "amount": a},
                                                    st.sampled_from(RESOURCES), st.integers(-6, 4)), max_size=3)),
        "specials": draw(st.lists(st.sampled_from(["Elizabeth", "Great Wall", "Versailles", "Anna Komnene"]),
                                  unique=True, max_size=2)),
        "colonies": draw(st.lists(st.builds(lambda vp: {"id": "colony", "vp": vp}, st.integers(0, 3)), max_size=2)),
        "wonders_done": draw(st.lists(st.builds(lambda vp, extra: {"id": "wonder", "vp": vp, "special_vp": extra},
                                                st.integers(0, 5), st.integers(0, 2)), max_size=5)),
    } for nid in names}
    war = draw(st.none() | st.builds(lambda loss, vp, marker: {"card": {"id": "W", "loss": loss, "vp_loss": vp},
                                                               "marker": marker},
                                     amounts, st.integers(0, 2), st.integers(0, 20)))
    card = {"id": "E", "famine": draw(st.integers(0, 6)), "event1": draw(event), "event2": draw(st.none() | event)}
    return {"nations": nations, "player_order": draw(st.permutations(names)),
            "pass_order": draw(st.just([]) | st.permutations(names)), "war": war, "current_event": card,
            "round": draw(st.none() | st.integers(1, 8)),
            "options": {"five_player_first_tie": draw(st.sampled_from(["both", "none"]))}}


def settle(procedure, state, pick):
    """Answer every decision with ``pick(step)``, sent as JSON; return the outcome and the log."""
    log, step = [], next_step(procedure, state, [])
    while isinstance(step, Decision):
        assert len(log) < 200, "a resolution that does not end"
        json.dumps(step.to_dict(), allow_nan=False)  # a client can be sent every question
        assert step.participant in state["nations"]  # the ids a client uses
        if step.has_default:
            assert step.refusal(step.default) is None  # the deadline's answer is a legal one
        else:
            assert step.question == "event_choice"  # the only step without a default (§4.15)
        log, step = answer(procedure, state, log, json.loads(json.dumps(pick(step))))
    assert isinstance(step, Outcome)
    json.dumps(step.to_dict(), allow_nan=False)
    return step, log


def default_or_first(step):
    # An event choice has no default (the service waits, §4.15): the director then answers; here the first choice.
    return step.default if step.has_default else step.choices[0]


common = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(states())
def test_taking_every_default_terminates_and_keeps_the_invariants(state):
    for procedure in STEPS:
        outcome, log = settle(procedure, state, default_or_first)
        assert invariant_violations(outcome.state) == []
        state = GameStateSchema().load(outcome.state)  # the result is a valid input for the next step
    assert state["war"] is None


@common
@given(states(), st.data())
def test_any_legal_answers_keep_the_invariants_and_replay_identically(state, data):
    for procedure in STEPS:
        outcome, log = settle(procedure, state, legal_answer(data))
        assert invariant_violations(outcome.state) == []
        assert next_step(procedure, state, log) == outcome
        for nid, nation in outcome.state["nations"].items():
            assert nation["vp"] >= 0 and all(nation["resources"][t] >= 0 for t in RESOURCES)
        state = outcome.state


@common
@given(states())
def test_shortage_vp_never_exceed_one_per_type_per_round(state):
    start = {nid: sum(not f for f in n["shortage_vp_charged"].values()) for nid, n in state["nations"].items()}
    charged = {nid: 0 for nid in state["nations"]}
    for procedure in STEPS:
        outcome, _ = settle(procedure, state, default_or_first)
        for nid, book in outcome.result["nations"].items():
            charged[nid] += book["shortage_vp"]
        state = outcome.state
    assert all(charged[nid] <= start[nid] for nid in charged)


@common
@given(states())
def test_the_whole_resolution_phase_replays_its_one_log(state):
    outcome, log = settle(RESOLUTION, state, default_or_first)
    assert invariant_violations(outcome.state) == []
    assert next_step(RESOLUTION, state, log) == outcome
    assert outcome.state["war"] is None and outcome.state["pass_order"] == []


# --- every kind, as the service drives it: JSON in, JSON out ------------------------

def legal_answer(data):
    """A random legal answer to a decision (a split of a war's stability reduction has no list of choices)."""
    def pick(step):
        if step.choices is not None:
            return data.draw(st.sampled_from(list(step.choices)))
        loss, left = step.details["loss"], step.details["reduction"]
        split = {}
        for resource, amount in loss.items():
            split[resource] = data.draw(st.integers(max(0, left - sum(list(loss.values())[len(split) + 1:])),
                                                    min(amount, left)))
            left -= split[resource]
        return split
    return pick


def with_losses(state, data):
    """FORCED_LOSS reads its losses from the state."""
    losses = data.draw(st.lists(st.builds(lambda nid, t, n: {"nation": nid, "resource": t, "amount": n},
                                          st.sampled_from(sorted(state["nations"])), st.sampled_from(RESOURCES),
                                          st.integers(0, 12)), max_size=4))
    return {**state, "losses": losses}


@pytest.mark.parametrize("procedure", NATIONS_KINDS, ids=lambda p: p.name)
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states(), st.data(), st.booleans())
def test_every_kind_ends_with_an_outcome_through_json(procedure, state, data, defaults):
    if procedure is FORCED_LOSS:
        state = with_losses(state, data)
    state = json.loads(json.dumps(state))
    outcome, log = settle(procedure, state, default_or_first if defaults else legal_answer(data))
    assert next_step(procedure, state, json.loads(json.dumps(log))) == outcome  # the stored log replays
    assert invariant_violations(outcome.state) == []
    if procedure is not FORCED_LOSS:
        GameStateSchema().load(json.loads(json.dumps(outcome.state)))  # its state is a valid input again


def test_every_nations_procedure_is_a_kind_with_a_summary_and_its_participants():
    kinds = {name: kind for name, kind in KINDS.items() if name.startswith("nations.")}
    assert set(kinds) == {p.name for p in NATIONS_KINDS} and len(kinds) == 9
    for kind in kinds.values():
        assert kind.summary and kind.participants and kind.private_fields == ()
