"""C-Diplo 100 (spec §5.5): 1 for playing, 1 per centre, bonuses 38 / 14 / 7 by rank."""
from __future__ import annotations

from ..common import POWERS, Game, Scores, shared_rank_points, solo_only

ID = "cdiplo100"
NAME = "C-Diplo 100"
RANK_BONUS = (38, 14, 7)
DESCRIPTION = ("C-Diplo 100: a solo takes 100; otherwise 1 + centres + a rank bonus of "
               "38/14/7 for the three largest (ties share)")


def score(game: Game) -> Scores:
    if game.is_solo:
        return solo_only(game, 100)
    bonus = shared_rank_points({p: game.c(p) for p in POWERS}, RANK_BONUS)
    return {p: 1 + game.c(p) + bonus[p] for p in POWERS}
