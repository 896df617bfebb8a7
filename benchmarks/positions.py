"""Realistic phases for the benchmark, made by random play.

Games start from the standard position.  Every movement phase each unit gets a
random plausible order (moves, supports of neighbours' moves and holds, convoys
where a fleet at sea touches an army); the retreat and adjustment phases that
follow get random orders too (retreats to an open place or disbands, builds of
either type, disbands, some left to the civil-disorder rule).  The game is
advanced with our own engine, so positions drift the way real games do:
fronts, dislodgements, builds.  The phase mix is whatever play gives: every
movement phase, and the retreat and winter phases that somebody must order
(empty ones are skipped, spec 5.3).  The same seed always gives the same phases.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

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


def _retreats(position: dict, rng: random.Random) -> dict[str, list[str]]:
    """Most dislodged units retreat to one of their options; some disband, some get nothing."""
    orders: dict[str, list[str]] = {}
    for power, entries in position["dislodged"].items():
        for entry in entries:
            unit, roll = entry["unit"], rng.random()
            options = position["retreat_options"].get(unit) or []
            if roll < 0.75 and options:
                orders.setdefault(power, []).append(f"{unit} R {rng.choice(options)}")
            elif roll < 0.9:
                orders.setdefault(power, []).append(f"{unit} D")
    return orders


def _adjustments(position: dict, rng: random.Random) -> dict[str, list[str]]:
    """Builds of either type in free home centres (now and then a waive); disbands,
    sometimes too few so that the civil-disorder rule picks the rest."""
    occupied = {u.split()[1][:3] for us in position["units"].values() for u in us}
    orders: dict[str, list[str]] = {}
    for power, count in position.get("adjustments", {}).items():
        if count > 0:
            free = [c for c in BOARD.home_centers[power]
                    if c in position["centers"].get(power, ()) and c not in occupied]
            rng.shuffle(free)
            for centre in free[:count]:
                if rng.random() < 0.1:
                    orders.setdefault(power, []).append("WAIVE")
                elif BOARD.provinces[centre].kind == "coastal" and rng.random() < 0.4:
                    loc = rng.choice(BOARD.coasts[centre]) if centre in BOARD.coasts else centre
                    orders.setdefault(power, []).append(f"F {loc} B")
                else:
                    orders.setdefault(power, []).append(f"A {centre} B")
        else:
            units = list(position["units"].get(power, ()))
            rng.shuffle(units)
            given = -count if rng.random() < 0.8 else rng.randint(0, -count)
            orders[power] = [f"{unit} D" for unit in units[:given]]
    return orders


ORDERS = {"M": _orders, "R": _retreats, "A": _adjustments}


def game_phases(count: int, seed: int = 1901, years: int = 12) -> list[list[dict]]:
    """``count`` phase requests (with orders) from random games, game by game, in
    the order they were played.  Each game lasts until a solo victory or
    ``years`` years."""
    rng = random.Random(seed)
    games: list[list[dict]] = []
    total = 0
    while total < count:
        position = initial_position("standard")
        game: list[dict] = []
        games.append(game)
        while total < count and position["phase"][1:5] < str(1901 + years):
            phase = position["phase"]
            request = {"variant": "standard", "phase": phase, "units": position["units"],
                       "centers": position["centers"]}
            if phase.endswith("R"):
                request.update(dislodged=position["dislodged"], contested=position["contested"],
                               retreat_options=position["retreat_options"])
            request["orders"] = ORDERS[phase[-1]](position, rng)
            game.append(request)
            total += 1
            response = adjudicate(request)
            if "winner" in response:
                break
            position = response["next"]
    return games


def movement_phases(count: int, seed: int = 1901, years: int = 12) -> list[dict]:
    """``count`` movement-phase requests (with orders) from random games."""
    out: list[dict] = []
    for game in game_phases(count * 2, seed, years):
        out.extend(r for r in game if r["phase"].endswith("M"))
        if len(out) >= count:
            break
    return out[:count]


DATC_DIR = Path(__file__).resolve().parent.parent / "tests" / "diplomacy" / "datc"
_NEXT_KEYS = ("phase", "units", "centers", "dislodged", "contested", "retreat_options")


def datc_phases(every_case: bool = False) -> list[dict]:
    """Every step of the DATC cases (tests/diplomacy/datc) that MILA can play
    too (the standard game, the 2000 convoy rule; ``every_case``: all of
    them, other variants and rules included), as a full request each: a
    later step is played on the position our engine's previous step left, as
    tests/diplomacy/test_datc.py does.  Orders are kept as the cases write
    them (often English: "F North Sea - Picardy"); each request also carries
    ``mila_orders``, the same orders in the form MILA reads (our engine's
    canonical form of each order, or its written form when the order is
    invalid), one per order given."""
    out = []
    for path in sorted(DATC_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            steps = json.loads(line)["steps"]
            first = steps[0]["request"]
            response = None
            for n, step in enumerate(steps):
                if n == 0:
                    request = json.loads(json.dumps(first))
                else:
                    request = {k: response["next"][k] for k in _NEXT_KEYS if k in response["next"]}
                    request["variant"] = first["variant"]
                    rules = step.get("rules", first.get("rules"))
                    if rules is not None:
                        request["rules"] = rules
                    request["orders"] = step["orders"]
                response = adjudicate(json.loads(json.dumps(request)))
                given = sum(len(os) for os in request["orders"].values())
                mila_orders: dict[str, list[str]] = {}
                for r in response["results"][:given]:
                    mila_orders.setdefault(r["power"], []).append(r["order"])
                rules = request.get("rules") or {}
                if every_case or (request.get("variant", "standard") == "standard"
                                  and rules.get("convoy_disruption", "2000") == "2000"):
                    out.append({**request, "mila_orders": mila_orders})
    return out
