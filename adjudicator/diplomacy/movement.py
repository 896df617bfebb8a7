"""Movement phase: order legality (spec 7.8) and resolution (spec 8.8, 8.9).

Each order type's rule lives in one method of :class:`Movement`
(``_move``, ``_support``, ``_convoy``), written in terms of the generic
:class:`~.resolver.Resolver`'s answers about other orders, following the
DATC v3.0 chapter 5 equations.  The backup rule (``_backup``) is circular
movement (all moves in a cycle succeed) or, when a convoy is in the cycle,
the Szykman rule (the convoys in the cycle are cancelled).
"""
from __future__ import annotations

from typing import Any, Final

from .board import BOARD
from .codes import Code, not_carried_out
from .orders import REPEAT, SEVERAL, OrderError, Parsed, reading
from .orders import _cache as _readings
from .position import Position, Unit, make_unit
from .resolver import Resolver

# -- map helpers computed once ------------------------------------------------
SEAS: Final = frozenset(p for p, v in BOARD.provinces.items() if v.kind == "sea")
#: seas a fleet could reach from any coast of a province
COAST_SEAS: Final[dict[str, frozenset[str]]] = {p: frozenset() for p in BOARD.provinces}
for _loc, _nbrs in BOARD.fleet_adj.items():
    _s = frozenset(n for n in _nbrs if n in SEAS)
    COAST_SEAS[_loc[:3]] = COAST_SEAS[_loc[:3]] | _s
#: seas adjacent to a sea
SEA_ADJ: Final = {s: COAST_SEAS[s] for s in SEAS}


def route_exists(src: str, dst: str, seas: frozenset | set, usable=None) -> bool:
    """Is there a chain of the given seas from ``src`` to ``dst``, each sea ``usable``?

    Seas are tried in sorted order so that a resolver behind ``usable`` is
    always asked the same questions in the same order (determinism).
    """
    frontier = [s for s in sorted(COAST_SEAS[src] & seas) if usable is None or usable(s)]
    seen = set(frontier)
    dst_seas = COAST_SEAS[dst]
    while frontier:
        s = frontier.pop()
        if s in dst_seas:
            return True
        for n in sorted(SEA_ADJ[s] & seas):
            if n not in seen:
                seen.add(n)
                if usable is None or usable(n):
                    frontier.append(n)
    return False


#: the coastal provinces beside each sea: where an army convoyed through it may land
SHORES: Final = {s: frozenset(p for p, v in BOARD.provinces.items()
                              if v.kind == "coastal" and s in COAST_SEAS[p]) for s in SEAS}


def sea_route(src: str, dst: str, seas) -> list[str] | None:
    """A shortest chain of ``seas`` from ``src`` to ``dst`` (ties: alphabetical), or None."""
    parents: dict[str, str | None] = {s: None for s in sorted(COAST_SEAS[src] & seas)}
    frontier = list(parents)
    dst_seas = COAST_SEAS[dst]
    while frontier:
        nxt = []
        for s in frontier:
            if s in dst_seas:
                route = [s]
                while (p := parents[route[-1]]) is not None:
                    route.append(p)
                return route[::-1]
            for n in sorted(SEA_ADJ[s] & seas):
                if n not in parents:
                    parents[n] = s
                    nxt.append(n)
        frontier = nxt
    return None


def on_minimal_route(src: str, dst: str, via: str, seas) -> bool:
    """Is sea ``via`` on some route src->dst (through ``seas``) with no shortcut?

    A convoy order off every such route is unnecessary and shows no intent to
    be convoyed (DATC 6.G.19).
    """
    return via in minimal_routes(src, seas, dst).get(dst, ())


def minimal_routes(src: str, seas, only: str | None = None) -> dict[str, set[str]]:
    """Where an army in ``src`` could be convoyed through ``seas`` (or whether
    to ``only``), each coastal province with the seas on some route to it
    with no shortcut: a chain of seas that starts beside ``src``, never comes
    back beside it, never touches an earlier sea but the last (so no sea in it
    could be skipped), and ends at the first sea beside the destination."""
    src_seas = COAST_SEAS[src]
    routes: dict[str, set[str]] = {}
    for s in src_seas:
        if s in seas:
            _walk([s], frozenset(), seas, src_seas, src, only, routes)
    return routes


