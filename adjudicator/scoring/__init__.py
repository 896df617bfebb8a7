"""Tournament scoring for finished standard-map games: nine systems, exact rationals.

Specification: ``tournament-scoring.md`` (shared rules); see docs/scoring.md.
Pure: no I/O outside the command line in ``__main__``.

* :data:`SYSTEMS` -- system id -> a short description;
* :func:`load_result` -- validate a game result (§2) with :class:`ResultSchema`,
  raising :class:`ResultError` (``.field``, ``.message``, ``.errors``);
* :func:`score` -- one system's scores, ``{power: Fraction}`` for all seven powers,
  raising :class:`UnknownSystemError` or :class:`ResultError`;
* :func:`as_numbers` / :func:`as_exact` -- the scores as JSON numbers / exact strings (§4);
  :func:`rounded` -- a score with two decimals, for reading.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from .common import POWERS, Game
from .output import as_exact, as_numbers, rounded
from .result import ResultError, ResultSchema, load_result
from .systems import DESCRIPTIONS, SCORERS

__all__ = ["SYSTEMS", "POWERS", "score", "load_result", "as_numbers", "as_exact", "rounded",
           "ResultSchema", "ResultError", "UnknownSystemError"]

SYSTEMS: dict[str, str] = dict(DESCRIPTIONS)
"""The nine system ids, in the spec's order, each with a one-line description."""


class UnknownSystemError(ValueError):
    """``system`` is not one of :data:`SYSTEMS`; ``systems`` lists the known ids."""

    def __init__(self, system: Any):
        self.system = system
        self.systems = tuple(SYSTEMS)
        super().__init__(f"unknown scoring system {system!r}; the systems are {', '.join(self.systems)}")


def score(system: str, result: Mapping[str, Any]) -> dict[str, Fraction]:
    """Score one game result under one system: ``{power: Fraction}``, all seven powers.

    ``result`` is validated by :func:`load_result` first (a loaded result may
    be passed again), so an invalid result raises :class:`ResultError` and is
    never scored.
    """
    scorer = SCORERS.get(system) if isinstance(system, str) else None
    if scorer is None:
        raise UnknownSystemError(system)
    game = Game.from_result(load_result(result))
    scores = scorer(game)
    return {p: Fraction(scores[p]) for p in POWERS}
