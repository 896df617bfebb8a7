"""One request in, one response out: phase dispatch and the next position.

Movement -> (retreats) -> ... ; after a fall turn and its retreats centres
change hands (spec 10), the winner is checked, and the winter adjustment
phase follows if some power has something to do (spec 5.3).  Phases with
nothing to do are skipped, so ``next`` is always a phase somebody must order
(or the spring movement phase).
"""
from __future__ import annotations

from itertools import chain

from .adjustments import Adjustments, adjustment_counts
from .board import BOARD
from .codes import Code, not_carried_out
from .movement import Movement, Order, read_orders
from .orders import REPEAT, written
from .position import Position, Unit, read_position
from .retreats import Retreats, retreat_options

#: the dislodged units that can retreat: province -> (unit, attacked from, options)
Retreating = dict[str, tuple[Unit, str | None, list[str]]]


def adjudicate(request: dict) -> dict:
    pos = read_position(request)
    if pos.type == "M":
        return _movement(pos)
    if pos.type == "R":
        return _retreats(pos)
    return _adjustments(pos)


# -- movement -------------------------------------------------------------------
def _movement(pos: Position) -> dict:
    orders, entries, unordered = read_orders(pos)
    mv = Movement(pos, orders).run()
    results = _movement_results(pos, orders, entries, unordered, mv)
    new_units = _units_after(pos, orders, mv)
    retreating: Retreating = {}
    contested: set[str] = set()
    disbanded: dict[str, list[str]] = {}
    if mv.dislodged:
        retreating, contested, disbanded = _dislodged(pos, mv, new_units)
    if disbanded:
        _mark_disbanded(results, pos, disbanded)
    mv.release()
    return _after_movement(pos, results, new_units, retreating, contested, disbanded)


def _movement_results(pos: Position, orders: dict[str, Order], entries: list[list],
                      unordered: list[Unit], mv: Movement) -> list[dict]:
    """One result per order given, in order; then a hold for each unit not ordered."""
    outcome = mv.outcome
    dislodged = mv.dislodged
    succeeds = mv.resolver.resolved
    results: list[dict] = []
    append = results.append
    for e in entries:
        power, o, _text, reason, _parsed = e
        if reason is None:  # the unit's legal order
            prov = o.prov
            if prov not in dislodged and (o.kind == "H" or succeeds[prov]):
                r = {"power": power, "unit": o.unit.name, "order": o.canon, "outcome": "succeeds"}
                if o.via:
                    _add_route(r, mv.route(o))
                append(r)
            else:
                result, why, code = outcome(o)
                r = {"power": power, "unit": o.unit.name, "order": o.canon,
                     "outcome": result, "reason": why, "code": code}
                if o.via:
                    _add_route(r, mv.route(o))
                append(r)
        elif reason is REPEAT:  # the unit's order is the first of these (spec 7.8f)
            append({"power": power, "unit": o.unit.name, "order": orders[o.prov].canon,
                    "outcome": "fails", "reason": REPEAT, "code": Code.REPEAT})
        else:
            append(_invalid_result(pos, e, dislodged))
    for u in unordered:  # in the order of the request's units
        result, why, code = outcome(orders[u.prov])
        r = {"power": u.power, "unit": u.name, "order": f"{u.name} H", "outcome": result}
        if why is not None:
            r["reason"], r["code"] = why, code
        append(r)
    return results


def _add_route(result: dict, route: list[str] | None) -> None:
    """A move by convoy's result names the seas it went through, when it had a route."""
    if route is not None:
        result["route"] = route


def _invalid_result(pos: Position, e: list, dislodged: dict[str, Order]) -> dict:
    power, o, text, reason = e[0], e[1], e[2], e[3]
    r = {"power": power}
    if o is not None:
        r["unit"] = o.unit.name
    shown = None
    parsed = e[4]
    if parsed is not None:
        unit = o.unit if o is not None else None
        target = pos.units.get(parsed.tloc[:3]) if parsed.tloc else None
        try:
            shown = written(parsed, unit, target)
        except Exception:  # pragma: no cover - display only
            shown = None
    r["order"] = shown or text
    if o is not None and o.prov in dislodged:
        a = dislodged[o.prov]
        r["outcome"] = "dislodged"
        r["reason"] = f"order invalid ({reason}); dislodged by {a.unit} from {a.prov}"
        r["code"] = Code.DISLODGED
    else:
        r["outcome"] = "invalid"
        r["reason"] = reason
        r["code"] = not_carried_out(reason)
    return r


