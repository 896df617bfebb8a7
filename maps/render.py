"""The renderer: a position, its orders and their results in, an SVG document out.

A pure function of its arguments (no I/O but reading the packaged geometry
once per process).  Every drawn thing carries the data attributes of the maps
contract (docs/maps.md) so that a program can read the picture back:
``data-province``, ``data-supply-center``/``data-owner``, ``data-unit``/
``data-power``/``data-dislodged``, ``data-order``/``data-power``/
``data-outcome`` and, on the root, ``data-phase``/``data-variant``.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple
from xml.sax.saxutils import escape as xml_escape

import drawsvg as draw

from adjudicator.diplomacy.board import BOARD
from adjudicator.diplomacy.codes import Code, code_of
from adjudicator.diplomacy.variants import ITALIAN_PROVINCES, VARIANT_TABLE

from . import palette
from .geometry import GEOMETRY

TITLE_H = 44
LEGEND_H = 150
UNIT_R = 9
DISLODGED_OFFSET = (17, 14)
SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

_ORDER = re.compile(
    r"^(?P<type>[AF]) (?P<loc>[A-Z]{3}(?:/[A-Z]{2})?) (?:"
    r"(?P<hold>H)"
    r"|- (?P<to>[A-Z]{3}(?:/[A-Z]{2})?)(?P<via> VIA)?"
    r"|S (?P<stype>[AF]) (?P<sloc>[A-Z]{3}(?:/[A-Z]{2})?)(?: - (?P<sto>[A-Z]{3}(?:/[A-Z]{2})?))?"
    r"|C A (?P<cloc>[A-Z]{3}) - (?P<cto>[A-Z]{3})"
    r"|R (?P<retreat>[A-Z]{3}(?:/[A-Z]{2})?)"
    r"|(?P<disband>D)"
    r"|(?P<build>B))$")


#: how far from a unit's point an arrow or line keeps: clear of its marker (a fleet's
#: hull is wider than an army's disc) and of a unit standing where it goes ("": none)
CLEAR = {"A": UNIT_R + 2, "F": UNIT_R + 6, "": UNIT_R + 2}
HEAD = 11  # an arrow head's length
#: the least length of an arrow between the markers (its head and some shaft): a move
#: too short for it is bowed to its left until it is this long
MIN_ARROW = 28


class Course(NamedTuple):
    """An arrow's way: from ``start`` to ``tip``, straight or bent towards ``bend``
    (a quadratic curve's control point)."""
    start: tuple[float, float]
    bend: tuple[float, float] | None
    tip: tuple[float, float]
    ends: tuple[tuple[float, float], tuple[float, float]]  # the two points it joins

    @staticmethod
    def between(p, q, clear_p: float, clear_q: float) -> Course:
        if math.dist(p, q) - clear_p - clear_q >= MIN_ARROW:
            return Course(_toward(p, q, clear_p), None, _toward(q, p, clear_q), (p, q))
        (mx, my), n = _middle(p, q), math.dist(p, q) or 1.0
        left = ((q[1] - p[1]) / n, (p[0] - q[0]) / n)
        for h in range(6, 120, 3):
            bend = (round(mx + left[0] * h, 1), round(my + left[1] * h, 1))
            a, b = _toward(p, bend, clear_p), _toward(q, bend, clear_q)
            if _curve_length(a, bend, b) >= MIN_ARROW:
                break
        return Course(a, bend, b, (p, q))

    def middle(self) -> tuple[float, float]:
        """Where a support or a convoy of this move points: the middle of its way."""
        if self.bend is None:
            return _middle(*self.ends)
        (ax, ay), (cx, cy), (bx, by) = self.start, self.bend, self.tip
        return round(ax / 4 + cx / 2 + bx / 4, 1), round(ay / 4 + cy / 2 + by / 4, 1)


def _curve_length(a, c, b, steps: int = 12) -> float:
    pts = [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
            (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]) for t in (i / steps for i in range(steps + 1))]
    return sum(math.dist(u, v) for u, v in zip(pts, pts[1:]))


