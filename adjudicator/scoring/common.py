"""What every scoring system shares: the board's constants, the facts derived
from a validated game result (spec §1.3, §2.3), and the shared-rank rule (§3.1).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import groupby
from typing import Any, Mapping, Sequence

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SUPPLY_CENTRES = 34
SOLO_CENTRES = 18          # more than half of 34
FIRST_YEAR = 1901
ENDS = ("solo", "draw", "timeout", "concession")

Scores = dict[str, Fraction]


@dataclass(frozen=True)
class Game:
    """A validated game result with the quantities of §1.3 and §2.3.

    Build it with :meth:`from_result` from the output of ``load_result``; it
    assumes the result is valid (§2.2) and does not check again.
    """

    centers: Mapping[str, int]
    end: str
    draw_members: frozenset[str]
    eliminated_year: Mapping[str, int]
    year: int
    conceded_to: str | None = None

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> "Game":
        return cls(
            centers={p: result["centers"][p] for p in POWERS},
            end=result["end"],
            draw_members=frozenset(result["draw_members"]),
            eliminated_year=dict(result["eliminated_year"]),
            year=result["year"],
            conceded_to=result.get("conceded_to"),
        )

    def c(self, power: str) -> int:
        return self.centers[power]

    @property
    def is_solo(self) -> bool:
        """A solo, or a concession, which §2.5 scores exactly as a solo by the power conceded to."""
        return self.end in ("solo", "concession")

    @cached_property
    def winner(self) -> str | None:
        """The power with 18 or more centres in a solo, the power conceded to; None otherwise."""
        if self.end == "concession":
            return self.conceded_to
        if not self.is_solo:
            return None
        return next(p for p in POWERS if self.centers[p] >= SOLO_CENTRES)

    @cached_property
    def survivors(self) -> tuple[str, ...]:
        return tuple(p for p in POWERS if self.centers[p] >= 1)

    @cached_property
    def eliminated(self) -> tuple[str, ...]:
        return tuple(p for p in POWERS if self.centers[p] == 0)

    def survives(self, power: str) -> bool:
        return self.centers[power] >= 1

    @property
    def n(self) -> int:
        """The number of survivors."""
        return len(self.survivors)

    @cached_property
    def owned(self) -> int:
        """O: the centres owned by the seven powers."""
        return sum(self.centers.values())

    @property
    def neutral(self) -> int:
        return SUPPLY_CENTRES - self.owned

    @cached_property
    def top(self) -> int:
        """L: the largest centre count."""
        return max(self.centers.values())

    @cached_property
    def toppers(self) -> tuple[str, ...]:
        return tuple(p for p in POWERS if self.centers[p] == self.top)

    @property
    def k(self) -> int:
        """The number of toppers."""
        return len(self.toppers)

    @cached_property
    def draw_set(self) -> frozenset[str]:
        """D (§2.3): the named draw; every survivor for a timeout; empty in a solo."""
        if self.end == "draw":
            return self.draw_members
        if self.end == "timeout":
            return frozenset(self.survivors)
        return frozenset()

    def years_before_elimination(self, power: str, first_counted: int) -> int:
        """Y(p) - first_counted (§3.2: World Classic counts from 1901, Bangkok from 1900)."""
        return self.eliminated_year[power] - first_counted


def zeros() -> Scores:
    return {p: Fraction(0) for p in POWERS}


def solo_only(game: Game, winner_points: int | Fraction) -> Scores:
    """The winner takes ``winner_points``; everyone else scores 0."""
    scores = zeros()
    scores[game.winner] = Fraction(winner_points)
    return scores


def split_among_draw(game: Game, pot: int = 100) -> Scores:
    """``pot`` split equally among the draw set D; 0 to the rest (dss and ppsc)."""
    scores = zeros()
    members = game.draw_set
    for p in members:
        scores[p] = Fraction(pot, len(members))
    return scores


def shared_rank_points(keys: Mapping[str, Any], points: Sequence[int]) -> Scores:
    """Position points by rank, ties sharing (§3.1).

    ``keys`` gives each power its ranking key (larger is better, compared with
    ``==`` for ties); ``points`` are P1, P2, ... (positions beyond it are worth
    0).  A group of m equal keys occupying positions i .. i+m-1 shares
    (Pi + ... + P(i+m-1)) / m each.
    """
    order = sorted(keys, key=lambda p: keys[p], reverse=True)
    result: Scores = {}
    position = 0
    for _, group in groupby(order, key=lambda p: keys[p]):
        members = list(group)
        pot = sum(points[i] for i in range(position, position + len(members)) if i < len(points))
        for p in members:
            result[p] = Fraction(pot, len(members))
        position += len(members)
    return result
