"""OpenTribute (spec §5.7): 34 + 3 per centre, minus one point per centre behind the topper."""
from __future__ import annotations

from fractions import Fraction

from ..common import POWERS, SUPPLY_CENTRES, Game, Scores, solo_only, zeros

ID = "opentribute"
NAME = "OpenTribute"
BASE = SUPPLY_CENTRES          # 34 points each to start
PER_CENTRE = 3
SOLO_POINTS = 10 * SUPPLY_CENTRES   # 340
DESCRIPTION = ("OpenTribute: a solo takes 340; otherwise 34 + 3 per centre, each power paying "
               "the topper 1 per centre behind it (k shared toppers get T/k^2 each, exact)")


def score(game: Game) -> Scores:
    if game.is_solo:
        return solo_only(game, SOLO_POINTS)
    top, k = game.top, game.k
    collected = sum(top - game.c(p) for p in POWERS)        # T, over all seven
    scores = zeros()
    for p in game.survivors:
        c = game.c(p)
        if c == top:
            scores[p] = BASE + PER_CENTRE * top + Fraction(collected, k * k)
        else:
            scores[p] = Fraction(BASE + PER_CENTRE * c - (top - c))
    return scores
