"""The position a phase starts from, read from a contract request.

:func:`read_position` checks the request's shape and raises
:class:`RequestError` (with the offending ``field``) when the request itself is
malformed.  Bad *orders* are never a request error.
"""
from __future__ import annotations

import re
from itertools import chain
from typing import Final

from .board import BOARD
from .variants import VARIANT_TABLE, Variant


class RequestError(ValueError):
    """The request is malformed; ``field`` names where (``units.ENGLAND[2]``)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class Unit:
    """A unit on the board.  A plain class with slots rather than a named
    tuple: its fields are read on every step of an adjudication, and slot
    reads are the fast ones.  Equal when power, type and location are."""

    __slots__ = ("power", "type", "loc", "prov", "name", "center")

    def __init__(self, power: str, type: str, loc: str, prov: str, name: str):
        self.power = power
        self.type = type  # "A" | "F"
        self.loc = loc  # province, or coast for a fleet in a two-coast province
        self.prov = prov  # loc without the coast
        self.name = name  # "F STP/SC"
        self.center = prov in BOARD.supply_centers  # it stands on a supply centre

    def __eq__(self, other) -> bool:
        return self is other or (type(other) is Unit and self.power == other.power
                                 and self.name == other.name)

    def __hash__(self) -> int:
        return hash((self.power, self.name))

    def __repr__(self) -> str:
        return f"Unit({self.power!r}, {self.type!r}, {self.loc!r})"

    def __str__(self) -> str:
        return self.name


_made: Final[dict[tuple, Unit]] = {}
#: power -> name -> unit, for every unit made so far: a unit as the engine writes it
_named: Final[dict[str, dict[str, Unit]]] = {p: {} for p in BOARD.powers}


def make_unit(power: str, utype: str, loc: str) -> Unit:
    """The unit (one shared object per power, type and location)."""
    key = (power, utype, loc)
    u = _made.get(key)
    if u is None:
        u = Unit(power, utype, loc, loc[:3], f"{utype} {loc}")
        if len(_made) < 10_000:
            _made[key] = u
            if power in _named:
                _named[power][u.name] = u
    return u


SUPPLY_CENTERS: Final = BOARD.supply_centers
#: supply centre -> a bit of its own (a set of centres in one int)
_CENTER_BIT: Final[dict[str, int]] = {c: 1 << i for i, c in enumerate(sorted(SUPPLY_CENTERS))}
#: variant -> phase name -> (phase, season, year, type, neutral powers, impassable provinces)
_phases_of: Final[dict[str, dict[str, tuple]]] = {name: {} for name in VARIANT_TABLE}
_PHASE: Final = re.compile(r"^([SFW])(\d{4})([MRA])$")
CONVOY_RULES: Final = ("2000", "1971")
#: the last year of any game: the last one with four digits
LAST_YEAR: Final = 9999
DISTANCE_RULES: Final = ("home", "owned")


class Position:
    """A request-shaped position, checked.  Plain attributes, no copying."""

    __slots__ = ("variant", "phase", "season", "year", "type", "units", "power_units", "centers",
                 "dislodged", "contested", "orders", "convoy_rule", "distance_rule",
                 "italy_joins", "neutral", "impassable", "names")
    variant: Variant
    phase: str  # "S1901M"
    season: str
    year: int
    type: str  # "M" | "R" | "A"
    units: dict[str, Unit]  # province -> unit
    power_units: dict[str, list[Unit]]
    #: the request's units, when each is written as the engine writes it (else None):
    #: a power's list of names, for a next position where its units are the same
    names: dict[str, list[str]] | None
    centers: dict[str, list[str]]
    dislodged: dict[str, tuple[Unit, str | None]]  # province -> (unit, attacked from)
    contested: set[str]
    orders: dict[str, list[str]]
    convoy_rule: str
    distance_rule: str
    italy_joins: int | None
    neutral: frozenset[str]
    impassable: frozenset[str]

    def ordering(self, also: dict[str, int] | None = None) -> list[str]:
        """The powers that gave orders, and those in ``also``, in a stable
        order: as the request first names them in units, then in centres,
        then in orders."""
        wanted: dict = self.orders if not also else {**self.orders, **also}
        if len(wanted) < 2:
            return list(wanted)
        out = [p for p in self.power_units if p in wanted]
        if len(out) < len(wanted):
            out += [p for p in self.centers if p in wanted and p not in out]
            if len(out) < len(wanted):
                out += [p for p in wanted if p not in out]
        return out


#: power -> unit string as written -> Unit, for the strings read so far
_units_of: Final[dict[str, dict[str, Unit]]] = {p: {} for p in BOARD.powers}


def parse_unit(text, field, power: str, index: int | None = None) -> Unit:
    """``field`` is the error field, or with ``index`` the power key (built lazily)."""
    known = _units_of[power]
    hit = known.get(text) if isinstance(text, str) else None
    if hit is None:
        utype, loc = _parse_unit(text)
        if utype is None:
            raise RequestError(loc, field if index is None else f"units.{field}[{index}]")
        hit = make_unit(power, utype, loc)
        if len(known) < 5_000:
            known[text] = hit
    return hit


def _parse_unit(text) -> tuple:
    """(type, location) or (None, error message)."""
    if not isinstance(text, str):
        return None, "a unit must be a string like 'A PAR' or 'F STP/SC'"
    parts = text.strip().upper().split()
    if len(parts) != 2 or parts[0] not in ("A", "F"):
        return None, f"bad unit {text!r}: expected 'A PAR' or 'F STP/SC'"
    utype, loc = parts
    prov = loc[:3]
    if prov not in BOARD.provinces or (len(loc) > 3 and loc not in BOARD.locations):
        return None, f"unknown province in unit {text!r}"
    kind = BOARD.provinces[prov].kind
    if utype == "A":
        if kind == "sea":
            return None, f"an army cannot stand in a sea province: {text!r}"
        loc = prov
    else:
        if kind == "inland":
            return None, f"a fleet cannot stand in an inland province: {text!r}"
        if prov in BOARD.coasts and loc == prov:
            return None, f"a fleet in {prov} must name its coast: {text!r}"
    return utype, loc


_POWERS: Final = frozenset(BOARD.powers)


def _power(p, section: str, variant: Variant) -> str:
    if p in _POWERS:
        return p
    if not isinstance(p, str) or p.upper() not in _POWERS:
        raise RequestError(f"unknown power {p!r}", f"{section}.{p}")
    return p.upper()


def _dict(req: dict, key: str) -> dict:
    v = req.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise RequestError(f"{key} must be an object", key)
    return v


def _list(v, field: str) -> list:
    if not isinstance(v, list):
        raise RequestError(f"{field} must be a list", field)
    return v


def read_position(req) -> Position:
    if type(req) is not dict and not isinstance(req, dict):
        raise RequestError("the request must be a JSON object", None)
    pos = Position()
    name = req.get("variant")
    if name is None:
        name = "standard"
    variant = VARIANT_TABLE.get(name) if isinstance(name, str) else None
    if variant is None:
        raise RequestError(f"unknown variant {name!r}", "variant")
    pos.variant = variant

    rules = req.get("rules")
    if rules:
        pos.convoy_rule, pos.distance_rule, pos.italy_joins = _rules(rules, variant)
    elif rules is None or type(rules) is dict:
        pos.convoy_rule, pos.distance_rule, pos.italy_joins = "2000", "home", None
    else:
        raise RequestError("rules must be an object", "rules")

    phase = req.get("phase")
    hit = _phases_of[name].get(phase) if type(phase) is str else None
    if hit is None:
        hit = _phase(phase, name, variant)
    pos.phase, pos.season, pos.year, pos.type, pos.neutral, pos.impassable = hit

    given = req.get("units")
    units: dict[str, Unit] = {}
    power_units = _units_seen_before(given, units)
    pos.names = given if power_units is not None else None
    if power_units is None:
        power_units = _read_units(req, variant)
        units = {u.prov: u for us in power_units.values() for u in us}
        if len(units) != sum([len(us) for us in power_units.values()]):  # two units in one province
            _two_units(req, variant)
    pos.units = units
    pos.power_units = power_units

    centers = _centers_seen_before(req.get("centers"))
    pos.centers = centers if centers is not None else _read_centers(req, variant)

    if pos.type == "R":
        pos.dislodged, pos.contested = _read_dislodged(req, variant)
    else:
        pos.dislodged, pos.contested = {}, set()

    orders: dict[str, list[str]] = {}
    for p, lst in _dict(req, "orders").items():
        power = p if p in _POWERS else _power(p, "orders", variant)
        try:
            "".join(lst)  # a quick test that lst is a list of strings (TypeError if not)
            ok = type(lst) is list
        except TypeError:
            ok = False
        if not ok:
            for i, o in enumerate(_list(lst, f"orders.{p}")):
                if not isinstance(o, str):
                    raise RequestError("an order must be a string", f"orders.{p}[{i}]")
        orders[power] = orders[power] + lst if power in orders else lst  # never altered
    pos.orders = orders
    return pos


def _rules(rules, variant: Variant) -> tuple[str, str, int | None]:
    """(convoy rule, civil-disorder distance rule, italy_joins) of a non-empty ``rules``."""
    if not isinstance(rules, dict):
        raise RequestError("rules must be an object", "rules")
    cr = str(rules.get("convoy_disruption", "2000"))
    if cr not in CONVOY_RULES:
        raise RequestError("rules.convoy_disruption must be '2000' or '1971'",
                           "rules.convoy_disruption")
    dr = rules.get("civil_disorder_distance", "home")
    if dr not in DISTANCE_RULES:
        raise RequestError("rules.civil_disorder_distance must be 'home' or 'owned'",
                           "rules.civil_disorder_distance")
    return cr, dr, _italy_joins(rules.get("italy_joins"), variant)


def _phase(phase, name: str, variant: Variant) -> tuple:
    """(phase, season, year, type, neutral powers, impassable provinces) of a phase
    name not read before in this variant; RequestError if it is bad."""
    m = _PHASE.match(phase) if isinstance(phase, str) else None
    if not m or (m.group(1) == "W") != (m.group(3) == "A"):
        raise RequestError(f"bad phase {phase!r}: expected e.g. S1901M, F1901R, W1901A",
                           "phase")
    season, year = m.group(1), int(m.group(2))
    if year < variant.start_year:
        raise RequestError(f"bad phase {phase!r}: the {name} game starts in "
                           f"{variant.start_year}", "phase")
    if year == LAST_YEAR and season != "S":
        # the phase after it would be in year 10000 (W9999A -> S10000M)
        raise RequestError(f"bad phase {phase!r}: no phase can follow it (the game's years "
                           f"end with {LAST_YEAR})", "phase")
    ptype = m.group(3)
    hit = (f"{season}{year}{ptype}", season, year, ptype, variant.neutral_in(year, season),
           variant.impassable_in(year, season))
    cache = _phases_of[name]
    if len(cache) < 5_000:
        cache[phase] = hit
    return hit


def _read_dislodged(req, variant: Variant) -> tuple[dict[str, tuple[Unit, str | None]], set[str]]:
    """A retreat phase's dislodged units (province -> (unit, attacked from))
    and contested provinces."""
    dislodged: dict[str, tuple[Unit, str | None]] = {}
    contested: set[str] = set()
    for p, lst in _dict(req, "dislodged").items():
        power = p if p in _POWERS else _power(p, "dislodged", variant)
        if type(lst) is not list:
            _list(lst, f"dislodged.{p}")
        for i, d in enumerate(lst):
            if isinstance(d, str):
                d = {"unit": d}
            if not isinstance(d, dict):
                raise RequestError("a dislodged entry must be {'unit', 'attacked_from'}",
                                   f"dislodged.{p}[{i}]")
            u = d.get("unit")
            u = _units_of[power].get(u) if type(u) is str else None
            if u is None:
                u = parse_unit(d.get("unit"), f"dislodged.{p}[{i}].unit", power)
            af = d.get("attacked_from")
            if af is not None and (type(af) is not str or af not in BOARD.provinces):
                af = _province(af, f"dislodged.{p}[{i}].attacked_from")
            if u.prov in dislodged:
                raise RequestError(f"two dislodged units in {u.prov}", f"dislodged.{p}[{i}]")
            dislodged[u.prov] = (u, af)
    for i, c in enumerate(_list(req.get("contested") or [], "contested")):
        contested.add(c if type(c) is str and c in BOARD.provinces
                      else _province(c, f"contested[{i}]"))
    return dislodged, contested


def _units_seen_before(units, by_prov: dict[str, Unit]) -> dict[str, list[Unit]] | None:
    """Units by power when every power is written as in BOARD.powers, every
    unit as the engine writes it, made before, and no two in one province
    (the usual case), else None.  Fills ``by_prov`` (province -> unit)."""
    if type(units) is not dict:
        return None
    power_units: dict[str, list[Unit]] = dict(units)  # a copy of a dict is sized at once: each value replaced
    count = 0
    try:
        for p, lst in units.items():
            named = _named[p]
            if type(lst) is not list:
                return None
            names: list = lst
            us = [named[text] for text in names]
            power_units[p] = us
            for u in us:
                by_prov[u.prov] = u
            count += len(us)
    except (KeyError, TypeError):
        return None
    return power_units if len(by_prov) == count else None


def _centers_seen_before(centers) -> dict[str, list[str]] | None:
    """Centres by power, in new lists, when every power is written as in
    BOARD.powers and the centres are supply centres, each owned once (the
    usual case), else None."""
    if type(centers) is not dict:
        return None if centers is not None else {}
    out: dict[str, list[str]] = dict(centers)  # a copy of a dict is sized at once: each value replaced
    seen = 0  # the bits of the centres read so far
    for p, lst in centers.items():
        if p not in _POWERS or type(lst) is not list:
            return None
        cs: list = lst
        for c in cs:
            bit = _CENTER_BIT.get(c) if type(c) is str else None
            if bit is None or seen & bit:  # not a supply centre, or owned twice
                return None
            seen |= bit
        out[p] = cs[:]
    return out


def _read_units(req, variant) -> dict[str, list[Unit]]:
    """Units by power, each checked (the slow path, with the error's field)."""
    power_units: dict[str, list[Unit]] = {}
    for p, lst in _dict(req, "units").items():
        power = p if p in _POWERS else _power(p, "units", variant)
        if type(lst) is not list:
            _list(lst, f"units.{p}")
        known = _units_of[power]
        try:  # fast path: unit strings seen before
            us = [known[text] for text in lst]
        except (KeyError, TypeError):
            us = [parse_unit(text, p, power, i) for i, text in enumerate(lst)]
        power_units[power] = power_units[power] + us if power in power_units else us
    return power_units


def _province(text, field: str) -> str:
    """A province id from a loosely written one ("bur", "SPA/NC"), else RequestError."""
    prov = text.strip().upper()[:3] if isinstance(text, str) else None
    if prov not in BOARD.provinces:
        raise RequestError(f"unknown province {text!r}", field)
    return prov


def _two_units(req, variant) -> None:
    """Raise the error for the first unit standing where an earlier one stands."""
    seen: set[str] = set()
    for p, lst in req["units"].items():
        for i, text in enumerate(lst):
            prov = parse_unit(text, p, _power(p, "units", variant), i).prov
            if prov in seen:
                raise RequestError(f"two units in {prov}", f"units.{p}[{i}]")
            seen.add(prov)
    raise AssertionError("no two units share a province")  # pragma: no cover


def _read_centers(req, variant) -> dict[str, list[str]]:
    """Centres by power, each checked (the slow path, with the error's field)."""
    centers: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    for p, lst in _dict(req, "centers").items():
        power = _power(p, "centers", variant)
        out = centers.setdefault(power, [])
        for i, c in enumerate(_list(lst, f"centers.{p}")):
            if not isinstance(c, str) or c not in SUPPLY_CENTERS:
                if not isinstance(c, str) or c.strip().upper() not in SUPPLY_CENTERS:
                    raise RequestError(f"not a supply centre: {c!r}", f"centers.{p}[{i}]")
                c = c.strip().upper()
            if c in owner and owner[c] != power:
                raise RequestError(f"centre {c} owned twice", f"centers.{p}[{i}]")
            if c not in owner:
                owner[c] = power
                out.append(c)
    return centers


def _italy_joins(v, variant: Variant) -> int | None:
    """rules.italy_joins: the two-player coin toss, as the winning player's
    number (1 or 2, as in variant_info's players) or any power of that side.
    Returned as the player number."""
    if v is None or variant.italy_opens is None:
        return None
    n = len(variant.players)
    if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n:
        return v
    if isinstance(v, str):
        t = v.strip().upper()
        if t.isdigit() and 1 <= int(t) <= n:
            return int(t)
        for i, side in enumerate(variant.players, 1):
            if t in side:
                return i
    raise RequestError("rules.italy_joins must be 1, 2 or a power of that player's side",
                       "rules.italy_joins")
