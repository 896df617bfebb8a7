"""Shared helpers for the scoring tests: the spec's files and valid-result builders."""
from __future__ import annotations

import json
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path

# verbatim copies of the reference rules beside the repository: shared/rules/tournament-scoring.md and its vectors
DATA = Path(__file__).resolve().parents[1] / "data"
SPEC = DATA / "tournament-scoring.md"
VECTORS = DATA / "tournament-scoring-vectors.jsonl"

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def load_vectors() -> list[dict]:
    """Each vector, with every score kept as its exact JSON text (spec §7.1)."""
    vectors = []
    with VECTORS.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                vector = json.loads(line, parse_float=str, parse_int=str)
                # the result's integers are wanted as integers: reparse it normally
                vector["result"] = json.loads(line)["result"]
                vectors.append(vector)
    return vectors


def vector_text(value: Fraction) -> str:
    """How §7.1 writes an exact score: exact if it ends within 12 places,
    otherwise rounded half-to-even to 12 places; trailing zeros dropped."""
    if value.denominator == 1:
        return str(value.numerator)
    scaled = value * 10 ** 12
    if scaled.denominator == 1:
        text = str(Decimal(value.numerator) / Decimal(value.denominator))
    else:
        exact = Decimal(value.numerator) / Decimal(value.denominator)   # 28 significant digits
        text = str(exact.quantize(Decimal("1e-12"), rounding=ROUND_HALF_EVEN))
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def result(centers, end="timeout", draw=(), elim=None, year=1910) -> dict:
    """A game result from counts in the order A E F G I R T; eliminated powers
    get ``elim`` (a dict) or a default year of 1905."""
    counts = dict(zip(POWERS, centers))
    elim = dict(elim) if elim is not None else {p: 1905 for p in POWERS if counts[p] == 0}
    return {"centers": counts, "end": end, "draw_members": list(draw), "eliminated_year": elim, "year": year}
