"""DumbBot: David Norman's published heuristic (DAIDE, 2003), over our options.

Two stages.  First a value for every place a unit may stand:

* a supply centre of ours is worth the size of the largest other power with
  a unit beside it (defence); anyone else's centre the size of its owner
  (attack; an unowned one the size of a power with none); other provinces 0.
  A power's size is ``n*n + 4*n + 16`` for ``n`` centres;
* proximity[0] is that, weighted for attack and defence; proximity[i] of a
  place is proximity[i-1] of the place and of its neighbours, summed, / 5;
* a place's value is the weighted sum of its ten proximities, plus our
  strength there (our units that can reach it) minus the competition (the
  most units of any one other power that can reach it).

Then each unit, in random order, goes to the best place it can reach, or
with some chance to the second best, third best ... (more likely the closer
their values).  A unit whose place another of ours already moves into
supports that move instead, if it can; a unit that holds supports a move or
hold of ours beside it that faces competition.  An army whose best place is
across a sea goes there by convoy when a fleet of ours beside it can carry
it.  Retreats, builds and disbands take the best (or worst) places the same
way.

This module is the opponent model of :mod:`.bot` and the strongest of the
benchmark's baselines.  It picks only among :func:`.options.options`, so its
orders are always valid.  Pure: no I/O.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .board import BOARD
from .movement import COAST_SEAS, SEAS
from .options import options
from .position import Position, read_position

#: the places a unit may stand, for each unit type, and their neighbours
ARMY_GRAPH: Final = {p: tuple(sorted(n)) for p, n in BOARD.army_adj.items() if p not in SEAS}
FLEET_GRAPH: Final = {loc: tuple(sorted(n)) for loc, n in BOARD.fleet_adj.items()}
#: the coastal provinces beside each sea: where one fleet there may carry an army
SHORES: Final = {s: tuple(sorted(p for p in BOARD.provinces
                                 if BOARD.is_coastal(p) and s in COAST_SEAS[p])) for s in SEAS}


class Weights:
    """DumbBot's published weights, for one kind of phase."""

    def __init__(self, attack: int, defence: int, proximity: tuple[int, ...],
                 strength: int = 1000, competition: int = 1000):
        self.attack, self.defence, self.proximity = attack, defence, proximity
        self.strength, self.competition = strength, competition


SPRING: Final = Weights(700, 300, (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1))
FALL: Final = Weights(600, 400, (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1))
WINTER: Final = Weights(700, 300, (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1), 0, 0)
#: the chance of looking at the next best place, and how fast it falls with
#: the gap in value (DumbBot's "play alternative" and "difference modifier")
PLAY_ALTERNATIVE: Final = 0.3
DIFFERENCE_MODIFIER: Final = 5.0


def size(centres: int) -> int:
    return centres * centres + 4 * centres + 16


def allies_of(pos: Position, power: str) -> frozenset[str]:
    """The powers played by ``power``'s player (itself included)."""
    for side in pos.variant.sides(pos.italy_joins):
        if power in side:
            return frozenset(side)
    return frozenset((power,))


def reach(unit) -> tuple[str, ...]:
    """The provinces a unit could move to, its own first."""
    if unit.type == "A":
        return (unit.prov, *ARMY_GRAPH[unit.prov])
    return (unit.prov, *BOARD.fleet_reach_prov[unit.loc])


class Values:
    """DumbBot's value of every location for one power in one position."""

    def __init__(self, pos: Position, power: str, weights: Weights | None = None):
        w = weights or (WINTER if pos.type == "A" else SPRING if pos.season == "S" else FALL)
        allies = allies_of(pos, power)
        owner = {c: p for p, cs in pos.centers.items() for c in cs}
        sizes = {p: size(len(cs)) for p, cs in pos.centers.items()}
        strength: dict[str, int] = {}
        reaching: dict[str, dict[str, int]] = {}  # province -> other power -> its units
        for u in pos.units.values():
            for p in reach(u):
                if u.power in allies:
                    strength[p] = strength.get(p, 0) + 1
                else:
                    counts = reaching.setdefault(p, {})
                    counts[u.power] = counts.get(u.power, 0) + 1
        base: dict[str, float] = {}
        for c in sorted(BOARD.supply_centers):  # sums in one order: the same floats in any process
            held = owner.get(c)
            if held in allies:
                threats = reaching.get(c, {})
                base[c] = w.defence * max((sizes.get(p, size(0)) for p in threats), default=0)
            else:
                base[c] = w.attack * sizes.get(held, size(0)) if held else w.attack * size(0)
        closed = pos.impassable
        self.power, self.pos = power, pos
        self.army = _proximity(ARMY_GRAPH, base, closed, w, lambda n: n)
        self.fleet = _proximity(FLEET_GRAPH, base, closed, w, lambda n: n[:3])
        competition = {p: max(c.values()) for p, c in reaching.items()}
        for table, prov_of in ((self.army, lambda n: n), (self.fleet, lambda n: n[:3])):
            for n in table:
                p = prov_of(n)
                table[n] += w.strength * strength.get(p, 0) - w.competition * competition.get(p, 0)
        self.competition = competition
        self.strength = strength

    def of(self, utype: str, loc: str) -> float:
        """The value of a unit of this type standing on ``loc``."""
        return self.army.get(loc, 0.0) if utype == "A" else self.fleet.get(loc, 0.0)


