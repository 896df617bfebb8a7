"""Bad input states are refused with precise field errors; absent game data takes the spec's defaults."""
import pytest

from adjudicator.game1630 import SCORING, VOTE, WAR
from adjudicator.game1630.state import PLACEHOLDER_ADJACENCY
from adjudicator.procedure import InvalidState, next_step

from tests.game1630.helpers import card, named_pile, pile, special


def errors(procedure, state):
    with pytest.raises(InvalidState) as error:
        next_step(procedure, state, [])
    return error.value.errors


def test_defaults_for_data_not_in_the_source_and_the_initial_country_table():
    loaded = WAR.load({"attacker": "SPAIN", "defender": "FRANCE"})
    config = loaded["config"]
    assert config["adjacency"] == [list(pair) for pair in PLACEHOLDER_ADJACENCY]
    assert (config["prestige_min"], config["prestige_max"], config["leader_bonus"]) == (0, 7, 2)
    assert config["sea_defence"] == {"countries": ["ENGLAND", "SWEDEN"], "prestige_max": 1, "bonus": 1}
    assert config["adjacency_only_prestige_max"] == 2 and config["tie_army_zero_loses_ability"] is False
    assert loaded["countries"]["ENGLAND"] == {"side": "NEUTRAL", "prestige": 1, "army_size": 1,
                                              "military_ability": 0, "unrest": False, "leader": False}
    assert loaded["countries"]["HABSBURG"]["army_size"] == 3


@pytest.mark.parametrize("country, prestige, army, ability", [
    ("SPAIN", 5, 2, 1), ("ENGLAND", 1, 1, 0), ("FRANCE", 3, 2, 1), ("DENMARK", 1, 1, 0), ("NETHERLANDS", 2, 1, 1),
    ("SWEDEN", 2, 1, 1), ("GERMAN_PRINCES", 5, 1, 0), ("HABSBURG", 5, 3, 1), ("POLAND", 2, 1, 0),
], ids=lambda value: f"TV-01-{value}" if isinstance(value, str) else None)
def test_TV_01_absent_countries_take_the_setup_table(country, prestige, army, ability):
    loaded = WAR.load({"attacker": "SPAIN", "defender": "FRANCE"})["countries"][country]
    assert loaded == {"side": "NEUTRAL", "prestige": prestige, "army_size": army, "military_ability": ability,
                      "unrest": False, "leader": False}


def test_a_given_field_overrides_only_itself():
    loaded = WAR.load({"attacker": "SPAIN", "defender": "FRANCE", "countries": {"SPAIN": {"prestige": 7}}})
    assert loaded["countries"]["SPAIN"] == {"side": "NEUTRAL", "prestige": 7, "army_size": 2,
                                            "military_ability": 1, "unrest": False, "leader": False}


@pytest.mark.parametrize("state, expected", [
    ({"defender": "FRANCE"}, {"attacker": ["Missing data for required field."]}),
    ({"attacker": "SPAIN", "defender": "SPAIN"}, {"defender": ["a country cannot attack itself"]}),
    ({"attacker": "ATLANTIS", "defender": "SPAIN"}, {"attacker": ["Must be one of: SPAIN, ENGLAND, FRANCE, DENMARK, "
                                                                   "NETHERLANDS, SWEDEN, GERMAN_PRINCES, HABSBURG, POLAND."]}),
    ({"attacker": "SPAIN", "defender": "FRANCE", "countries": {"SPAIN": {"prestige": 8}}},
     {"countries": {"SPAIN": {"value": {"prestige": ["must be between 0 and 7"]}}}}),
    ({"attacker": "SPAIN", "defender": "FRANCE", "countries": {"SPAIN": {"army_size": -1, "side": "GREEN"}}},
     {"countries": {"SPAIN": {"value": {"army_size": ["Must be greater than or equal to 0."],
                                        "side": ["Must be one of: NEUTRAL, RED, BLUE."]}}}}),
    ({"attacker": "SPAIN", "defender": "FRANCE", "config": {"adjacency": [["SPAIN"]]}},
     {"config": {"adjacency": {0: ["Length must be 2."]}}}),
    ({"attacker": "SPAIN", "defender": "FRANCE", "config": {"adjacency": [["SPAIN", "SPAIN"]]}},
     {"config": {"adjacency": {0: ["a country is not adjacent to itself"]}}}),
    ({"attacker": "SPAIN", "defender": "FRANCE", "config": {"post_call_placement": "sequential"}},
     {"config": {"post_call_placement": ["Must be one of: simultaneous."]}}),
], ids=["missing-attacker", "self-attack", "unknown-country", "prestige-above-max", "bad-country-fields",
        "adjacency-pair", "adjacency-self", "unsupported-option"])
def test_bad_war_states_name_the_field(state, expected):
    assert errors(WAR, state) == expected