class Order(NamedTuple):
    text: str
    power: str
    outcome: str
    reason: str
    code: str
    match: re.Match | None
    route: tuple[str, ...]  # a move by convoy: the seas it went through


def phase_title(phase: str) -> str:
    """'S1902M' -> 'Spring 1902, movement'."""
    m = re.fullmatch(r"([SFW])(\d+)([MRA])", phase or "")
    if not m:
        return phase or ""
    return f"{SEASONS[m[1]]} {m[2]}, {KINDS[m[3]]}"


def point(loc: str) -> tuple[float, float]:
    """Where a unit at ``loc`` (a province or a coast) stands on the map."""
    if loc in GEOMETRY["coasts"]:
        x, y = GEOMETRY["coasts"][loc]
    else:
        x, y = GEOMETRY["provinces"][loc[:3]]["centre"]
    return x, round(y + TITLE_H, 1)


def _known(loc: str | None) -> bool:
    return bool(loc) and (loc in GEOMETRY["coasts"] or loc[:3] in GEOMETRY["provinces"])


def render_svg(position: dict, results: list[dict] | None = None, *, title: str | None = None) -> str:
    """The SVG document of ``position`` (the interchange format's request shape:
    ``variant``, ``phase``, ``units``, ``centers``, and in a retreat phase
    ``dislodged``), with ``results`` (the engine's results: ``power``,
    ``order``, ``outcome``, ``reason``) drawn as orders.  No results: the
    position alone, as for a phase still open."""
    return Map(position, results or [], title).svg()


