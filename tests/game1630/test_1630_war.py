"""The 1630 conflict resolver (spec §6) against the §8 test vectors."""
import pytest

from adjudicator.game1630 import WAR
from adjudicator.game1630.war import DEFENDER, modifiers
from adjudicator.game1630.state import Config, initial_country
from adjudicator.procedure import IllegalDecision, answer, next_step

from tests.game1630.helpers import outcome

CONFIG = Config().load({})


def war(attacker, defender, attacker_dice, defender_dice, **countries):
    state = {"attacker": attacker, "defender": defender, "countries": countries}
    final = outcome(WAR, state, [("dice:attacker", attacker_dice), ("dice:defender", defender_dice)])
    return final.result, final.state


def test_the_war_asks_for_two_dice_per_side_and_rolls_none_itself():
    state = {"attacker": "FRANCE", "defender": "SPAIN"}
    first, second = next_step(WAR, state, []), next_step(WAR, state, [[1, 1]])
    assert (first.purpose, first.count, first.sides, first.roller) == ("attacker", 2, 6, None)
    assert (second.purpose, second.count, second.sides) == ("defender", 2, 6)
    # each roll names its country, the other side and the modifiers it will add (§6.2)
    assert first.details == {"country": "FRANCE", "role": "ATTACKER", "against": "SPAIN",
                             "modifiers": {"military_ability": 1},
                             "rule": "§6.3: the difference of the two dice, plus the modifiers"}
    assert (second.details["country"], second.details["against"]) == ("SPAIN", "FRANCE")
    assert second.details["modifiers"] == {"military_ability": 1}


def test_TV_10_dice_difference_not_sum():
    result = war("FRANCE", "SPAIN", [3, 5], [5, 3])[0]
    assert result["difference"] == {"attacker": 2, "defender": 2}


def test_TV_11_england_attacks_france():
    result, state = war("ENGLAND", "FRANCE", [3, 2], [2, 6],
                        ENGLAND={"military_ability": 1, "army_size": 1, "leader": True, "prestige": 1},
                        FRANCE={"military_ability": 1, "army_size": 2, "prestige": 3})
    assert result["modifiers"] == {"attacker": {"military_ability": 1, "leader": 2},
                                   "defender": {"military_ability": 1}}
    assert result["totals"] == {"attacker": 4, "defender": 5}
    assert result["winner"] == "DEFENDER"
    england, france = state["countries"]["ENGLAND"], state["countries"]["FRANCE"]
    assert (england["prestige"], england["army_size"], england["military_ability"]) == (0, 0, 1)
    assert (france["prestige"], france["army_size"], france["military_ability"]) == (4, 2, 1)
    assert result["changes"] == {"ENGLAND": {"prestige": [1, 0], "army_size": [1, 0]},
                                 "FRANCE": {"prestige": [3, 4]}}


@pytest.mark.parametrize("country, record, role, expected", [
    ("SWEDEN", {"military_ability": 1, "army_size": 1, "prestige": 1}, "DEFENDER", 2),
    ("SWEDEN", {"military_ability": 1, "army_size": 1, "prestige": 2}, "DEFENDER", 1),
    ("SWEDEN", {"military_ability": 1, "army_size": 1, "prestige": 1}, "ATTACKER", 1),
    ("ENGLAND", {"military_ability": 0, "army_size": 1, "prestige": 0}, "DEFENDER", 1),
    ("FRANCE", {"prestige": 1}, "DEFENDER", 1),
], ids=["TV-30-sweden-p1", "TV-30-sweden-p2", "TV-30-sweden-attacking", "TV-30-england-p0", "TV-30-france-p1"])
def test_TV_30_sea_defence(country, record, role, expected):
    state = {**initial_country(country), **record}
    assert sum(modifiers(country, state, role, CONFIG).values()) == expected


def test_TV_30_sea_defence_in_a_war():
    result, _ = war("POLAND", "SWEDEN", [1, 1], [1, 1], SWEDEN={"prestige": 1})
    assert result["modifiers"]["defender"] == {"military_ability": 1, "sea_defence": 1}


def test_TV_31_defender_penalties_stack():
    result, _ = war("GERMAN_PRINCES", "HABSBURG", [1, 1], [5, 5],
                    HABSBURG={"military_ability": 1, "army_size": 0, "unrest": True, "leader": True})
    assert result["modifiers"]["defender"] == {"military_ability": 1, "leader": 2, "army_size_zero": -1, "unrest": -1}
    assert result["totals"]["defender"] == 1


@pytest.mark.parametrize("france_prestige, spain_after, france_after", [(3, 7, 2), (0, 7, 0)],
                         ids=["TV-32a", "TV-32b"])
