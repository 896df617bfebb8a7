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
