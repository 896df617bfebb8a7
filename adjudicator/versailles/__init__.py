"""Versailles 1919: the uprising check and uprising (spec §6) and the final scoring (§8).

* :data:`UPRISING` — the step-by-step procedure (decisions and dice as inputs);
* :data:`UNSETTLE` — an event unsettles one issue: bidding and the option again (§6.9);
* :data:`FINAL_SCORING` — scoring in the same procedure shape (no steps), and
  :func:`final_scoring`, the same as a pure function.
"""
from .scoring import FINAL_SCORING, ScoringState, final_scoring
from .state import GameState
from .unsettle import UNSETTLE, UnsettleState
from .uprising import UPRISING, UprisingState

__all__ = ["UPRISING", "UNSETTLE", "FINAL_SCORING", "final_scoring", "GameState", "UprisingState", "UnsettleState", "ScoringState"]