def _walk(path: list, touched: frozenset, seas, src_seas, src: str, only: str | None,
          routes: dict) -> None:
    """minimal_routes's search from ``path``; ``touched``: the shores of the
    seas before its last (a plain function, not a closure over itself, so it
    leaves no reference cycle behind)."""
    last = path[-1]
    shores = SHORES[last]
    if only is not None:
        if only in shores:
            routes.setdefault(only, set()).update(path)
            return
    else:
        for dst in shores - touched:
            if dst != src:
                routes.setdefault(dst, set()).update(path)
        touched = touched | shores
    for n in SEA_ADJ[last]:
        if n not in seas or n in path or n in src_seas:
            continue
        if any(n in SEA_ADJ[q] for q in path[:-1]):
            continue
        _walk(path + [n], touched, seas, src_seas, src, only, routes)


# -- orders -------------------------------------------------------------------
class Order:
    """A movement order of one unit, legal in the position (or an invalid one
    kept as a hold).

    Legal orders are cached and shared between phases (:meth:`Legality.check_or_reason`),
    so an Order is never altered: :meth:`changed` makes an altered copy.
    """

    __slots__ = ("kind", "unit", "prov", "tprov", "dest", "dprov", "via", "text",
                 "reason", "canon", "moved")
    kind: str
    unit: Unit
    prov: str
    # str, or None where the kind has none (a hold's); the rules read them by kind
    tprov: Any
    dest: Any
    dprov: Any
    moved: Any  # a move's unit once it has moved (made once, with the order)
    via: bool
    text: str | None
    reason: str | None
    canon: str | None

    def __init__(self, kind: str, unit: Unit, dest: str | None = None, tprov: str | None = None,
                 via: bool = False, text: str | None = None, canon: str | None = None,
                 reason: str | None = None):
        self.kind = kind  # H M S C
        self.unit = unit
        self.prov = unit.prov
        self.tprov = tprov  # supported / convoyed unit's province
        self.dest = dest  # move: location; support: province or coast as written
        self.dprov = dest[:3] if dest else None
        self.via = via
        self.text = text
        self.reason = reason  # not None: invalid, kept as a hold
        self.canon = canon
        self.moved = make_unit(unit.power, unit.type, dest) if kind == "M" and dest else None

    def changed(self, *, via: bool | None = None, reason: str | None = None) -> Order:
        """A copy, convoyed or made invalid."""
        return Order(self.kind, self.unit, self.dest, self.tprov, self.via if via is None else via,
                     self.text, self.canon, self.reason if reason is None else reason)


def canonical(o: Order, units: dict[str, Unit]) -> str:
    u = o.unit
    if o.kind == "H":
        return f"{u.type} {u.loc} H"
    if o.kind == "M":
        return f"{u.type} {u.loc} - {o.dest}" + (" VIA" if o.via else "")
    t = units[o.tprov]
    if o.kind == "S":
        if o.dest is None:
            return f"{u.type} {u.loc} S {t.type} {t.loc}"
        return f"{u.type} {u.loc} S {t.type} {t.loc} - {o.dest}"
    return f"{u.type} {u.loc} C {t.type} {t.loc} - {o.dprov}"


#: legality answers that depend only on the order's text and the units it names,
#: one dict per (neutral powers, impassable provinces): text, unit, target -> answer
_check_caches: Final[dict[tuple, dict[tuple, Order | str]]] = {}
#: the legal ones again, by power and text alone, for the usual case of a unit
#: ordered as before: (neutral, impassable) -> power -> text -> (Order, target unit).
#: A hit counts only if the same Unit objects (shared, see make_unit) stand there.
_text_caches: Final[dict[tuple, dict[str, dict[str, tuple[Order, Unit | None]]]]] = {}


def _remember(cache: dict, key, value) -> None:
    if len(cache) > 200_000:
        cache.clear()
    cache[key] = value


