"""The whole resolution phase, steps 1-6 in order, then the end of the round (spec §3.1, §4.16).

Each step runs on the state the previous one left; their decisions are asked
one after the other, so one log replays the whole phase.  Final scoring
(§4.11) after the last round is not part of it.
"""
from __future__ import annotations

from ..procedure import Outcome, Procedure
from .events import resolve_events
from .famine import resolve_famine
from .player_order import resolve_player_order
from .production import resolve_production
from .scoring import resolve_knowledge_scoring
from .state import RESOURCES, GameStateSchema, checked
from .war import resolve_war

STEPS = (("production", resolve_production), ("player_order", resolve_player_order), ("war", resolve_war),
         ("events", resolve_events), ("famine", resolve_famine), ("knowledge_scoring", resolve_knowledge_scoring))


def end_of_round(state: dict) -> None:
    """§3.5.1: passing and the war purchase start afresh, and so does the shortage-VP cap [DEF, A-25]."""
    state["pass_order"] = []
    state["war_bought_this_round"] = False
    for nation in state["nations"].values():
        nation["shortage_vp_charged"] = {t: False for t in RESOURCES}


def resolve_round(state: dict):
    results = {}
    for name, step in STEPS:
        outcome = yield from step(state)
        results[name] = outcome.result
        state = outcome.state
    end_of_round(state)
    return Outcome(results, checked(state))


RESOLUTION = Procedure(
    "nations.resolution", GameStateSchema, resolve_round, version="2",
    summary="The whole resolution phase of one round (§3.1, §4.16): production, player order, war, events, famine "
            "and era-end knowledge scoring in one log, then the end-of-round clean-up.",
    participants="The nations, by their ids in the state's nations, asked as each step asks them (spills, war "
                 "reductions, event choices, workers). Nothing is rolled.")