def _proximity(graph, base, closed, w: Weights, prov_of) -> dict[str, float]:
    """The weighted sum of the proximities of every open location.  Proximity is
    linear in the centres' values, so it is the sum of each centre's kernel
    (worked out once per graph, weights and closed provinces) times its value."""
    nodes, kernels = _kernels(graph, closed, w.proximity, prov_of)
    total = [0.0] * len(nodes)
    for c, value in base.items():
        kernel = kernels.get(c)
        if value and kernel is not None:
            total = [t + value * k for t, k in zip(total, kernel)]
    return dict(zip(nodes, total))


_KERNELS: Final[dict] = {}


def _kernels(graph, closed, weights: tuple[int, ...], prov_of):
    key = (id(graph), closed, weights)
    hit = _KERNELS.get(key)
    if hit is None:
        nodes = [n for n in graph if prov_of(n) not in closed]
        index = {n: i for i, n in enumerate(nodes)}
        links = [[index[m] for m in graph[n] if m in index] for n in nodes]
        kernels = {}
        for c in BOARD.supply_centers - closed:
            layer = [1.0 if prov_of(n) == c else 0.0 for n in nodes]
            total = [weights[0] * v for v in layer]
            for weight in weights[1:]:
                layer = [(layer[i] + sum(layer[j] for j in js)) / 5 for i, js in enumerate(links)]
                total = [t + weight * v for t, v in zip(total, layer)]
            kernels[c] = total
        hit = _KERNELS[key] = (nodes, kernels)
    return hit


def pick(ranked: Sequence[tuple[float, object]], rng: random.Random):
    """DumbBot's choice from (value, choice) pairs sorted best first: the best,
    or with a chance shrinking with the gap, the next ones."""
    best = ranked[0][0]
    i = 0
    scale = abs(best) or 1.0
    while (i + 1 < len(ranked) and rng.random() < PLAY_ALTERNATIVE
           and (best - ranked[i + 1][0]) * DIFFERENCE_MODIFIER / scale < rng.random()):
        i += 1
    return ranked[i][1]


# -- movement ---------------------------------------------------------------------
class Movement:
    """One power's options in a movement phase, read once, for many samples."""

    def __init__(self, pos: Position, power: str, options: dict[str, list[str]], values: Values):
        self.pos, self.power, self.values = pos, power, values
        self.units = [u for u in pos.power_units.get(power, ()) if u.name in options]
        self.legal = {o for orders in options.values() for o in orders}
        #: unit -> [(value, destination location)], best first; the unit's own place is a hold
        self.ranked = {}
        for u in self.units:
            places = [(values.of(u.type, u.loc), u.loc)]
            for o in options[u.name]:
                parts = o.split()
                if len(parts) == 4 and parts[2] == "-":
                    places.append((values.of(u.type, parts[3]), parts[3]))
            self.ranked[u.name] = sorted(places, key=lambda vp: (-vp[0], vp[1]))
        #: army -> [(value, destination, fleet order)]: convoys by one fleet of ours
        self.convoys: dict[str, list[tuple[float, str, str]]] = {}
        fleets = [u for u in self.units if u.type == "F" and u.prov in SEAS]
        for army in self.units:
            if army.type != "A" or not BOARD.is_coastal(army.prov):
                continue
            for f in fleets:
                for dest in SHORES[f.prov]:
                    move = f"{army.name} - {dest} VIA"
                    carry = f"{f.name} C {army.name} - {dest}"
                    if move in self.legal and carry in self.legal:
                        self.convoys.setdefault(army.name, []).append(
                            (values.of("A", dest), dest, carry))

    def sample(self, rng: random.Random, greedy: bool = False) -> list[str]:
        """One set of orders, DumbBot's way (``greedy``: always the best place)."""
        units = list(self.units)
        rng.shuffle(units)
        self._orders: dict[str, str] = {}  # unit name -> order
        self._going: dict[str, str] = {}  # province -> the unit of ours moving there or staying
        self._rng, self._greedy = rng, greedy
        for u in units:
            self._order(u, set())
        self._support_from_holds(self._orders, self._going)
        return [self._orders[u.name] for u in self.units]

    def _order(self, u, waiting: set[str]) -> None:
        """Order ``u``; a unit of ours where it wants to go is ordered first."""
        orders = self._orders
        if u.name in orders:
            return
        waiting.add(u.name)
        choices: list[tuple[float, tuple[str, ...]]] = [(v, ("move", loc)) for v, loc in self.ranked[u.name]]
        choices += [(v, ("convoy", dest, carry)) for v, dest, carry in self.convoys.get(u.name, ())]
        choices.sort(key=lambda c: (-c[0], c[1]))
        while choices:
            choice = choices[0][1] if self._greedy else pick(choices, self._rng)
            there = self.pos.units.get((choice[1] if choice[0] == "move" else choice[1])[:3])
            if (there is not None and there.power == self.power and there is not u
                    and there.name not in waiting):
                self._order(there, waiting)
            if self._place(u, choice):
                return
            choices = [c for c in choices if c[1] != choice]
        orders[u.name] = f"{u.name} H"
        self._going.setdefault(u.prov, u.name)

    def _place(self, u, choice) -> bool:
        orders, going = self._orders, self._going
        if choice[0] == "convoy":
            _kind, dest, carry = choice
            fleet = carry.split()[0] + " " + carry.split()[1]
            if dest[:3] in going or fleet in orders:
                return False
            orders[u.name] = f"{u.name} - {dest} VIA"
            orders[fleet] = carry
            going[dest[:3]] = u.name
            going[fleet.split()[1][:3]] = fleet
            return True
        loc = choice[1]
        prov = loc[:3]
        if prov == u.prov:
            orders[u.name] = f"{u.name} H"
            going.setdefault(prov, u.name)
            return True
        mover = going.get(prov)
        if mover is not None:  # one of ours goes or stays there: support it, if it helps
            if self.values.competition.get(prov, 0) == 0:
                return False
            support = self._support(u, mover, orders)
            if support is None:
                return False
            orders[u.name] = support
            going.setdefault(u.prov, u.name)
            return True
        orders[u.name] = f"{u.name} - {loc}"
        going[prov] = u.name
        return True

    def _support(self, u, mover: str, orders) -> str | None:
        order = orders.get(mover, f"{mover} H")
        parts = order.split()
        if parts[2] == "-":
            text = f"{u.name} S {mover} - {parts[3]}"
        elif parts[2] in ("H", "S", "C"):
            text = f"{u.name} S {mover}"
        else:
            return None
        return text if text in self.legal else None

    def _support_from_holds(self, orders, going) -> None:
        """A holding unit supports a move or hold of ours that faces competition."""
        values = self.values
        for u in self.units:
            if orders[u.name] != f"{u.name} H" or values.competition.get(u.prov, 0) > 0:
                continue
            best = None
            for prov, mover in going.items():
                if mover == u.name or values.competition.get(prov, 0) == 0:
                    continue
                support = self._support(u, mover, orders)
                if support is not None:
                    key = (values.competition[prov], values.of("A", prov), prov)
                    if best is None or key > best[0]:
                        best = (key, support)
            if best is not None:
                orders[u.name] = best[1]