class Legality:
    """Judges orders against a position alone (spec 7.8e)."""

    def __init__(self, pos: Position):
        self.pos = pos
        self.units = pos.units
        self._fleet_seas: frozenset[str] | None = None
        self.impassable = pos.impassable
        self.used_fleets = False
        context = (pos.neutral, pos.impassable)
        cache = _check_caches.get(context)
        if cache is None:
            cache = _check_caches[context] = {}
            _text_caches[context] = {}
        self.cache = cache
        self.by_text = _text_caches[context]

    @property
    def fleet_seas(self) -> frozenset:
        """Sea provinces holding a fleet (computed when a convoy question comes up)."""
        seas = self._fleet_seas
        if seas is None:
            seas = self._fleet_seas = frozenset(p for p, u in self.units.items()
                                                if u.type == "F" and p in SEAS)
        return seas

    def convoy_possible(self, src: str, dst: str) -> bool:
        self.used_fleets = True
        return (BOARD.is_coastal(src) and BOARD.is_coastal(dst) and src != dst
                and route_exists(src, dst, self.fleet_seas))

    def move_target(self, unit: Unit, dest: str, via: bool) -> tuple[str, bool]:
        """(destination location, convoyed?) or OrderError."""
        dprov = dest[:3]
        if dprov == unit.prov:
            raise OrderError("a unit cannot move to its own province")
        if dprov in self.impassable:
            raise OrderError(f"{dprov} is impassable")
        if unit.type == "F":
            if via:
                raise OrderError("only armies can be convoyed")
            targets = BOARD.fleet_targets(unit.loc, dprov)
            if not targets:
                raise OrderError(f"{unit} cannot reach {dprov}")
            if dprov in BOARD.coasts:
                if len(dest) > 3:
                    if dest not in targets:
                        raise OrderError(f"{unit} cannot reach {dest}")
                    return dest, False
                if len(targets) > 1:
                    raise OrderError(f"coast of {dprov} not given")
                return targets[0], False
            return dprov, False
        kind = BOARD.provinces[dprov].kind
        if kind == "sea":
            raise OrderError("an army cannot move to a sea province")
        if dprov in BOARD.army_adj[unit.prov]:
            if via and not self.convoy_possible(unit.prov, dprov):
                raise OrderError(f"no convoy route possible from {unit.prov} to {dprov}")
            return dprov, via
        if self.convoy_possible(unit.prov, dprov):
            return dprov, True
        raise OrderError(f"{unit} cannot reach {dprov}")

    def can_move_somehow(self, unit: Unit, dprov: str) -> bool:
        if dprov == unit.prov or dprov in self.impassable:
            return False
        if BOARD.can_reach(unit.type, unit.loc, dprov):
            return True
        return unit.type == "A" and self.convoy_possible(unit.prov, dprov)

    def check(self, parsed: Parsed, power: str, text: str) -> Order:
        """A legal :class:`Order` for ``power``, or OrderError with the reason."""
        o = self.check_or_reason(parsed, power, text)
        if isinstance(o, str):
            raise OrderError(o)
        return o

    def check_or_reason(self, parsed: Parsed, power: str, text: str) -> Order | str:
        """A legal :class:`Order` for ``power``, or the reason (a str) why not.

        Answers that do not depend on where the fleets are (everything but
        convoys and convoyed moves) are cached per process, keyed by the text
        and the units it names (a unit's name says its type and place): the
        same Order object comes back each time.
        """
        units = self.units
        unit = units.get(parsed.loc[:3]) if parsed.loc else None
        if unit is None or unit.power != power:
            return self._uncached(parsed, power, text)
        target = units.get(parsed.tloc[:3]) if parsed.tloc else None
        key = (text, power, unit.name, target.name if target is not None else None)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.judge(key, parsed, power, text, target)
        return hit

    def judge(self, key: tuple, parsed: Parsed, power: str, text: str,
              target: Unit | None) -> Order | str:
        """:meth:`check_or_reason` when ``key`` (its cache key: the order of a
        unit of ``power``) is not in the cache: judged, and cached if it may be."""
        hit = self._uncached(parsed, power, text)
        if not self.used_fleets and (isinstance(hit, str) or hit.kind != "C"):
            _remember(self.cache, key, hit)
            if isinstance(hit, Order):
                mine = self.by_text.get(power)
                if mine is None:
                    mine = self.by_text[power] = {}
                _remember(mine, text, (hit, target))
        return hit

    def _uncached(self, parsed: Parsed, power: str, text: str) -> Order | str:
        self.used_fleets = False
        try:
            o = self._check(parsed, power, text)
        except OrderError as err:
            return str(err)
        o.canon = canonical(o, self.units)
        return o

    def _check(self, parsed: Parsed, power: str, text: str) -> Order:
        loc = parsed.loc  # None only for a waive
        if parsed.kind not in ("H", "M", "S", "C") or loc is None:
            raise OrderError("not an order for a movement phase")
        unit = self.units.get(loc[:3])
        if unit is None:
            raise OrderError(f"no unit in {loc[:3]}")
        if unit.power != power:
            raise OrderError(f"the unit in {unit.prov} belongs to {unit.power}")
        if power in self.pos.neutral:
            raise OrderError(f"{power} is neutral and cannot be ordered")
        k = parsed.kind
        if k == "H":
            return Order("H", unit, text=text)
        if k == "M":
            dest, via = self.move_target(unit, parsed.dest or "", parsed.via)
            return Order("M", unit, dest, via=via, text=text)
        tprov = (parsed.tloc or "")[:3]  # a support or convoy always names the other unit
        target = self.units.get(tprov)
        if k == "S":
            if target is None:
                raise OrderError(f"no unit in {tprov} to support")
            if tprov == unit.prov:
                raise OrderError("a unit cannot support itself")
            if parsed.dest is None:
                if tprov in self.impassable:
                    raise OrderError(f"{tprov} is impassable")
                if not BOARD.can_reach(unit.type, unit.loc, tprov):
                    raise OrderError(f"{unit} cannot reach {tprov}")
                return Order("S", unit, None, tprov, text=text)
            dprov = parsed.dest[:3]
            if dprov == unit.prov:
                raise OrderError("a unit cannot support a move into its own province")
            if dprov in self.impassable:
                raise OrderError(f"{dprov} is impassable")
            if not BOARD.can_reach(unit.type, unit.loc, dprov):
                raise OrderError(f"{unit} cannot reach {dprov}")
            if (target.type == "A" and dprov not in BOARD.army_adj[tprov]
                    and unit.prov in self.fleet_seas
                    and self.convoy_possible(tprov, dprov)
                    and not route_exists(tprov, dprov, self.fleet_seas - {unit.prov})):
                # only possible if the supporter itself convoyed (DATC 6.D.31)
                raise OrderError(f"{target} could reach {dprov} only through {unit.prov}'s convoy")
            # a support of a move the unit cannot make is legal but void (6.D.22-24)
            dest = parsed.dest
            if len(dest) > 3 and (target.type == "A" or dest not in BOARD.locations):
                dest = dprov  # a coast means nothing for an army move
            return Order("S", unit, dest, tprov, text=text)
        # convoy: its legality depends on the other fleets, so it is never cached
        self.used_fleets = True
        if unit.type != "F" or unit.prov not in SEAS:
            raise OrderError("only a fleet in a sea province can convoy")
        if target is None:
            raise OrderError(f"no unit in {tprov} to convoy")
        if target.type != "A":
            raise OrderError("only armies can be convoyed")
        dprov = (parsed.dest or "")[:3]  # a convoy always names where to
        if dprov in self.impassable:
            raise OrderError(f"{dprov} is impassable")
        if not (BOARD.is_coastal(tprov) and BOARD.is_coastal(dprov)) or dprov == tprov:
            raise OrderError(f"no convoy possible from {tprov} to {dprov}")
        if not on_minimal_route(tprov, dprov, unit.prov, self.fleet_seas):
            # on no route the fleets on the board could form, or not needed on
            # any (DATC 6.G.7, 6.G.19; 4.E.1)
            raise OrderError(f"{unit} is on no convoy route from {tprov} to {dprov}")
        return Order("C", unit, dprov, tprov, text=text)


