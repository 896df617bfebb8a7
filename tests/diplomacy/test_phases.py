"""Retreats (spec 9), centres (10), adjustments (11), civil disorder (12.4),
phase skipping (5.3), victory (4.1), request errors, and the API helpers."""
import pytest

from adjudicator.diplomacy import (RequestError, adjudicate, check_orders, initial_position,
                                   powers_to_order)


def req(phase, units, orders=None, centers=None, **kw):
    r = {"variant": "standard", "phase": phase, "units": units, "centers": centers or {},
         "orders": orders or {}}
    r.update(kw)
    return r


def outcome(resp, unit):
    return [r for r in resp["results"] if r.get("unit") == unit]


# -- retreats -------------------------------------------------------------------
def test_rule_9_2_retreat_options_exclude_attacker_origin_occupied_and_contested():
    resp = adjudicate(req("S1901M",
                          {"GERMANY": ["A MUN"], "FRANCE": ["A BUR", "A RUH"],
                           "AUSTRIA": ["A TYR"], "RUSSIA": ["A SIL", "A DEN"],
                           "ENGLAND": ["A HOL"]},
                          {"FRANCE": ["A BUR - MUN", "A RUH S A BUR - MUN"],
                           "RUSSIA": ["A DEN - KIE"], "ENGLAND": ["A HOL - KIE"]}))
    nxt = resp["next"]
    assert nxt["phase"] == "S1901R"
    assert nxt["dislodged"] == {"GERMANY": [{"unit": "A MUN", "attacked_from": "BUR"}]}
    assert nxt["contested"] == ["KIE"]
    # not BUR (attacker), RUH SIL TYR (occupied), KIE (contested)
    assert nxt["retreat_options"]["A MUN"] == ["BER", "BOH"]


def test_rule_9_2c_contested_province_closed_and_9_6_two_retreats_to_one_space():
    move = adjudicate(req("F1901M",
                          {"FRANCE": ["A PAR", "A PIC", "A BRE"], "GERMANY": ["A BUR", "A RUH"],
                           "ENGLAND": ["A BEL", "A HOL"]},
                          {"FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR", "A BRE - GAS"],
                           "GERMANY": ["A RUH - MUN"], "ENGLAND": ["A HOL - KIE"]},
                          centers={"FRANCE": ["PAR", "BRE", "MAR"]}))
    nxt = move["next"]
    assert nxt["phase"] == "F1901R"
    assert nxt["retreat_options"]["A BUR"] == ["MAR", "RUH"]  # GAS, MUN taken; RUH left
    nxt = dict(nxt, orders={"GERMANY": ["A BUR R RUH"]})
    resp = adjudicate(nxt)
    assert outcome(resp, "A BUR")[0]["outcome"] == "succeeds"
    assert "A RUH" in resp["next"]["units"]["GERMANY"]


def test_rule_9_6_both_units_retreating_to_one_space_are_disbanded():
    r = req("S1901R", {"FRANCE": ["A BUR"], "ITALY": ["A TYR"]},
            {"GERMANY": ["A MUN R BOH"], "AUSTRIA": ["A VIE - BOH"]},
            dislodged={"GERMANY": [{"unit": "A MUN", "attacked_from": "BUR"}],
                       "AUSTRIA": [{"unit": "A VIE", "attacked_from": "TYR"}]})
    resp = adjudicate(r)
    assert [x["outcome"] for x in resp["results"]] == ["fails", "fails"]
    assert resp["next"]["phase"] == "F1901M"
    assert resp["next"]["units"]["GERMANY"] == [] and resp["next"]["units"]["AUSTRIA"] == []


def test_rule_9_5_unordered_dislodged_unit_is_disbanded_and_reported():
    r = req("S1901R", {"FRANCE": ["A MUN"]}, {},
            dislodged={"GERMANY": [{"unit": "A MUN", "attacked_from": "BUR"}]})
    resp = adjudicate(r)
    assert resp["results"] == [{"power": "GERMANY", "unit": "A MUN", "order": "A MUN D",
                                "outcome": "succeeds"}]


def test_rule_9_8_invalid_retreat_disbands():
    r = req("S1901R", {"FRANCE": ["A MUN"]}, {"GERMANY": ["A MUN R BUR"]},
            dislodged={"GERMANY": [{"unit": "A MUN", "attacked_from": "BUR"}]})
    resp = adjudicate(r)
    assert resp["results"][0]["outcome"] == "invalid"
    assert resp["next"]["units"]["GERMANY"] == []