def test_TV_32_prestige_bounds(france_prestige, spain_after, france_after):
    result, state = war("SPAIN", "FRANCE", [6, 1], [4, 4],
                        SPAIN={"prestige": 7, "military_ability": 1},
                        FRANCE={"prestige": france_prestige, "military_ability": 1, "army_size": 2})
    assert result["totals"] == {"attacker": 6, "defender": 1}
    assert result["winner"] == "ATTACKER"
    assert state["countries"]["SPAIN"]["prestige"] == spain_after
    assert state["countries"]["FRANCE"]["prestige"] == france_after
    assert state["countries"]["FRANCE"]["army_size"] == 1


def test_TV_32b_winner_below_seven_gains_nothing_from_a_loser_at_zero():
    _, state = war("SPAIN", "FRANCE", [6, 1], [4, 4], SPAIN={"prestige": 5}, FRANCE={"prestige": 0})
    assert state["countries"]["SPAIN"]["prestige"] == 5
    assert state["countries"]["FRANCE"]["prestige"] == 0


@pytest.mark.parametrize("poland_ability, ability_after", [(1, 0), (0, 0)], ids=["TV-33", "TV-33-repeat"])
def test_TV_33_loser_already_at_army_zero(poland_ability, ability_after):
    result, state = war("SWEDEN", "POLAND", [1, 5], [3, 3],
                        SWEDEN={"military_ability": 1, "army_size": 1, "prestige": 2},
                        POLAND={"military_ability": poland_ability, "army_size": 0, "prestige": 2})
    assert result["totals"]["attacker"] == 5
    assert result["winner"] == "ATTACKER"
    sweden, poland = state["countries"]["SWEDEN"], state["countries"]["POLAND"]
    assert sweden["prestige"] == 3
    assert (poland["prestige"], poland["army_size"], poland["military_ability"]) == (1, 0, ability_after)


def test_TV_33_totals():
    result, _ = war("SWEDEN", "POLAND", [1, 5], [3, 3],
                    SWEDEN={"military_ability": 1}, POLAND={"military_ability": 1, "army_size": 0})
    assert result["totals"] == {"attacker": 5, "defender": 0}


def test_TV_34_tie():
    result, state = war("FRANCE", "SPAIN", [2, 5], [6, 3],
                        FRANCE={"military_ability": 1, "army_size": 2}, SPAIN={"military_ability": 1, "army_size": 2})
    assert result["totals"] == {"attacker": 4, "defender": 4}
    assert result["winner"] == "TIE"
    for name, prestige in (("FRANCE", 3), ("SPAIN", 5)):
        assert state["countries"][name]["army_size"] == 1
        assert state["countries"][name]["prestige"] == prestige


def test_TV_34_variant_tie_with_defender_at_army_zero():
    # FRANCE: 3 + 0 = 3; SPAIN: 3 + 1 (ability) - 1 (army 0) = 3
    result, state = war("FRANCE", "SPAIN", [2, 5], [6, 3],
                        FRANCE={"military_ability": 0}, SPAIN={"military_ability": 1, "army_size": 0})
    assert result["winner"] == "TIE"
    spain = state["countries"]["SPAIN"]
    assert (spain["army_size"], spain["military_ability"]) == (0, 1)  # A-12 default
    assert state["countries"]["FRANCE"]["army_size"] == 1


def test_A_12_option_tie_at_army_zero_loses_ability():
    state = {"attacker": "FRANCE", "defender": "SPAIN", "config": {"tie_army_zero_loses_ability": True},
             "countries": {"FRANCE": {"military_ability": 0}, "SPAIN": {"military_ability": 1, "army_size": 0}}}
    final = outcome(WAR, state, [("dice:attacker", [2, 5]), ("dice:defender", [6, 3])])
    assert final.state["countries"]["SPAIN"]["military_ability"] == 0


def test_TV_24_attacked_country_in_unrest_takes_minus_one():
    result, _ = war("SWEDEN", "POLAND", [1, 1], [1, 1], POLAND={"unrest": True})
    assert result["modifiers"]["defender"] == {"military_ability": 0, "unrest": -1}


@pytest.mark.parametrize("bad", [[0, 3], [1, 7], [1], [1, 2, 3], "two", [1.0, 2], [True, 1]])
def test_bad_dice_are_refused_and_leave_the_log_unchanged(bad):
    state = {"attacker": "FRANCE", "defender": "SPAIN"}
    log = [[1, 2]]
    with pytest.raises(IllegalDecision, match="dice|die"):
        answer(WAR, state, log, bad)
    assert log == [[1, 2]]


def test_the_input_is_not_changed():
    state = {"attacker": "FRANCE", "defender": "SPAIN", "countries": {"SPAIN": {"army_size": 2}}}
    war_state = {**state}
    outcome(WAR, state, [("dice:attacker", [6, 1]), ("dice:defender", [1, 1])])
    assert state == war_state and state["countries"] == {"SPAIN": {"army_size": 2}}


def test_defender_role_constant_is_used_for_sea_defence():
    assert modifiers("ENGLAND", initial_country("ENGLAND"), DEFENDER, CONFIG) == {"military_ability": 0, "sea_defence": 1}
