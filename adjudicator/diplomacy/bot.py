"""The bot (contracts/bots.md): a power's orders for any phase, chosen by search.

A movement phase:

1. DumbBot's values (:mod:`.dumbbot`) for us and for every power with a unit
   near ours (two moves from our units or centres);
2. a few *replies*: each neighbour's orders as DumbBot would give them,
   sampled (the powers further away hold);
3. candidate order sets of ours, sampled DumbBot's way and its greedy set;
4. each candidate adjudicated against every reply and scored by
   :meth:`Search.value` (centres held after the phase, units, threats,
   position); the mean, with a quarter of weight on the worst reply;
5. then, while the budget lasts, the best candidates are improved one unit
   at a time: its other orders (hold, its best moves, the support of each
   order of ours it can support) are tried, and a change that scores better
   is kept.

Every order comes from :func:`.options.options`, so the bot never gives an
invalid one.  ``budget`` counts adjudications, not seconds, so a seed gives
the same orders on any machine; the default takes about a tenth of a second
(docs/bots.md).  Retreats, builds and disbands take DumbBot's best choice.
Pure: no I/O.
"""
from __future__ import annotations

import random
from typing import Final

from .board import BOARD
from .dumbbot import Movement, Values, adjustment_orders, allies_of, reach, retreat_orders
from .engine import adjudicate
from .options import options_by_power
from .position import Position, RequestError, read_position

#: adjudications per movement phase, by default
DEFAULT_BUDGET: Final = 400
#: replies of the neighbours each candidate is played against
REPLIES: Final = 6
#: the share of the budget spent on sampled candidates (the rest improves the best ones)
SAMPLED_SHARE: Final = 0.4
#: the sampled candidates improved one unit at a time, best first, while the budget lasts
RESTARTS: Final = 3
#: score weights: a unit, a dislodged unit with somewhere to go, a centre of ours
#: that an enemy could walk into, the DumbBot value of where our units stand
UNIT: Final = 0.3
DISLODGED: Final = 0.1
THREAT: Final = 0.3
PLACE: Final = 0.05
WORST: Final = 0.25


def bot_orders(position: dict, power: str, seed=None, budget: int = DEFAULT_BUDGET) -> list[str]:
    """``power``'s orders in ``position`` (the interchange format, any phase and
    variant); ``seed`` makes them repeatable.  [] if it has nothing to order.
    Raises :class:`RequestError` for a malformed position or an unknown power."""
    pos = read_position({**position, "orders": {}})
    if not isinstance(power, str) or power.upper() not in BOARD.powers:
        raise RequestError(f"unknown power {power!r}", "power")
    power = power.upper()
    if power in pos.neutral:
        return []
    rng = random.Random(seed)
    if pos.type != "M":
        choices = options_by_power(position, [power])["powers"][power]
        if not choices:
            return []
        values = Values(pos, power)
        if pos.type == "R":
            return retreat_orders(values, choices, rng, greedy=True)
        return adjustment_orders(values, choices, rng, greedy=True)
    if not pos.power_units.get(power):
        return []
    return Search(position, pos, power, rng, budget).best()


def neighbours(pos: Position, power: str) -> list[str]:
    """The other powers with a unit two moves or less from our units or centres."""
    near = set(pos.centers.get(power, ()))
    for u in pos.power_units.get(power, ()):
        near.update(reach(u))
    ring = set(near)
    for p in near:
        ring.update(BOARD.army_adj.get(p, ()))
        ring.update(BOARD.fleet_reach_prov.get(p, ()))
        for c in BOARD.coasts.get(p, ()):
            ring.update(BOARD.fleet_reach_prov[c])
    found = {u.power for u in pos.units.values() if u.prov in ring}
    return [p for p in BOARD.powers if p in found and p != power and p not in pos.neutral]


