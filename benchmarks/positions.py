"""Realistic movement phases for the benchmark, made by random play.

Games start from the standard position; every movement phase each unit gets a
random plausible order (moves, supports of neighbours' moves and holds,
convoys where a fleet at sea touches an army), and the game is advanced with
our own engine so positions drift the way real games do: fronts, dislodgements,
builds.  The same seed always gives the same phases.
"""
from __future__ import annotations

import random

from adjudicator.diplomacy import adjudicate, initial_position
from adjudicator.diplomacy.board import BOARD


def _reach(unit: str) -> list[str]:
    kind, loc = unit.split()
    return sorted(BOARD.army_adj[loc[:3]] if kind == "A" else BOARD.fleet_adj[loc])


def _orders(position: dict, rng: random.Random) -> dict[str, list[str]]:
    units = {u: power for power, us in position["units"].items() for u in us}
    at = {u.split()[1][:3]: u for u in units}
    moves: dict[str, str] = {}
    orders: dict[str, str] = {}
    for unit in sorted(units):
        roll = rng.random()
        targets = _reach(unit)
        if roll < 0.6 and targets:
            moves[unit] = rng.choice(targets)
            orders[unit] = f"{unit} - {moves[unit]}"
    for unit in sorted(units):
        if unit in orders:
            continue
        kind, loc = unit.split()
        reach = {t[:3] for t in _reach(unit)}
        if kind == "F" and BOARD.is_sea(loc[:3]) and rng.random() < 0.5:
            armies = [a for p, a in at.items() if a.startswith("A") and p in reach and a not in moves]
            if armies:
                army = rng.choice(armies)
                shores = [t for t in reach if BOARD.is_coastal(t) and t != army.split()[1]]
                if shores:
                    dest = rng.choice(sorted(shores))
                    orders[unit] = f"{unit} C {army} - {dest}"
                    orders[army] = moves[army] = f"{army} - {dest}"
                    continue
        helped = [m for m, dest in moves.items() if dest[:3] in reach and m != unit]
        if helped and rng.random() < 0.7:
            mover = rng.choice(sorted(helped))
            orders[unit] = f"{unit} S {mover} - {moves[mover][:3]}"
        elif rng.random() < 0.5:
            neighbours = [u for p, u in at.items() if p in reach and u not in moves]
            orders[unit] = f"{unit} S {rng.choice(neighbours)}" if neighbours else f"{unit} H"
        else:
            orders[unit] = f"{unit} H"
    per_power: dict[str, list[str]] = {}
    for unit, order in orders.items():
        per_power.setdefault(units[unit], []).append(order)
    return per_power


def _builds(position: dict, rng: random.Random) -> dict[str, list[str]]:
    occupied = {u.split()[1][:3] for us in position["units"].values() for u in us}
    orders = {}
    for power, count in position.get("adjustments", {}).items():
        if count <= 0:
            continue
        free = [c for c in BOARD.home_centers.get(power, ()) if c in position["centers"].get(power, ()) and c not in occupied]
        rng.shuffle(free)
        orders[power] = [f"A {c} B" for c in free[:count]]
    return orders


def movement_phases(count: int, seed: int = 1901, years: int = 12) -> list[dict]:
    """``count`` movement-phase requests (with orders) from random games."""
    rng = random.Random(seed)
    phases: list[dict] = []
    while len(phases) < count:
        position = initial_position("standard")
        for _ in range(years * 5):
            phase = position["phase"]
            if phase.endswith("M"):
                request = {"variant": "standard", "phase": phase, "units": position["units"],
                           "centers": position["centers"], "orders": _orders(position, rng)}
                phases.append(request)
                if len(phases) == count:
                    break
            elif phase.endswith("A"):
                request = {**position, "variant": "standard", "orders": _builds(position, rng)}
            else:
                request = {**position, "variant": "standard", "orders": {}}
            response = adjudicate(request)
            if "winner" in response:
                break
            position = response["next"]
    return phases
