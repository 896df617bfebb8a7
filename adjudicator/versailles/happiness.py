"""Happiness changes (§5.1) and the mutiny they may cause (§3.10).

``change_happiness`` is a generator because a mutiny asks the mutinying
player which units to demobilize; callers ``yield from`` it.
"""
from __future__ import annotations

from typing import Generator

from adjudicator.procedure import Decision

from .state import UNITS_PER_PLAYER

AVAILABLE, EXHAUSTED = "available", "exhausted"


def unit_limit(state: dict, happiness: int) -> int:
    for zone in state["happiness_zones"]:
        if zone["min"] <= happiness <= zone["max"]:
            return zone["units"]
    return UNITS_PER_PLAYER


def in_play(state: dict, nation: str) -> bool:
    """Happiness of the 2-player USA is not tracked (§2.1.1, §5.1.4)."""
    return not (state["usa_faction"] and nation == "USA")


def has_units(state: dict, nation: str) -> bool:
    return nation in state["seat_order"]


def mobilized(state: dict, nation: str) -> int:
    player = state["players"][nation]
    return player["units_available"] + player["units_exhausted"] + len(deployed_regions(state, nation))


def deployed_regions(state: dict, nation: str) -> list[str]:
    return [region for region in state["regions"] if nation in state["tracks"][region]["units"].values()]


def shift(state: dict, nation: str, delta: int) -> None:
    """Apply a change with the 0-lock and the cap of 30 (§5.1.2); no mutiny check."""
    h = state["happiness"][nation]
    if not in_play(state, nation) or h == 0:
        return
    state["happiness"][nation] = min(30, max(0, h + delta))


def change_happiness(state: dict, nation: str, delta: int, log: list) -> Generator:
    """Change a nation's happiness and run the mutiny check if it drops into a lower zone."""
    before = state["happiness"][nation]
    shift(state, nation, delta)
    after = state["happiness"][nation]
    if after < before and has_units(state, nation) and unit_limit(state, after) < unit_limit(state, before):
        yield from mutiny(state, nation, log)


def mutiny(state: dict, nation: str, log: list) -> Generator:
    """Forced demobilization into the "1" box, one unit at a time [A-27].

    Each unit gives +1 happiness (none at 0), and the limit is re-read after
    each +1, so a unit that lifts the nation into a higher zone ends the mutiny.
    """
    while mobilized(state, nation) > unit_limit(state, state["happiness"][nation]):
        player = state["players"][nation]
        places = ([AVAILABLE] if player["units_available"] else []) + \
                 ([EXHAUSTED] if player["units_exhausted"] else []) + deployed_regions(state, nation)
        place = yield Decision(nation, "demobilize", places, default=places[0],
                               details={"reason": "mutiny", "happiness": state["happiness"][nation],
                                        "limit": unit_limit(state, state["happiness"][nation]),
                                        "mobilized": mobilized(state, nation)})
        if place == AVAILABLE:
            player["units_available"] -= 1
        elif place == EXHAUSTED:
            player["units_exhausted"] -= 1
        else:
            units = state["tracks"][place]["units"]
            del units[next(column for column, owner in units.items() if owner == nation)]
        player["units_demobilized"] += 1
        shift(state, nation, +1)
        log.append({"nation": nation, "demobilized_from": place, "happiness": state["happiness"][nation]})
