"""Draw-Size Scoring (spec §5.1): 100 to a soloist, or 100 / |D| to each drawer."""
from __future__ import annotations

from ..common import Game, Scores, solo_only, split_among_draw

ID = "dss"
NAME = "Draw-Size Scoring"
DESCRIPTION = "Draw-Size Scoring: a solo takes 100; otherwise 100 split equally among the draw"


def score(game: Game) -> Scores:
    if game.is_solo:
        return solo_only(game, 100)
    return split_among_draw(game, 100)