def read_orders(pos: Position, legality: Legality | None = None
                ) -> tuple[dict[str, Order], list[list], list[Unit]]:
    """Parse and check every power's orders.

    Returns (orders, entries, unordered) where ``orders`` maps province -> the
    unit's :class:`Order` (invalid and missing orders become holds),
    ``entries`` is the list of [power, Order-or-None, text, reason, parsed-or-None]
    in input order, one per input order, and ``unordered`` the units given no
    order, in the order of ``pos.units``.  An identical repeat of a unit's legal
    order keeps its Order and has the reason :data:`REPEAT`.
    """
    legality = legality or Legality(pos)
    check = legality.check_or_reason
    known = legality.cache
    units = pos.units
    entries: list[list] = []  # [power, order|None, text, reason, parsed|None]
    append = entries.append
    orders: dict[str, Order] = {}  # the first order seen for each unit
    several: dict[str, list] = {}  # units with more than one order: their entries
    convoys = False
    for power in pos.ordering():
        olist = pos.orders[power]
        if not olist:
            continue
        mine = legality.by_text.get(power) or {}
        for raw in olist:
            text = raw.strip()
            hit = mine.get(text)
            if hit is not None:  # the usual case: this unit was ordered so before
                o, target = hit
                prov = o.prov
                if units.get(prov) is o.unit and (target is None or units.get(o.tprov) is target):
                    e = [power, o, text, None, None]
                    append(e)
                    if prov not in orders:
                        orders[prov] = o
                    else:
                        _another(prov, e, orders, entries, several)
                    continue
            read = _readings.get(text) or reading(text)
            parsed, unit = read[0], units.get(read[3])  # type: ignore[arg-type]
            if parsed is None:  # unreadable; still the unit's order if it names one
                reason = read[1]
                e = [power, None, text, reason, None]
            else:
                if unit is not None and unit.power == power:
                    # check_or_reason, with its cache looked up here (the usual case)
                    target = units.get(read[4])  # type: ignore[arg-type]
                    key = (text, power, unit.name, target.name if target is not None else None)
                    answer = known.get(key)
                    if answer is None:
                        answer = legality.judge(key, parsed, power, text, target)
                else:
                    answer = check(parsed, power, text)
                if isinstance(answer, Order):  # legal
                    e = [power, answer, text, None, None]
                    entries.append(e)
                    prov = answer.prov
                    if prov not in orders:
                        orders[prov] = answer
                    else:
                        _another(prov, e, orders, entries, several)
                    if answer.kind == "C":
                        convoys = True
                    continue
                reason = answer
                e = [power, None, text, reason, parsed]
            entries.append(e)
            if unit is not None and unit.power == power:
                e[1] = hold = Order("H", unit, text=text, reason=reason)
                if unit.prov not in orders:
                    orders[unit.prov] = hold
                else:
                    _another(unit.prov, e, orders, entries, several)
    if several:
        _several_orders(orders, entries, several)
    # E5 (DATC v3.0 4.A.3): a move to an adjacent province goes by convoy when
    # it says VIA, or when a fleet of its own power is ordered to convoy it and
    # that fleet is on a route that needs it.
    for o in orders.values() if convoys else ():
        if o.kind == "C" and o.reason is None:
            m = orders.get(o.tprov)
            if (m is not None and m.kind == "M" and not m.via and m.reason is None
                    and m.dprov == o.dprov and m.unit.power == o.unit.power
                    and on_minimal_route(m.prov, m.dprov, o.prov, legality.fleet_seas)):
                convoyed = m.changed(via=True)
                convoyed.canon = canonical(convoyed, pos.units)
                for e in entries:  # the unit's result shows the order as carried out
                    if e[1] is m:
                        e[1] = convoyed
                orders[m.prov] = convoyed
    unordered = []
    if len(orders) < len(units):
        for prov, unit in units.items():
            if prov not in orders:
                orders[prov] = Order("H", unit)
                unordered.append(unit)
    return orders, entries, unordered