class Map:
    def __init__(self, position: dict, results: list[dict], title: str | None):
        self.position = position
        self.variant = position.get("variant") or "standard"
        self.phase = position.get("phase") or ""
        self.title = title
        self.orders = [Order(str(r.get("order", "")), str(r.get("power", "")), str(r.get("outcome", "")),
                             str(r.get("reason") or ""), str(code_of(r) or ""),
                             _ORDER.match(str(r.get("order", ""))), tuple(map(str, r.get("route") or ())))
                       for r in results]
        self.width = GEOMETRY["width"]
        self.map_h = GEOMETRY["height"]
        self.height = TITLE_H + self.map_h + LEGEND_H
        self.unplaced: list[Order] = []  # orders with nothing on the map to point at: listed in the legend
        #: province -> the type of the unit standing there
        self.standing = {_unit(u)[1][:3]: _unit(u)[0] for us in (position.get("units") or {}).values() for u in us}
        self.d = draw.Drawing(self.width, self.height, data_phase=_attr(self.phase),
                              data_variant=_attr(self.variant), font_family=FONT, role="img")

    # -- the whole picture --------------------------------------------------
    def svg(self) -> str:
        d = self.d
        d.append(draw.Title(f"{self.title + ' — ' if self.title else ''}{phase_title(self.phase)}"
                            f" ({self.variant}): the board"))
        d.append(draw.Rectangle(0, 0, self.width, self.height, fill="#FFFFFF"))
        self.provinces()
        self.centres()
        self.units()
        self.order_marks()
        self.labels()
        self.title_bar()
        self.legend()
        return xml_text(d.as_svg())

    def owners(self) -> dict[str, str]:
        owner = {}
        for power, centres in (self.position.get("centers") or {}).items():
            for c in centres:
                owner[str(c)[:3].upper()] = power
        return owner

    def provinces(self):
        owner = self.owners()
        closed = self.closed_provinces()
        g = draw.Group(stroke=palette.BORDER, stroke_width=0.8, stroke_linejoin="round")
        g.append(draw.Rectangle(0, TITLE_H, self.width, self.map_h, fill=palette.SEA))
        for name, path in GEOMETRY["islands"].items():
            g.append(draw.Path(path, fill=palette.IMPASSABLE, transform=f"translate(0,{TITLE_H})",
                               data_impassable=name))
        for name, path in GEOMETRY["impassable"].items():
            g.append(draw.Path(path, fill=palette.IMPASSABLE, transform=f"translate(0,{TITLE_H})",
                               data_impassable=name))
        for pid, shape in GEOMETRY["provinces"].items():
            if BOARD.is_sea(pid):
                fill = palette.SEA
            elif pid in closed:
                fill = palette.IMPASSABLE
            elif pid in owner:
                fill = palette.tint(palette.colour(owner[pid]), 0.7)
            else:
                fill = palette.LAND
            p = draw.Path(shape["d"], fill=fill, transform=f"translate(0,{TITLE_H})", data_province=pid)
            p.append_title(BOARD.provinces[pid].name)
            g.append(p)
        g.append(draw.Path(GEOMETRY["coastline"], fill="none", stroke="#4A4233", stroke_width=1.6,
                           transform=f"translate(0,{TITLE_H})"))
        self.d.append(g)

    def closed_provinces(self) -> frozenset[str]:
        """Italy in the two-player game before it opens (spec 13.6): drawn impassable."""
        v = VARIANT_TABLE.get(self.variant)
        m = re.fullmatch(r"[SFW](\d+)[MRA]", self.phase)
        if v is None or m is None:
            return frozenset()
        return frozenset(v.impassable_in(int(m[1]), self.phase[0])) & ITALIAN_PROVINCES

    def centres(self):
        owner = self.owners()
        g = draw.Group(stroke=palette.INK, stroke_width=1.2)
        for pid in sorted(BOARD.supply_centers):
            x, y = point(pid)
            power = owner.get(pid, "")
            g.append(draw.Circle(x - 20, y - 16, 4.5, fill=palette.colour(power) if power else palette.NEUTRAL,
                                 data_supply_center=pid, data_owner=_attr(power)))
        self.d.append(g)

    def labels(self):
        g = draw.Group(font_size=10.5, text_anchor="middle", fill=palette.INK, font_weight="bold",
                       stroke="#FFFFFF", stroke_width=2.6, paint_order="stroke", stroke_linejoin="round")
        for pid in GEOMETRY["provinces"]:
            x, y = point(pid)
            sea = BOARD.is_sea(pid)
            g.append(draw.Text(pid, 10.5 if not sea else 11, x, round(y - 12, 1),
                               font_style="italic" if sea else None, fill="#2B5C7E" if sea else None,
                               aria_hidden="true"))
        for loc in GEOMETRY["coasts"]:
            x, y = point(loc)
            g.append(draw.Text(loc[4:].lower(), 8.5, x, round(y + 18, 1), aria_hidden="true"))
        self.d.append(g)

    # -- units ------------------------------------------------------------------
    def units(self):
        dislodged_now = {o.match["loc"][:3] for o in self.orders
                         if o.outcome == "dislodged" and o.match}
        g = draw.Group()
        for power, units in (self.position.get("units") or {}).items():
            for unit in units:
                kind, loc = _unit(unit)
                if not _known(loc):
                    continue
                off = loc[:3] in dislodged_now
                g.append(self.unit(kind, loc, power, dislodged=off))
        for power, items in (self.position.get("dislodged") or {}).items():
            for item in items:
                unit = item.get("unit", "") if isinstance(item, dict) else str(item)
                kind, loc = _unit(unit)
                if _known(loc):
                    g.append(self.unit(kind, loc, power, dislodged=True))
        self.d.append(g)

    def unit(self, kind: str, loc: str, power: str, *, dislodged: bool = False, built: bool = False):
        x, y = point(loc)
        if dislodged:
            x, y = x + DISLODGED_OFFSET[0], y + DISLODGED_OFFSET[1]
        fill = palette.colour(power)
        attrs = {"data_unit": _attr(f"{kind} {loc}"), "data_power": _attr(power)}
        if dislodged:
            attrs["data_dislodged"] = "true"
        g = draw.Group(**attrs)
        stroke = "#B00020" if dislodged else "#000000"
        dash = "3,2" if dislodged or built else None
        if kind == "A":
            g.append(draw.Circle(x, y, UNIT_R, fill=fill, stroke=stroke, stroke_width=1.8,
                                 stroke_dasharray=dash))
        else:  # a fleet: a hull
            r = UNIT_R
            g.append(draw.Lines(x - r - 3, y - r + 3, x + r + 3, y - r + 3, x + r - 1, y + r - 1,
                                x - r + 1, y + r - 1, close=True, fill=fill, stroke=stroke,
                                stroke_width=1.8, stroke_dasharray=dash))
        g.append(draw.Text(power[:1], 10, x, y + 3.6, text_anchor="middle", font_weight="bold",
                           fill=palette.ink_on(fill), aria_hidden="true"))
        g.append_title(f"{power.title()}: {'army' if kind == 'A' else 'fleet'} in {loc}"
                       f"{' (dislodged)' if dislodged else ''}")
        return g

    # -- orders -----------------------------------------------------------------
    def order_marks(self):
        supports = draw.Group(data_layer="supports")
        moves = draw.Group(data_layer="moves")
        marks = draw.Group(data_layer="marks")
        unplaced: list[Order] = []
        bounced: set[str] = set()
        carried = {(m["loc"][:3], sea) for o in self.orders if (m := o.match) and m["via"] and _known(m["to"])
                   and convoy_waypoints(point(m["loc"]), m["loc"], m["to"], o.route) for sea in o.route}
        for o in self.orders:
            m = o.match
            if o.text == "WAIVE" or m is None or not _known(m["loc"]):
                unplaced.append(o)
                continue
            g = draw.Group(data_order=_attr(o.text), data_power=_attr(o.power), data_outcome=_attr(o.outcome),
                           **({"data_reason": _attr(o.reason), "data_code": _attr(o.code)} if o.reason else {}))
            g.append_title(f"{o.power.title()}: {o.text} — {o.outcome}{': ' + o.reason if o.reason else ''}")
            failed = o.outcome not in ("succeeds", "dislodged", "")
            colour = palette.colour(o.power)
            start = self.unit_point(m["loc"], o)
            if m["hold"]:
                self.hold_mark(g, start, colour)
                marks.append(g)
            elif m["to"] and _known(m["to"]):
                waypoints = convoy_waypoints(start, m["loc"], m["to"], o.route) if m["via"] else None
                if waypoints:
                    self.convoy_arrow(g, waypoints, colour, CLEAR[self.standing.get(m["to"][:3], "")])
                else:
                    self.arrow(g, self.course(m["type"], start, m["to"]), colour)
                if o.code == Code.BOUNCED:
                    bounced.add(m["to"][:3])
                moves.append(g)
            elif m["retreat"] and _known(m["retreat"]):
                self.arrow(g, self.course(m["type"], start, m["retreat"]), colour, retreat=True)
                moves.append(g)
            elif m["sloc"] and _known(m["sloc"]):
                held = point(m["sloc"])
                if m["sto"] and _known(m["sto"]):
                    end = self.course(m["stype"], held, m["sto"]).middle()
                    self.line(g, start, end, colour, "6,4", end_mark="dot")
                else:
                    self.line(g, start, held, colour, "6,4", end_mark="ring")
                supports.append(g)
            elif m["cloc"] and _known(m["cloc"]) and _known(m["cto"]):
                if (m["cloc"], m["loc"][:3]) not in carried:  # else the army's arrow goes through the fleet
                    end = self.course("A", point(m["cloc"]), m["cto"]).middle()
                    self.line(g, start, end, colour, "1.5,4", end_mark="diamond")
                self.convoy_mark(g, start)
                supports.append(g)
            elif m["disband"]:
                self.cross(g, start)
                marks.append(g)
            elif m["build"]:
                g.append(self.unit(m["type"], m["loc"], o.power, built=True))
                self.build_mark(g, start)
                marks.append(g)
            else:
                unplaced.append(o)
                continue
            if failed:
                g.args["opacity"] = "0.6"
                self.failed_mark(g, self.failure_point(o, start))
        for prov in sorted(bounced):
            self.bounce_mark(marks, prov)
        self.d.append(supports)
        self.d.append(moves)
        self.d.append(marks)
        self.unplaced = unplaced

    def unit_point(self, loc: str, o: Order) -> tuple[float, float]:
        """Where the ordered unit is drawn: offset when it is dislodged."""
        x, y = point(loc)
        kind = self.phase[-1:] if self.phase else ""
        if kind == "R" or o.outcome == "dislodged":
            return x + DISLODGED_OFFSET[0], y + DISLODGED_OFFSET[1]
        return x, y

    def failure_point(self, o: Order, start) -> tuple[float, float]:
        m = o.match
        target = m["to"] or m["retreat"]
        if target and _known(target):
            waypoints = convoy_waypoints(start, m["loc"], target, o.route) if m["via"] else None
            if waypoints:
                return _toward(point(target), waypoints[-2], UNIT_R + 10)
            c = self.course(m["type"], start, target)
            return _toward(point(target), c.bend or c.start, UNIT_R + 10)
        return start[0] + 12, start[1] - 12

    def course(self, kind: str, start, target: str) -> Course:
        """The way a unit of ``kind`` at ``start`` is drawn moving to ``target``: clear of
        its own marker and of the marker of a unit standing at ``target``."""
        return Course.between(start, point(target), CLEAR[kind], CLEAR[self.standing.get(target[:3], "")])

    @staticmethod
    def arrow(g, course: Course, colour, *, retreat: bool = False):
        a, bend, b = course.start, course.bend, course.tip
        base = _toward(b, bend or a, HEAD)
        shaft = f"M{a[0]},{a[1]} " + (f"Q{bend[0]},{bend[1]} " if bend else "L") + f"{base[0]},{base[1]}"
        strokes = [("#000000", 6.5 if retreat else 5), (colour, 4.5 if retreat else 3)]
        if retreat:  # a hollow shaft: retreats read apart from moves
            strokes.append(("#FFFFFF", 1.6))
        for stroke, width in strokes:
            g.append(draw.Path(shaft, fill="none", stroke=stroke, stroke_width=width, stroke_linecap="round"))
        Map.head(g, base, b, colour)

    @staticmethod
    def convoy_arrow(g, waypoints, colour, clear_end: float):
        """A move by convoy along its route: from its province across each shore to
        the centre of each sea and on, rounded at each centre (within the sea)."""
        start, end = waypoints[0], waypoints[-1]
        a = _toward(start, waypoints[1], CLEAR["A"])
        b = _toward(end, waypoints[-2], clear_end)
        base = _toward(b, waypoints[-2], HEAD)
        d = f"M{a[0]},{a[1]}"
        for before, corner, after in zip(waypoints, waypoints[1:], waypoints[2:]):
            if corner not in SEA_CENTRES:
                d += f" L{corner[0]},{corner[1]}"
                continue
            cut = min(math.dist(before, corner) * 0.3, math.dist(corner, after) * 0.3, CENTRE_MARGIN)
            p, q = _toward(corner, before, cut), _toward(corner, after, cut)
            d += f" L{p[0]},{p[1]} Q{corner[0]},{corner[1]} {q[0]},{q[1]}"
        d += f" L{base[0]},{base[1]}"
        for stroke, width in (("#000000", 5), (colour, 3)):
            g.append(draw.Path(d, fill="none", stroke=stroke, stroke_width=width, stroke_linecap="round",
                               stroke_linejoin="round"))
        Map.head(g, base, b, colour)

    @staticmethod
    def head(g, base, tip, colour):
        ang = math.atan2(tip[1] - base[1], tip[0] - base[0])
        left = (round(base[0] + 5.5 * math.sin(ang), 1), round(base[1] - 5.5 * math.cos(ang), 1))
        right = (round(base[0] - 5.5 * math.sin(ang), 1), round(base[1] + 5.5 * math.cos(ang), 1))
        g.append(draw.Lines(*tip, *left, *right, close=True, fill=colour, stroke="#000000", stroke_width=1.2))

    @staticmethod
    def line(g, start, end, colour, dash, *, end_mark: str):
        a = _toward(start, end, UNIT_R + 2)
        b = end if end_mark != "ring" else _toward(end, start, UNIT_R + 4)
        g.append(draw.Line(*a, *b, stroke="#000000", stroke_width=4, stroke_dasharray=dash,
                           stroke_linecap="round"))
        g.append(draw.Line(*a, *b, stroke=colour, stroke_width=2.4, stroke_dasharray=dash,
                           stroke_linecap="round"))
        if end_mark == "dot":
            g.append(draw.Circle(*b, 3.5, fill=colour, stroke="#000000", stroke_width=1.2))
        elif end_mark == "ring":
            g.append(draw.Circle(*end, UNIT_R + 4, fill="none", stroke="#000000", stroke_width=3.4))
            g.append(draw.Circle(*end, UNIT_R + 4, fill="none", stroke=colour, stroke_width=2))
        elif end_mark == "diamond":
            x, y = b
            g.append(draw.Lines(x, y - 5, x + 5, y, x, y + 5, x - 5, y, close=True, fill=colour,
                                stroke="#000000", stroke_width=1.2))

    @staticmethod
    def hold_mark(g, at, colour):
        x, y = at
        r = UNIT_R + 5
        pts = []
        for i in range(8):
            ang = math.pi / 8 + i * math.pi / 4
            pts += [round(x + r * math.cos(ang), 1), round(y + r * math.sin(ang), 1)]
        g.append(draw.Lines(*pts, close=True, fill="none", stroke="#000000", stroke_width=4))
        g.append(draw.Lines(*pts, close=True, fill="none", stroke=colour, stroke_width=2.2))

    @staticmethod
    def convoy_mark(g, at):
        x, y = at
        g.append(draw.Path(f"M{x - 8},{y + 13} q4,-4 8,0 q4,4 8,0", fill="none", stroke="#FFFFFF",
                           stroke_width=4))
        g.append(draw.Path(f"M{x - 8},{y + 13} q4,-4 8,0 q4,4 8,0", fill="none", stroke="#000000",
                           stroke_width=2))

    @staticmethod
    def x_mark(g, at, half: float, strokes):
        """An X of ``2 * half`` across at ``at``, drawn once per (colour, width) of ``strokes`` (a halo first)."""
        x, y = at
        for stroke, width in strokes:
            g.append(draw.Line(x - half, y - half, x + half, y + half, stroke=stroke, stroke_width=width))
            g.append(draw.Line(x - half, y + half, x + half, y - half, stroke=stroke, stroke_width=width))

    @staticmethod
    def cross(g, at):
        Map.x_mark(g, at, 10, (("#FFFFFF", 6), ("#B00020", 3)))

    @staticmethod
    def build_mark(g, at):
        x, y = at
        g.append(draw.Circle(x, y, UNIT_R + 6, fill="none", stroke="#000000", stroke_width=2,
                             stroke_dasharray="4,3"))
        g.append(draw.Text("+", 14, x + UNIT_R + 6, y - UNIT_R - 2, font_weight="bold", fill="#000000",
                           stroke="#FFFFFF", stroke_width=2.5, paint_order="stroke"))

    @staticmethod
    def failed_mark(g, at):
        Map.x_mark(g, at, 5, (("#FFFFFF", 5), ("#000000", 2.6)))

    @staticmethod
    def bounce_mark(parent, prov):
        x, y = point(prov)
        x, y = x + 14, y + 12
        pts = []
        for i in range(16):
            r = 9 if i % 2 == 0 else 4
            ang = i * math.pi / 8
            pts += [round(x + r * math.cos(ang), 1), round(y + r * math.sin(ang), 1)]
        g = draw.Group(data_bounce=prov)
        g.append_title(f"standoff in {BOARD.provinces[prov].name}")
        g.append(draw.Lines(*pts, close=True, fill="#FFFFFF", stroke="#000000", stroke_width=1.6))
        parent.append(g)

    # -- title and legend --------------------------------------------------------
    def title_bar(self):
        d = self.d
        d.append(draw.Rectangle(0, 0, self.width, TITLE_H, fill="#2F2A22"))
        text = phase_title(self.phase)
        if self.title:
            text = f"{self.title} — {text}"
        d.append(draw.Text(text, 22, 16, 30, fill="#FFFFFF", font_weight="bold"))
        d.append(draw.Text(f"variant: {self.variant}", 13, self.width - 16, 28, fill="#E8E0CC",
                           text_anchor="end"))

    def legend(self):
        top = TITLE_H + self.map_h
        g = draw.Group(font_size=12.5, fill=palette.INK)
        g.append(draw.Rectangle(0, top, self.width, LEGEND_H, fill="#FAF8F2", stroke=palette.BORDER))
        counts = {p: len(c) for p, c in (self.position.get("centers") or {}).items()}
        x, y = 16, top + 24
        g.append(draw.Text("Powers (supply centres)", 13, x, y, font_weight="bold"))
        for i, power in enumerate(BOARD.powers):
            px, py = x + (i % 4) * 150, y + 22 + (i // 4) * 24
            g.append(draw.Rectangle(px, py - 11, 16, 14, fill=palette.colour(power), stroke="#000000"))
            g.append(draw.Text(f"{power.title()} ({counts.get(power, 0)})", 12.5, px + 22, py))
        x0 = 640
        g.append(draw.Text("Marks", 13, x0, y, font_weight="bold"))
        samples = [("move", "arrow"), ("support", "support"), ("convoy", "convoy"), ("hold", "hold"),
                   ("retreat", "retreat"), ("build", "build"), ("disband", "disband"),
                   ("failed order", "failed"), ("standoff", "bounce"), ("dislodged unit", "dislodged")]
        for i, (label, kind) in enumerate(samples):
            px, py = x0 + (i % 3) * 185, y + 22 + (i // 3) * 24
            self.legend_sample(g, kind, px, py - 4)
            g.append(draw.Text(label, 12.5, px + 44, py))
        unplaced = self.unplaced
        if unplaced:
            ty = top + 122
            items = draw.Group(data_layer="unplaced")
            items.append(draw.Text("Not on the map:", 12.5, 16, ty, font_weight="bold"))
            tx = 140
            for o in unplaced:
                label = f"{o.power.title()}: {o.text} ({o.outcome})"
                t = draw.Text(label, 12.5, tx, ty, data_order=_attr(o.text), data_power=_attr(o.power),
                              data_outcome=_attr(o.outcome))
                items.append(t)
                tx += 7 * len(label) + 18
            g.append(items)
        self.d.append(g)

    def legend_sample(self, g, kind, x, y):
        grey = "#777777"
        s = draw.Group()
        if kind == "arrow":
            self.arrow(s, Course.between((x - 8, y), (x + 46, y), 11, 11), grey)
        elif kind == "retreat":
            self.arrow(s, Course.between((x - 8, y), (x + 46, y), 11, 11), grey, retreat=True)
        elif kind == "support":
            self.line(s, (x - 10, y), (x + 34, y), grey, "6,4", end_mark="dot")
        elif kind == "convoy":
            self.line(s, (x - 10, y - 4), (x + 34, y - 4), grey, "1.5,4", end_mark="diamond")
            self.convoy_mark(s, (x + 4, y - 10))
        elif kind == "hold":
            self.hold_mark(s, (x + 14, y), grey)
            s.append(draw.Circle(x + 14, y, 6, fill=grey, stroke="#000000"))
        elif kind == "build":
            s.append(draw.Circle(x + 14, y, 6, fill=grey, stroke="#000000", stroke_dasharray="3,2"))
            self.build_mark(s, (x + 14, y))
        elif kind == "disband":
            s.append(draw.Circle(x + 14, y, 6, fill=grey, stroke="#000000"))
            self.cross(s, (x + 14, y))
        elif kind == "failed":
            s.args["opacity"] = "0.6"
            self.arrow(s, Course.between((x - 8, y), (x + 46, y), 11, 11), grey)
            self.failed_mark(s, (x + 26, y))
        elif kind == "bounce":
            pts = []
            for i in range(16):
                r = 9 if i % 2 == 0 else 4
                pts += [round(x + 14 + r * math.cos(i * math.pi / 8), 1),
                        round(y + r * math.sin(i * math.pi / 8), 1)]
            s.append(draw.Lines(*pts, close=True, fill="#FFFFFF", stroke="#000000", stroke_width=1.6))
        elif kind == "dislodged":
            s.append(draw.Circle(x + 14, y, 7, fill=grey, stroke="#B00020", stroke_width=1.8,
                                 stroke_dasharray="3,2"))
        g.append(s)


# what XML 1.0 cannot hold (outside its Char production): control characters but tab, LF and CR,
# unpaired surrogates, U+FFFE and U+FFFF
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(document: str) -> str:
    """``document`` with every character XML cannot hold made U+FFFD: whatever a title, a name or an
    order holds, the SVG written is well-formed."""
    return _NOT_XML.sub("\ufffd", document)


def _attr(value: str) -> str:
    """An attribute value escaped for XML: drawsvg writes attribute values as they are, and an
    order the engine could not read comes back as the text the player sent."""
    return xml_escape(str(value), {'"': "&quot;"})


def _unit(text: str) -> tuple[str, str]:
    parts = str(text).upper().split()
    if len(parts) != 2:
        return "", ""
    return parts[0], parts[1]


#: a province's centre stands at least this far inside it (maps.build_geometry)
CENTRE_MARGIN = 6
SEA_CENTRES = frozenset(point(p) for p in GEOMETRY["provinces"] if BOARD.is_sea(p))


def convoy_waypoints(start, src: str, dst: str, route: tuple[str, ...]) -> list | None:
    """The points a move by convoy is drawn through: its unit, then for each sea of
    its route the way across the shore into it and the sea's centre, the way out
    of the last sea, and the destination.  None when the route is not one of seas
    the map can draw."""
    provinces = [src[:3], *route, dst[:3]]
    ways = [_crossing(a, b) for a, b in zip(provinces, provinces[1:])]
    if not route or None in ways:
        return None
    out = [start, *ways[0]]
    for sea, way in zip(route, ways[1:]):
        out += [point(sea), *way]
    return out + [point(dst)]


def _crossing(a: str, b: str) -> list | None:
    """The points of the way from province ``a`` into ``b`` (build_geometry's passages), drawn below the title."""
    way = GEOMETRY["passages"].get(f"{a}-{b}" if a < b else f"{b}-{a}")
    if way is None:
        return None
    return [(x, round(y + TITLE_H, 1)) for x, y in (way if a < b else way[::-1])]


def _middle(a, b):
    return round((a[0] + b[0]) / 2, 2), round((a[1] + b[1]) / 2, 2)


def _toward(a, b, dist):
    """The point ``dist`` from ``a`` towards ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    dist = min(dist, n / 2)
    return round(a[0] + dx / n * dist, 1), round(a[1] + dy / n * dist, 1)