def _units_after(pos: Position, orders: dict[str, Order], mv: Movement) -> dict[str, list[Unit]]:
    """The units after movement, by power: the dislodged gone, the movers moved."""
    new_units: dict[str, list[Unit]] = {}
    gone = mv.dislodged
    moved = {m.prov: m.moved for m in mv.arrived.values()}
    for power, us in pos.power_units.items():
        if gone:
            new_units[power] = [moved.get(u.prov, u) for u in us if u.prov not in gone]
        else:
            new_units[power] = [moved.get(u.prov, u) for u in us]
    return new_units


def _dislodged(pos: Position, mv: Movement, new_units: dict[str, list[Unit]]
               ) -> tuple[Retreating, set[str], dict[str, list[str]]]:
    """(units that can retreat: province -> (unit, attacked from, options),
    contested provinces, units disbanded at once by power)."""
    contested = mv.contested()
    occupied = {u.prov for u in chain.from_iterable(new_units.values())}
    retreating = {}
    disbanded: dict[str, list[str]] = {}
    for prov, attacker in mv.dislodged.items():
        u = pos.units[prov]
        if u.power in pos.neutral:  # neutral units never retreat (spec 13.1)
            disbanded.setdefault(u.power, []).append(u.name)
            continue
        af = None if attacker.via else attacker.prov
        options = retreat_options(u, af, occupied, contested, pos.impassable)
        if options:
            retreating[prov] = (u, af, options)
        else:  # nowhere to go: disbanded at once, no retreat phase for it (spec 5.3, 9.3)
            disbanded.setdefault(u.power, []).append(u.name)
    disbanded = {p: sorted(disbanded[p]) for p in BOARD.powers if p in disbanded}
    return retreating, contested, disbanded


def _mark_disbanded(results: list[dict], pos: Position, disbanded: dict[str, list[str]]) -> None:
    """The dislodged units that leave the board at once say so in their result."""
    gone = {u for us in disbanded.values() for u in us}
    for r in results:
        if r["outcome"] == "dislodged" and r.get("unit") in gone:
            if r["power"] in pos.neutral:
                r["reason"] += "; a neutral unit does not retreat: disbanded"
            else:
                r["reason"] += "; no retreat possible: disbanded"
            r["disbanded"] = True


def _after_movement(pos: Position, results: list[dict], new_units: dict[str, list[Unit]],
                    retreating: Retreating,
                    contested: set[str], disbanded: dict[str, list[str]]) -> dict:
    if retreating:  # a retreat phase only when some dislodged unit can retreat (spec 5.3)
        nxt = _next(pos, pos.season, pos.year, "R", new_units, pos.centers)
        for u, af, options in retreating.values():
            nxt["dislodged"].setdefault(u.power, []).append(
                {"unit": u.name, "attacked_from": af})
            nxt["retreat_options"][u.name] = options
        nxt["contested"] = sorted(contested)
        return _response(pos, results, nxt, disbanded)
    if pos.season == "S":
        return _response(pos, results, _next(pos, "F", pos.year, "M", new_units, pos.centers),
                         disbanded)
    return _end_of_year(pos, results, new_units, disbanded)


# -- retreats -------------------------------------------------------------------
def _retreats(pos: Position) -> dict:
    results, moved = Retreats(pos).run()
    new_units = dict(pos.power_units)  # a power's list is the request's until it changes
    for u in moved.values():
        new_units[u.power] = [*new_units.get(u.power, ()), u]
    for u, _af in pos.dislodged.values():
        new_units.setdefault(u.power, [])
    if pos.season == "S":
        return _response(pos, results, _next(pos, "F", pos.year, "M", new_units, pos.centers))
    # where units stand now: the request's units (the dislodged are not among them)
    # and where the retreats went
    occupied = pos.units if not moved else {*pos.units, *[u.prov for u in moved.values()]}
    return _end_of_year(pos, results, new_units, None, occupied)


