"""The reason given with a failed move says why it failed (contract: a short reason for every outcome but succeeds)."""
from adjudicator.diplomacy import adjudicate


def reasons(units, orders):
    response = adjudicate({"variant": "standard", "phase": "S1901M", "units": units, "centers": {}, "orders": orders})
    return {r["order"]: (r["outcome"], r.get("reason", "")) for r in response["results"]}


def test_head_to_head_with_equal_strength_is_a_standoff_not_a_beating():
    got = reasons({"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
                  {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR - PAR"]})
    assert got["A PAR - BUR"] == ("fails", "stood off in head-to-head battle (1 against 1)")
    assert got["A BUR - PAR"] == ("fails", "stood off in head-to-head battle (1 against 1)")


def test_supported_side_wins_a_head_to_head():
    """Seed §9-7: the supported side wins the head-to-head and dislodges the other."""
    got = reasons({"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR"]},
                  {"FRANCE": ["A PAR - BUR", "A GAS S A PAR - BUR"], "GERMANY": ["A BUR - PAR"]})
    assert got["A PAR - BUR"] == ("succeeds", "")
    assert got["A BUR - PAR"][0] == "dislodged"


def test_self_support_against_own_unit_does_not_beat_it():
    """Found by the MILA comparison (benchmarks): France supports Germany's attack on France's own A PIC.
    PIC-BUR attacks 2 against defence 3; BUR-PIC attacks 1 (French supports do not count) against 2."""
    got = reasons({"FRANCE": ["A PIC", "A GAS", "A BRE", "A PAR"], "GERMANY": ["A BUR"]},
                  {"FRANCE": ["A PIC - BUR", "A GAS S A PIC - BUR", "A BRE S A BUR - PIC", "A PAR S A BUR - PIC"],
                   "GERMANY": ["A BUR - PIC"]})
    assert got["A PIC - BUR"] == ("fails", "beaten in head-to-head battle (2 against 3)")
    assert got["A BUR - PIC"] == ("fails", "beaten in head-to-head battle (1 against 2)")



def codes(units, orders, phase="S1901M", centers=None, **more):
    """(order, code) of each result, in order."""
    response = adjudicate({"variant": "standard", "phase": phase, "units": units, "centers": centers or {},
                           "orders": orders, **more})
    return [(r["order"], r.get("code")) for r in response["results"]]


def test_every_reason_of_a_movement_phase_has_its_code():
    """One code per reason the engine gives, beside the English (docs/diplomacy.md's table)."""
    got = codes({"FRANCE": ["A PAR", "A PIC", "A BRE", "A GAS"], "GERMANY": ["A BUR"],
                 "ENGLAND": ["A YOR", "F NTH", "A WAL", "F ENG", "A LON"]},
                {"FRANCE": ["A PAR - BUR", "A PIC - BUR", "A BRE - GAS", "A GAS S A PIC - PAR"],
                 "GERMANY": ["A BUR H"], "ENGLAND": ["A YOR - BEL", "F ENG C A WAL - BRE", "A LON - PAR"]})
    assert got == [("A PAR - BUR", "bounced"), ("A PIC - BUR", "bounced"), ("A BRE - GAS", "own_unit"),
                   ("A GAS S A PIC - PAR", "void"), ("A BUR H", None), ("A YOR - BEL VIA", "no_convoy"),
                   ("F ENG C A WAL - BRE", "void"), ("A LON - PAR", "invalid"), ("F NTH H", None),
                   ("A WAL H", None)]
    got = codes({"FRANCE": ["A PIC", "A GAS", "A BRE", "A PAR"], "GERMANY": ["A BUR"]},
                {"FRANCE": ["A PIC - BUR", "A GAS S A PIC - BUR", "A BRE S A BUR - PIC", "A PAR S A BUR - PIC"],
                 "GERMANY": ["A BUR - PIC"]})
    assert got[0] == ("A PIC - BUR", "beaten_head_to_head") and got[4] == ("A BUR - PIC", "beaten_head_to_head")
    got = codes({"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR", "A MUN"], "ITALY": ["A PIE"]},
                {"FRANCE": ["A PAR - BUR", "A GAS S A PAR - BUR"], "GERMANY": ["A BUR - PAR"],
                 "ITALY": ["A PIE - MAR", "A PIE H"]})
    assert got == [("A PAR - BUR", None), ("A GAS S A PAR - BUR", None), ("A BUR - PAR", "dislodged"),
                   ("A PIE - MAR", "several_orders"), ("A PIE H", "several_orders"), ("A MUN H", None)]
    got = codes({"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]}, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR - PAR"]})
    assert got == [("A PAR - BUR", "standoff_head_to_head"), ("A BUR - PAR", "standoff_head_to_head")]
    got = codes({"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR"]},
                {"FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR"], "GERMANY": ["A BUR - PAR"]})
    assert got[2] == ("A BUR - PAR", "dislodged")
    got = codes({"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN", "A RUH", "A KIE"]},
                {"FRANCE": ["A BUR S A PAR"], "GERMANY": ["A MUN - BUR", "A KIE - RUH", "A KIE - RUH"]})
    assert got == [("A BUR S A PAR", "cut"), ("A MUN - BUR", "bounced"), ("A KIE - RUH", "own_unit"),
                   ("A KIE - RUH", "repeat"), ("A PAR H", None), ("A RUH H", None)]


