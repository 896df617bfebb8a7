"""Resolution step 3: war (spec §4.6).

The war marker was set to the buyer's strength when the card was bought and
never moves.  Every nation below it, the buyer included, loses the war: it
loses the card's resources reduced by its positive stability (a forced loss,
so shortages apply) and the card's VP, which stability never reduces.
"""
from __future__ import annotations

from ..procedure import Decision, Outcome, Procedure
from .losses import force_loss, ledgers, lose_vp, report
from .state import ELIZABETH, GREAT_WALL, GameStateSchema, checked, owns, passed_first, stability, strength, working_copy

REDUCTION = "war_reduction"
ELIZABETH_BONUS = 8


def war_strength(nation: dict) -> int:
    """Strength in the defeat comparison: Elizabeth adds 8 here only (§4.14, [A-7])."""
    return strength(nation) + (ELIZABETH_BONUS if owns(nation, ELIZABETH) else 0)


def reduce_in_card_order(loss: dict, reduction: int) -> dict:
    """The default split of the stability reduction: in the order listed on the card (§4.15)."""
    split = {}
    for resource, amount in loss.items():
        split[resource] = min(amount, reduction)
        reduction -= split[resource]
    return split


def split_refusal(loss: dict, reduction: int):
    def check(answer) -> str | None:
        if not isinstance(answer, dict) or set(answer) - set(loss):
            return f"expected an object over the card's resources {list(loss)}"
        for resource, cut in answer.items():
            if isinstance(cut, bool) or not isinstance(cut, int) or not 0 <= cut <= loss[resource]:
                return f"the reduction of {resource} must be an integer from 0 to {loss[resource]}"
        if sum(answer.values()) != reduction:
            return f"the reductions must add up to the stability reduction {reduction}"
        return None
    return check


def resolve_war(state: dict):
    state = working_copy(state)
    war = state["war"]
    if war is None:
        return Outcome({"war": None, "marker": None, "losers": [], "nations": {}}, checked(state))
    card, marker = war["card"], war["marker"]
    loss = {t: n for t, n in card["loss"].items() if n > 0}
    books = ledgers(state)
    losers = []
    for nid in state["player_order"]:
        nation = state["nations"][nid]
        if war_strength(nation) >= marker:  # equal is safe; so is everyone in a 0-strength war
            continue
        losers.append(nid)
        # Only positive stability reduces the loss; it can fall to 0 (§4.6.2).
        reduction = min(max(0, stability(nation)), sum(loss.values()))
        split = reduce_in_card_order(loss, reduction)
        if 0 < reduction < sum(loss.values()) and len(loss) > 1:
            # several resources: the loser allocates the reduction.
            split = yield Decision(nid, REDUCTION, None, split,
                                   details={"war": card["id"], "marker": marker, "strength": war_strength(nation),
                                            "stability": stability(nation), "loss": dict(loss),
                                            "reduction": reduction, "vp_loss": card["vp_loss"],
                                            "resources": dict(nation["resources"])},
                                   check=split_refusal(loss, reduction))
        for resource, amount in loss.items():
            yield from force_loss(state, nid, resource, amount - split.get(resource, 0), books[nid])
        # The war's VP is never reduced by stability; Great Wall spares it to the first to pass.
        if not (owns(nation, GREAT_WALL) and passed_first(state, nid)):
            books[nid].other_vp += lose_vp(nation, card["vp_loss"])
    state["discard"].append(card["id"])
    state["war"] = None  # the marker goes back to its space
    result = {"war": card["id"], "marker": marker, "losers": losers,
              "nations": {nid: book for nid, book in report(books).items() if nid in losers}}
    return Outcome(result, checked(state))


WAR = Procedure(
    "nations.war", GameStateSchema, resolve_war, version="2",
    summary="Resolution step 3 (§4.6): every nation below the war marker, the buyer included, loses the war card's "
            "resources less its positive stability, and its VP.",
    participants="The nations, by their ids in the state's nations; a loser splits a partial stability reduction "
                 "over the card's resources, and a loser whose knowledge runs out chooses the spill. Nothing is "
                 "rolled.")