def _end_of_year(pos: Position, results: list[dict], new_units: dict[str, list[Unit]],
                 disbanded: dict[str, list[str]] | None = None, occupied=None) -> dict:
    """After a fall turn and its retreats: centres change hands (spec 10).
    ``occupied``: the provinces the units stand on, when the caller has them."""
    centers = pos.centers
    # a centre -> the power of the unit on it, where that power does not own it
    changed: dict[str, str] = {}
    for p, us in new_units.items():
        for u in us:
            if u.center:
                changed[u.prov] = p
    losing: set[str] = set()  # the powers that lose a centre
    for p, cs in centers.items():
        for c in cs:
            q = changed.get(c)
            if q is not None:
                if q == p:  # its own
                    del changed[c]
                else:
                    losing.add(p)
    if changed:
        # the lists are this request's (read_position): changed in place where they gain
        centers = {p: [c for c in cs if c not in changed] if p in losing else cs
                   for p, cs in centers.items()}
        for c in sorted(changed):
            centers.setdefault(changed[c], []).append(c)
    winners = _winner(pos, centers)
    counts = adjustment_counts(new_units, centers, pos.neutral, occupied)
    if counts:
        nxt = _next(pos, "W", pos.year, "A", new_units, centers)
        nxt["adjustments"] = counts
    else:
        nxt = _next(pos, "S", pos.year + 1, "M", new_units, centers)
    resp = _response(pos, results, nxt, disbanded)
    if winners:
        # one power; in the two-player game the winning player's powers, "/"-joined
        resp["winner"] = "/".join(winners)
        resp["winning_powers"] = list(winners)
    return resp


def _winner(pos: Position, centers: dict[str, list[str]]) -> list[str] | None:
    v = pos.variant
    if v.side_victory:
        for side in v.sides(pos.italy_joins):
            if sum(len(centers.get(p, ())) for p in side) >= v.victory_centers:
                return list(side)
        return None
    for p, cs in centers.items():
        if len(cs) >= v.victory_centers:
            return [p]
    return None


# -- adjustments ----------------------------------------------------------------
def _adjustments(pos: Position) -> dict:
    results, new_units = Adjustments(pos).run()
    return _response(pos, results, _next(pos, "S", pos.year + 1, "M", new_units, pos.centers))


# -- output ---------------------------------------------------------------------
def _next(pos: Position, season: str, year: int, ptype: str,
          units_by_power: dict[str, list[Unit]], centers: dict[str, list[str]]) -> dict:
    rules: dict[str, str | int] = {"convoy_disruption": pos.convoy_rule,
                                   "civil_disorder_distance": pos.distance_rule}
    if pos.italy_joins is not None:
        rules["italy_joins"] = pos.italy_joins
    return {
        "variant": pos.variant.name,
        "rules": rules,
        "phase": f"{season}{year}{ptype}",
        "units": _names(pos, units_by_power),
        "centers": centers,  # lists made for this request (read_position): not copied
        "dislodged": {},
        "contested": [],
        "retreat_options": {},
        "adjustments": {},
    }


def _names(pos: Position, units_by_power: dict[str, list[Unit]]) -> dict[str, list[str]]:
    """The units' names by power: a copy of the request's list where a power's
    units are the request's, as it wrote them (the usual case)."""
    given = pos.names
    if given is None:
        return {p: [u.name for u in us] for p, us in units_by_power.items()}
    same = pos.power_units
    return {p: given[p][:] if us is same.get(p) else [u.name for u in us]
            for p, us in units_by_power.items()}


def _response(pos: Position, results: list[dict], nxt: dict,
              disbanded: dict[str, list[str]] | None = None) -> dict:
    """``disbanded``: units dislodged in this movement phase and removed at once,
    having no retreat (or being neutral), by power; empty in other phases."""
    return {"phase": pos.phase, "results": results, "next": nxt, "disbanded": disbanded or {}}
