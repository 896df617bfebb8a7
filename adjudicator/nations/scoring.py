"""Resolution step 6: era-end knowledge scoring (spec §4.10).

At the end of rounds 2, 4, 6 and 8 each nation gains 1 VP for each other
nation with strictly less knowledge; ties give nothing between the tied.
"""
from __future__ import annotations

from ..procedure import Outcome, Procedure
from .state import GameStateSchema, checked, working_copy


def era_ends(state: dict) -> bool:
    # [DEF] without a round number the engine cannot know; it scores only when told the round.
    return state["round"] is not None and state["round"] % 2 == 0


def knowledge_vp(state: dict) -> dict[str, int]:
    knowledge = {nid: n["resources"]["knowledge"] for nid, n in state["nations"].items()}
    return {nid: sum(1 for other in knowledge.values() if other < mine) for nid, mine in knowledge.items()}


def resolve_knowledge_scoring(state: dict):
    state = working_copy(state)
    gained = knowledge_vp(state) if era_ends(state) else {}
    for nid, vp in gained.items():
        state["nations"][nid]["vp"] += vp
    return Outcome({"era_end": era_ends(state), "vp": gained}, checked(state))
    yield  # a generator like every procedure, though nothing is ever asked


KNOWLEDGE_SCORING = Procedure(
    "nations.knowledge_scoring", GameStateSchema, resolve_knowledge_scoring,
    summary="Resolution step 6 (§4.10): at the end of an era (even rounds) each nation gains 1 VP per other nation "
            "with strictly less knowledge; it has no steps.",
    participants="The nations, by their ids in the state's nations; nobody is asked and nothing is rolled.")
