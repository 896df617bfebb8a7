"""Carnage, classic (spec §5.4): rank points 7,000 .. 1,000 plus one point per centre."""
from __future__ import annotations

from ..common import POWERS, SUPPLY_CENTRES, Game, Scores, shared_rank_points, solo_only

ID = "carnage"
NAME = "Carnage (classic)"
POSITION_POINTS = (7000, 6000, 5000, 4000, 3000, 2000, 1000)
SOLO_POINTS = sum(POSITION_POINTS) + SUPPLY_CENTRES      # 28,034
DESCRIPTION = ("Carnage (classic): a solo takes 28,034; otherwise rank points 7,000..1,000 "
               "(survivors by centres, then the eliminated by year) plus 1 per centre")


def _key(game: Game, power: str) -> tuple[int, int]:
    # Every survivor above every eliminated power; survivors by centres,
    # eliminated powers by year of elimination (later is better).
    if game.survives(power):
        return (1, game.c(power))
    return (0, game.eliminated_year[power])


def score(game: Game) -> Scores:
    if game.is_solo:
        return solo_only(game, SOLO_POINTS)
    ranks = shared_rank_points({p: _key(game, p) for p in POWERS}, POSITION_POINTS)
    return {p: ranks[p] + game.c(p) for p in POWERS}
