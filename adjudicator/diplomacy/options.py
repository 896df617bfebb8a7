"""Every order a power may give, and the board as data (contracts/options.md).

What a client, a bot or a page needs to offer choices, without the engine's
code.  Pure functions over a position in the interchange format:

* :func:`options` -- one power's orders that :func:`~.check_orders` accepts,
  in the canonical form it answers with;
* :func:`options_by_power` -- the same for several powers, with the phase;
* :func:`board_data` -- a variant's provinces and adjacency, from ``BOARD``.

The shapes (docs/clients.md, "Options"):

* movement and retreats: ``{unit: [order, ...]}`` for each unit the power can
  order (``"F STP/SC"``): first what it does if given no order (hold, or
  disband), the rest sorted;
* adjustments: ``{"builds": n, "sites": {"STP": ["A STP B", "F STP/NC B",
  ...]}, "disbands": ["A MUN D", ...], "waive": bool, "orders": [...]}`` where
  ``n`` is the position's adjustment count (negative: disbands due) and
  ``orders`` every one of them in one list, for each build or disband slot.

One choice beyond check_orders: a support (or convoy) is offered only for a
move its unit's own power may order.  check_orders also accepts supports of
moves no unit can make (``A BUR S A MUN - MUN``, an army's move to a sea, any
move of a neutral unit): legal, but void (spec 8.2.3, DATC 6.D.22-24), so
they are no choice at all.  tests/diplomacy/test_options.py names that as the
one difference.
"""
from __future__ import annotations

from .adjustments import adjustment_counts
from .board import BOARD
from .movement import COAST_SEAS, SEAS, minimal_routes
from .position import Position, RequestError, read_position
from .retreats import Retreats
from .variants import VARIANT_TABLE

#: the provinces a unit at each location may move or support into (as if the board were empty)
ARMY_REACH = {p: tuple(sorted(n)) for p, n in BOARD.army_adj.items()}
FLEET_REACH = {loc: tuple(sorted(n)) for loc, n in BOARD.fleet_reach_prov.items()}
FLEET_MOVES = {loc: tuple(sorted(n)) for loc, n in BOARD.fleet_adj.items()}


def options(position: dict, power: str) -> dict:
    """``power``'s orders in ``position`` (the interchange format; orders, if
    any, are ignored).  Raises :class:`RequestError` for a malformed position
    or an unknown power."""
    pos = _read(position)
    return _Options(pos).of(_power(power, "power"))


def options_by_power(position: dict, powers: list[str] | None = None) -> dict:
    """``{"phase": ..., "powers": {power: options}}`` for ``powers``, or by
    default for every power with something to order."""
    pos = _read(position)
    if powers is None:
        wanted = ordering_powers(pos)
    elif not isinstance(powers, list):
        raise RequestError("powers must be a list", "powers")
    else:
        wanted = [_power(p, f"powers[{i}]") for i, p in enumerate(powers)]
    found = _Options(pos)
    return {"phase": pos.phase, "powers": {p: found.of(p) for p in wanted}}


def _read(position: dict) -> Position:
    if not isinstance(position, dict):
        raise RequestError("the position must be a JSON object", None)
    return read_position({**position, "orders": {}})


def _power(power, field: str) -> str:
    if not isinstance(power, str) or power.upper() not in BOARD.powers:
        raise RequestError(f"unknown power {power!r}", field)
    return power.upper()


def ordering_powers(pos: Position) -> list[str]:
    """Powers with something to order: units (movement), dislodged units
    (retreats), non-zero adjustments (winter).  Neutral powers never order."""
    if pos.type == "M":
        found = {u.power for u in pos.units.values()}
    elif pos.type == "R":
        found = {u.power for u, _af in pos.dislodged.values()}
    else:
        found = set(adjustment_counts(pos.power_units, pos.centers, pos.neutral))
    return [p for p in BOARD.powers if p in found and p not in pos.neutral]


