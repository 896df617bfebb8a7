"""A move by convoy is drawn along the route the engine used, over water: on every
DATC position with a convoy, the drawn path stays in the army's province, the
seas of its route and its destination, and passes through each of those seas.
A move by convoy with no route is drawn as failed."""
from __future__ import annotations

import pytest
from shapely.affinity import translate
from shapely.geometry import Point
from shapely.ops import unary_union

from maps import render_svg
from maps.render import TITLE_H
from tests.diplomacy.test_datc import CASES

from .svg import Picture, samples, shapes
from .test_geometry import REGIONS
from .test_render import steps

DRAWN = {pid: translate(shape, 0, TITLE_H) for pid, shape in REGIONS.items()}
STROKE = 2.0  # half the shaft's width: how far a drawn point may stand off its region

CONVOY_CASES = [c for c in CASES
                if any(r["order"].endswith(" VIA") for _req, resp in steps(c) for r in resp["results"])]


def shaft(group) -> list[tuple[float, float]]:
    [path] = [p for p in shapes(group, "path") if "Q" in p.attrib["d"]][-1:]
    return samples(path.attrib["d"])


@pytest.mark.parametrize("case", CONVOY_CASES, ids=[c["id"] for c in CONVOY_CASES])
def test_each_convoyed_move_is_drawn_through_the_seas_of_its_route(case):
    for request, response in steps(case):
        pic = Picture(render_svg(request, response["results"]))
        for r in response["results"]:
            if not r["order"].endswith(" VIA"):
                continue
            group = pic.one("data-order", r["order"])
            if "route" not in r:  # failed (or dislodged, and drawn so)
                assert r["outcome"] == "dislodged" or group.attrib.get("opacity") == "0.6", r
                continue
            src, dst = r["order"].split()[1][:3], r["order"].split(" - ")[1][:3]
            allowed = unary_union([DRAWN[p] for p in [src, *r["route"], dst]]).buffer(STROKE)
            drawn = [Point(p) for p in shaft(group)]
            outside = [p for p in drawn if not allowed.contains(p)]
            assert not outside, (case["id"], r["order"], r["route"], outside[:3])
            for sea in r["route"]:
                assert any(DRAWN[sea].contains(p) for p in drawn), (case["id"], r["order"], sea)
            water = unary_union([DRAWN[p] for p in r["route"]]).buffer(STROKE)
            ends = unary_union([DRAWN[src], DRAWN[dst]]).buffer(STROKE)
            assert all(water.contains(p) for p in drawn if not ends.contains(p)), (case["id"], r["order"], "land")


def test_the_datc_convoy_cases_are_checked():
    routes = sum(1 for c in CONVOY_CASES for _req, resp in steps(c) for r in resp["results"] if "route" in r)
    assert len(CONVOY_CASES) >= 40 and routes >= 30
