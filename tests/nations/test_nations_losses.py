"""Spec §4.1 shortages, §4.4 production and revolt, §4.9 famine: TV-16 to TV-21 (§5.3), TV-35 (§5.7)."""
import pytest

from adjudicator.nations import EVENT, FAMINE, FORCED_LOSS, PRODUCTION
from adjudicator.procedure import IllegalDecision, answer, next_step

from tests.nations.helpers import DEFAULT, drive, event_card, game, nation, part, resources, vp


def loss(state, nid, resource, amount):
    return {**state, "losses": [{"nation": nid, "resource": resource, "amount": amount}]}


def test_TV_16_shortage():
    state = game({"A": nation(stone=2, knowledge=4, vp=10)})
    out = drive(FORCED_LOSS, loss(state, "A", "stone", 5))
    assert (resources(out, "A")["stone"], resources(out, "A")["knowledge"], vp(out, "A")) == (0, 1, 9)
    assert out.state["nations"]["A"]["shortage_vp_charged"]["stone"] is True


def test_TV_17_net_food_production():
    items = [{"resource": "food", "amount": a} for a in (2, -1, 3, 2, -2, -3)]
    out = drive(PRODUCTION, game({"A": nation(food=0, vp=5, production_items=items)}))
    assert out.result["net"]["A"]["food"] == 1
    assert resources(out, "A")["food"] == 1 and vp(out, "A") == 5  # netted before paying: no shortage


def test_TV_18_food_shortage_costs_at_most_1_vp_per_round():
    # Production: net food -4 (a fixture item).
    state = game({"A": nation(food=2, knowledge=10, vp=10,
                              production_items=[{"resource": "food", "amount": -4}])})
    out = drive(PRODUCTION, state)
    a = out.state["nations"]["A"]
    assert (a["resources"]["food"], a["vp"], a["resources"]["knowledge"]) == (0, 9, 8)
    # Event: lose 3 food.
    out = drive(EVENT, {**out.state, "current_event": event_card(
        {"parts": [part("all", "bad", {"lose": {"food": 3}})]}, famine=4)})
    a = out.state["nations"]["A"]
    assert (a["resources"]["knowledge"], a["vp"]) == (5, 9)
    # Famine 4.
    out = drive(FAMINE, out.state)
    a = out.state["nations"]["A"]
    assert (a["resources"]["food"], a["resources"]["knowledge"], a["vp"]) == (0, 1, 9)


def tv19():
    return loss(game({"A": nation(food=1, knowledge=2, gold=1, stone=5, vp=10)}), "A", "food", 6)


def test_TV_19a_spill_into_gold_first():
    step = next_step(FORCED_LOSS, tv19(), [])
    assert (step.choices, step.default) == (["gold", "stone"], "stone")
    assert step.details == {"owed": 3, "resources": {"gold": 1, "stone": 5, "food": 0, "knowledge": 0},
                            "shortage_vp_charged": {"gold": False, "stone": False, "food": True, "knowledge": True},
                            "vp": 8}
    # Gold runs out; stone is then the only type left, so no second question.
    out = drive(FORCED_LOSS, tv19(), [("A", "shortage_spill", "gold")])
    assert resources(out, "A") == {"gold": 0, "stone": 3, "food": 0, "knowledge": 0} and vp(out, "A") == 7


def test_TV_19b_spill_by_default_into_the_largest_stock():
    out = drive(FORCED_LOSS, tv19(), [("A", "shortage_spill", DEFAULT)])
    assert resources(out, "A") == {"gold": 1, "stone": 2, "food": 0, "knowledge": 0} and vp(out, "A") == 8


@pytest.mark.parametrize("knowledge, gold, after", [(5, 0, {"knowledge": 3, "gold": 0}),
                                                    (1, 3, {"knowledge": 0, "gold": 2})],
                         ids=["TV-20", "TV-20-spill"])
def test_TV_20_vp_floor(knowledge, gold, after):
    out = drive(FORCED_LOSS, loss(game({"A": nation(vp=0, stone=0, knowledge=knowledge, gold=gold)}), "A", "stone", 2))
    assert vp(out, "A") == 0
    assert {t: resources(out, "A")[t] for t in after} == after


