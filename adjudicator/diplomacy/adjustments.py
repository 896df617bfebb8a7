"""Winter adjustments (spec 11) and civil-disorder removals (spec 12.4)."""
from __future__ import annotations

import re
from itertools import chain
from typing import Final

from .board import BOARD
from .codes import Code
from .orders import REPEAT, OrderError, Parsed, parse, written
from .position import Position, Unit, make_unit


def adjustment_counts(units_by_power: dict[str, list[Unit]], centers: dict[str, list[str]],
                      neutral, occupied=None) -> dict[str, int]:
    """Builds (+) a power can actually make, or disbands (-) it owes, by power
    in the order of ``units_by_power`` then ``centers``.  ``occupied``: the
    provinces units stand on (any container), when the caller has them."""
    out: dict[str, int] = {}
    for power, us in units_by_power.items():
        owned = centers.get(power)
        n = (len(owned) if owned is not None else 0) - len(us)
        if n > 0 and owned is not None:
            if occupied is None:
                occupied = {u.prov for us in units_by_power.values() for u in us}
            n = _builds(power, n, owned, neutral, occupied)
        if n:
            out[power] = n
    for power, cs in centers.items():
        if cs and power not in units_by_power:
            if occupied is None:
                occupied = {u.prov for us in units_by_power.values() for u in us}
            n = _builds(power, len(cs), cs, neutral, occupied)
            if n:
                out[power] = n
    return out


_HOME_CENTERS: Final = {p: frozenset(hs) for p, hs in BOARD.home_centers.items()}


def _builds(power: str, n: int, owned: list[str], neutral, occupied) -> int:
    """The builds a power with ``n`` more centres than units can make: one per
    home centre it owns with no unit on it; none for a neutral power (spec 13.1)."""
    if power in neutral:
        return 0
    homes = _HOME_CENTERS[power]
    free = 0
    for c in owned:  # each centre once (read_position)
        if c in homes and c not in occupied:
            free += 1
    return min(n, free)


#: province -> its English name in lower-case letters only (the alphabetical tie-break)
_NAME_KEY: Final = {p: re.sub(r"[^a-z]", "", v.name.lower()) for p, v in BOARD.provinces.items()}


def removal_order(power: str, units: list[Unit], owned: list[str], mode: str) -> list[Unit]:
    """Units in the order civil disorder removes them (spec 12.4, E17).

    Furthest first (distance to the nearest home centre, or owned centre when
    ``mode`` is "owned"), fleets before armies, then the province's English
    name alphabetically (letters only).
    """
    if mode == "home":
        armies, fleets = BOARD.home_distances(power, "A"), BOARD.home_distances(power, "F")
        keyed = [((-(fleets if u.type == "F" else armies).get(u.loc, _UNREACHABLE),
                   0 if u.type == "F" else 1, _NAME_KEY[u.prov]), i)
                 for i, u in enumerate(units)]
    else:
        targets = tuple(owned)
        keyed = [(_removal_key(u, targets, mode), i) for i, u in enumerate(units)]
    keyed.sort()  # the index breaks no tie the key leaves (one unit a province)
    return [units[i] for _key, i in keyed]


#: the distance of a unit that reaches no target
_UNREACHABLE: Final = 10_000


def _removal_key(u: Unit, targets: tuple[str, ...], mode: str) -> tuple[int, int, str]:
    dist = BOARD.distances(u.type, u.loc, mode)
    d = _UNREACHABLE
    for t in targets:
        x = dist.get(t)
        if x is not None and x < d:
            d = x
    return (-d, 0 if u.type == "F" else 1, _NAME_KEY[u.prov])


#: power -> build order as written -> (the unit built, the order as the engine writes it)
_built: Final[dict[str, dict[str, tuple[Unit, str]]]] = {p: {} for p in BOARD.powers}


def _build(power: str, utype: str | None, ploc: str) -> Unit:
    """The unit a build at ``ploc`` makes: of the type it names, or implies (an
    army inland, a fleet on a coast it names)."""
    prov = ploc[:3]
    kind = BOARD.provinces[prov].kind
    if utype is None:
        if kind == "inland":
            utype = "A"
        elif len(ploc) > 3:
            utype = "F"
        else:
            raise OrderError("unit type not given")
    if utype == "A":
        return make_unit(power, "A", prov)
    if kind == "inland":
        raise OrderError("a fleet cannot be built inland")
    if prov in BOARD.coasts:
        if len(ploc) == 3:
            raise OrderError(f"coast of {prov} not given")
        if ploc not in BOARD.coasts[prov]:
            raise OrderError(f"{ploc} is not a coast")
        return make_unit(power, "F", ploc)
    return make_unit(power, "F", prov)


