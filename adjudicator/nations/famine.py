"""Resolution step 5: famine (spec §4.9).

Every nation pays the food on the current event card as a forced loss, so a
nation short of food pays what it has, loses the rest as knowledge and 1 VP
(unless it already lost its food VP this round).
"""
from __future__ import annotations

from ..procedure import Outcome, Procedure
from .losses import force_loss, ledgers, report
from .state import GameStateSchema, checked, working_copy


def resolve_famine(state: dict):
    state = working_copy(state)
    card = state["current_event"]
    famine = card["famine"] if card else 0  # [DEF, G-10] no event card: no famine
    books = ledgers(state)
    for nid in state["player_order"]:
        yield from force_loss(state, nid, "food", famine, books[nid])
    return Outcome({"famine": famine, "nations": report(books)}, checked(state))


FAMINE = Procedure(
    "nations.famine", GameStateSchema, resolve_famine, version="2",
    summary="Resolution step 5 (§4.9): every nation pays the event card's famine food as a forced loss.",
    participants="The nations, by their ids in the state's nations; only a nation whose knowledge runs out is asked "
                 "(where the shortage spills). Nothing is rolled.")