def test_TV_21_revolt():
    state = game({"A": nation(stability=-3, knowledge=2, gold=4, food=0, stone=0, vp=5)})
    out = drive(PRODUCTION, state)
    assert out.result["revolts"] == ["A"]
    assert resources(out, "A") == {"gold": 3, "stone": 0, "food": 0, "knowledge": 0}
    assert vp(out, "A") == 3  # knowledge shortage VP + revolt VP


def test_TV_21_variant_the_revolt_vp_does_not_grow_with_the_deficit():
    out = drive(PRODUCTION, game({"A": nation(stability=-9, knowledge=20, vp=5)}))
    assert resources(out, "A")["knowledge"] == 11 and vp(out, "A") == 4


def test_TV_33_versailles_alone_suffers_no_revolt_penalty():
    out = drive(PRODUCTION, game({"A": nation(stability=9, knowledge=4, vp=5, specials=["Versailles"])}))
    assert out.result["revolts"] == [] and resources(out, "A")["knowledge"] == 4 and vp(out, "A") == 5


def test_production_is_simultaneous_and_pays_gold_stone_food_before_knowledge():
    farm = {"id": "farm*", "type": "building", "production": {"food": 2}, "upkeep": {"gold": 1}}
    army = {"id": "army*", "type": "military", "per_worker": {"strength": 2}, "upkeep": {"food": 1, "knowledge": 1}}
    state = game({"A": nation(gold=0, knowledge=3, vp=5,
                              bm_slots=[{"card": farm, "workers": 2}, {"card": army, "workers": 1}],
                              population=[{"kind": "food", "present": 2}, {"kind": "stability", "present": 3}])})
    out = drive(PRODUCTION, state)
    # food: +4 - 1 - 3 (one worker off the food section) = 0; gold -2 (short: knowledge); knowledge -1.
    assert out.result["net"]["A"] == {"gold": -2, "stone": 0, "food": 0, "knowledge": -1}
    assert resources(out, "A") == {"gold": 0, "stone": 0, "food": 0, "knowledge": 0} and vp(out, "A") == 4


def test_anna_komnene_cancels_military_resource_upkeep_only():
    army = {"id": "army*", "type": "military", "per_worker": {"stability": -1}, "upkeep": {"food": 2}}
    out = drive(PRODUCTION, game({"A": nation(food=0, stability=0, specials=["Anna Komnene"],
                                              bm_slots=[{"card": army, "workers": 1}], knowledge=3, vp=2)}))
    assert out.result["net"]["A"]["food"] == 0
    assert out.result["revolts"] == ["A"] and resources(out, "A")["knowledge"] == 2 and vp(out, "A") == 1


@pytest.mark.parametrize("b_flags, b_vp", [({}, 6), ({"food": True}, 7)], ids=["TV-35", "TV-35-food-vp-already-lost"])
def test_TV_35_famine(b_flags, b_vp):
    state = game({"A": nation(food=6), "B": nation(food=1, knowledge=5, vp=7, shortage_vp_charged=b_flags)},
                 current_event=event_card(famine=4))
    out = drive(FAMINE, state)
    assert resources(out, "A")["food"] == 2
    assert (resources(out, "B")["food"], resources(out, "B")["knowledge"], vp(out, "B")) == (0, 2, b_vp)


def test_no_event_card_means_no_famine():
    out = drive(FAMINE, game({"A": nation(food=0, vp=1)}))
    assert out.result["famine"] == 0 and vp(out, "A") == 1


def test_the_spill_chain_drops_what_is_owed_once_nothing_is_left():
    out = drive(FORCED_LOSS, loss(game({"A": nation(food=1, gold=1, stone=1, vp=9)}), "A", "food", 10),
                [("A", "shortage_spill", DEFAULT)])  # gold (ties go to gold), then stone without asking
    assert resources(out, "A") == {"gold": 0, "stone": 0, "food": 0, "knowledge": 0}
    assert vp(out, "A") == 5  # food, knowledge, gold and stone: at most 4 shortage VP per round
    assert out.result["nations"]["A"]["dropped"] == 7


@pytest.mark.parametrize("bad", ["knowledge", "food", "wood", None])
def test_an_illegal_spill_is_refused_and_the_log_is_unchanged(bad):
    log = []
    with pytest.raises(IllegalDecision, match="not one of the legal choices"):
        answer(FORCED_LOSS, tv19(), log, bad)
    assert log == [] and next_step(FORCED_LOSS, tv19(), log).question == "shortage_spill"