def test_unknown_country_key_is_named():
    found = errors(WAR, {"attacker": "SPAIN", "defender": "FRANCE", "countries": {"ATLANTIS": {}}})
    assert list(found["countries"]["ATLANTIS"]) == ["key"]


GOOD_VOTE = {"players": ["A", "B"], "caller": "A", "displays": {"A": {"SPAIN": named_pile("A", "SPAIN", [2])}}}


@pytest.mark.parametrize("change, expected", [
    ({"caller": "Z"}, {"caller": ["the caller must be one of the players"]}),
    ({"players": ["A", "A"]}, {"players": ["seats must be distinct"]}),
    ({"displays": {"Z": {}}}, {"displays": {"Z": {"key": ["not a player"]}}}),
    ({"displays": {"A": {"SPAIN": pile("DOMINANT", card("x", "FRANCE", 1))}}},
     {"displays": {"A": {"value": {"SPAIN": {"value": {
         "cards": {0: {"country": ["P-2: a FRANCE card cannot be in a SPAIN pile"]}},
         "_schema": ["P-3: a pile needs at least one named SPAIN card"]}}}}}}),
    ({"displays": {"A": {"SPAIN": pile("DOMINANT", card("x", "OPEN", 1))}}},
     {"displays": {"A": {"value": {"SPAIN": {"value": {"_schema": ["P-3: a pile needs at least one named SPAIN card"]}}}}}}),
    ({"displays": {"A": {"SPAIN": pile("DOMINANT")}}},
     {"displays": {"A": {"value": {"SPAIN": {"value": {"cards": ["a pile has at least one card (P-12)"]}}}}}}),
    ({"displays": {"A": {"SPAIN": pile("UPSIDE_DOWN", card("x", "SPAIN", 1))}}},
     {"displays": {"A": {"value": {"SPAIN": {"value": {"state": ["Must be one of: DOMINANT, DECLINING."]}}}}}}),
    ({"hands": {"B": [card("A-SPAIN-0", "SPAIN", 1)]}},
     {"hands": {"B": {"value": {0: {"id": ["card id 'A-SPAIN-0' also appears in displays.A.SPAIN"]}}}}}),
    ({"hands": {"B": [{"id": "c", "country": "SPAIN", "value": 0}]}},
     {"hands": {"B": {"value": {0: {"value": ["Must be greater than or equal to 1."]}}}}}),
    ({"hands": {"B": [{"id": "c", "kind": "SPECIAL"}]}},
     {"hands": {"B": {"value": {0: {"special": ["required for a special card"]}}}}}),
    ({"hands": {"B": [{"id": "c", "country": "SPAIN"}]}},
     {"hands": {"B": {"value": {0: {"value": ["required for an influence card"]}}}}}),
    ({"discard": [card("A-SPAIN-0", "SPAIN", 2)]}, {"discard": {0: {"id": ["card id 'A-SPAIN-0' also appears in displays.A.SPAIN"]}}}),
], ids=["caller-not-seated", "duplicate-seat", "display-of-a-stranger", "P-2-and-P-3", "P-3-open-only",
        "empty-pile", "pile-state", "duplicate-card-id", "card-value", "special-kind-missing",
        "influence-value-missing", "duplicate-in-discard"])
def test_bad_vote_states_name_the_field(change, expected):
    assert errors(VOTE, {**GOOD_VOTE, **change}) == expected


def test_special_cards_in_hand_are_accepted_but_never_placeable():
    state = {**GOOD_VOTE, "hands": {"A": [special("s1", "UNREST")]}}
    step = next_step(VOTE, state, ["SPAIN"])
    assert step.details["placeable"] == []


def test_bad_scoring_state_names_the_field():
    found = errors(SCORING, {"players": ["A"], "vp_counters": {"A": ["ATLANTIS"]}, "vp": {"A": -1}})
    assert found == {"vp_counters": {"A": {"value": {0: ["Must be one of: SPAIN, ENGLAND, FRANCE, DENMARK, NETHERLANDS, "
                                                        "SWEDEN, GERMAN_PRINCES, HABSBURG, POLAND."]}}},
                     "vp": {"A": {"value": ["Must be greater than or equal to 0."]}}}
    found = errors(SCORING, {"players": ["A"], "vp_counters": {"Z": []}})
    assert found == {"vp_counters": {"Z": {"key": ["not a player"]}}}


def test_a_hand_of_a_stranger_is_named():
    assert errors(VOTE, {**GOOD_VOTE, "hands": {"Z": []}}) == {"hands": {"Z": {"key": ["not a player"]}}}


def test_a_displayed_special_card_is_refused():
    state = {**GOOD_VOTE, "displays": {"A": {"SPAIN": pile("DOMINANT", card("a", "SPAIN", 1), special("s"))}}}
    assert errors(VOTE, state) == {"displays": {"A": {"value": {"SPAIN": {"value": {
        "cards": {1: {"kind": ["only influence cards are displayed"]}}}}}}}}