class Search:
    """The candidates of one power in one movement phase, scored against replies."""

    def __init__(self, position: dict, pos: Position, power: str, rng: random.Random,
                 budget: int):
        self.request = {k: v for k, v in position.items() if k != "orders"}
        self.pos, self.power, self.rng = pos, power, rng
        self.left = max(budget, 1)
        others = neighbours(pos, power)
        found = options_by_power(position, [power, *others])["powers"]
        self.options = found[power]
        self.values = Values(pos, power)
        self.mine = Movement(pos, power, self.options, self.values)
        models = [Movement(pos, p, found[p], Values(pos, p)) for p in others if found[p]]
        n_replies = max(1, min(REPLIES, budget // 8))
        self.replies = [{m.power: m.sample(rng) for m in models} for _ in range(n_replies)]
        self.side = allies_of(pos, power)
        self.enemies = frozenset(p for p in BOARD.powers
                                 if p not in self.side and p not in pos.neutral)
        self.owner = {c: p for p, cs in pos.centers.items() for c in cs}
        top = max([*self.values.army.values(), *self.values.fleet.values(), 1.0])
        self.place_scale = PLACE / top
        self.scores: dict[tuple[str, ...], float] = {}

    def best(self) -> list[str]:
        mine = self.mine
        found = [tuple(mine.sample(self.rng, greedy=True))]
        per = len(self.replies)
        wanted = max(1, int(self.left * SAMPLED_SHARE) // per)
        for _ in range(3 * wanted):
            if len(found) >= wanted:
                break
            c = tuple(mine.sample(self.rng))
            if c not in found:
                found.append(c)
        ranked = sorted(found, key=lambda c: -self.score(c))
        best = self.improve(ranked[0])
        for start in ranked[1:RESTARTS]:  # what budget is left improves the runners-up
            if self.left < len(self.replies):
                break
            other = self.improve(start)
            if self.score(other) > self.score(best):
                best = other
        return list(best)

    def improve(self, best: tuple[str, ...]) -> tuple[str, ...]:
        """One unit at a time, its other orders; a better one is kept."""
        best_score = self.score(best)
        changed = True
        while changed and self.left > 0:
            changed = False
            order = list(range(len(best)))
            self.rng.shuffle(order)
            for i in order:
                for alt in self.alternatives(best, i):
                    if self.left < len(self.replies):
                        return best
                    trial = best[:i] + (alt,) + best[i + 1:]
                    s = self.score(trial)
                    if s > best_score + 1e-9:
                        best, best_score, changed = trial, s, True
        return best

    def alternatives(self, orders: tuple[str, ...], i: int) -> list[str]:
        """Unit ``i``'s hold, its moves (best places first) and its supports of
        our other orders, but its present order."""
        unit = orders[i].split()[0] + " " + orders[i].split()[1]
        legal = self.options[unit]
        out = [f"{unit} H"]
        out += [loc for _v, loc in self.mine.ranked[unit][:4]]
        out = [o if o.endswith(" H") else f"{unit} - {o}" for o in out]
        for j, other in enumerate(orders):
            if j == i:
                continue
            parts = other.split()
            target = parts[0] + " " + parts[1]
            text = (f"{unit} S {target} - {parts[3]}" if parts[2] == "-"
                    else f"{unit} S {target}")
            out.append(text)
        return [o for o in dict.fromkeys(out) if o in legal and o != orders[i]]

    def score(self, orders: tuple[str, ...]) -> float:
        hit = self.scores.get(orders)
        if hit is not None:
            return hit
        results = []
        for reply in self.replies:
            request = dict(self.request)
            request["orders"] = {**reply, self.power: list(orders)}
            results.append(self.value(adjudicate(request)["next"]))
            self.left -= 1
        s = (1 - WORST) * sum(results) / len(results) + WORST * min(results)
        self.scores[orders] = s
        return s

    def value(self, nxt: dict) -> float:
        """How good the position after the phase is for our side."""
        side, enemies = self.side, self.enemies
        owner = dict(self.owner)
        ours: list[str] = []
        enemy_reach: set[str] = set()
        for p, units in nxt["units"].items():
            mine = p in side
            for u in units:
                prov = u[2:5]
                if prov in BOARD.supply_centers:
                    owner[prov] = p
                if mine:
                    ours.append(u)
                elif p in enemies:
                    enemy_reach.update(BOARD.army_adj.get(prov, ()) if u[0] == "A"
                                       else BOARD.fleet_reach_prov[u[2:]])
        occupied = {u[2:5] for u in ours}
        centres = [c for c, p in owner.items() if p in side]
        threatened = sum(1 for c in centres if c not in occupied and c in enemy_reach)
        dislodged = sum(len(d) for p, d in nxt["dislodged"].items() if p in side)
        of = self.values.of
        place = sum(of(u[0], u[2:]) for u in ours if u[2:5] in occupied)
        return (len(centres) + UNIT * len(ours) + DISLODGED * dislodged - THREAT * threatened
                + self.place_scale * place)
