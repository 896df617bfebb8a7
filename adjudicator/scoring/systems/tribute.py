"""Tribute (spec §5.6): 66 survival points, 1 per centre, and a tribute to the topper."""
from __future__ import annotations

from fractions import Fraction

from ..common import Game, Scores, solo_only, zeros

ID = "tribute"
NAME = "Tribute"
SURVIVAL_POOL = 66
THRESHOLD = 6          # fixed for the standard board
DESCRIPTION = ("Tribute: a solo takes 100; otherwise survivors share 66, score 1 per centre, "
               "and pay the topper 1 per topper centre over 6 (capped at the survival share)")


def score(game: Game) -> Scores:
    if game.is_solo:
        return solo_only(game, 100)
    n, k, top = game.n, game.k, game.top
    share = Fraction(SURVIVAL_POOL, n)
    tribute = min(share, Fraction(max(0, top - THRESHOLD)))
    scores = zeros()
    for p in game.survivors:
        if game.c(p) == top:
            scores[p] = top + share + tribute * (n - k) / k
        else:
            scores[p] = game.c(p) + share - tribute
    return scores
