"""Nations (1-5 players): the resolution phase and final scoring as step-by-step procedures.

Spec: rules/nations.md §4.  Every procedure takes the whole game state of
:mod:`adjudicator.nations.state` and returns it changed.
"""
from .events import EVENT
from .famine import FAMINE
from .final_scoring import FINAL_SCORING
from .losses import FORCED_LOSS
from .player_order import PLAYER_ORDER
from .production import PRODUCTION
from .resolution import RESOLUTION
from .scoring import KNOWLEDGE_SCORING
from .war import WAR

__all__ = ["EVENT", "FAMINE", "FINAL_SCORING", "FORCED_LOSS", "KNOWLEDGE_SCORING", "PLAYER_ORDER", "PRODUCTION",
           "RESOLUTION", "WAR"]
