"""Game end and final scoring (spec §5.8, §10.2 ``final_conflicts_and_score``).

First every conflict left on the grid is resolved in reading order with the
normal procedure (§6.8), spies allowed, and no reward is paid (§5.8.1, A-35):
those dice and spy rerolls are the procedure's only steps.  Then each power's
final PP is the sum of the five items of §5.8.2, and the most PP wins, ties to
the higher leader value (§5.8.4).
"""
from __future__ import annotations

import copy

from adjudicator.procedure import Outcome, Procedure
from adjudicator.statecraft.conflict import resolve_conflict
from adjudicator.statecraft.state import GameSchema, country

GOVERNMENT_PP = 2  # each grid country whose FG the power holds (§5.8.2)


def final_conflicts(game: dict):
    """§5.8.1: resolve every remaining conflict in reading order; the winner governs, no reward."""
    spies = game["options"]["final_conflict_spies"]
    resolved = []
    for name in [c["name"] for c in game["grid"]]:
        if country(game, name)["conflict"]:
            resolved.append((yield from resolve_conflict(game, name, spies=spies)))
    return resolved


def score(game: dict) -> dict[str, dict]:
    """§5.8.2: each power's final PP, item by item.  Votes on institutions and the pool score nothing."""
    options = game["options"]
    scores = {}
    for power_id, power in game["powers"].items():
        governments = [c["name"] for c in game["grid"] if c["fg"] == power_id and not c["conflict"]]
        votes = game["bag"].get(power_id, 0)
        items = {
            "in_play": power["pp"],
            "support": options["support_final_pp"][power["support"] - 1],
            "governments": GOVERNMENT_PP * len(governments),
            "spies": power["spy"],  # unused in round 4 and in the final conflicts
            "votes_in_bag": votes // options["votes_per_pp"],  # rounded down [DEF, A-42]
        }
        scores[power_id] = {**items, "total": sum(items.values()), "support_position": power["support"],
                            "countries": governments, "votes": votes}
    return scores


def ranking(game: dict, scores: dict[str, dict]) -> tuple[list[str], list[str]]:
    """§5.8.4: most PP, ties to the higher leader value; then (A-42) a shared victory, or the fallback order.

    Returns (every power from first to last, the winners).
    """
    fallback = game["options"]["fallback_order"]
    powers = game["powers"]

    def rank(p):
        return -scores[p]["total"], -powers[p]["leader_value"]

    order = sorted(powers, key=lambda p: (*rank(p), fallback.index(p)))
    if game["options"]["final_tie_fallback"] == "shared":
        winners = [p for p in order if rank(p) == rank(order[0])]
    else:
        winners = order[:1]
    return order, winners


def run_final_scoring(state: dict):
    game = copy.deepcopy(state)
    conflicts = yield from final_conflicts(game)
    scores = score(game)
    for power_id, item in scores.items():
        game["powers"][power_id]["pp"] = item["total"]
    order, winners = ranking(game, scores)
    return Outcome({"conflicts": conflicts, "scores": scores, "ranking": order, "winners": winners,
                    "winner": winners[0] if len(winners) == 1 else None, "shared": len(winners) > 1}, game)


FINAL_SCORING = Procedure(
    "statecraft.final_scoring", GameSchema, run_final_scoring,
    summary="Game end (spec §5.8): resolves the conflicts left on the grid without rewards, then adds up "
            "each power's final PP (PP in play, support position, 2 per friendly government, 1 per spy, "
            "1 per 2 votes in the bag) and names the winner, ties to the higher leader value.",
    participants="The powers with tokens in a country still in conflict (EU, USA, CHN, RUS), who decide "
                 "their spy rerolls (a bot's decision is marked bot); the service rolls those conflicts' "
                 "dice, the demonstrators' (DEMO) included. With no conflict left there is no step.")
