"""The 1630 game (spec ../shared/rules/1630.md): war, vote and scoring as pure procedures."""
from .scoring import SCORING
from .vote import VOTE
from .war import WAR

__all__ = ["WAR", "VOTE", "SCORING"]
