"""A finished game's result in the format of the scoring spec (tournament-scoring.md §2.1).

The result is built once, in the transaction that ends the game, from the
game's live history (superseded branches left out) and its final position:

    {"centers": {power: count}, "end": "solo" | "draw" | "concession" | "timeout",
     "draw_members": [...], "eliminated_year": {power: year}, "year": year}

plus ``conceded_to`` for a concession, which the spec (§2.5) records as its
own end and scores exactly as a solo by that power with the centres as they
stand; ``adjudicator.scoring`` scores every end, so a result is scored as it is.
"""
from __future__ import annotations


def count_year(phase: str) -> int:
    """The year of the Fall turn whose ownership a position of ``phase`` shows
    (centres change hands only at the end of a Fall turn and its retreats)."""
    year = int(phase[1:5])
    return year if phase[0] == "W" else year - 1


def build(powers: list[str], positions: list[dict], end: str, members=(), conceded_to: str | None = None,
          first_year: int = 1901) -> dict:
    """The §2.1 result of a game whose positions (oldest first, the final one last) were ``positions``."""
    final = positions[-1]
    centers = {p: len(final["centers"].get(p, [])) for p in powers}
    eliminated = {}
    for p in powers:
        if centers[p] == 0:
            first_empty = next(pos for pos in positions if not pos["centers"].get(p))
            eliminated[p] = max(first_year, count_year(first_empty["phase"]))
    result = {"centers": centers, "end": end, "draw_members": sorted(members) if end == "draw" else [],
              "eliminated_year": eliminated, "year": max(first_year, count_year(final["phase"]))}
    if end == "concession":
        result["conceded_to"] = conceded_to
    return result


def scored(result: dict) -> dict:
    """The §2.1 result alone, as ``adjudicator.scoring`` reads it: without the service's ``sides``."""
    return {k: v for k, v in result.items() if k != "sides"}