class _Options:
    """One position's options; what every power shares is worked out once."""

    def __init__(self, pos: Position):
        self.pos = pos
        self._movement: _Movement | None = None
        self._retreats: Retreats | None = None
        self._counts: dict[str, int] | None = None

    def of(self, power: str) -> dict:
        pos = self.pos
        if pos.type == "M":
            if power in pos.neutral:
                return {}
            if self._movement is None:
                self._movement = _Movement(pos)
            return {u.name: self._movement.orders(u) for u in pos.power_units.get(power, ())}
        if pos.type == "R":
            if self._retreats is None:
                self._retreats = Retreats(pos)
            places = self._retreats.places
            return {u.name: [f"{u.name} D"] + [f"{u.name} R {loc}" for loc in places(prov)]
                    for prov, (u, _af) in pos.dislodged.items() if u.power == power}
        if self._counts is None:
            self._counts = adjustment_counts(pos.power_units, pos.centers, pos.neutral)
        return _adjustments(pos, power, self._counts.get(power, 0))


class _Movement:
    """A movement phase's orders, unit by unit (mirrors ``movement.Legality``)."""

    def __init__(self, pos: Position):
        self.units = units = pos.units
        self.closed = pos.impassable
        self.fleet_seas = frozenset(p for p, u in units.items() if u.type == "F" and p in SEAS)
        self._routes: dict[str, dict[str, set[str]]] = {}
        self._reach_without: dict[tuple[str, str], set[str]] = {}
        self._convoys: dict[str, list[tuple[str, str]]] | None = None
        #: unit's province -> its moves as (destination, by convoy?)
        self.moves: dict[str, list[tuple[str, bool]]] = {}
        #: province -> the moves into it a support may name: (mover's province,
        #: the move as a support writes it, possible by convoy only?)
        self.into: dict[str, list[tuple[str, str, bool]]] = {}
        for prov, u in units.items():
            if u.power not in pos.neutral:
                self.moves[prov] = moves = self._moves_of(u)
                self._add_into(u, moves)

    # -- convoy routes -------------------------------------------------------
    def routes(self, src: str) -> dict[str, set[str]]:
        """Where an army in ``src`` may be convoyed, each place with the seas
        on a route to it that has no shortcut (``movement.minimal_routes``)."""
        hit = self._routes.get(src)
        if hit is None:
            hit = {}
            if BOARD.is_coastal(src):
                hit = minimal_routes(src, self.fleet_seas)
                for p in self.closed.intersection(hit):
                    del hit[p]
            self._routes[src] = hit
        return hit

    def route_avoids(self, src: str, dst: str, sea: str) -> bool:
        """Could a chain of the other fleets carry an army from ``src`` to ``dst``?"""
        if any(s != sea and s in self.fleet_seas for s in COAST_SEAS[src] & COAST_SEAS[dst]):
            return True  # one other fleet touches both
        key = (src, sea)
        reached = self._reach_without.get(key)
        if reached is None:
            fleets = self.fleet_seas - {sea}
            frontier = [s for s in COAST_SEAS[src] if s in fleets]
            reached = self._reach_without[key] = set(frontier)
            while frontier:
                for n in COAST_SEAS[frontier.pop()]:
                    if n in fleets and n not in reached:
                        reached.add(n)
                        frontier.append(n)
        return not reached.isdisjoint(COAST_SEAS[dst])

    # -- moves ---------------------------------------------------------------
    def _moves_of(self, u) -> list[tuple[str, bool]]:
        closed = self.closed
        if u.type == "F":
            return [(loc, False) for loc in FLEET_MOVES[u.loc] if loc[:3] not in closed]
        moves = [(p, False) for p in ARMY_REACH[u.prov] if p not in closed]
        return moves + [(p, True) for p in sorted(self.routes(u.prov))]

    def _add_into(self, u, moves) -> None:
        into = self.into
        if u.type == "A":
            land = BOARD.army_adj[u.prov]
            for p in dict.fromkeys(dest for dest, _via in moves):
                into.setdefault(p, []).append((u.prov, f"A {u.prov} - {p}", p not in land))
            return
        for dest, _via in moves:
            p = dest[:3]
            into.setdefault(p, [])
            if p in BOARD.coasts:  # a support may name the coast, or not (spec 8.2.3)
                into[p].append((u.prov, f"F {u.loc} - {dest}", False))
            if dest == p or dest == BOARD.fleet_targets(u.loc, p)[0]:
                into[p].append((u.prov, f"F {u.loc} - {p}", False))

    # -- one unit's orders ----------------------------------------------------
    def orders(self, u) -> list[str]:
        name, prov = u.name, u.prov
        units, into, closed = self.units, self.into, self.closed
        out = [f"{name} - {dest} VIA" if via else f"{name} - {dest}"
               for dest, via in self.moves[prov]]
        at_sea = prov in self.fleet_seas
        for p in (ARMY_REACH[prov] if u.type == "A" else FLEET_REACH[u.loc]):
            if p in closed:
                continue
            held = units.get(p)
            if held is not None:
                out.append(f"{name} S {held.name}")
            for mover, move, by_convoy_only in into.get(p, ()):
                if mover == prov:
                    continue
                if (by_convoy_only and at_sea and prov in self.routes(mover)[p]
                        and not self.route_avoids(mover, p, prov)):
                    continue  # it could go only through this fleet's convoy (DATC 6.D.31)
                out.append(f"{name} S {move}")
        if at_sea:
            out += [f"{name} C A {army} - {dest}" for army, dest in self.convoys(prov)]
        out.sort()
        out.insert(0, f"{name} H")
        return out

    def convoys(self, sea: str) -> list[tuple[str, str]]:
        """(army's province, destination) of every convoy through ``sea``."""
        if self._convoys is None:
            self._convoys = {}
            for prov, moves in self.moves.items():
                if self.units[prov].type == "A":
                    routes = self.routes(prov)
                    for dest, via in moves:
                        if via:
                            for s in routes[dest]:
                                self._convoys.setdefault(s, []).append((prov, dest))
        return self._convoys.get(sea, [])


