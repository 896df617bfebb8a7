"""Final scoring after the last round's knowledge scoring (spec §4.11, §3.5.2).

Each nation's total is A (its VP tokens) + B (its colonies' printed VP) + C
(its completed wonders' printed VP and the VP of their special effects) + D
(per manned building or military card, the VP of its first workers as printed)
+ E (one VP per full 10 of gold + stone + food + knowledge + strength +
stability).  The highest total wins; ties go to the nation higher in the final
player order.
"""
from __future__ import annotations

from ..procedure import Outcome, Procedure
from .state import RESOURCES, GameStateSchema, checked, stability, strength, working_copy


def worker_vp(nation: dict) -> int:
    """Part D: workers beyond the card's list, and cards with no workers, score nothing."""
    return sum(sum(slot["card"]["worker_vp"][:slot["workers"]]) for slot in nation["bm_slots"] if slot["card"])


def resources_sum(nation: dict) -> int:
    """What part E counts: the four resources, strength (without Elizabeth) and signed stability [A-11]."""
    return sum(nation["resources"][t] for t in RESOURCES) + strength(nation) + stability(nation)


def score(nation: dict) -> dict[str, int]:
    parts = {
        "vp_tokens": nation["vp"],
        "colonies": sum(colony["vp"] for colony in nation["colonies"]),
        "wonders": sum(wonder["vp"] + wonder["special_vp"] for wonder in nation["wonders_done"]),
        "buildings_military": worker_vp(nation),
        # [DEF, A-11] a negative sum counts as 0 (floor division alone would give -1).
        "resources": max(0, resources_sum(nation)) // 10,
    }
    return {**parts, "resources_sum": resources_sum(nation), "total": sum(parts.values())}


def resolve_final_scoring(state: dict):
    state = working_copy(state)
    order = state["player_order"]
    scores = {nid: score(state["nations"][nid]) for nid in order}
    ranking = sorted(order, key=lambda nid: (-scores[nid]["total"], order.index(nid)))  # ties: the final order
    return Outcome({"scores": scores, "ranking": ranking, "winner": ranking[0]}, checked(state))
    yield  # a generator like every procedure, though nothing is ever asked


FINAL_SCORING = Procedure(
    "nations.final_scoring", GameStateSchema, resolve_final_scoring,
    summary="Final scoring after the last round (§4.11): VP tokens, colonies, wonders, workers' VP and one VP per 10 "
            "resources, strength and stability; the highest total wins, ties to the higher in player order. It has "
            "no steps.",
    participants="The nations, by their ids in the state's nations; nobody is asked and nothing is rolled.")
