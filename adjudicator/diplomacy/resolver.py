"""A generic guess-algorithm resolver (DATC v3.0 section 5.F, Kruijswijk).

It knows nothing about Diplomacy.  It answers "does decision ``k``
succeed?" by calling ``adjudicate(k)``, which may ask the resolver about
other decisions.  When a decision turns out to depend on itself, the
resolver guesses (False, then True); if both guesses give the same answer
that answer is taken, otherwise ``backup(keys)`` is called with the decisions
in the cycle and must :meth:`Resolver.fix` some of them (circular movement,
Szykman rule).  This is the "recursion_hits" version of 5.F, which only
retries a guess on the order that is the ancestor of the whole cycle, so
that tangled cycles such as Pandin's paradox (5.D) work.
"""
from __future__ import annotations

from typing import Callable


class Resolver:
    __slots__ = ("adjudicate", "backup", "resolved", "resolution", "visited",
                 "cycle", "cycle_set", "guess_based", "recursion_hits")

    def __init__(self, adjudicate: Callable[[str], bool],
                 backup: Callable[[list[str]], object]):
        self.adjudicate = adjudicate
        self.backup = backup
        self.resolved: dict = {}
        self.resolution: dict = {}
        self.visited: set = set()
        self.cycle: list = []
        self.cycle_set: set = set()
        self.guess_based = False
        self.recursion_hits = 0

    def fix(self, key, value: bool) -> None:
        """Used by the backup rule: decide ``key`` for good."""
        self.resolved[key] = value

    def _truncate(self, n: int) -> None:
        for k in self.cycle[n:]:
            self.cycle_set.discard(k)
        del self.cycle[n:]

    def resolve(self, key) -> bool:
        r = self.resolved.get(key)
        if r is not None:
            return r
        if key in self.cycle_set:
            self.guess_based = True
            return self.resolution[key]
        if key in self.visited:
            # a cyclic dependency: answer with the current guess
            self.cycle.append(key)
            self.cycle_set.add(key)
            self.guess_based = True
            self.recursion_hits += 1
            return self.resolution[key]

        self.visited.add(key)
        old_cycle_len = len(self.cycle)
        old_guess_based = self.guess_based
        self.guess_based = False
        old_hits = self.recursion_hits
        self.resolution[key] = False
        first = self.adjudicate(key)

        if not self.guess_based:
            self.guess_based = old_guess_based
            self.visited.discard(key)
            self.resolved[key] = first
            return first

        if key in self.cycle_set:
            self.recursion_hits -= 1

        if self.recursion_hits == old_hits:
            # this decision is the ancestor of the whole cycle: try the other guess
            self._truncate(old_cycle_len)
            self.resolution[key] = True
            self.guess_based = False
            second = self.adjudicate(key)
            if first == second:
                self._truncate(old_cycle_len)
                self.guess_based = old_guess_based
                self.visited.discard(key)
                self.resolved[key] = first
                return first
            # no consistent answer, or two: the backup rule decides
            keys = list(self.cycle[old_cycle_len:])
            if key not in keys:
                keys.append(key)
            self.backup(keys)
            self._truncate(old_cycle_len)
            self.guess_based = old_guess_based
            self.visited.discard(key)
            return self.resolve(key)

        # part of a cycle whose ancestor is further up: remember, don't settle
        if key not in self.cycle_set:
            self.cycle.append(key)
            self.cycle_set.add(key)
        self.resolution[key] = first
        self.visited.discard(key)
        return first
