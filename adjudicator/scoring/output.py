"""Scores leaving the module (spec §4): exact where possible, decimals otherwise."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping


def as_numbers(scores: Mapping[str, Fraction]) -> dict[str, int | float]:
    """JSON-ready numbers: an ``int`` for a whole score, else the nearest ``float``.

    A float carries 15-17 significant digits, so every score of these systems
    is within 1e-12 of its exact value (spec §4 asks for 12 decimal places or
    the exact value, and for a 1e-9 tolerance when comparing).  Pair it with
    :func:`as_exact` when the exact value must be kept.
    """
    return {p: int(v) if v.denominator == 1 else float(v) for p, v in scores.items()}


def as_exact(scores: Mapping[str, Fraction]) -> dict[str, str]:
    """The exact scores as strings: ``"25"`` or ``"100/7"`` (numerator/denominator)."""
    return {p: str(Fraction(v)) for p, v in scores.items()}


def rounded(value: Fraction | None) -> str | None:
    """``value`` with two decimals for reading, halves rounded up (24.03846... -> "24.04")."""
    if value is None:
        return None
    hundredths = math.floor(value * 100 + Fraction(1, 2))
    sign = "-" if hundredths < 0 else ""
    return f"{sign}{abs(hundredths) // 100}.{abs(hundredths) % 100:02d}"
