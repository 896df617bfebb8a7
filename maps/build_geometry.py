"""Build ``maps/data/standard.json`` from the hand-drawn sources in :mod:`maps.atlas`.

    python -m maps.build_geometry          # rewrite the file
    python -m maps.build_geometry --check  # exit 1 if the file is out of date

Longitude/latitude go through a Lambert conformal conic projection (the one
atlases use for Europe: shapes stay true, north stays up), then the atlas's
borders cut the land and the water into regions.  Shapely is needed here and
in the tests only; the renderer reads the JSON.
"""
from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import numpy
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points, unary_union

from adjudicator.diplomacy.board import BOARD

from . import atlas

OUT = Path(__file__).with_name("data") / "standard.json"
WIDTH = 1200.0
# the part of the projected plane drawn, in lon/lat of its corners' reach
_PHI1, _PHI2, _PHI0, _LAM0 = map(math.radians, (40.0, 62.0, 52.0, 15.0))
_N = math.log(math.cos(_PHI1) / math.cos(_PHI2)) / math.log(
    math.tan(math.pi / 4 + _PHI2 / 2) / math.tan(math.pi / 4 + _PHI1 / 2))
_F = math.cos(_PHI1) * math.tan(math.pi / 4 + _PHI1 / 2) ** _N / _N
_RHO0 = _F / math.tan(math.pi / 4 + _PHI0 / 2) ** _N


def conic(lon: float, lat: float) -> tuple[float, float]:
    """Lambert conformal conic, unit sphere; y grows northwards."""
    rho = _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    theta = _N * (math.radians(lon) - _LAM0)
    return rho * math.sin(theta), _RHO0 - rho * math.cos(theta)


# The frame, in projected units: from the Atlantic west of Portugal to
# Armenia, from the Sahara's edge to the Barents Sea.
_X0, _X1, _Y0, _Y1 = -0.37, 0.34, -0.31, 0.355
SCALE = WIDTH / (_X1 - _X0)
HEIGHT = round((_Y1 - _Y0) * SCALE)


def project(lon: float, lat: float) -> tuple[float, float]:
    """lon/lat to map units: x right, y down, the frame 1200 wide."""
    x, y = conic(lon, lat)
    return (x - _X0) * SCALE, (_Y1 - y) * SCALE


def _poly(ring, holes=()) -> Polygon:
    return Polygon([project(*p) for p in ring], [[project(*p) for p in h] for h in holes])


def frame() -> Polygon:
    return box(0, 0, WIDTH, HEIGHT)


def land_masses() -> list[Polygon]:
    """The land the provinces divide, clipped to the frame: one polygon per mass."""
    mainland = _poly(atlas.MAINLAND, [atlas.BLACK_SEA, atlas.BALTIC])
    masses = [mainland, _poly(atlas.BRITAIN), _poly(atlas.SICILY)]
    return [m.intersection(frame()) for m in masses]


def islands() -> dict[str, Polygon]:
    return {name: _poly(ring).intersection(frame()) for name, ring in atlas.ISLANDS.items()}


def _parts(geom) -> list[Polygon]:
    return list(getattr(geom, "geoms", [geom]))


def _line(points, rounds: int = 2) -> LineString:
    """A border of the atlas in map units, its junctions looked up and its corners
    rounded: each round of Chaikin's corner cutting puts two points on every
    segment, a quarter of the way from either end, and keeps the ends."""
    xy = [project(*(atlas.JUNCTIONS[p] if isinstance(p, str) else p)) for p in points]
    for _ in range(rounds):
        cut = []
        for (ax, ay), (bx, by) in itertools.pairwise(xy):
            cut += [(0.75 * ax + 0.25 * bx, 0.75 * ay + 0.25 * by), (0.25 * ax + 0.75 * bx, 0.25 * ay + 0.75 * by)]
        xy = [xy[0], *cut[1:-1], xy[-1]]
    return LineString(xy)


def _regions(area, borders: dict) -> dict[str, object]:
    """Each id's region: the faces into which ``borders`` cut ``area``, each
    face going to the region whose place lies in it.  A face with no place, or
    with the places of two regions, is a border missing or astray."""
    lines = {pair: _line(points) for pair, points in borders.items()}
    noded = unary_union([area.boundary, *lines.values()])
    faces = [f for f in shapely.get_parts(shapely.polygonize(shapely.get_parts(noded)))
             if area.contains(f.representative_point())]
    places = {pid: [Point(project(*p)) for p in pts] for pid, pts in atlas.PLACES.items()}
    owned: dict[str, list] = {}
    for face in faces:
        names = sorted({pid for pid, points in places.items() if any(face.contains(p) for p in points)})
        if len(names) != 1:
            near = sorted(places, key=lambda pid: face.distance(places[pid][0]))[:3]
            raise ValueError(f"a face near {', '.join(near)} holds {names or 'no place'}")
        owned.setdefault(names[0], []).append(face)
    regions = {pid: unary_union(parts) for pid, parts in owned.items()}
    for (p, q), line in lines.items():
        shared = regions[p].intersection(regions[q]).buffer(0.01)
        if line.intersection(area).difference(shared).length > 0.01:
            raise ValueError(f"the border {p}-{q} does not run between them")
    return regions


def shared_length(a, b, eps: float = 0.3) -> float:
    """Length of the border two regions share (zero for a point touch, about
    eps for a corner)."""
    if not a.buffer(eps).intersects(b):
        return 0.0
    return a.buffer(eps).intersection(b).area / eps


