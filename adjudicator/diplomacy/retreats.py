"""Retreat phase (spec 9): options, orders, resolution."""
from __future__ import annotations

from typing import Final

from .board import BOARD
from .codes import Code, not_carried_out
from .orders import REPEAT, SEVERAL, OrderError, parse, written
from .position import Position, Unit, make_unit


#: (location, its province) of the places each unit could retreat to, sorted:
#: an army's by province, a fleet's by location
_ARMY_REACH: Final = {p: [(n, n) for n in sorted(ns)] for p, ns in BOARD.army_adj.items()}
_FLEET_REACH: Final = {loc: [(n, n[:3]) for n in sorted(ns)] for loc, ns in BOARD.fleet_adj.items()}


def retreat_options(unit: Unit, attacked_from: str | None, occupied, contested,
                    impassable, into: str | None = None) -> list[str]:
    """Locations a dislodged unit may retreat to (spec 9.1, 9.2); with ``into``,
    only those in that province."""
    cands = _ARMY_REACH[unit.prov] if unit.type == "A" else _FLEET_REACH.get(unit.loc, [])
    return [loc for loc, prov in cands
            if (into is None or prov == into) and prov not in occupied
            and prov != attacked_from and prov not in contested and prov not in impassable]


class RetreatOrder:
    __slots__ = ("kind", "unit", "dest", "text", "reason", "canon")
    kind: str  # "R" | "D"
    unit: Unit
    dest: str | None
    text: str | None
    reason: str | None
    canon: str

    def __init__(self, kind: str, unit: Unit, dest: str | None = None, text: str | None = None,
                 reason: str | None = None):
        self.kind, self.unit, self.dest, self.text, self.reason = kind, unit, dest, text, reason
        if kind == "R":
            self.canon = f"{unit.name} R {dest}"
        else:
            self.canon = f"{unit.name} D"


class _Given:
    """One order as given: its power, the unit's order (None when it names
    no unit of the power's that was dislodged), its text, why it fails or None."""

    __slots__ = ("power", "order", "text", "reason")
    power: str
    order: RetreatOrder | None
    text: str
    reason: str | None

    def __init__(self, power: str, order: RetreatOrder | None, text: str, reason: str | None):
        self.power, self.order, self.text, self.reason = power, order, text, reason


