"""Game end and final scoring (spec §5.8, §10.2): TV-20, TV-21."""
import pytest

from adjudicator import statecraft
from adjudicator.procedure import Outcome, next_step
from adjudicator.statecraft import FINAL_SCORING

from tests.statecraft.helpers import Driver, land, power

G4_PLACEHOLDER = [-2, -1, 0, 0, 1, 2, 3, 4, 5]  # set explicitly, as TV-20 asks


def governed(power_id, n, start_col):
    return [land(f"{power_id}{i}", 4, {power_id: 1}, fg=power_id, row=1 if power_id == "EU" else 2, col=start_col + i)
            for i in range(n)]


TV20 = {"powers": {"EU": power(pp=18, support=7, spy=2, leader_value=4),
                   "USA": power(pp=22, support=6, spy=1, leader_value=6)},
        "grid": governed("EU", 5, 1) + governed("USA", 4, 1),
        "bag": {"EU": 5, "USA": 4, "DEMO": 3},
        "institutions": {"PRESS": {"EU": 1}},  # votes on institutions score nothing (§5.8.3)
        "options": {"support_final_pp": G4_PLACEHOLDER}}


def test_TV_20_final_scoring_and_tie_break():
    out = next_step(FINAL_SCORING, TV20, [])
    assert isinstance(out, Outcome)  # no conflict left: no step at all
    scores = out.result["scores"]
    assert {k: scores["EU"][k] for k in ("in_play", "support", "governments", "spies", "votes_in_bag", "total")} == \
        {"in_play": 18, "support": 3, "governments": 10, "spies": 2, "votes_in_bag": 2, "total": 35}
    assert {k: scores["USA"][k] for k in ("in_play", "support", "governments", "spies", "votes_in_bag", "total")} == \
        {"in_play": 22, "support": 2, "governments": 8, "spies": 1, "votes_in_bag": 2, "total": 35}
    # 35-35: the higher leader value wins (USA 6 > EU 4).
    assert out.result["winner"] == "USA" and out.result["winners"] == ["USA"] and not out.result['shared']
    assert out.result["ranking"] == ["USA", "EU"]
    assert {p: v["pp"] for p, v in out.state["powers"].items()} == {"EU": 35, "USA": 35}


def test_TV_20_the_default_support_table_is_the_g4_placeholder():
    state = {**TV20, "options": {}}
    assert next_step(FINAL_SCORING, state, []).result["scores"]["EU"]["support"] == 3


def test_votes_in_the_bag_round_down_and_the_rate_is_an_option():
    state = {**TV20, "bag": {"EU": 5, "USA": 1}}
    scores = next_step(FINAL_SCORING, state, []).result["scores"]
    assert (scores["EU"]["votes_in_bag"], scores["USA"]["votes_in_bag"]) == (2, 0)
    state = {**TV20, "options": {"votes_per_pp": 3}}
    assert next_step(FINAL_SCORING, state, []).result["scores"]["EU"]["votes_in_bag"] == 1


@pytest.mark.parametrize("fallback, winners", [('shared', ["EU", "USA"]), ("fallback_order", ["EU"])])
def test_a_tie_on_pp_and_leader_value_is_shared_by_default(fallback, winners):
    state = {**TV20, "powers": {p: {**v, "leader_value": 5} for p, v in TV20["powers"].items()},
             "options": {"support_final_pp": G4_PLACEHOLDER, "final_tie_fallback": fallback}}
    out = next_step(FINAL_SCORING, state, [])
    assert out.result["winners"] == winners
    assert out.result["winner"] == (None if len(winners) > 1 else winners[0])
    assert out.result['shared'] == (len(winners) > 1)


# TV-21: after the round-4 declaration, Z (CT 3): RUS 2*, DEMO 2 with a conflict marker.
TV21 = {"powers": {"RUS": power(pp=7, support=3, spy=1), "EU": power(pp=3, support=3)},
        "grid": [land("Z", 3, {"RUS": 2, "DEMO": 2}, fg="RUS", reward=["PP_DELTA(4)"]),
                 land("Calm", 4, {"EU": 1}, fg="EU", col=2, reward=["PP_DELTA(4)"])],
        "options": {"support_final_pp": G4_PLACEHOLDER}}


@pytest.mark.parametrize("rus, demo, winner, rus_total", [
    pytest.param([5, 5, 1, 1, 1], [5, 1, 1, 1], "RUS", 7 + 0 + 2 + 1, id="TV-21-rus-wins"),
    pytest.param([1, 1, 1, 1, 1], [5, 1, 1, 1], "DEMO", 7 + 0 + 0 + 1, id="TV-21-demo-wins"),
])
def test_TV_21_game_end_conflict_without_reward(rus, demo, winner, rus_total):
    d = Driver(FINAL_SCORING, TV21)
    assert d.step.details["country"] == "Z" and d.step.details["power"] == "RUS"
    d.roll("RUS", rus).roll("DEMO", demo)
    d.decline("RUS")  # spies are allowed in the final conflicts; RUS keeps its spy
    out = d.outcome
    z = out.state["grid"][0]
    assert z["influence"] == {winner: 1} and z["fg"] == (None if winner == "DEMO" else winner)
    assert out.result["conflicts"][0]["winner"] == winner
    scores = out.result["scores"]
    assert scores["RUS"]["in_play"] == 7  # no reward for Z
    assert scores["RUS"]["governments"] == (2 if winner == "RUS" else 0)
    assert scores["RUS"]["total"] == rus_total
    assert scores["EU"]["total"] == 3 + 0 + 2


def test_a_spy_spent_in_a_final_conflict_no_longer_scores():
    d = Driver(FINAL_SCORING, TV21).roll("RUS", [1, 1, 1, 1, 1]).roll("DEMO", [5, 1, 1, 1])
    d.reroll("RUS", [0, 1], [5, 6])
    out = d.outcome
    assert out.result["conflicts"][0]["winner"] == "RUS"
    assert out.result["scores"]["RUS"]["spies"] == 0 and out.result["scores"]["RUS"]["total"] == 7 + 0 + 2


def test_final_conflicts_without_spies_as_an_option():
    state = {**TV21, "options": {"final_conflict_spies": False}}
    d = Driver(FINAL_SCORING, state).roll("RUS", [1, 1, 1, 1, 1]).roll("DEMO", [5, 1, 1, 1])
    assert d.outcome.result["conflicts"][0]["winner"] == "DEMO"
    assert d.outcome.result["scores"]["RUS"]["spies"] == 1


def test_final_conflicts_are_resolved_in_reading_order():
    state = {"powers": {"RUS": power(pp=7), "EU": power(pp=3, leader_value=2)},
             "grid": [land("B", 3, {"EU": 2, "DEMO": 2}, fg="EU", row=2, col=1),
                      land("A", 3, {"RUS": 2, "DEMO": 2}, fg="RUS", row=1, col=3)]}
    d = Driver(FINAL_SCORING, state)
    assert d.step.details["country"] == "A"
    d.roll("RUS", [5, 1, 1, 1, 1]).roll("DEMO", [1, 1, 1, 1])
    assert d.step.details["country"] == "B"
    d.roll("EU", [1, 1, 1, 1, 1]).roll("DEMO", [5, 1, 1, 1])
    assert [c["winner"] for c in d.outcome.result["conflicts"]] == ["RUS", "DEMO"]


def test_final_scoring_is_exported_as_a_kind():
    # adjudicator/kinds.py collects every Procedure in the package's __all__.
    assert "FINAL_SCORING" in statecraft.__all__ and FINAL_SCORING.name == "statecraft.final_scoring"