# -- retreats and adjustments ---------------------------------------------------------
def retreat_orders(values: Values, options: dict[str, list[str]], rng: random.Random,
                   greedy: bool = False) -> list[str]:
    out = []
    taken: set[str] = set()
    for unit in sorted(options):
        utype = unit[0]
        ranked = []
        for o in options[unit]:
            parts = o.split()
            if parts[2] == "R" and parts[3][:3] not in taken:
                ranked.append((values.of(utype, parts[3]), o))
        ranked.sort(key=lambda vo: (-vo[0], vo[1]))
        if not ranked:
            out.append(f"{unit} D")
            continue
        order = ranked[0][1] if greedy else pick(ranked, rng)
        taken.add(order.split()[3][:3])
        out.append(order)
    return out


def adjustment_orders(values: Values, options: dict, rng: random.Random,
                      greedy: bool = False) -> list[str]:
    n = options.get("builds", 0)
    out: list[str] = []
    if n > 0:
        ranked = sorted(((values.of(o[0], o.split()[1]), o)
                         for builds in options["sites"].values() for o in builds),
                        key=lambda vo: (-vo[0], vo[1]))
        used: set[str] = set()
        while len(out) < n:
            ranked = [r for r in ranked if r[1].split()[1][:3] not in used]
            if not ranked:
                out.append("WAIVE")
                continue
            order = ranked[0][1] if greedy else pick(ranked, rng)
            used.add(order.split()[1][:3])
            out.append(order)
    elif n < 0:
        ranked = sorted(((-values.of(o[0], o.split()[1]), o) for o in options["disbands"]),
                        key=lambda vo: (-vo[0], vo[1]))
        while len(out) < -n and ranked:
            order = ranked[0][1] if greedy else pick(ranked, rng)
            ranked = [r for r in ranked if r[1] != order]
            out.append(order)
    return out


def dumbbot_orders(position: dict, power: str, seed=None) -> list[str]:
    """DumbBot's orders for ``power`` in ``position`` (any phase, any variant)."""
    pos = read_position({**position, "orders": {}})
    power = power.upper()
    rng = random.Random(seed)
    if power in pos.neutral:
        return []
    choices = options(position, power)
    if not choices:
        return []
    values = Values(pos, power)
    if pos.type == "M":
        return Movement(pos, power, choices, values).sample(rng)
    if pos.type == "R":
        return retreat_orders(values, choices, rng)
    return adjustment_orders(values, choices, rng)
