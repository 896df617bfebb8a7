"""The drawn board against the board the rules play on, for every variant the
service offers: provinces that touch on the map are adjacent on the board and
the reverse, for land (army moves) and for water (fleet moves) separately.

The regions are read back from the committed ``maps/data/standard.json``, the
file the renderer draws, and that file must be what ``maps.build_geometry``
makes from the hand-drawn sources of ``maps/atlas.py``."""
from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from adjudicator.diplomacy import VARIANTS
from adjudicator.diplomacy.board import BOARD
from adjudicator.diplomacy.variants import VARIANT_TABLE
from maps import build_geometry
from maps.build_geometry import shared_length
from maps.geometry import GEOMETRY

ROOT = Path(__file__).resolve().parents[2]

TOUCH = 3.0  # map units of common border for two regions to touch (the map is 1200 wide)
POINT_TOUCH = 1.0  # at most this much for two regions that must not touch (a corner)


def polygons(path: str):
    """The shapely shape of a path written by build_geometry (M x,y x,y ... Z rings)."""
    rings = [[tuple(map(float, p.split(","))) for p in ring.split()]
             for ring in re.findall(r"M([^MZ]+)Z", path)]
    shapes, current = [], None
    for ring in rings:
        poly = Polygon(ring)
        if current is not None and current.contains(poly):  # a hole of the ring before
            current = Polygon(current.exterior.coords, [*current.interiors, poly.exterior.coords])
            shapes[-1] = current
        else:
            current = poly
            shapes.append(poly)
    return unary_union(shapes)


REGIONS = {pid: polygons(p["d"]) for pid, p in GEOMETRY["provinces"].items()}


#: Each province's area on the printed board, estimated by eye from general knowledge of the board
#: (no map file measured): land in Burgundies, seas in English Channels.  A province's share of its
#: land mass or body of water, as drawn, is compared with its share of the same provinces on the
#: board (docs/maps.md, "The geometry is the project's own").
BOARD_AREAS = {
    # land, BUR = 1
    "CLY": 0.7, "EDI": 0.7, "LVP": 0.7, "YOR": 0.55, "WAL": 0.7, "LON": 0.55,
    "BRE": 1.0, "PIC": 0.5, "PAR": 0.8, "BUR": 1.0, "GAS": 1.1, "MAR": 1.0, "SPA": 3.5, "POR": 0.9,
    "BEL": 0.45, "HOL": 0.45, "RUH": 0.6, "KIE": 0.9, "BER": 0.9, "MUN": 1.3, "SIL": 0.7, "PRU": 0.9,
    "DEN": 0.5, "NWY": 3.5, "SWE": 3.5, "FIN": 2.5,
    "STP": 5.0, "MOS": 5.5, "LVN": 1.6, "WAR": 1.4, "UKR": 1.5, "SEV": 3.5,
    "BOH": 0.8, "VIE": 0.8, "BUD": 1.7, "TYR": 0.8, "TRI": 1.2, "GAL": 1.4,
    "SER": 0.9, "ALB": 0.4, "GRE": 0.9, "BUL": 1.1, "RUM": 1.4,
    "PIE": 0.5, "VEN": 0.6, "TUS": 0.4, "ROM": 0.45, "APU": 0.55, "NAP": 0.7,
    "CON": 0.7, "ANK": 1.1, "SMY": 2.0, "ARM": 2.0, "SYR": 1.5, "NAF": 3.0, "TUN": 0.8,
    # seas, ENG = 1
    "NAO": 8.0, "NWG": 7.0, "BAR": 3.5, "NTH": 3.0, "SKA": 0.5, "HEL": 0.5, "BAL": 1.8, "BOT": 1.8,
    "ENG": 1.0, "IRI": 1.0, "MAO": 8.0, "WES": 2.0, "LYO": 1.5, "TYS": 1.8, "ION": 4.0, "ADR": 1.2,
    "AEG": 1.5, "EAS": 2.0, "BLA": 4.0,
}
AREA_FACTOR = 2.0  # how many times larger or smaller than on the board a province's share may be


def board_of(variant: str):
    """The board a variant is played on (every variant the service offers uses the standard board)."""
    assert variant in VARIANT_TABLE
    return BOARD


def fleet_adjacent(board, p: str, q: str) -> bool:
    """Some coast of p reaches q, or some coast of q reaches p."""
    def reach(a, b):
        return any(b in {n[:3] for n in nbrs} for loc, nbrs in board.fleet_adj.items() if loc[:3] == a)
    return reach(p, q) or reach(q, p)


