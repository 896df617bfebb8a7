"""Our options beside MILA's ``get_all_possible_orders`` (the ``diplomacy``
package, a test dependency) on the same positions: standard-game positions
of the DATC, of random games and of a board with every province occupied.

They are the same, order for order (docs/diplomacy.md, "Options beside
MILA", says why, and what cannot be compared: MILA has only the standard
game, and its set-up takes a dislodged unit's retreat places from us).  A
difference would be a bug on one side or a quirk to name here.
"""
import pytest

from adjudicator.diplomacy import options_by_power
from adjudicator.diplomacy.board import BOARD
from tests.diplomacy.options_kit import (crowded_positions, datc_positions, flat, option_game_positions,
                                         random_positions)

mila_game = pytest.importorskip("diplomacy").Game


def mila_at(position: dict):
    """A MILA game at ``position``: every power's units and centres set (none
    left from MILA's own start); in a retreat phase each dislodged unit gets
    the places our position gives it (MILA's set-up knows no attacker)."""
    game = mila_game()
    game.clear_units()
    game.set_current_phase(position["phase"])
    dislodged = position.get("dislodged") or {}
    for power in BOARD.powers:
        units = list(position["units"].get(power, ()))
        units += ["*" + d["unit"] for d in dislodged.get(power, ())]
        game.set_units(power, units, reset=True)
        game.set_centers(power, list((position.get("centers") or {}).get(power, ())), reset=True)
    if position["phase"].endswith("R"):
        places = options_by_power(position)["powers"]
        for power in dislodged:
            retreats = game.get_power(power).retreats
            for unit in list(retreats):
                retreats[unit] = [o.split()[-1] for o in places[power][unit] if " R " in o]
    return game


def mila_options(position: dict) -> dict[str, set[str]]:
    game = mila_at(position)
    every = game.get_all_possible_orders()
    return {power: {o for loc in game.get_orderable_locations(power) for o in every[loc]}
            for power in game.powers if game.get_orderable_locations(power)}


def positions():
    standard = [p for _c, p in datc_positions()[::2] if p.get("variant", "standard") == "standard"]
    standard += [p for p in random_positions(200) + option_game_positions(200) if p["variant"] == "standard"]
    return standard + crowded_positions(1)


def test_options_beside_mila_are_the_same():
    differ = []
    compared = 0
    for position in positions():
        theirs = mila_options(position)
        ours = {p: set(flat(o, position["phase"])) for p, o in options_by_power(position)["powers"].items()}
        for power in set(theirs) | set(ours):
            mine, other = ours.get(power, set()), theirs.get(power, set())
            compared += len(mine | other)
            differ += [(position["phase"], power, o, "ours" if o in mine else "MILA's") for o in mine ^ other]
    assert compared > 20_000
    assert not differ, differ[:10]