def test_every_reason_of_winter_and_retreats_has_its_code():
    got = codes({"RUSSIA": ["A WAR"]}, {"RUSSIA": ["A MOS B", "A MOS B", "F SEV B", "F STP/NC B", "A XYZ B"]},
                phase="W1901A", centers={"RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM"]})
    assert got == [("A MOS B", None), ("A MOS B", "already_building"), ("F SEV B", None),
                   ("F STP/NC B", None), ("A XYZ B", "invalid")]
    got = codes({"RUSSIA": ["A WAR"]}, {"RUSSIA": ["A MOS B", "F SEV B"]},
                phase="W1901A", centers={"RUSSIA": ["MOS", "SEV"]})
    assert got == [("A MOS B", None), ("F SEV B", "too_many")]
    got = codes({"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
                {"FRANCE": ["A PIC R BEL"], "GERMANY": ["A RUH R BEL"]}, phase="F1901R",
                dislodged={"FRANCE": [{"unit": "A PIC", "attacked_from": "PAR"}],
                           "GERMANY": [{"unit": "A RUH", "attacked_from": "BUR"}]})
    assert got == [("A PIC R BEL", "bounced"), ("A RUH R BEL", "bounced")]


def test_a_result_stored_before_codes_gets_its_code_from_its_reason():
    """code_of gives every result of the DATC cases the code the engine gives it now."""
    from adjudicator.diplomacy.codes import code_of
    from tests.maps.test_render import steps
    from tests.diplomacy.test_datc import CASES
    seen = set()
    for case in CASES:
        for _request, response in steps(case):
            for r in response["results"]:
                old = {k: v for k, v in r.items() if k != "code"}
                assert code_of(old) == r.get("code"), (case["id"], r)
                seen.add(r.get("code"))
    assert len(seen) >= 12


def test_a_convoyed_move_names_its_route_and_a_broken_one_none():
    units = {"ENGLAND": ["A LON", "F NTH", "F ENG", "F IRI", "F MAO"], "FRANCE": ["F BRE", "F BEL"]}
    convoys = ["A LON - SPA", "F ENG C A LON - SPA", "F MAO C A LON - SPA", "F NTH C A LON - SPA",
               "F IRI C A LON - SPA"]
    response = adjudicate({"variant": "standard", "phase": "S1901M", "units": units, "centers": {},
                           "orders": {"ENGLAND": convoys}})
    [move] = [r for r in response["results"] if r["unit"] == "A LON"]
    assert move["outcome"] == "succeeds" and move["route"] == ["ENG", "MAO"]
    response = adjudicate({"variant": "standard", "phase": "S1901M", "units": units, "centers": {},
                           "orders": {"ENGLAND": convoys[:3], "FRANCE": ["F BRE - ENG", "F BEL S F BRE - ENG"]}})
    [move] = [r for r in response["results"] if r["unit"] == "A LON"]
    assert move["code"] == "convoy_broken" and "route" not in move
