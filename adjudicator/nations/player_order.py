"""Resolution step 2: player order for the next round (spec §4.5).

Strength first, then stability, then the previous order.  Raw values only:
no revolt tie, no Versailles, no Elizabeth [DEF, A-8].  The new order also
governs the rest of this resolution phase [INF §4.5.3].
"""
from __future__ import annotations

from ..procedure import Outcome, Procedure
from .state import GameStateSchema, checked, stability, strength, working_copy


def resolve_player_order(state: dict):
    state = working_copy(state)
    old = state["player_order"]
    nations = state["nations"]
    state["player_order"] = sorted(old, key=lambda nid: (-strength(nations[nid]), -stability(nations[nid]),
                                                          old.index(nid)))
    return Outcome({"player_order": list(state["player_order"])}, checked(state))
    yield  # a generator like every procedure, though nothing is ever asked


PLAYER_ORDER = Procedure(
    "nations.player_order", GameStateSchema, resolve_player_order,
    summary="Resolution step 2 (§4.5): the player order for the next round, by strength, then stability, then the "
            "previous order; it has no steps.",
    participants="The nations, by their ids in the state's nations; nobody is asked and nothing is rolled.")
