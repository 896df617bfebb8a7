"""The nine scoring systems of the spec, one module each, keyed by system id."""
from __future__ import annotations

from typing import Callable

from ..common import Game, Scores
from . import bangkok, carnage, cdiplo100, dss, opentribute, ppsc, sum_of_squares, tribute, world_classic

_MODULES = (dss, sum_of_squares, ppsc, carnage, cdiplo100, tribute, opentribute, world_classic, bangkok)

SCORERS: dict[str, Callable[[Game], Scores]] = {m.ID: m.score for m in _MODULES}
DESCRIPTIONS: dict[str, str] = {m.ID: m.DESCRIPTION for m in _MODULES}
NAMES: dict[str, str] = {m.ID: m.NAME for m in _MODULES}
