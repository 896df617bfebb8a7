"""Fixture builders for the Versailles tests: the spec's vectors start from these states."""
from __future__ import annotations

import copy

from tests import procedure_driver

CONSTANTINOPLE = {
    "id": "CONSTANTINOPLE", "name": "Constantinople", "region": "MIDDLE_EAST", "stars": 6,
    "options": [
        {"name": "Open City", "effects": [{"type": "counter", "counter": "NAVAL_SQUADRON", "flag": "UK"}]},
        {"name": "Award to Turkey", "effects": [{"type": "unrest", "region": "BALKANS", "delta": 1}]},
    ],
    "controller": "UK", "option": "Open City", "counters": [{"type": "NAVAL_SQUADRON", "flag": "UK"}],
}
ARABIA = {"id": "ARABIA", "region": "MIDDLE_EAST", "stars": 3, "controller": "UK",
          "options": [{"name": "A", "effects": []}], "option": "A"}
SMYRNA = {  # fixture stars; the middle option is the one the source describes (§11.2)
    "id": "SMYRNA", "region": "MIDDLE_EAST", "stars": 4, "controller": "FRANCE",
    "options": [{"name": "Award to Italy", "effects": []},
                {"name": "Award to Greece", "effects": [
                    {"type": "happiness", "nation": "UK", "delta": -1},
                    {"type": "unrest", "region": "MIDDLE_EAST", "delta": 2},
                    {"type": "counter_choice", "counter": "NAVAL_SQUADRON", "flags": ["UK", "USA"]}]},
                {"name": "Award to Turkey", "effects": []}],
    "option": "Award to Greece", "counters": [{"type": "NAVAL_SQUADRON", "flag": "UK"}],
}


def tv10_state() -> dict:
    """TV-10's board: Europe and the Middle East tied at column 5 (level 4), UK unit at ME 6."""
    return copy.deepcopy({
        "seat_order": ["UK", "FRANCE", "USA"],
        "active_player": "FRANCE",
        "first_uprising_done": True,
        "happiness": {"UK": 20, "FRANCE": 20, "USA": 20},
        "players": {
            "UK": {"cubes_available": 6, "units_exhausted": 1},      # units: ME col 6, Pacific, exhausted
            "FRANCE": {"cubes_available": 10, "units_exhausted": 1},  # 2 Available
            "USA": {"cubes_available": 7},                            # 3 Available; 7
        },
        "tracks": {
            "EUROPE": {"keg": 0, "unrest": 5},
            "MIDDLE_EAST": {"keg": 1, "unrest": 5, "units": {"6": "UK"}},
            "BALKANS": {"keg": 0, "unrest": 3},
            "AFRICA": {"keg": 0, "unrest": 2},
            "PACIFIC": {"keg": 0, "unrest": 1, "units": {"8": "UK"}},
        },
        "issues": [CONSTANTINOPLE, ARABIA, SMYRNA],
    })


def issue(id: str, region: str | None, stars: int, controller: str, **extra) -> dict:
    """A settled fixture issue with two plain options."""
    return {"id": id, "region": region, "stars": stars, "controller": controller,
            "options": [{"name": "First", "effects": []}, {"name": "Second", "effects": []}],
            "option": "First", **extra}


def tv22_state() -> dict:
    """TV-22's end of game: final scoring with a tie broken by happiness."""
    return {
        "seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK",
        "happiness": {"UK": 18, "FRANCE": 22, "USA": 15},
        "issues": [issue("UK_A", "EUROPE", 8, "UK", counters=[{"type": "NAVAL_SQUADRON", "flag": "UK"}]),
                   issue("UK_B", "BALKANS", 6, "UK"),
                   issue("FR_A", "MIDDLE_EAST", 15, "FRANCE"),
                   issue("US_A", "PACIFIC", 18, "USA")],
        # Fixture cards: UK's scores nothing here; the USA's gives 1 VP per region at unrest <= 3.
        "strategy_cards": {"REPARATIONS": {"terms": [{"condition": "counter", "counter": "GERMAN_REPARATIONS"}]},
                           "CALM": {"terms": [{"condition": "region_unrest_low", "vp": 1}]}},
        "strategy_choice": {"UK": "REPARATIONS", "USA": "CALM"},
        "tracks": {"EUROPE": {"unrest": 2}, "BALKANS": {"unrest": 3}, "MIDDLE_EAST": {"unrest": 1},
                   "AFRICA": {"unrest": 4}, "PACIFIC": {"unrest": 6}},
    }


def label(step) -> str:
    """How a test names a step: "UK bid", "dice uprising_check:EUROPE" or "outcome"."""
    from adjudicator.procedure import Decision, Dice
    if isinstance(step, Decision):
        return f"{step.participant} {step.question}"
    if isinstance(step, Dice):
        return f"dice {step.purpose}"
    return "outcome"


def drive(procedure, state, script):
    """Feed ``script`` — pairs of (expected step label, answer) — one answer at a time, as a
    service would, checking that each step is the one the vector expects."""
    return procedure_driver.drive(procedure, state, script, label)