class Retreats:
    def __init__(self, pos: Position):
        self.pos = pos
        #: the places of the dislodged units worked out so far, by province
        self.options: dict[str, list[str]] = {}

    def places(self, prov: str) -> list[str]:
        """Where the unit dislodged from ``prov`` may retreat to."""
        found = self.options.get(prov)
        if found is None:
            pos = self.pos
            unit, af = pos.dislodged[prov]
            if unit.power in pos.neutral:
                found = []  # neutral units never retreat (spec 13.1)
            else:
                found = retreat_options(unit, af, pos.units, pos.contested, pos.impassable)
            self.options[prov] = found
        return found

    def _places_in(self, prov: str, into: str) -> list[str]:
        """The places in province ``into`` the unit dislodged from ``prov`` may
        retreat to (an order names one province: the others need not be looked at)."""
        pos = self.pos
        unit, af = pos.dislodged[prov]
        if unit.power in pos.neutral:
            return []  # neutral units never retreat (spec 13.1)
        return retreat_options(unit, af, pos.units, pos.contested, pos.impassable, into)

    def check(self, text: str, power: str) -> RetreatOrder:
        parsed = parse(text)
        loc = parsed.loc  # None only for a waive
        if parsed.kind not in ("M", "R", "D") or loc is None:
            raise OrderError("not an order for a retreat phase")
        prov = loc[:3]
        entry = self.pos.dislodged.get(prov)
        if entry is None:
            raise OrderError(f"no dislodged unit in {prov}")
        unit = entry[0]
        if unit.power != power:
            raise OrderError(f"the dislodged unit in {prov} belongs to {unit.power}")
        if parsed.kind == "D":
            return RetreatOrder("D", unit, text=text)
        if parsed.via:
            raise OrderError("retreats cannot be convoyed")
        dest = parsed.dest or ""  # a move or retreat always names one
        dprov = dest[:3]
        cands = self._places_in(prov, dprov)
        if unit.type == "F" and dprov in BOARD.coasts and len(dest) > 3:
            cands = [o for o in cands if o == dest]
        if len(cands) == 1:
            return RetreatOrder("R", unit, cands[0], text=text)
        if len(cands) > 1:
            raise OrderError(f"coast of {dprov} not given")
        raise OrderError(f"{unit} cannot retreat to {dest}")

    def run(self) -> tuple[list[dict], dict[str, Unit]]:
        """Returns (results, moved): one result per order given, in order, then a
        disband for each dislodged unit not ordered; the units that retreated, by
        the province they left."""
        pos = self.pos
        given: list[_Given] = []
        by_unit: dict[str, list[_Given]] = {}  # the orders naming each dislodged unit
        for power in pos.ordering():
            for raw in pos.orders[power]:
                text = raw.strip()
                try:
                    legal = self.check(text, power)
                except OrderError as err:
                    g = _Given(power, None, text, str(err))
                    given.append(g)
                    d = self._named_unit(text, power)
                    if d is not None:
                        g.order = RetreatOrder("D", d, text=text, reason=str(err))
                        by_unit.setdefault(d.prov, []).append(g)
                    continue
                g = _Given(power, legal, text, None)
                given.append(g)
                prov = legal.unit.prov
                if prov in by_unit:
                    by_unit[prov].append(g)
                else:
                    by_unit[prov] = [g]
        targets: dict[str, int] = {}  # province -> the chosen retreats into it
        for gs in by_unit.values():
            first = gs[0]
            if len(gs) > 1:
                _several(gs)
            if first.reason is None and first.order is not None and first.order.kind == "R":
                dprov = (first.order.dest or "")[:3]
                targets[dprov] = targets.get(dprov, 0) + 1
        results: list[dict] = []
        moved: dict[str, Unit] = {}
        for g in given:
            power, o, reason = g.power, g.order, g.reason
            if reason is not None:
                if reason is REPEAT and o is not None:
                    results.append(_result(power, o.canon, "fails", REPEAT, o, Code.REPEAT))
                    continue
                shown = g.text
                try:
                    shown = written(parse(shown), o.unit if o is not None else None) or shown
                except OrderError:
                    pass
                results.append(_result(power, shown, "invalid", reason, o, not_carried_out(reason)))
            elif o is not None and o.kind == "R":
                dest = o.dest or ""
                if targets[dest[:3]] > 1:
                    results.append(_result(power, o.canon, "fails",
                                           f"bounced: several units retreated to {dest[:3]}", o,
                                           Code.BOUNCED))
                else:
                    results.append(_result(power, o.canon, "succeeds", None, o, None))
                    u = o.unit
                    moved[u.prov] = make_unit(u.power, u.type, dest)
            elif o is not None:
                results.append(_result(power, o.canon, "succeeds", None, o, None))
        for prov, (unit, _af) in pos.dislodged.items():
            if prov not in by_unit:
                results.append({"power": unit.power, "unit": unit.name, "order": f"{unit.name} D",
                                "outcome": "succeeds"})
        return results, moved

    def _named_unit(self, text: str, power: str) -> Unit | None:
        """The power's dislodged unit an order that is not legal names, if any."""
        try:
            loc = parse(text).loc
        except OrderError as err:
            loc = err.loc
        d = self.pos.dislodged.get(loc[:3]) if loc else None
        return d[0] if d is not None and d[0].power == power else None


def _several(gs: list[_Given]) -> None:
    """A unit's orders when it was given more than one: an identical repeat of a
    legal one counts once (REPEAT); different ones are all invalid (spec 7.8f)."""
    keys: set[str] = set()
    for g in gs:
        o = g.order
        k = o.canon if g.reason is None and o is not None else "invalid:" + g.text
        if k not in keys:
            keys.add(k)
        elif g.reason is None:
            g.reason = REPEAT
    if len(keys) > 1:
        for g in gs:
            g.reason = SEVERAL


def _result(power: str, order: str, outcome: str, reason: str | None, o: RetreatOrder | None,
            code: str | None) -> dict:
    r: dict = {"power": power}
    if o is not None:
        r["unit"] = o.unit.name
    r["order"] = order
    r["outcome"] = outcome
    if reason is not None:
        r["reason"] = reason
        r["code"] = code
    return r
