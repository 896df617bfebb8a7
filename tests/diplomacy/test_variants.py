"""Spec §13: the 2-6 player arrangements and the two-player 1914 game."""
import pytest

from adjudicator.diplomacy import (VARIANTS, RequestError, adjudicate, initial_position,
                                   powers_to_order, variant_info)


def test_variant_names():
    assert VARIANTS == ("standard", "six_player", "five_player", "four_player",
                        "three_player_a", "three_player_b", "two_player_1914")


def test_variant_info_shape():
    info = variant_info("four_player")
    assert info == {"name": "four_player",
                    "powers": ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA",
                               "TURKEY"],
                    "players": [["ENGLAND"], ["AUSTRIA", "FRANCE"], ["GERMANY", "TURKEY"],
                                ["ITALY", "RUSSIA"]],
                    "neutral": [], "start_phase": "S1901M", "victory_centers": 18}
    assert variant_info("five_player")["neutral"] == ["GERMANY", "ITALY"]
    assert variant_info("two_player_1914")["start_phase"] == "S1914M"
    assert variant_info("two_player_1914")["victory_centers"] == 24
    for name in VARIANTS:
        info = variant_info(name)
        played = sorted(p for side in info["players"] for p in side) + info["neutral"]
        assert sorted(played) == info["powers"]
    with pytest.raises(RequestError):
        variant_info("nine_player")


def test_rule_13_1_neutral_units_hold_and_cannot_be_ordered():
    r = initial_position("six_player")
    r["orders"] = {"ITALY": ["A VEN - TRI", "A ROM S A VEN"]}
    resp = adjudicate(r)
    assert [x["outcome"] for x in resp["results"] if x["power"] == "ITALY"][:2] == ["invalid",
                                                                                    "invalid"]
    assert "ITALY" not in powers_to_order(r)


def test_rule_13_1_dislodged_neutral_unit_is_disbanded_and_may_be_supported():
    r = initial_position("six_player")
    r["units"] = {"ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI", "A TYR"],
                  "FRANCE": ["A PIE"]}
    r["orders"] = {"AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"]}
    resp = adjudicate(r)
    assert resp["next"]["units"]["ITALY"] == ["A ROM"]
    assert resp["next"]["dislodged"] == {}
    assert resp["next"]["phase"] == "F1901M"
    # another power's hold support is allowed (spec 13.1)
    r["orders"]["FRANCE"] = ["A PIE S A VEN"]
    resp = adjudicate(r)
    assert resp["next"]["units"]["ITALY"] == ["A VEN", "A ROM"]


def test_a_neutral_powers_invalid_order_is_not_reused_for_another_power():
    # the same text for the same unit in one variant: the answer depends on who orders
    italian = dict(initial_position("six_player"), units={"ITALY": ["A VEN"]},
                   orders={"ITALY": ["A VEN - TYR"]})
    assert adjudicate(italian)["results"][0]["outcome"] == "invalid"
    austrian = dict(initial_position("six_player"), units={"AUSTRIA": ["A VEN"]},
                    orders={"AUSTRIA": ["A VEN - TYR"]})
    assert adjudicate(austrian)["results"][0]["outcome"] == "succeeds"


def test_rule_13_1_neutral_power_never_builds():
    r = {"variant": "six_player", "phase": "W1901A", "units": {"ITALY": []},
         "centers": {"ITALY": ["ROM", "NAP", "VEN"]}, "orders": {"ITALY": ["A ROM B"]}}
    resp = adjudicate(r)
    assert resp["results"][0]["outcome"] == "invalid"
    assert resp["next"]["units"]["ITALY"] == []


def test_rule_13_6_italy_impassable_until_1915():
    r = initial_position("two_player_1914")
    assert r["phase"] == "S1914M"
    r["orders"] = {"AUSTRIA": ["A VIE - TYR", "F TRI - VEN", "A BUD S F TRI - VEN"],
                   "FRANCE": ["A MAR - PIE"], "ITALY": ["A VEN H"]}
    resp = adjudicate(r)
    by_order = {x["order"]: x for x in resp["results"]}
    assert by_order["F TRI - VEN"]["outcome"] == "invalid"
    assert by_order["A MAR - PIE"]["outcome"] == "invalid"
    assert by_order["A VIE - TYR"]["outcome"] == "succeeds"
    assert by_order["A VEN H"]["outcome"] == "invalid"  # neutral Italy takes no orders
    # from Spring 1915 Italy is open and plays
    r2 = dict(r, phase="S1915M", rules={"italy_joins": "FRANCE"},
              orders={"FRANCE": ["A MAR - PIE"], "ITALY": ["A VEN - TYR"]})
    resp = adjudicate(r2)
    assert {x["order"]: x["outcome"] for x in resp["results"]}["A MAR - PIE"] == "succeeds"
    assert {x["order"]: x["outcome"] for x in resp["results"]}["A VEN - TYR"] == "succeeds"
    assert "ITALY" in powers_to_order(r2)


def test_rule_13_6_two_player_victory_is_24_centres_per_side():
    units = {"ENGLAND": ["A HOL"], "FRANCE": [], "RUSSIA": [], "ITALY": [],
             "AUSTRIA": ["A VIE"], "GERMANY": [], "TURKEY": []}
    eng = "LON EDI LVP BEL NWY SWE DEN".split()
    fra = "PAR BRE MAR SPA POR TUN".split()
    rus = "MOS WAR STP SEV RUM BUL GRE SER".split()
    r = {"variant": "two_player_1914", "phase": "F1916M", "units": units,
         "centers": {"ENGLAND": eng, "FRANCE": fra, "RUSSIA": rus, "ITALY": ["ROM"]},
         "orders": {"ENGLAND": ["A HOL H"]}, "rules": {"italy_joins": 1}}
    resp = adjudicate(r)  # 7 + 6 + 8 + HOL = 22, + ROM (Italy joined side 1) = 23
    assert "winner" not in resp
    r["centers"]["ITALY"] = ["ROM", "NAP"]
    resp = adjudicate(r)
    assert resp["winner"] == "ENGLAND/FRANCE/RUSSIA/ITALY"
    assert resp["winning_powers"] == ["ENGLAND", "FRANCE", "RUSSIA", "ITALY"]
    assert resp["next"]["rules"]["italy_joins"] == 1


def test_italy_joins_may_name_a_power_of_the_side():
    r = dict(initial_position("two_player_1914"), phase="S1915M", rules={"italy_joins": "turkey"})
    assert adjudicate(r)["next"]["rules"]["italy_joins"] == 2


def test_italy_joins_must_name_a_side():
    r = dict(initial_position("two_player_1914"), rules={"italy_joins": "SWITZERLAND"})
    with pytest.raises(RequestError) as err:
        adjudicate(r)
    assert err.value.field == "rules.italy_joins"
