"""Every move is visible at the default size (1200 px wide: a map unit is a pixel):
for each location and each move a unit there can make, with a unit standing at
both ends, the arrow's shaft shows clear of the unit markers for some length
and its head shows whole.  A move between provinces whose centres are close
(LVP-YOR) is bowed so that it still does."""
from __future__ import annotations

import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from adjudicator.diplomacy.board import BOARD
from maps import render_svg

from .svg import Picture, points, samples, shapes

MIN_SHAFT = 12.0  # px of shaft, clear of every marker
MARKER_STROKE = 0.9  # half a marker's outline


def markers(pic: Picture):
    found = []
    for unit in pic.all("data-unit"):
        for c in shapes(unit, "circle"):
            found.append(Point(float(c.attrib["cx"]), float(c.attrib["cy"])).buffer(float(c.attrib["r"])))
        for p in shapes(unit, "path"):
            if p.attrib["d"].rstrip().endswith("Z"):
                found.append(Polygon(points(p)))
    return unary_union(found).buffer(MARKER_STROKE)


def where(loc: str) -> str:
    """A unit standing at ``loc``: a fleet where one may stand (its hull is the wider marker)."""
    return f"F {loc}" if loc in BOARD.fleet_adj else f"A {loc}"


#: (unit, where it can move): every army and every fleet, wherever it may stand
MOVERS = ([(f"A {p}", sorted(BOARD.army_adj[p])) for p in sorted(BOARD.army_adj)]
          + [(f"F {loc}", sorted(BOARD.fleet_adj[loc])) for loc in sorted(BOARD.fleet_adj)])


def drawn_arrows(mover: str, targets: list[str]):
    """(order, visible shaft length, share of the head visible) of each move of ``mover``."""
    units = [mover] + [where(t) for t in targets]
    results = [{"power": "FRANCE", "order": f"{mover} - {t}", "outcome": "succeeds"} for t in targets]
    position = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": units}, "centers": {}}
    pic = Picture(render_svg(position, results))
    covered = markers(pic)
    for group in pic.all("data-order"):
        paths = shapes(group, "path")
        shaft = [p for p in paths if p.attrib.get("fill") == "none"][0]
        head = [p for p in paths if p.attrib["d"].rstrip().endswith("Z")][0]
        line = LineString(samples(shaft.attrib["d"]))
        triangle = Polygon(points(head))
        yield (group.attrib["data-order"], line.difference(covered).length,
               triangle.difference(covered).area / triangle.area)


@pytest.mark.parametrize("mover, targets", MOVERS, ids=[m for m, _t in MOVERS])
def test_every_move_shows_its_shaft_and_head_clear_of_the_markers(mover, targets):
    drawn = list(drawn_arrows(mover, targets))
    assert len(drawn) == len(targets)
    for order, shaft, head in drawn:
        assert shaft >= MIN_SHAFT, (order, round(shaft, 1))
        assert head >= 0.95, (order, round(head, 2))


def test_liverpool_to_yorkshire_is_visible():
    """The move issue 33 found all but invisible."""
    [(order, shaft, head)] = [a for a in drawn_arrows("A LVP", ["YOR"])]
    assert shaft >= MIN_SHAFT and head >= 0.95
