"""PPSC, webDiplomacy "Survivors-Win" (spec §5.3).

A draw is split equally as in DSS; after a solo the survivors share 100 pro
rata to their centres, the winner's count capped at 18.
"""
from __future__ import annotations

from fractions import Fraction

from ..common import SOLO_CENTRES, Game, Scores, split_among_draw, zeros

ID = "ppsc"
NAME = 'PPSC, webDiplomacy "Survivors-Win"'
DESCRIPTION = ('PPSC ("Survivors-Win"): a draw is split equally; after a solo every survivor '
               'shares 100 pro rata to centres, the winner counted as 18')


def score(game: Game) -> Scores:
    if not game.is_solo:
        return split_among_draw(game, 100)
    winner = game.winner
    capped = min(game.c(winner), SOLO_CENTRES)   # below 18 only in a concession (§2.5): the count itself
    divisor = game.owned - (game.c(winner) - capped)   # N = O - (W - 18)
    scores = zeros()
    for p in game.survivors:
        counted = capped if p == winner else game.c(p)
        scores[p] = Fraction(100 * counted, divisor)
    return scores
