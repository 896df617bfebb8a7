"""Input states are checked field by field, and the documented defaults fill the gaps (spec §2, §6)."""
import pytest

from adjudicator.nations import EVENT, FORCED_LOSS, WAR
from adjudicator.nations.state import stability, strength
from adjudicator.procedure import InvalidState, next_step

from tests.nations.helpers import event_card, game, nation, part


def errors(procedure, state):
    with pytest.raises(InvalidState) as error:
        next_step(procedure, state, [])
    return error.value.errors


def test_defaults_for_data_not_in_the_source():
    out = next_step(WAR, {"nations": {"A": {}}, "player_order": ["A"]}, [])
    a = out.state["nations"]["A"]
    assert a["resources"] == {"gold": 0, "stone": 0, "food": 0, "knowledge": 0} and a["vp"] == 0
    assert a["shortage_vp_charged"] == {"gold": False, "stone": False, "food": False, "knowledge": False}
    assert a["population"] == [{"kind": "food", "capacity": 3, "cost": 3, "present": 3},
                               {"kind": "stability", "capacity": 3, "cost": 3, "present": 3}]
    assert out.state["options"] == {"five_player_first_tie": "both"} and out.state["current_event"] is None
    war = next_step(WAR, game({"A": nation()}, war={"card": {"id": "W", "loss": {}}, "marker": 0}), [])
    assert war.result["war"] == "W"  # vp_loss defaults to 1 [G-3]


def test_strength_and_stability_are_derived():
    army = {"id": "m", "type": "military", "per_worker": {"strength": 3, "stability": -1}}
    a = {"strength_bonus": -20, "stability_bonus": 2, "bm_slots": [{"card": army, "workers": 2}],
         "population": [{"kind": "stability", "capacity": 3, "cost": 3, "present": 1}], "specials": []}
    assert strength(a) == 0  # never below 0
    assert stability(a) == 2 - 2 - 6


@pytest.mark.parametrize("state, expected", [
    ({"nations": {"A": {"resources": {"gold": -1}}}, "player_order": ["A"]},
     {"nations": {"A": {"value": {"resources": {"gold": ["Must be greater than or equal to 0."]}}}}}),
    ({"nations": {"A": {"vp": "ten"}}, "player_order": ["A"]},
     {"nations": {"A": {"value": {"vp": ["Not a valid integer."]}}}}),
    ({"nations": {"A": {}}, "player_order": ["A", "B"]}, {"player_order": ["must list every nation exactly once"]}),
    ({"nations": {"A": {}}, "player_order": ["A"], "pass_order": ["A", "A"]},
     {"pass_order": ["must list distinct known nations"]}),
    ({"player_order": []}, {"nations": ["Missing data for required field."]}),
    ({"nations": {"A": {"population": [{"kind": "food", "present": 4}]}}, "player_order": ["A"]},
     {"nations": {"A": {"value": {"population": {0: {"present": ["more workers than the section's capacity"]}}}}}}),
    ({"nations": {"A": {"population": [{"kind": "army", "present": 1, "capacity": 4}]}}, "player_order": ["A"]},
     {"nations": {"A": {"value": {"population": {0: {"kind": ["Must be one of: food, stability."],
                                                     "capacity": ["Must be greater than or equal to 0 and less than or equal to 3."]}}}}}}),
    ({"nations": {"A": {"bm_slots": [{"card": None, "workers": 1}]}}, "player_order": ["A"]},
     {"nations": {"A": {"value": {"bm_slots": {0: {"workers": ["an empty slot cannot hold workers"]}}}}}}),
    ({"nations": {"A": {}}, "player_order": ["A"], "war": {"card": {"id": "W", "loss": {"wood": 2}}, "marker": -1}},
     {"war": {"card": {"loss": {"wood": {"key": ["Must be one of: gold, stone, food, knowledge."]}}},
              "marker": ["Must be greater than or equal to 0."]}}),
    ({"nations": {"A": {}}, "player_order": ["A"], "war": {"card": {"id": "W", "loss": {}}, "marker": 1, "buyer": "Z"}},
     {"war": {"buyer": ["unknown nation"]}}),
    ({"nations": {"A": {}}, "player_order": ["A"], "options": {"five_player_first_tie": "all"}},
     {"options": {"five_player_first_tie": ["Must be one of: both, none."]}}),
], ids=["negative-resource", "vp-not-an-integer", "order-missing-nation", "pass-order-repeats", "no-nations",
        "section-overfull", "section-kind-and-capacity", "workers-on-an-empty-slot", "war-card-resource-and-marker",
        "war-buyer-unknown", "unknown-option"])
def test_bad_states_give_precise_field_errors(state, expected):
    assert errors(WAR, state) == expected


@pytest.mark.parametrize("event, expected", [
    ({"parts": [part({"best": "luck"}, "good", {"vp": 1})]},
     {"selector": ['expected "all", {"best"|"worst": metric} or {"except_best": [metric, ...]} with a metric among '
                   "['strength', 'stability', 'pass', 'vp', 'gold', 'stone', 'food', 'knowledge']"]}),
    ({"parts": [part("all", "neutral", {"gain": {"gold": 1}, "vp": 1})]},
     {"polarity": ["Must be one of: good, bad."],
      "effects": {0: {"_schema": ["an effect needs exactly one of ['gain', 'lose', 'pay', 'vp', 'workers', 'order', "
                                  "'strength', 'architects_free'], got ['gain', 'vp']"]}}}),
    ({"parts": [part("all", "bad", {"order": 0}, {"lose": {"food": -1}, "to": "everyone"})]},
     {"effects": {0: {"order": ['expected "first", "last" or a position from 1']},
                  1: {"lose": {"food": {"value": ["Must be greater than or equal to 0."]}},
                      "to": ["Must be one of: self, others."]}}}),
    ({"parts": [part("all", "bad", choice={"options": [{"name": "x"}, {"name": "x"}], "default": "y"})]},
     {"choice": {"options": ["option names must be distinct"]}}),
    ({"parts": [part("all", "bad", {"pay": {"food": 2}})]},
     {"effects": ["a payment can only be an option of a choice; use lose for a forced loss"]}),
    ({"parts": [part("all", "bad", choice={"options": [{"name": "x", "effects": [{"pay": {"food": 1}, "to": "others"}]},
                                                       {"name": "y"}]})]},
     {"choice": {"options": {0: {"effects": ["a payment is made by the chooser itself"]}}}}),
])
def test_bad_event_data_gives_precise_field_errors(event, expected):
    state = game({"A": nation()}, current_event=event_card(event))
    assert errors(EVENT, state) == {"current_event": {"event1": {"parts": {0: expected}}}}


def test_forced_loss_names_the_bad_entry():
    state = game({"A": nation()}, losses=[{"nation": "A", "resource": "food", "amount": 1},
                                          {"nation": "Z", "resource": "food", "amount": 1}])
    assert errors(FORCED_LOSS, state) == {"losses": {1: {"nation": ["unknown nation"]}}}