def _adjustments(pos: Position, power: str, n: int) -> dict:
    """``n``: the power's adjustment count (builds it can make, or -disbands)."""
    sites: dict[str, list[str]] = {}
    disbands: list[str] = []
    if n > 0:
        owned = pos.centers.get(power, ())
        for home in BOARD.home_centers[power]:
            if home in owned and home not in pos.units:
                sites[home] = _builds(home)
    elif n < 0:
        disbands = sorted(f"{u.name} D" for u in pos.power_units.get(power, ()))
    flat = [o for builds in sites.values() for o in builds] + disbands
    if n > 0:
        flat.append("WAIVE")
    return {"builds": n, "sites": sites, "disbands": disbands, "waive": n > 0, "orders": flat}


def _builds(home: str) -> list[str]:
    kind = BOARD.kind(home)
    if kind == "inland":
        return [f"A {home} B"]
    return [f"A {home} B"] + [f"F {loc} B" for loc in BOARD.coasts.get(home, (home,))]


# -- the board as data ------------------------------------------------------------
_TERRAIN = {"inland": "land", "coastal": "coast", "sea": "sea"}


def board_data(variant: str) -> dict:
    """A variant's board (``GET /v1/variants/{name}``): its powers and sides as
    :func:`~.variant_info` gives them, plus ``year``, ``sides``, ``provinces``
    and ``adjacency``, all read from ``BOARD``."""
    v = VARIANT_TABLE.get(variant) if isinstance(variant, str) else None
    if v is None:
        raise RequestError(f"unknown variant {variant!r}", "variant")
    closed = v.impassable_in(v.start_year, "S")
    provinces = []
    for pid, prov in BOARD.provinces.items():
        entry = {"id": pid, "name": prov.name, "type": _TERRAIN[prov.kind],
                 "centre": prov.supply_center, "home": prov.home,
                 "coasts": [loc[4:] for loc in BOARD.coasts.get(pid, ())]}
        if pid in closed:  # closed at the start, open from the phase named
            entry.update(type="impassable", terrain=_TERRAIN[prov.kind],
                         passable_from=f"S{v.italy_opens}M")
        provinces.append(entry)
    return {
        **v.info(),
        "year": v.start_year,
        "sides": [list(side) for side in v.players],
        "side_victory": v.side_victory,
        "provinces": provinces,
        "adjacency": {
            "army": {p: sorted(n) for p, n in BOARD.army_adj.items() if not BOARD.is_sea(p)},
            "fleet": {loc: sorted(n) for loc, n in BOARD.fleet_adj.items()},
        },
    }