def test_e7_attacked_from_is_null_after_a_convoyed_attack():
    resp = adjudicate(req("S1901M", {"ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["A BEL"]},
                          {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"]}))
    assert resp["next"]["dislodged"] == {"FRANCE": [{"unit": "A BEL", "attacked_from": None}]}
    assert "LON" not in resp["next"]["retreat_options"]["A BEL"]  # occupied? no: LON is empty
    assert resp["next"]["retreat_options"]["A BEL"] == ["BUR", "HOL", "PIC", "RUH"]


def test_rule_5_3_no_retreat_phase_when_nobody_can_retreat():
    # issue 8: A PAR has nowhere to go; it is disbanded at once and spring goes on
    resp = adjudicate(req("S1901M", {"FRANCE": ["A PAR"],
                                     "GERMANY": ["A BUR", "A PIC", "A GAS", "A BRE"]},
                          {"GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR"]}))
    assert resp["next"]["phase"] == "F1901M"
    assert resp["next"]["dislodged"] == {} and resp["next"]["retreat_options"] == {}
    assert resp["disbanded"] == {"FRANCE": ["A PAR"]}
    [par] = outcome(resp, "A PAR")
    assert par == {"power": "FRANCE", "unit": "A PAR", "order": "A PAR H", "outcome": "dislodged",
                   "reason": "dislodged by A BUR from BUR; no retreat possible: disbanded",
                   "code": "dislodged", "disbanded": True}
    assert resp["next"]["units"]["FRANCE"] == []


def test_disbanded_is_always_in_the_response():
    assert adjudicate(initial_position())["disbanded"] == {}
    r = req("S1901R", {"FRANCE": ["A MUN"]}, dislodged={"GERMANY": [{"unit": "A MUN",
                                                                    "attacked_from": "BUR"}]})
    assert adjudicate(r)["disbanded"] == {}
    assert adjudicate(req("W1901A", {"FRANCE": ["A PAR"]}, centers={"FRANCE": ["PAR"]}))[
        "disbanded"] == {}


def test_a_retreat_phase_given_a_unit_without_options_still_disbands_it():
    # a hand-made request (the engine never opens such a phase): DATC 6.H.15's position
    r = req("S1901R", {"FRANCE": ["F POR", "F MAO"]}, {"ENGLAND": ["F POR R SPA/NC"]},
            dislodged={"ENGLAND": [{"unit": "F POR", "attacked_from": "SPA"}]})
    resp = adjudicate(r)
    assert resp["results"][0]["outcome"] == "invalid"
    assert resp["next"]["units"]["ENGLAND"] == []


@pytest.mark.parametrize("phase,variant", [("S0000M", "standard"), ("S1900M", "standard"),
                                           ("F1913M", "two_player_1914"), ("W9999A", "standard"),
                                           ("F9999M", "standard"), ("F9999R", "standard")])
def test_phases_outside_the_games_years_are_refused(phase, variant):
    r = dict(initial_position(variant), phase=phase)
    with pytest.raises(RequestError) as err:
        adjudicate(r)
    assert err.value.field == "phase" and phase in str(err.value)
    with pytest.raises(RequestError):
        powers_to_order(r)


def test_the_last_phases_of_the_calendar():
    assert adjudicate(dict(initial_position(), phase="W9998A"))["next"]["phase"] == "S9999M"
    assert adjudicate(dict(initial_position(), phase="S9999M"))["next"]["phase"] == "F9999M"
    assert adjudicate(dict(initial_position("two_player_1914"), phase="S1914M"))["next"][
        "phase"] == "F1914M"


# -- centres, adjustments, skipping --------------------------------------------
def test_rule_10_centres_change_only_after_fall():
    start = initial_position()
    spring = adjudicate(dict(start, orders={"FRANCE": ["A PAR - BUR", "F BRE - MAO"]}))
    assert spring["next"]["centers"]["FRANCE"] == ["BRE", "MAR", "PAR"]
    fall = adjudicate(dict(spring["next"], orders={"FRANCE": ["A BUR - BEL", "F MAO - SPA/NC"]}))
    assert sorted(fall["next"]["centers"]["FRANCE"]) == ["BEL", "BRE", "MAR", "PAR", "SPA"]
    assert fall["next"]["phase"] == "W1901A"
    assert fall["next"]["adjustments"] == {"FRANCE": 2}
    winter = adjudicate(dict(fall["next"], orders={"FRANCE": ["Build A Paris", "F BRE B",
                                                              "A MAR B"]}))
    assert [r["outcome"] for r in winter["results"]] == ["succeeds", "succeeds", "invalid"]
    assert winter["next"]["phase"] == "S1902M"
    assert sorted(winter["next"]["units"]["FRANCE"]) == ["A BEL", "A MAR", "A PAR", "F BRE",
                                                         "F SPA/NC"]


def test_rule_5_3_nothing_to_do_skips_to_spring():
    start = initial_position()
    fall = adjudicate(dict(start, phase="F1901M"))
    assert fall["next"]["phase"] == "S1902M"


def test_rule_11_3_builds_only_in_owned_empty_home_centres():
    r = req("W1901A", {"RUSSIA": ["A MOS", "F SEV"], "GERMANY": ["A WAR"]},
            {"RUSSIA": ["F STP B", "A WAR B", "F MOS B", "A SEV B", "F STP/NC B", "A STP B"]},
            centers={"RUSSIA": ["MOS", "SEV", "STP", "RUM"], "GERMANY": ["WAR"]})
    resp = adjudicate(r)
    got = [(x["order"], x["outcome"]) for x in resp["results"]]
    assert got == [("F STP B", "invalid"),  # 6.B.14: coast needed
                   ("A WAR B", "invalid"),  # not owned
                   ("F MOS B", "invalid"),  # 6.I.2: inland
                   ("A SEV B", "invalid"),  # occupied
                   ("F STP/NC B", "succeeds"),
                   ("A STP B", "fails")]  # the only free centre is used
    assert "F STP/NC" in resp["next"]["units"]["RUSSIA"]


def test_waive_and_missing_builds():
    r = req("W1901A", {"FRANCE": []}, {"FRANCE": ["WAIVE", "A PAR B"]},
            centers={"FRANCE": ["PAR", "BRE", "MAR"]})
    resp = adjudicate(r)
    assert [x["outcome"] for x in resp["results"]] == ["succeeds", "succeeds"]
    assert resp["next"]["units"]["FRANCE"] == ["A PAR"]


@pytest.mark.parametrize("mode,removed", [("home", "A WAR"), ("owned", "A TUS")])
def test_rule_12_4_civil_disorder_distance_option(mode, removed):
    # DATC 6.J.11 (v3.0 "owned") against the v2.4 / seed reading ("home"), spec E17
    r = req("W1901A", {"ITALY": ["A WAR", "A TUS"]}, {}, centers={"ITALY": ["WAR"]},
            rules={"civil_disorder_distance": mode})
    resp = adjudicate(r)
    assert resp["results"] == [{"power": "ITALY", "unit": removed, "order": f"{removed} D",
                                "outcome": "succeeds"}]


def test_rule_12_4_fleets_before_armies_then_alphabetical():
    r = req("W1901A", {"RUSSIA": ["A BOH", "F SKA", "F NTH"]}, {},
            centers={"RUSSIA": ["STP", "WAR"]})
    resp = adjudicate(r)  # DATC 6.J.7: all at distance 2; fleets first; North Sea < Skagerrak
    assert [x["order"] for x in resp["results"]] == ["F NTH D"]


def test_rule_11_7_power_without_centres_disbands_everything():
    r = req("W1901A", {"AUSTRIA": ["A BUD", "F TRI"]}, {}, centers={})
    resp = adjudicate(r)
    assert resp["next"]["units"]["AUSTRIA"] == []
    assert len(resp["results"]) == 2


def test_rule_4_1_winner_at_18_centres():
    centres = "BEL BRE MAR PAR SPA POR HOL DEN KIE BER MUN LON EDI LVP NWY SWE TUN".split()
    r = req("F1905M", {"FRANCE": ["A RUH"]}, {"FRANCE": ["A RUH - MUN"]},
            centers={"FRANCE": [c for c in centres if c != "MUN"] + ["ROM"],
                     "GERMANY": ["MUN"]})
    resp = adjudicate(r)
    assert resp["winner"] == "FRANCE" and resp["winning_powers"] == ["FRANCE"]
    assert len(resp["next"]["centers"]["FRANCE"]) == 18


# -- API helpers and errors ----------------------------------------------------
def test_powers_to_order():
    start = initial_position()
    assert powers_to_order(start) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                      "RUSSIA", "TURKEY"]
    r = req("S1901R", {"FRANCE": ["A MUN"]}, dislodged={"GERMANY": [{"unit": "A MUN",
                                                                    "attacked_from": "BUR"}]})
    assert powers_to_order(r) == ["GERMANY"]
    w = req("W1901A", {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"]},
            centers={"FRANCE": ["PAR", "MAR"], "ENGLAND": ["LON"]})
    assert powers_to_order(w) == ["FRANCE"]


def test_check_orders_in_retreat_and_adjustment_phases():
    r = req("S1901R", {"FRANCE": ["A MUN"]}, dislodged={"GERMANY": [{"unit": "A MUN",
                                                                    "attacked_from": "BUR"}]})
    rs = check_orders(r, "GERMANY", ["A MUN - KIE", "A MUN R BUR"])
    assert [x["valid"] for x in rs] == [False, False]  # two different orders
    rs = check_orders(r, "GERMANY", ["A Munich retreats to Kiel"])
    assert rs[0]["order"] == "A MUN R KIE" and rs[0]["valid"]
    w = req("W1901A", {"FRANCE": []}, centers={"FRANCE": ["PAR"]})
    rs = check_orders(w, "FRANCE", ["Build A Paris", "F PAR B"])
    assert [x["valid"] for x in rs] == [True, False]


@pytest.mark.parametrize("bad,field", [
    ({"variant": "chess"}, "variant"),
    ({"phase": "X1901M"}, "phase"),
    ({"phase": "W1901M"}, "phase"),
    ({"units": {"PRUSSIA": ["A BER"]}}, "units.PRUSSIA"),
    ({"units": {"ENGLAND": ["F LON", "A SWI"]}}, "units.ENGLAND[1]"),
    ({"units": {"ENGLAND": ["F LON"], "FRANCE": ["A LON"]}}, "units.FRANCE[0]"),
    ({"units": {"ENGLAND": "F LON"}}, "units.ENGLAND"),
    ({"units": {"ENGLAND": ["F STP"]}}, "units.ENGLAND[0]"),
    ({"orders": {"ENGLAND": [42]}}, "orders.ENGLAND[0]"),
    ({"rules": {"convoy_disruption": "1982"}}, "rules.convoy_disruption"),
    ({"rules": {"civil_disorder_distance": "far"}}, "rules.civil_disorder_distance"),
])
def test_request_errors_name_the_field(bad, field):
    r = initial_position()
    r.update(bad)
    with pytest.raises(RequestError) as err:
        adjudicate(r)
    assert err.value.field == field


def test_bad_orders_never_raise():
    r = dict(initial_position(), orders={"ENGLAND": ["", "!!!", "F LON S", "A LVP - LVP",
                                                     "F EDI C A LVP - NWY", "WAIVE", "A PAR H"]})
    resp = adjudicate(r)
    assert sum(1 for x in resp["results"] if x["outcome"] == "invalid") == 7
    assert len(resp["results"]) == 7 + 19  # plus a hold for every unit not ordered (LON LVP EDI were)


def test_convoy_legality_is_not_cached_across_positions():
    # F MAO convoying A LON - POR is on a route only when F ENG is there (DATC 6.G.7 style)
    orders = {"ENGLAND": ["A LON - POR", "F MAO C A LON - POR"]}
    without = adjudicate(req("S1901M", {"ENGLAND": ["A LON", "F MAO"]}, orders))
    assert {r["unit"]: r["outcome"] for r in without["results"]} == {"A LON": "invalid",
                                                                    "F MAO": "invalid"}
    orders["ENGLAND"].append("F ENG C A LON - POR")
    with_eng = adjudicate(req("S1901M", {"ENGLAND": ["A LON", "F MAO", "F ENG"]}, orders))
    assert {r["unit"]: r["outcome"] for r in with_eng["results"]} == {
        "A LON": "succeeds", "F MAO": "succeeds", "F ENG": "succeeds"}
    again = adjudicate(req("S1901M", {"ENGLAND": ["A LON", "F MAO"]}, orders))
    assert [r["outcome"] for r in again["results"]][:2] == ["invalid", "invalid"]
