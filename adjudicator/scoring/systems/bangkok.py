"""Bangkok 2020 (spec §5.9): 1 per centre, 3 for surviving, 12 domination points."""
from __future__ import annotations

from fractions import Fraction

from ..common import FIRST_YEAR, POWERS, Game, Scores, zeros

ID = "bangkok"
NAME = "Bangkok (2020)"
SOLO_POINTS = 41
LOSER_PER_CENTRE = Fraction(1, 2)
SURVIVAL = 3
PER_YEAR = Fraction(3, 10)
DOMINATION_POOL = 12
# shares by distance below the top count L: 3 at L, 2 at L - 1, 1 at L - 2
SHARES = {0: 3, 1: 2, 2: 1}
DESCRIPTION = ("Bangkok 2020: a solo takes 41, other survivors 0.5 per centre; otherwise "
               "1 per centre + 3 for surviving (0.3 per year incl. the elimination year if "
               "eliminated) + 12 domination points shared 3/2/1 by L, L-1, L-2")


def score(game: Game) -> Scores:
    scores = zeros()
    if game.is_solo:
        for p in game.survivors:
            scores[p] = Fraction(SOLO_POINTS) if p == game.winner else LOSER_PER_CENTRE * game.c(p)
        return scores
    # §5.9 literally: every power (eliminated ones included) holds shares by
    # its count.  On any real board L >= 4, so the eliminated hold none.
    shares = {p: SHARES.get(game.top - game.c(p), 0) for p in POWERS}
    total_shares = sum(shares.values())         # >= 3: the topper's
    for p in POWERS:
        if game.survives(p):
            survival = Fraction(SURVIVAL)
        else:
            survival = PER_YEAR * game.years_before_elimination(p, FIRST_YEAR - 1)
        scores[p] = game.c(p) + survival + Fraction(DOMINATION_POOL * shares[p], total_shares)
    return scores
