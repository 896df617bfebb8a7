"""Player order TV-22 (§5.4), era scoring TV-36 (§5.7) and the whole resolution phase (§4.16)."""
import pytest

from adjudicator.nations import KNOWLEDGE_SCORING, PLAYER_ORDER, RESOLUTION

from tests.nations.helpers import drive, event_card, game, nation, part, resources, vp


@pytest.mark.parametrize("a_stability, order", [(2, ["C", "B", "A", "D"]), (5, ["C", "A", "B", "D"])],
                         ids=["TV-22", "TV-22-variant-full-tie"])
def test_TV_22_determining_player_order(a_stability, order):
    state = game({"A": nation(strength=10, stability=a_stability), "B": nation(strength=10, stability=5),
                  "C": nation(strength=12, stability=0), "D": nation(strength=3, stability=3)}, order=["D", "A", "B", "C"])
    assert drive(PLAYER_ORDER, state).state["player_order"] == order


def test_player_order_uses_raw_stability_even_for_versailles_and_revolt():
    state = game({"A": nation(strength=5, stability=9, specials=["Versailles"]), "B": nation(strength=5, stability=-1),
                  "C": nation(strength=5, stability=-4)}, order=["C", "B", "A"])
    assert drive(PLAYER_ORDER, state).state["player_order"] == ["A", "B", "C"]


@pytest.mark.parametrize("knowledge, gains", [
    ({"blue": 13, "yellow": 11, "green": 11, "red": 4}, {"blue": 3, "yellow": 1, "green": 1, "red": 0}),
    ({"blue": 13, "yellow": 11}, {"blue": 1, "yellow": 0}),
    ({"blue": 11, "yellow": 11}, {"blue": 0, "yellow": 0}),
], ids=["TV-36", "TV-36-2p", "TV-36-2p-tie"])
def test_TV_36_era_end_knowledge_scoring(knowledge, gains):
    state = game({nid: nation(knowledge=k, vp=2) for nid, k in knowledge.items()}, round=2)
    out = drive(KNOWLEDGE_SCORING, state)
    assert {nid: vp(out, nid) - 2 for nid in knowledge} == gains


def test_no_knowledge_scoring_in_odd_rounds():
    out = drive(KNOWLEDGE_SCORING, game({"A": nation(knowledge=3), "B": nation()}, round=3))
    assert out.result == {"era_end": False, "vp": {}} and vp(out, "A") == 0


def test_a_whole_resolution_phase_in_one_log():
    # A: strong, runs short of food in production; B: weak, loses the war, is hit by the event.
    state = game({
        "A": nation(strength=9, stability=1, food=1, knowledge=6, vp=5,
                    production_items=[{"resource": "food", "amount": -3}]),
        "B": nation(strength=2, stability=1, food=4, gold=2, stone=2, knowledge=0, vp=5),
    }, order=["B", "A"], round=2, pass_order=["A", "B"], war={"card": {"id": "W", "loss": {"food": 3}}, "marker": 9},
        current_event=event_card({"parts": [part({"worst": "strength"}, "bad", {"lose": {"food": 4}})]}, famine=1))
    out = drive(RESOLUTION, state, [("B", "shortage_spill", "gold")])
    assert list(out.result) == ["production", "player_order", "war", "events", "famine", "knowledge_scoring"]
    # A: food 1 - 3: short (VP 4, knowledge 4); famine 1 more knowledge, no VP (capped); era: +1.
    assert resources(out, "A") == {"gold": 0, "stone": 0, "food": 0, "knowledge": 3} and vp(out, "A") == 5
    # B: war 3 - 1 = 2 food (food 2, VP 4); event 4 food: 2 short (VP 3), knowledge 0 (VP 2), the 2
    # spill into gold, which pays in full; famine: food and knowledge VP already lost, 1 spills into stone.
    assert resources(out, "B") == {"gold": 0, "stone": 1, "food": 0, "knowledge": 0} and vp(out, "B") == 2
    assert out.state["player_order"] == ["A", "B"] and out.state["war"] is None
    assert out.state["pass_order"] == [] and not any(out.state["nations"]["B"]["shortage_vp_charged"].values())
