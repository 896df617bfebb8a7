"""Property tests: random legal states and random legal answers (decisions and dice fed
one at a time through ``answer``, as a service would)."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples

from adjudicator.procedure import Decision, Dice, Outcome, answer, next_step
from adjudicator.versailles import FINAL_SCORING, UNSETTLE, UPRISING, GameState, final_scoring
from adjudicator.versailles.state import COUNTER_TYPES, DEFAULT_REGIONS, NATIONS

SEATINGS = [(["UK", "FRANCE"], True), (["UK", "FRANCE", "USA"], False), (["UK", "FRANCE", "USA", "ITALY"], False)]
MAX_STEPS = 400


@st.composite
def effects(draw):
    kind = draw(st.sampled_from(["happiness", "unrest", "counter", "counter_choice"]))
    if kind == "happiness":
        return {"type": kind, "nation": draw(st.sampled_from(NATIONS)), "delta": draw(st.integers(-4, 3))}
    if kind == "unrest":
        return {"type": kind, "region": draw(st.sampled_from(DEFAULT_REGIONS)), "delta": draw(st.integers(-4, 4))}
    counter = draw(st.sampled_from(COUNTER_TYPES))
    if kind == "counter":
        return {"type": kind, "counter": counter, "flag": draw(st.sampled_from([None, "UK", "USA"])),
                "count": draw(st.integers(1, 2))}
    return {"type": kind, "counter": counter, "flags": ["UK", "USA"]}


@st.composite
def states(draw):
    seats, faction = draw(st.sampled_from(SEATINGS))
    seats = draw(st.permutations(seats))
    owners = [*seats, *(["USA"] if faction else [])]
    tracks, deployed = {}, {nation: 0 for nation in seats}
    for region in DEFAULT_REGIONS:
        keg = draw(st.integers(0, 3))
        columns = draw(st.lists(st.sampled_from([5, 6, 7, 8]), unique=True, max_size=len(seats)))
        units = {}
        for column, nation in zip(columns, draw(st.permutations(seats))):
            if deployed[nation] < 3:
                units[str(column)] = nation
                deployed[nation] += 1
        top = min((int(c) for c in units), default=9) - 1
        tracks[region] = {"keg": keg, "unrest": draw(st.integers(keg + 1, top)), "units": units}
    players = {}
    for nation in owners:
        spare = (3 - deployed[nation]) if nation in seats else 0
        exhausted = draw(st.integers(0, spare))
        demobilized = draw(st.integers(0, spare - exhausted))
        cubes = draw(st.integers(0, 15))
        players[nation] = {"cubes_available": cubes, "cubes_exhausted": draw(st.integers(0, 15 - cubes)),
                           "units_exhausted": exhausted, "units_demobilized": demobilized}
    issues = []
    for index in range(draw(st.integers(0, 8))):
        options = [{"name": f"O{o}", "effects": draw(st.lists(effects(), max_size=3))}
                   for o in range(draw(st.integers(1, 3)))]
        issues.append({"id": f"I{index}", "region": draw(st.sampled_from([None, *DEFAULT_REGIONS])),
                       "stars": draw(st.integers(0, 7)), "no_military": draw(st.booleans()),
                       "controller": draw(st.sampled_from(owners)), "options": options,
                       "counters": [{"type": "NAVAL_SQUADRON", "flag": "UK"}] * draw(st.integers(0, 1))})
    first_done = draw(st.booleans())
    return {
        "seat_order": seats, "usa_faction": faction, "active_player": draw(st.sampled_from(seats)),
        "region": draw(st.sampled_from([None, None, *DEFAULT_REGIONS])),
        "happiness": {nation: draw(st.integers(0, 30)) for nation in NATIONS},
        "players": players, "tracks": tracks, "issues": issues,
        "first_uprising_done": first_done,
        "strategy_offer": [] if first_done else [f"S{i}" for i in range(len(seats) + 1)],
        "strategy_cards": {f"S{i}": {"terms": []} for i in range(5)},
        "rules": {"uprising_without_controlled_issue": draw(st.sampled_from(["reset_unrest", "end_check"])),
                  "bid_happiness_loss": draw(st.sampled_from(["per_unit", "per_strength"]))},
    }


def random_answer(step, rng: random.Random):
    if isinstance(step, Dice):
        return [rng.randint(1, step.sides) for _ in range(step.count)]
    if step.choices is not None:
        return rng.choice(list(step.choices))
    # A bid: try a few random bids within the bidder's means, else pass.
    most = step.details["max"]
    for _ in range(4):
        bid = {key: rng.randint(0, most[key]) for key in most}
        if step.refusal(bid) is None:
            return bid
    return "pass"


def as_stored(value):
    """What the service keeps: the JSON form (lists, string keys)."""
    return json.loads(json.dumps(value))


def play_out(state, choose, procedure=UPRISING):
    """Answer step by step; every step, answer and outcome goes through JSON as the service stores them."""
    log, step = [], next_step(procedure, state, [])
    while not isinstance(step, Outcome):
        assert len(log) < MAX_STEPS, "the procedure did not end"
        json.dumps(step.to_dict())
        assert not isinstance(step, Decision) or not (step.bot or step.private)  # no bots, nothing private
        log, step = answer(procedure, state, log, as_stored(choose(step)))
    stored = as_stored(step.to_dict())
    # The stored outcome state is a valid game state again and means the same (column keys come back as text).
    assert GameState().load(stored["state"]) == GameState().load(step.state)
    return log, step


def totals(state):
    loaded = UPRISING.load(state)
    out = {}
    for nation, player in loaded["players"].items():
        deployed = sum(nation in track["units"].values() for track in loaded["tracks"].values())
        out[nation] = (player["cubes_available"] + player["cubes_exhausted"],
                       player["units_available"] + player["units_exhausted"] + player["units_demobilized"] + deployed)
    return out


def check_bidding(uprising):
    """Passes are final, each bid beats the one before, and the last bid wins."""
    passed, last = set(), (0, 0)
    for entry in uprising["bids"]:
        assert entry["player"] not in passed
        if entry["action"] == "pass":
            passed.add(entry["player"])
        else:
            assert (entry["strength"], entry["influence"]) > last
            last = (entry["strength"], entry["influence"])
    bids = [entry for entry in uprising["bids"] if entry["action"] == "bid"]
    assert uprising["winner"] == (bids[-1]["player"] if bids else None)


FAST = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(states(), st.integers(0, 2**32))
def test_random_play_ends_replays_identically_and_conserves_cubes_units_and_issues(state, seed):
    rng = random.Random(seed)
    log, outcome = play_out(state, lambda step: random_answer(step, rng))
    # Replaying the stored log gives the very same outcome.
    assert next_step(UPRISING, state, log) == outcome
    after = outcome.state
    # Cubes only move Available -> Exhausted; units only between pools, tracks and the demobilize track.
    assert totals(after) == totals(state)
    before_ids = sorted(issue["id"] for issue in state["issues"])
    assert sorted(issue["id"] for issue in after["issues"] + after["issue_discard"]) == before_ids
    for track in after["tracks"].values():
        assert 0 <= track["keg"] < track["unrest"] <= 8
        assert not track["units"] or track["unrest"] < min(track["units"])
    for uprising in outcome.result["uprisings"]:
        check_bidding(uprising)
    if any(c["uprising"] for c in outcome.result["checks"]) and not state["first_uprising_done"]:
        assert after["first_uprising_done"] is True and after["strategy_offer"] == []
        assert sorted(after["strategy_choice"]) == sorted(state["seat_order"])
    # The resulting state is a valid input again (for the next procedure or final scoring).
    reloaded = FINAL_SCORING.load(after)
    assert final_scoring(after) == next_step(FINAL_SCORING, reloaded, []).result


@FAST
@given(states(), st.integers(0, 2**32))
def test_taking_the_default_at_every_decision_always_ends_with_an_outcome(state, seed):
    """Defaults and dice, passed through JSON, always end with a JSON outcome."""
    rng = random.Random(seed)
    log, outcome = play_out(state, lambda step: step.default if isinstance(step, Decision)
                            else [rng.randint(1, 6) for _ in range(step.count)])
    # Defaults never bid, so every unsettled issue ends on the discard pile.
    for uprising in outcome.result["uprisings"]:
        assert uprising["winner"] is None
        assert uprising["issue"] is None or uprising["discarded"]


@FAST
@given(states(), st.integers(0, 2**32))
def test_every_offered_default_is_itself_a_legal_answer(state, seed):
    rng = random.Random(seed)

    def choose(step):
        if isinstance(step, Decision):
            assert step.refusal(step.default) is None
        return random_answer(step, rng)
    play_out(state, choose)


@FAST
@given(states())
def test_happiness_points_follow_competition_ranking(state):
    result = final_scoring({key: value for key, value in state.items() if key != "region"})
    seats = state["seat_order"]
    table = {2: [6, 0], 3: [6, 3, 0], 4: [6, 4, 2, 0]}[len(seats)]
    for nation in seats:
        above = sum(state["happiness"][other] > state["happiness"][nation] for other in seats)
        penalty = -5 if state["happiness"][nation] == 0 else 0
        assert result["scores"][nation]["happiness"] == table[above] + penalty
    assert result["winners"] and set(result["winners"]) <= set(seats)


@st.composite
def unsettle_states(draw):
    state = draw(states())
    state.pop("region")
    if not state["issues"]:
        state["issues"] = [{"id": "ONLY", "region": draw(st.sampled_from([None, *DEFAULT_REGIONS])), "stars": 3,
                            "controller": state["seat_order"][0], "options": [{"name": "O", "effects": []}]}]
    state["issue"] = draw(st.sampled_from([issue["id"] for issue in state["issues"]]))
    return state


@FAST
@given(unsettle_states(), st.integers(0, 2**32), st.booleans())
def test_unsettling_through_json_always_ends_with_an_outcome(state, seed, defaults):
    rng = random.Random(seed)
    log, outcome = play_out(state, (lambda step: step.default) if defaults else
                            (lambda step: random_answer(step, rng)), procedure=UNSETTLE)
    assert next_step(UNSETTLE, state, log) == outcome
    assert outcome.result["issue"] == state["issue"] and outcome.result["keg"] is None
    check_bidding(outcome.result)


@FAST
@given(states())
def test_final_scoring_is_a_json_outcome_at_once(state):
    state = as_stored({key: value for key, value in state.items() if key != "region"})
    step = next_step(FINAL_SCORING, state, [])
    assert isinstance(step, Outcome) and as_stored(step.to_dict()["result"]) == step.to_dict()["result"]
