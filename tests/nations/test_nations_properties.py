"""Properties over random states (spec §2.8): invariants hold after every resolution, a replay
of the log gives the same outcome, and taking the default at every decision terminates."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from adjudicator.nations import EVENT, FAMINE, PRODUCTION, RESOLUTION, WAR
from adjudicator.nations.state import GameStateSchema, RESOURCES, invariant_violations
from adjudicator.procedure import Decision, Outcome, answer, next_step

NAMES = ["China", "Persia", "Rome", "Egypt", "Greece"]
METRICS = ["strength", "stability", "pass", "vp", "gold", "food", "knowledge"]
STEPS = [PRODUCTION, WAR, EVENT, FAMINE]  # §3.1 steps 1, 3, 4, 5

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
part = st.builds(lambda sel, pol, effects, ch: {"selector": sel, "polarity": pol, "choice": ch,
                                                "effects": [e for e in effects if "pay" not in e]},
                 selector, st.sampled_from(["good", "bad"]), st.lists(effect, max_size=2), st.none() | choice)
event = st.builds(lambda parts: {"parts": parts}, st.lists(part, min_size=1, max_size=2))
army = st.builds(lambda s, b, u, w: {"card": {"id": "army", "type": "military",
                                              "per_worker": {"strength": s, "stability": b}, "upkeep": u}, "workers": w},
                 st.integers(0, 4), st.integers(-2, 1), amounts, st.integers(0, 2))
section = st.builds(lambda kind, present: {"kind": kind, "present": present},
                    st.sampled_from(["food", "stability"]), st.integers(0, 3))


@st.composite
def states(draw):
    names = NAMES[:draw(st.integers(1, 5))]
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
    """Answer every decision with ``pick(step)``; return the outcome and the log."""
    log, step = [], next_step(procedure, state, [])
    while isinstance(step, Decision):
        assert len(log) < 200, "a resolution that does not end"
        json.dumps(step.to_dict())  # a client can be sent every question
        log, step = answer(procedure, state, log, pick(step))
    assert isinstance(step, Outcome)
    json.dumps(step.to_dict())
    return step, log


def default_or_first(step):
    # An event choice has no default (the service waits, §4.15): then the first legal choice.
    return step.default if step.default is not None else step.choices[0]


common = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
    def pick(step):
        if step.choices is None:
            return step.default
        return data.draw(st.sampled_from(list(step.choices)))

    for procedure in STEPS:
        outcome, log = settle(procedure, state, pick)
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
