"""Spec §6 and Appendix A: the standard map as data, checked once per process."""
from collections import Counter

import pytest

from adjudicator.diplomacy.board import BOARD

CONTRACT_IDS = """ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BOT BRE BUD BUL BUR CLY CON
  DEN EAS EDI ENG FIN GAL GAS GRE HEL HOL ION IRI KIE LON LVN LVP LYO MAO MAR
  MOS MUN NAF NAO NAP NTH NWG NWY PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL
  SKA SMY SPA STP SWE SYR TRI TUN TUS TYR TYS UKR VEN VIE WAL WAR WES YOR""".split()


def test_appendix_a_provinces_are_the_contract_ids():
    assert sorted(BOARD.provinces) == CONTRACT_IDS


def test_rule_6_1_province_kinds():
    assert Counter(p.kind for p in BOARD.provinces.values()) == {"inland": 14, "coastal": 42, "sea": 19}


def test_rule_3_1_supply_centres():
    assert len(BOARD.supply_centers) == 34
    homes = {p.id for p in BOARD.provinces.values() if p.home}
    assert len(homes) == 22
    assert BOARD.home_centers["RUSSIA"] == ("MOS", "SEV", "STP", "WAR")


def test_appendix_a_border_counts():
    assert sum(len(v) for v in BOARD.army_adj.values()) == 2 * 111
    assert sum(len(v) for v in BOARD.fleet_adj.values()) == 2 * 141


def test_adjacency_is_symmetric():
    for p, nbrs in BOARD.army_adj.items():
        for n in nbrs:
            assert p in BOARD.army_adj[n], (p, n)
    for loc, nbrs in BOARD.fleet_adj.items():
        for n in nbrs:
            assert loc in BOARD.fleet_adj[n], (loc, n)


def test_terrain_is_consistent():
    for p, nbrs in BOARD.army_adj.items():
        for n in nbrs:
            assert BOARD.kind(p) != "sea" and BOARD.kind(n) != "sea"
    for loc in BOARD.fleet_adj:
        assert BOARD.kind(loc[:3]) != "inland"


@pytest.mark.parametrize("coast,borders", [
    ("SPA/NC", "GAS MAO POR"), ("SPA/SC", "LYO MAO MAR POR WES"),
    ("STP/NC", "BAR NWY"), ("STP/SC", "BOT FIN LVN"),
    ("BUL/EC", "BLA CON RUM"), ("BUL/SC", "AEG CON GRE"),
])
def test_rule_6_7_two_coast_provinces(coast, borders):
    assert {n[:3] for n in BOARD.fleet_adj[coast]} == set(borders.split())


def test_rule_6_6_kiel_and_constantinople():
    assert BOARD.fleet_adj["KIE"] == {"BAL", "BER", "DEN", "HEL", "HOL"}
    assert BOARD.fleet_adj["CON"] == {"AEG", "ANK", "BLA", "BUL/EC", "BUL/SC", "SMY"}
    assert "AEG" not in BOARD.fleet_adj["BLA"] and "HEL" not in BOARD.fleet_adj["BAL"]


def test_rule_6_8_sweden_and_denmark():
    assert "DEN" in BOARD.army_adj["SWE"] and "DEN" in BOARD.fleet_adj["SWE"]
    assert "SKA" not in BOARD.fleet_adj["BAL"]
    assert "BER" not in BOARD.army_adj["DEN"]


def test_rule_6_9_easily_misread_borders():
    assert "STP" in BOARD.army_adj["NWY"] and "STP/NC" in BOARD.fleet_adj["NWY"]
    assert "NAO" in BOARD.fleet_adj["LVP"]
    assert "IRI" not in BOARD.fleet_adj["CLY"]
    assert BOARD.fleet_adj["NAF"] == {"MAO", "WES", "TUN"}
    assert "VEN" not in BOARD.fleet_adj["ROM"]  # rule 6.4, DATC 6.A.9
    assert "SPA/SC" not in BOARD.fleet_adj["GAS"]


def test_map_is_built_once_per_process():
    from adjudicator.diplomacy import board
    import importlib
    assert board.BOARD is BOARD
    assert importlib.import_module("adjudicator.diplomacy.board").BOARD is BOARD
