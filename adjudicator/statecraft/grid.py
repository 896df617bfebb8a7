"""Country-grid resolution phase (spec §6.7) and the game-end conflicts (§5.8.1).

Countries are visited in reading order.  Each reward is one effect activation
executed at once, so it can change later countries, PP (and so initiative)
and the resource market before the next country is visited (§6.7.3).
"""
from __future__ import annotations

import copy

from marshmallow import fields

from adjudicator.procedure import Outcome, Procedure
from adjudicator.statecraft.conflict import resolve_conflict
from adjudicator.statecraft.effects import activation
from adjudicator.statecraft.state import GameSchema, country, resource_value


class GridState(GameSchema):
    """The game state plus ``game_end``: true for the final conflicts (no rewards, no base market)."""

    game_end = fields.Boolean(load_default=False)


def run_grid(state: dict):
    game = copy.deepcopy(state)
    game_end = game.pop("game_end")
    spies = game["options"]["final_conflict_spies"] if game_end else True
    visits = []
    for name in [c["name"] for c in game["grid"]]:  # reading order; positions never change
        c = country(game, name)
        visit: dict = {"country": name}
        if c["conflict"]:
            visit["case"] = 3
            visit["conflict"] = yield from resolve_conflict(game, name, spies=spies)
        elif game_end:
            continue  # at game end only the conflicts are resolved
        else:
            visit["case"] = 1 if c["fg"] is not None else 2
        # After a conflict the country is resolved normally (§6.8.6 step 4): case 1 or 2.
        if c["fg"] is not None and not game_end:
            visit["reward_to"] = c["fg"]
            visit["events"] = yield from activation(game, c["fg"], c["reward"], source=name)
        visits.append(visit)
    market = {}
    if not game_end:
        for power_id, power in game["powers"].items():  # base market (§6.7.4)
            gain = sum(resource_value(game, r) for r in power["base_market"])
            power["pp"] += gain
            market[power_id] = gain
    return Outcome({"countries": visits, "base_market": market}, game)


COUNTRY_GRID = Procedure(
    "statecraft.country_grid", GridState, run_grid, version="2",
    summary="The country-grid resolution phase (spec §6.7): every country in reading order, conflicts "
            "resolved as they come, rewards paid to the governing power, then each base market; with "
            "game_end only the remaining conflicts are resolved, without rewards (§5.8.1).",
    participants="The powers in play (EU, USA, CHN, RUS): the powers in a conflict decide their spy rerolls "
                 "and a reward's receiver its choices (a bot's decisions are marked bot); the service rolls "
                 "the conflict dice, the demonstrators' (DEMO) included.")
