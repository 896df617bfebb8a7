"""World Classic (spec §5.8): 10 per centre, 30 for surviving, 48 for the top, years otherwise."""
from __future__ import annotations

from fractions import Fraction

from ..common import FIRST_YEAR, POWERS, Game, Scores, zeros

ID = "world_classic"
NAME = "World Classic"
PER_CENTRE = 10
SURVIVAL = 30
TOP_POOL = 48
SOLO_POINTS = 420
DESCRIPTION = ("World Classic: a solo takes 420; otherwise survivors score 10 per centre + 30, "
               "toppers share 48; the eliminated score Y - 1901 (also the losers of a solo)")


def score(game: Game) -> Scores:
    scores = zeros()
    if game.is_solo:
        for p in POWERS:
            if p == game.winner:
                scores[p] = Fraction(SOLO_POINTS)
            elif game.survives(p):
                scores[p] = Fraction(game.year - FIRST_YEAR)      # as if eliminated in the solo's year
            else:
                scores[p] = Fraction(game.years_before_elimination(p, FIRST_YEAR))
        return scores
    for p in POWERS:
        if game.survives(p):
            scores[p] = Fraction(PER_CENTRE * game.c(p) + SURVIVAL)
            if game.c(p) == game.top:
                scores[p] += Fraction(TOP_POOL, game.k)
        else:
            scores[p] = Fraction(game.years_before_elimination(p, FIRST_YEAR))
    return scores
