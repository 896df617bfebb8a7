"""Nations (1-5 players): production, war, events, famine and forced losses as step-by-step procedures.

Spec: rules/nations.md §4; every procedure takes the whole game state of
:mod:`adjudicator.nations.state` and returns it changed.
"""
from .events import EVENT
from .famine import FAMINE
from .losses import FORCED_LOSS
from .production import PRODUCTION
from .war import WAR

__all__ = ["EVENT", "FAMINE", "FORCED_LOSS", "PRODUCTION", "WAR"]
