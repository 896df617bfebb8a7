"""Sum-of-Squares (spec §5.2): shares of 100 proportional to the squared centre counts."""
from __future__ import annotations

from fractions import Fraction

from ..common import POWERS, Game, Scores, solo_only

ID = "sum_of_squares"
NAME = "Sum-of-Squares"
DESCRIPTION = "Sum-of-Squares: a solo takes 100; otherwise 100 x c^2 / (sum of all c^2); draw ignored"


def score(game: Game) -> Scores:
    if game.is_solo:
        return solo_only(game, 100)
    squares = {p: game.c(p) ** 2 for p in POWERS}
    total = sum(squares.values())          # > 0: a non-solo result has two survivors
    return {p: Fraction(100 * squares[p], total) for p in POWERS}
