"""Bangkok 2020 (spec §5.9): 1 per centre, 3 for surviving, 12 domination points."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

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


def domination_points(centers: Mapping[str, int]) -> dict[str, Fraction]:
    """The 12 domination points: 12 x shares / all shares, shares 3 / 2 / 1 for
    a count of L, L - 1, L - 2 (L the top count).

    As §5.9 words it, every power holds shares by its count, eliminated powers
    included; on any real board L >= 4 and they hold none (see docs/scoring.md).
    """
    top = max(centers.values())
    shares = {p: SHARES.get(top - c, 0) for p, c in centers.items()}
    total = sum(shares.values())          # >= 3: the topper's
    return {p: Fraction(DOMINATION_POOL * shares[p], total) for p in centers}


def score(game: Game) -> Scores:
    scores = zeros()
    if game.is_solo:
        for p in game.survivors:
            scores[p] = Fraction(SOLO_POINTS) if p == game.winner else LOSER_PER_CENTRE * game.c(p)
        return scores
    domination = domination_points(game.centers)
    for p in POWERS:
        if game.survives(p):
            survival = Fraction(SURVIVAL)
        else:   # 0.3 for each year survived, the elimination year included (§3.2)
            survival = PER_YEAR * game.years_before_elimination(p, FIRST_YEAR - 1)
        scores[p] = game.c(p) + survival + domination[p]
    return scores