def _another(prov: str, e: list, orders: dict, entries: list, several: dict) -> None:
    """Note ``e``, a further order for the unit in ``prov``, beside its first."""
    es = several.get(prov)
    if es is None:  # the entry of the first order: the first that holds it
        es = several[prov] = [next(x for x in entries if x[1] is orders[prov])]
    es.append(e)


def _several_orders(orders: dict, entries: list, several: dict) -> None:
    """Units given more than one order (spec 7.8f): identical repeats count once
    (each still gets a result, :data:`REPEAT`); different orders are all invalid
    and the unit holds."""
    for prov, es in several.items():
        canons = {}
        for e in es:
            o = e[1]
            key = o.canon if o.reason is None else "invalid:" + e[2]
            if key not in canons:
                canons[key] = e
            elif o.reason is None:
                e[3] = REPEAT
        if len(canons) > 1:
            for e in es:
                e[3] = SEVERAL
                e[1] = e[1].changed(reason=e[3])
            orders[prov] = Order("H", es[0][1].unit, reason="several orders")


_SUCCEEDS = ("succeeds", None, None)


def _released(_key) -> bool:
    raise AssertionError("a released phase is asked again")  # pragma: no cover


class Movement:
    """Resolves one movement phase."""

    def __init__(self, pos: Position, orders: dict[str, Order]):
        self.pos = pos
        self.units = pos.units
        self.orders = orders
        self.rule_1971 = pos.convoy_rule == "1971"
        moves_into: dict[str, list[Order]] = {}
        supports_of: dict[str, list[Order]] = {}  # province -> matched supports
        convoys_of: dict[str, list[Order]] = {}  # army province -> matched convoys
        matched: set[str] = set()  # supports and convoys that match an order
        self.moves_into, self.supports_of, self.convoys_of = moves_into, supports_of, convoys_of
        self.matched = matched
        self.cancelled: set[str] = set()  # convoys cancelled by the Szykman rule
        self.moves: list[Order] = []  # the legal moves, supports and convoys
        self.others: list[Order] = []
        add_move, add_other = self.moves.append, self.others.append
        for o in orders.values():
            kind = o.kind
            if kind == "H" or o.reason is not None:
                continue
            if kind == "M":
                add_move(o)
                into = moves_into.get(o.dprov)
                if into is None:
                    moves_into[o.dprov] = [o]
                else:
                    into.append(o)
                continue
            add_other(o)
            t = orders[o.tprov]
            if kind == "S":
                if o.dest is None:
                    ok = t.kind != "M" or t.reason is not None
                else:
                    ok = (t.kind == "M" and t.reason is None and t.dprov == o.dprov
                          and (len(o.dest) == 3 or len(t.dest) == 3 or o.dest == t.dest))
                if ok:
                    matched.add(o.prov)
                    supports_of.setdefault(o.tprov, []).append(o)
            elif t.kind == "M" and t.reason is None and t.dprov == o.dprov:
                # a matched convoy, even when the army goes by land (DATC 6.G.2):
                # it succeeds unless dislodged, but carries nothing
                matched.add(o.prov)
                if t.via:
                    convoys_of.setdefault(o.tprov, []).append(o)
        self.resolver = Resolver(self._adjudicate, self._backup)
        self.resolve = self.resolver.resolve

    def release(self) -> None:
        """Drop the resolver's hold on this object's rules: the phase then frees
        at once, without waiting for the cycle collector."""
        self.resolver.adjudicate, self.resolver.backup = _released, _released

    # -- the rules --------------------------------------------------------
    def _adjudicate(self, prov: str) -> bool:
        o = self.orders[prov]
        if o.kind == "M":
            return self._move(o)
        if o.kind == "S":
            return self._support(o)
        return self._convoy(o)

    def _backup(self, keys: list[str]) -> None:
        convoys = [k for k in keys if self.orders[k].kind == "C"]
        if convoys:  # Szykman rule (spec 8.9.3)
            for k in convoys:
                self.cancelled.add(k)
                self.resolver.fix(k, False)
        elif all(self.orders[k].kind == "M" for k in keys):  # circular movement (8.9.2)
            for k in keys:
                self.resolver.fix(k, True)
        else:  # any other paradox: everything in it fails (DATC 5.B.9)
            for k in keys:
                self.resolver.fix(k, False)

    def head_to_head(self, m: Order) -> Order | None:
        if m.via:
            return None
        o = self.orders.get(m.dprov)
        if o is not None and o.kind == "M" and o.reason is None and not o.via and o.dprov == m.prov:
            return o
        return None

    def has_path(self, m: Order) -> bool:
        if not m.via:
            return True
        fleets = {c.prov for c in self.convoys_of.get(m.prov, ()) if c.prov not in self.cancelled}
        if not fleets:
            return False
        src, dst = m.prov, m.dprov
        if self.rule_1971:
            on_route = minimal_routes(src, fleets, dst).get(dst, ())
            if not on_route:
                return False
            return all(self.resolve(f) for f in sorted(on_route))
        # 2000: some route of fleets that are not dislodged
        return route_exists(src, dst, fleets, usable=self.resolve)

    def _support_count(self, m: Order, exclude_power: str | None = None) -> int:
        n = 0
        for s in self.supports_of.get(m.prov, ()):
            if exclude_power is not None and s.unit.power == exclude_power:
                continue
            if self.resolve(s.prov):
                n += 1
        return n

    def hold_strength(self, prov: str) -> int:
        o = self.orders.get(prov)
        if o is None:
            return 0
        if o.kind == "M" and o.reason is None:
            return 0 if self.resolve(prov) else 1
        return 1 + self._support_count(o)

    def attack_strength(self, m: Order) -> int:
        if not self.has_path(m):
            return 0
        d = self.orders.get(m.dprov)
        if d is None or (d.kind == "M" and d.reason is None and self.head_to_head(m) is None
                         and self.resolve(d.prov)):
            return 1 + self._support_count(m)
        if d.unit.power == m.unit.power:
            return 0
        return 1 + self._support_count(m, d.unit.power)

    def defend_strength(self, m: Order) -> int:
        return 1 + self._support_count(m)

    def prevent_strength(self, m: Order) -> int:
        if not self.has_path(m):
            return 0
        opp = self.head_to_head(m)
        if opp is not None and self.resolve(opp.prov):
            return 0
        return 1 + self._support_count(m)

    def _move(self, m: Order) -> bool:
        if not m.via and m.dprov not in self.orders and len(self.moves_into[m.dprov]) == 1:
            return True  # into an empty province, unopposed: strength 1 beats 0
        attack = self.attack_strength(m)
        if attack == 0:
            return False
        opp = self.head_to_head(m)
        if opp is not None:
            if attack <= self.defend_strength(opp):
                return False
        elif attack <= self.hold_strength(m.dprov):
            return False
        for r in self.moves_into[m.dprov]:
            if r is not m and attack <= self.prevent_strength(r):
                return False
        return True

    def _support(self, s: Order) -> bool:
        if s.prov not in self.matched:
            return False
        into = s.dprov if s.dest is not None else s.tprov
        for m in self.moves_into.get(s.prov, ()):
            if m.unit.power == s.unit.power:
                continue  # a power never cuts its own support (spec 8.6.5)
            if m.prov == into:
                if self.resolve(m.prov):  # dislodged from where it supports into
                    return False
            elif self.has_path(m):
                return False  # cut
        return True

    def _convoy(self, c: Order) -> bool:
        if c.prov in self.cancelled or c.prov not in self.matched:
            return False
        for m in self.moves_into.get(c.prov, ()):
            if self.resolve(m.prov):
                return False
        return True

    # -- resolution -----------------------------------------------------------
    def _settle_the_obvious(self) -> list[str]:
        """Decide at once, without the resolver, the orders whose outcome no other
        decision can change (most of them), by the same rules as below:

        * a move, not by convoy, into an empty province that no other unit tries
          to enter succeeds, supported or not;
        * a move without support, not by convoy, into a province whose unit stays
          (hold, support, convoy) or comes the other way (head to head) fails: its
          attack of 1 (or 0) never beats a hold or defence of at least 1;
        * so does one into an empty province that another unit, not by convoy and
          not in a head-to-head battle, also tries to enter (prevent of at least 1);
        * an unmatched support or convoy is void; a support is cut by a foreign
          move, not by convoy, from anywhere but where it supports into, and
          stands when no foreign unit moves against it; a convoy nothing attacks
          stands.
        """
        settled = self.resolver.resolved
        orders, moves_into, matched = self.orders, self.moves_into, self.matched
        supports_of = self.supports_of
        pending = []  # the orders left to the resolver
        for o in self.moves:
            prov = o.prov
            if o.via:
                pending.append(prov)
                continue
            d = orders.get(o.dprov)
            if d is None:
                rivals = moves_into[o.dprov]
                if len(rivals) == 1:
                    settled[prov] = True  # supported or not
                elif prov in supports_of:
                    pending.append(prov)
                elif all(not r.via and self.head_to_head(r) is None for r in rivals):
                    settled[prov] = False
                else:
                    pending.append(prov)
            elif prov in supports_of:
                pending.append(prov)
            elif d.kind != "M" or d.reason is not None or (not d.via and d.dprov == prov):
                settled[prov] = False  # into a unit that stays, or head to head
            else:
                pending.append(prov)
        for o in self.others:
            prov = o.prov
            if prov not in matched:
                settled[prov] = False
                continue
            attackers = moves_into.get(prov)
            if not attackers:
                settled[prov] = True
            elif o.kind == "S":
                into = o.dprov if o.dest is not None else o.tprov
                power = o.unit.power
                foreign = [m for m in attackers if m.unit.power != power]
                if not foreign:
                    settled[prov] = True
                elif any(m.prov != into and not m.via for m in foreign):
                    settled[prov] = False
                else:
                    pending.append(prov)
            else:
                pending.append(prov)
        return pending

    def run(self) -> Movement:
        pending = self._settle_the_obvious()
        orders = self.orders
        succeeds = self.resolver.resolved
        # in a fixed order, so that the resolver's guesses are always the same
        if pending:
            pending.sort()
            resolve = self.resolve
            for prov in pending:
                if prov not in succeeds:
                    resolve(prov)
        # now every order is decided: read the answers
        self.arrived: dict[str, Order] = {}
        for dprov, ms in self.moves_into.items():
            for m in ms:
                if succeeds[m.prov]:
                    self.arrived[dprov] = m
        self.dislodged: dict[str, Order] = {}  # province -> attacker's order
        for prov, a in self.arrived.items():
            o = orders.get(prov)
            if o is not None and not (o.kind == "M" and o.reason is None and succeeds[prov]):
                self.dislodged[prov] = a
        return self

    def outcome(self, o: Order) -> tuple[str, str | None, Code | None]:
        """(outcome, reason, code) of a decided order; no reason or code when it succeeds."""
        if o.reason is not None:
            return "invalid", o.reason, not_carried_out(o.reason)
        prov = o.prov
        a = self.dislodged.get(prov)
        if a is not None:
            return ("dislodged", f"dislodged by {a.unit} from {a.prov}" + (" (convoyed)" if a.via else ""),
                    Code.DISLODGED)
        if o.kind == "H" or self.resolve(prov):
            return _SUCCEEDS
        if o.kind == "M":
            if o.via and not self.has_path(o):
                if not self.convoys_of.get(prov):
                    return "fails", "no convoy", Code.NO_CONVOY
                if any(c.prov in self.cancelled for c in self.convoys_of[prov]):
                    return "fails", "convoy cancelled by the convoy paradox rule", Code.CONVOY_PARADOX
                return "fails", "convoy broken", Code.CONVOY_BROKEN
            opp = self.head_to_head(o)
            d = self.orders.get(o.dprov)
            if (d is not None and d.unit.power == o.unit.power
                    and not (d.kind == "M" and d.reason is None and opp is None
                             and self.resolve(d.prov))):
                return "fails", "own unit in the way", Code.OWN_UNIT  # attack strength 0
            if opp is not None:
                attack, defence = self.attack_strength(o), self.defend_strength(opp)
                if attack < defence:
                    return ("fails", f"beaten in head-to-head battle ({attack} against {defence})",
                            Code.BEATEN_HEAD_TO_HEAD)
                if attack == defence:
                    return ("fails", f"stood off in head-to-head battle ({attack} against {defence})",
                            Code.STANDOFF_HEAD_TO_HEAD)
            return "fails", "bounced", Code.BOUNCED
        if o.kind == "S":
            if prov not in self.matched:
                return "fails", "void: the supported unit was not ordered so", Code.VOID
            return "fails", "cut", Code.CUT
        if prov in self.cancelled:
            return "fails", "cancelled by the convoy paradox rule", Code.CONVOY_PARADOX
        return "fails", "void: the army was not ordered to move by this convoy", Code.VOID

    def route(self, m: Order) -> list[str] | None:
        """The seas a move by convoy went through, in order (fewest seas, then the
        first in alphabetical order): its route of fleets that were not dislodged
        or cancelled; None when it had no route."""
        if not m.via or not self.has_path(m):
            return None
        resolve = self.resolve
        fleets = {c.prov for c in self.convoys_of[m.prov] if c.prov not in self.cancelled and resolve(c.prov)}
        return sea_route(m.prov, m.dprov, fleets)

    def contested(self) -> set[str]:
        out = set()
        for dprov, ms in self.moves_into.items():
            if dprov in self.arrived or len(ms) < 2:
                continue
            o = self.orders.get(dprov)
            if o is not None and not (o.kind == "M" and o.reason is None and self.resolve(dprov)):
                continue  # still occupied
            if sum(1 for m in ms if self.prevent_strength(m) > 0) >= 2:
                out.add(dprov)
        return out