class Adjustments:
    def __init__(self, pos: Position):
        self.pos = pos
        self.counts = adjustment_counts(pos.power_units, pos.centers, pos.neutral, pos.units)

    def _check(self, text: str, power: str, n: int
               ) -> tuple[tuple[str, Unit | None, str], Parsed]:
        p = parse(text)
        pos = self.pos
        if p.kind == "W":
            if n <= 0:
                raise OrderError("no build to waive")
            return ("W", None, "WAIVE"), p
        ploc = p.loc or ""  # every order but a waive names a place
        if p.kind == "H" and p.bare:  # a unit alone: disband if it is there, else build
            u = pos.units.get(ploc[:3])
            p = p._replace(kind="D" if u is not None else "B")
        if p.kind == "D":
            u = pos.units.get(ploc[:3])
            if u is None:
                raise OrderError(f"no unit in {ploc[:3]}")
            if u.power != power:
                raise OrderError(f"the unit in {u.prov} belongs to {u.power}")
            if n >= 0:
                raise OrderError(f"{power} has no disbands to make")
            return ("D", u, f"{u.name} D"), p
        if p.kind != "B":
            raise OrderError("not an order for an adjustment phase")
        prov = ploc[:3]
        if power in pos.neutral:
            raise OrderError(f"{power} is neutral and never builds")
        if n <= 0:
            raise OrderError(f"{power} has no builds to make")
        if BOARD.provinces[prov].home != power:
            raise OrderError(f"{prov} is not a home centre of {power}")
        if prov not in pos.centers.get(power, ()):
            raise OrderError(f"{power} does not own {prov}")
        if prov in pos.units:
            raise OrderError(f"{prov} is occupied")
        built = _built[power]
        hit = built.get(text)
        if hit is None:
            u = _build(power, p.utype, ploc)
            hit = (u, f"{u.name} B")
            if len(built) < 5_000:
                built[text] = hit
        return ("B", hit[0], hit[1]), p

    def run(self) -> tuple[list[dict], dict[str, list[Unit]]]:
        """Returns (results, new units by power).

        One result per order, in the order given, then the civil-disorder
        disbands (spec 11.2, 12.4) of every power that ordered too few.
        """
        pos = self.pos
        counts = self.counts
        results: list[dict] = []
        forced: list[dict] = []
        units = dict(pos.power_units)  # a power's list is the request's until it changes
        for power in pos.ordering(counts):
            n = counts.get(power, 0)
            used = 0
            built: list[Unit] = []
            disbanded: set[str] = set()
            for raw in pos.orders.get(power, ()):
                text = raw.strip()
                try:
                    (kind, u, canon), _p = self._check(text, power, n)
                except OrderError as err:
                    shown = text
                    try:
                        shown = written(parse(text)) or text
                    except OrderError:
                        pass
                    results.append({"power": power, "order": shown, "outcome": "invalid",
                                    "reason": str(err), "code": Code.INVALID})
                    continue
                r: dict = {"power": power}
                if u is not None:
                    r["unit"] = u.name
                r["order"] = canon
                if kind == "B" and u is not None and _building(built, u.prov):  # spec 11.3, DATC 6.I.7
                    r["outcome"] = "fails"
                    r["reason"] = f"already building in {u.prov}"
                    r["code"] = Code.ALREADY_BUILDING
                elif kind == "D" and u is not None and u.prov in disbanded:
                    r["outcome"] = "fails"
                    r["reason"] = REPEAT
                    r["code"] = Code.REPEAT
                elif used >= abs(n):
                    r["outcome"] = "fails"
                    r["reason"] = "more " + ("builds" if n > 0 else "disbands") + " than allowed"
                    r["code"] = Code.TOO_MANY
                else:  # each WAIVE waives one build
                    used += 1
                    r["outcome"] = "succeeds"
                    if u is not None:
                        if kind == "B":
                            built.append(u)
                        elif kind == "D":
                            disbanded.add(u.prov)
                results.append(r)
            if built:
                units[power] = [*units.get(power, ()), *built]
            elif n < 0 and used < -n:  # too few disbands: civil disorder (spec 11.2, 12.4)
                left = [u for u in units.get(power, []) if u.prov not in disbanded]
                order = removal_order(power, left, pos.centers.get(power, []), pos.distance_rule)
                for u in order[: -n - used]:
                    disbanded.add(u.prov)
                    forced.append({"power": power, "unit": u.name, "order": f"{u.name} D",
                                   "outcome": "succeeds"})
            if disbanded:
                units[power] = [u for u in units[power] if u.prov not in disbanded]
        results.extend(forced)
        return results, units


def _building(built: list[Unit], prov: str) -> bool:
    """Is a build already ordered in ``prov``?"""
    for b in built:
        if b.prov == prov:
            return True
    return False
