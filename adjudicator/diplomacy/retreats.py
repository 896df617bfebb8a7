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
                    impassable) -> list[str]:
    """Locations a dislodged unit may retreat to (spec 9.1, 9.2)."""
    cands = _ARMY_REACH[unit.prov] if unit.type == "A" else _FLEET_REACH.get(unit.loc, [])
    return [loc for loc, prov in cands
            if prov not in occupied and prov != attacked_from
            and prov not in contested and prov not in impassable]


class RetreatOrder:
    __slots__ = ("kind", "unit", "dest", "text", "reason", "canon")

    def __init__(self, kind, unit, dest=None, text=None, reason=None):
        self.kind, self.unit, self.dest, self.text, self.reason = kind, unit, dest, text, reason
        if kind == "R":
            self.canon = f"{unit.name} R {dest}"
        else:
            self.canon = f"{unit.name} D"


class Retreats:
    def __init__(self, pos: Position):
        self.pos = pos
        self.options: dict[str, list[str]] = {}
        for prov, (unit, af) in pos.dislodged.items():
            if unit.power in pos.neutral:
                self.options[prov] = []  # neutral units never retreat (spec 13.1)
            else:
                self.options[prov] = retreat_options(unit, af, pos.units, pos.contested,
                                                     pos.impassable)

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
        opts = self.options[prov]
        dest = parsed.dest or ""  # a move or retreat always names one
        dprov = dest[:3]
        cands = [o for o in opts if o[:3] == dprov]
        if unit.type == "F" and dprov in BOARD.coasts and len(dest) > 3:
            cands = [o for o in cands if o == dest]
        if len(cands) == 1:
            return RetreatOrder("R", unit, cands[0], text=text)
        if len(cands) > 1:
            raise OrderError(f"coast of {dprov} not given")
        raise OrderError(f"{unit} cannot retreat to {dest}")

    def run(self):
        """Returns (entries, moved) where entries are (power, order-or-None, text, reason)."""
        pos = self.pos
        entries = []
        by_unit: dict[str, list] = {}
        for power in pos.ordering():
            for raw in pos.orders[power]:
                text = raw.strip()
                try:
                    o = self.check(text, power)
                except OrderError as err:
                    e = [power, None, text, str(err)]
                    entries.append(e)
                    try:
                        loc = parse(text).loc
                    except OrderError as err2:
                        loc = err2.loc
                    d = pos.dislodged.get(loc[:3]) if loc else None
                    if d is not None and d[0].power == power:
                        e[1] = RetreatOrder("D", d[0], text=text, reason=str(err))
                        by_unit.setdefault(d[0].prov, []).append(e)
                    continue
                e = [power, o, text, None]
                entries.append(e)
                by_unit.setdefault(o.unit.prov, []).append(e)
        chosen: dict[str, RetreatOrder] = {}
        for prov, es in by_unit.items():
            keys = {}
            for e in es:
                k = e[1].canon if e[3] is None else "invalid:" + e[2]
                if k not in keys:
                    keys[k] = e
                elif e[3] is None:  # an identical repeat counts once, with its own result
                    e[3] = REPEAT
            if len(keys) > 1:
                for e in es:
                    e[3] = SEVERAL
            elif es[0][3] is None:
                chosen[prov] = es[0][1]
        targets: dict[str, int] = {}
        for o in chosen.values():
            if o.kind == "R":
                targets[o.dest[:3]] = targets.get(o.dest[:3], 0) + 1
        results = []
        moved: dict[str, Unit] = {}
        seen_units = set()
        for power, o, text, reason in entries:
            if o is not None:
                seen_units.add(o.unit.prov)
            if reason is REPEAT:
                results.append(_result(power, o.canon, "fails", REPEAT, o, Code.REPEAT))
                continue
            if reason is not None:
                shown = text
                try:
                    shown = written(parse(text), o.unit if o is not None else None) or text
                except OrderError:
                    pass
                results.append(_result(power, shown, "invalid", reason, o, not_carried_out(reason)))
                continue
            if o.kind == "R":
                if targets[o.dest[:3]] > 1:
                    results.append(_result(power, o.canon, "fails",
                                           f"bounced: several units retreated to {o.dest[:3]}", o, Code.BOUNCED))
                else:
                    results.append(_result(power, o.canon, "succeeds", None, o, None))
                    moved[o.unit.prov] = make_unit(o.unit.power, o.unit.type, o.dest)
            else:
                results.append(_result(power, o.canon, "succeeds", None, o, None))
        for prov, (unit, _af) in pos.dislodged.items():
            if prov not in seen_units:
                results.append({"power": unit.power, "unit": unit.name, "order": f"{unit.name} D",
                                "outcome": "succeeds"})
        return results, moved


def _result(power, order, outcome, reason, o, code):
    r = {"power": power}
    if o is not None:
        r["unit"] = o.unit.name
    r["order"] = order
    r["outcome"] = outcome
    if reason is not None:
        r["reason"] = reason
        r["code"] = code
    return r
