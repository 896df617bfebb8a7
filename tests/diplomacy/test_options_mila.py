"""Our options beside MILA's ``get_all_possible_orders`` (the ``diplomacy``
package, a test dependency) on the same positions: standard-game positions
of the DATC, of random games and of a crowded board.  Every difference falls
in a category named here; docs/diplomacy.md ("Options beside MILA") says why.
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


def difference(order: str, ours: bool, position: dict) -> str:
    """The named category of an order only one side offers (or "unexplained")."""
    if position["phase"].endswith("A"):
        if not ours and order == "WAIVE":
            return "MILA offers WAIVE to a power that owes disbands or builds nowhere"
        if not ours and order.endswith(" B"):
            return "MILA offers builds where none can be made"
    return "unexplained"


def positions():
    standard = [p for _c, p in datc_positions() if p.get("variant", "standard") == "standard"]
    standard += [p for p in random_positions(300) + option_game_positions(300) if p["variant"] == "standard"]
    return standard + crowded_positions(2)


def test_options_beside_mila_differ_only_in_named_ways():
    found: dict[str, list] = {}
    compared = 0
    for position in positions():
        theirs = mila_options(position)
        ours = {p: set(flat(o, position["phase"])) for p, o in options_by_power(position)["powers"].items()}
        for power in set(theirs) | set(ours):
            mine, other = ours.get(power, set()), theirs.get(power, set())
            compared += len(mine | other)
            for order in mine ^ other:
                found.setdefault(difference(order, order in mine, position), []).append(
                    (position["phase"], power, order))
    assert compared > 50_000
    assert "unexplained" not in found, found["unexplained"][:10]
    print({k: len(v) for k, v in found.items()})