def land_and_water():
    """(all the land the provinces divide, all the water the seas divide): the islands are neither."""
    land = unary_union(land_masses())
    return land, frame().difference(land).difference(unary_union(list(islands().values())))


def regions() -> tuple[dict, dict]:
    """(land regions by id, sea regions by id), shapely geometries in map units."""
    land, water = land_and_water()
    seas = {pair: line for pair, line in atlas.BORDERS.items() if all(BOARD.is_sea(p) for p in pair)}
    borders = {pair: line for pair, line in atlas.BORDERS.items() if pair not in seas}
    return _regions(land, borders), _regions(water, seas)


def _path(geom) -> str:
    """SVG path data, coordinates to a tenth of a unit."""
    out = []
    for poly in _parts(geom):
        if poly.is_empty:
            continue
        for ring in [poly.exterior, *poly.interiors]:
            coords = list(ring.coords)[:-1]
            out.append("M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in coords) + "Z")
    return "".join(out)


def build() -> dict:
    land, sea = regions()
    provinces = {}
    for pid, geom in sorted({**land, **sea}.items()):
        if pid.startswith("_"):
            continue
        centre = Point(project(*atlas.PLACES[pid][0]))
        inner = geom.buffer(-6)  # a unit drawn at the centre stays inside its province
        if not inner.contains(centre):
            centre = nearest_points(inner, centre)[0]
        cx, cy = centre.x, centre.y
        provinces[pid] = {"d": _path(geom), "centre": [round(cx, 1), round(cy, 1)]}
    return {
        "passages": passages({**land, **sea}, provinces),
        "width": WIDTH,
        "height": HEIGHT,
        "provinces": provinces,
        "impassable": {pid[1:]: _path(g) for pid, g in sorted(land.items()) if pid.startswith("_")},
        "islands": {name: _path(g) for name, g in islands().items()},
        "coastline": _path(unary_union(land_masses())),
        "coasts": {c: [round(v, 1) for v in project(*p)] for c, p in atlas.COAST_POINTS.items()},
    }


def passages(shapes: dict, provinces: dict) -> dict[str, list[list[float]]]:
    """How a convoy's path crosses from a sea into the next sea or a coast: for each
    sea and each province a fleet reaches from it ("ENG-MAO", sorted), the points
    between their centres, from the first's side to the second's: a point of their
    shared border, and where a straight line would leave the two regions, a turn
    before it or after it.  The shortest such way from centre to centre."""
    out = {}
    for loc, neighbours in BOARD.fleet_adj.items():
        for n in neighbours:
            pair = tuple(sorted((loc[:3], n[:3])))
            key = "-".join(pair)
            if key not in out and any(BOARD.is_sea(p) for p in pair):
                out[key] = _crossing(*(shapes[p] for p in pair), *(Point(provinces[p]["centre"]) for p in pair))
    return dict(sorted(out.items()))


def _crossing(a, b, ca: Point, cb: Point) -> list[list[float]]:
    inside = unary_union([a, b]).buffer(1.0)  # a line drawn this close to the border is over it
    shapely.prepare(inside)
    border = a.boundary.intersection(b.buffer(0.5))
    steps = max(int(border.length / 2), 1)
    crossings = [border.interpolate(i / steps, normalized=True) for i in range(steps + 1)]

    def seen(p: Point, q: Point) -> bool:
        return inside.contains(LineString([p, q]))

    straight = [x for x in crossings if seen(ca, x) and seen(x, cb)]
    if straight:
        x = min(straight, key=lambda x: ca.distance(x) + x.distance(cb))
        return [[round(x.x, 1), round(x.y, 1)]]
    grid = _grid(unary_union([a, b]), 4.0)
    spots = numpy.array([(t.x, t.y) for t in grid]).reshape(-1, 2)

    def seen_from(p: Point) -> numpy.ndarray:
        """For each grid point, whether it is seen from p (one call for the whole grid)."""
        starts = numpy.broadcast_to((p.x, p.y), spots.shape)
        return shapely.contains(inside, shapely.linestrings(numpy.stack([starts, spots], axis=1)))

    from_centre = {(c.x, c.y): seen_from(c) for c in (ca, cb)}

    def leg(centre: Point, x: Point) -> tuple[float, list[Point]]:
        """The shortest way from centre to x: straight, or by one turn inside the two regions."""
        if seen(centre, x):
            return centre.distance(x), []
        both = from_centre[(centre.x, centre.y)] & seen_from(x)
        turns = [t for t, ok in zip(grid, both) if ok]
        if not turns:
            return math.inf, []
        turn = min(turns, key=lambda t: centre.distance(t) + t.distance(x))
        return centre.distance(turn) + turn.distance(x), [turn]

    best = min(((leg(ca, x), x, leg(cb, x)) for x in crossings[::3]),
               key=lambda way: way[0][0] + way[2][0])
    (_la, before), x, (_lb, after) = best
    return [[round(p.x, 1), round(p.y, 1)] for p in [*before, x, *after[::-1]]]


def _grid(region, step: float) -> list[Point]:
    """Points of ``region`` on a square grid."""
    x0, y0, x1, y1 = region.bounds
    points = [Point(x0 + i * step, y0 + j * step)
              for i in range(int((x1 - x0) / step) + 1) for j in range(int((y1 - y0) / step) + 1)]
    return [p for p in points if region.contains(p)]


def dumps(data: dict) -> str:
    return json.dumps(data, indent=0, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    text = dumps(build())
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is out of date: run python -m maps.build_geometry", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