@pytest.fixture(scope="module")
def touching():
    lengths = {}
    for p, q in itertools.combinations(sorted(REGIONS), 2):
        lengths[p, q] = lengths[q, p] = shared_length(REGIONS[p], REGIONS[q])
    return lengths


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_province_is_drawn_once_and_in_one_piece(variant, touching):
    board = board_of(variant)
    assert set(GEOMETRY["provinces"]) == set(board.provinces)
    for pid, shape in REGIONS.items():
        assert shape.is_valid and shape.area > 150, pid
        pieces = len(getattr(shape, "geoms", [shape]))
        assert pieces == (2 if pid == "NAP" else 1), f"{pid} is drawn in {pieces} pieces"  # NAP has Sicily
        centre = Point(GEOMETRY["provinces"][pid]["centre"])
        assert shape.buffer(-4).contains(centre), f"{pid}'s unit and name stand outside it"
    for p, q in itertools.combinations(REGIONS, 2):
        # coordinates are written to a tenth: a shared border may overlap by that much along its length
        overlap = REGIONS[p].intersection(REGIONS[q]).area
        assert overlap < 0.05 * touching[p, q] + 0.5, f"{p} and {q} overlap"


@pytest.mark.parametrize("variant", VARIANTS)
def test_land_provinces_touch_exactly_their_army_neighbours(variant, touching):
    board = board_of(variant)
    land = [p for p in board.provinces if not board.is_sea(p)]
    wrong = []
    for p, q in itertools.combinations(sorted(land), 2):
        wrong += _disagreement(p, q, q in board.army_adj[p], touching[p, q])
    assert not wrong, "\n".join(wrong)


def _disagreement(p: str, q: str, adjacent: bool, length: float) -> list[str]:
    """Where the board and the map disagree on ``p`` and ``q``: adjacent provinces whose regions
    share less than a border, or others that share more than a point."""
    if adjacent and length < TOUCH:
        return [f"{p}-{q} adjacent but their regions share {length:.1f}"]
    if not adjacent and length > POINT_TOUCH:
        return [f"{p}-{q} not adjacent but their regions share {length:.1f}"]
    return []


@pytest.mark.parametrize("variant", VARIANTS)
def test_seas_touch_exactly_the_seas_and_coasts_a_fleet_reaches(variant, touching):
    board = board_of(variant)
    seas = [p for p in board.provinces if board.is_sea(p)]
    wrong = []
    for sea in seas:
        for other in board.provinces:
            if other == sea:
                continue
            wrong += _disagreement(sea, other, fleet_adjacent(board, sea, other), touching[sea, other])
    assert not wrong, "\n".join(wrong)
    inland_on_water = [p for p in board.provinces if board.kind(p) == "inland"
                       and any(touching[p, s] > POINT_TOUCH for s in seas)]
    assert not inland_on_water


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_coast_is_drawn_on_its_own_shore(variant):
    """A fleet on STP/NC, SPA/SC... stands inside its province, nearer the seas
    that coast reaches than the seas of the other coast."""
    board = board_of(variant)
    coasts = [loc for locs in board.coasts.values() for loc in locs]
    assert set(GEOMETRY["coasts"]) == set(coasts)
    for loc in coasts:
        at = Point(GEOMETRY["coasts"][loc])
        assert REGIONS[loc[:3]].contains(at), loc
        own = [n for n in board.fleet_adj[loc] if board.is_sea(n)]
        others = {n for sibling in board.coasts[loc[:3]] if sibling != loc
                  for n in board.fleet_adj[sibling] if board.is_sea(n)} - set(own)
        nearest_own = min(REGIONS[s].distance(at) for s in own)
        assert nearest_own < 25, f"{loc} is drawn {nearest_own:.0f} from its water"
        for s in others:
            assert REGIONS[s].distance(at) > nearest_own, f"{loc} is drawn nearer {s} than its own water"


def board_share_ratios() -> dict[str, float]:
    """Each province's share of its land mass or body of water (Britain, the mainland, the
    Baltic...), drawn, over the same provinces' shares on the board."""
    land, water = build_geometry.land_and_water()
    bodies = [*getattr(land, "geoms", [land]), *getattr(water, "geoms", [water])]
    ratios = {}
    for body in bodies:
        inside = [p for p in REGIONS if body.contains(Point(GEOMETRY["provinces"][p]["centre"]))]
        drawn, board = sum(REGIONS[p].area for p in inside), sum(BOARD_AREAS[p] for p in inside)
        ratios.update({p: (REGIONS[p].area / drawn) / (BOARD_AREAS[p] / board) for p in inside})
    return ratios


def test_each_province_has_its_share_of_the_board():
    assert set(BOARD_AREAS) == set(BOARD.provinces)
    ratios = board_share_ratios()
    assert set(ratios) == set(BOARD.provinces)
    off = {p: round(r, 2) for p, r in ratios.items() if not 1 / AREA_FACTOR <= r <= AREA_FACTOR}
    assert not off, f"drawn this many times their share of the board: {off}"


@pytest.mark.background(seconds=8, early=True)  # seconds of CPU, in a process of its own
def test_the_committed_geometry_is_built_from_the_atlas(tmp_path):
    built = subprocess.run([sys.executable, "-c", "import sys\nfrom maps import build_geometry as b\n"
                            "sys.stdout.write(b.dumps(b.build()))"], capture_output=True, text=True, check=True,
                           cwd=ROOT, timeout=300).stdout
    assert build_geometry.OUT.read_text() == built, \
        "maps/data/standard.json is out of date: run python -m maps.build_geometry"
