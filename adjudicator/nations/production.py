"""Resolution step 1: production and revolt (spec §4.4).

All nations produce at once: every net is computed before anything changes.
Each resource is netted before paying, so only a negative net can cause a
shortage.  Inside a nation [DEF, A-4]: gains, then gold, stone and food
losses, then knowledge, then the revolt penalty.
"""
from __future__ import annotations

from ..procedure import Outcome, Procedure
from .losses import force_loss, ledgers, lose_vp, report
from .state import RESOURCES, GameStateSchema, checked, net_production, stability, working_copy


def resolve_production(state: dict):
    state = working_copy(state)
    nets = {nid: net_production(n) for nid, n in state["nations"].items()}
    books = ledgers(state)
    revolts = []
    for nid in state["player_order"]:
        nation, net, book = state["nations"][nid], nets[nid], books[nid]
        for t in RESOURCES:
            if net[t] > 0:
                nation["resources"][t] += net[t]
                book.gained[t] += net[t]
        for t in RESOURCES:  # gold, stone, food, then knowledge
            if net[t] < 0:
                yield from force_loss(state, nid, t, -net[t], book)
        # Revolt: actual negative stability (Versailles alone does not count, [A-8]);
        # 1 knowledge per point, and 1 VP however deep, outside the shortage cap.
        s = stability(nation)
        if s < 0:
            revolts.append(nid)
            yield from force_loss(state, nid, "knowledge", -s, book)
            book.other_vp += lose_vp(nation, 1)
    return Outcome({"net": nets, "revolts": revolts, "nations": report(books)}, checked(state))


PRODUCTION = Procedure(
    "nations.production", GameStateSchema, resolve_production, version="2",
    summary="Resolution step 1 (§4.4): every nation's netted production at once, the shortages it causes, and the "
            "revolt penalty of negative stability.",
    participants="The nations, by their ids in the state's nations; only a nation whose knowledge runs out is asked "
                 "(where the shortage spills). Nothing is rolled.")
