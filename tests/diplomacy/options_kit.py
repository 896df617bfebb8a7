"""Positions and a judge for the options tests: what ``check_orders`` accepts.

The judge never looks at :mod:`adjudicator.diplomacy.options`: candidates are
made from the board alone (every unit, every kind of order, every place), and
``check_orders`` (what the orders endpoint stores as valid) says which are
accepted and in what canonical form.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from adjudicator.diplomacy import (VARIANTS, OrderChecker, adjudicate, initial_position,
                                   options_by_power)
from adjudicator.diplomacy.board import BOARD

from tests.diplomacy.helpers import play

DATC_DIR = Path(__file__).parent / "datc"
POSITION_KEYS = ("variant", "rules", "phase", "units", "centers", "dislodged", "contested")
#: every place an order may name: provinces, and coasts
PLACES = sorted(set(BOARD.provinces) | BOARD.locations)
PROVINCES = sorted(BOARD.provinces)


def position_of(request: dict) -> dict:
    return {k: request[k] for k in POSITION_KEYS if k in request}


def datc_positions() -> list[tuple[str, dict]]:
    """(case id, position) for each step of every DATC case, and the position
    each case ends in (retreat and adjustment phases among them)."""
    out = []
    for path in sorted(DATC_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            first = case["steps"][0]["request"]
            req = first
            for step in case["steps"]:
                if req is not first:  # a later step: its orders on the last phase's next
                    req = {**req, "variant": first.get("variant", "standard"),
                           "rules": step.get("rules", first.get("rules", {})),
                           "orders": step["orders"]}
                out.append((case["id"], position_of(req)))
                req = adjudicate(req)["next"]
            out.append((case["id"] + " (after)", position_of({**req, "variant": first.get(
                "variant", "standard")})))
    return out


def random_positions(count: int, phases: int = 40) -> list[dict]:
    """``count`` positions of random games, every variant in turn."""
    out: list[dict] = []
    seed = 0
    while len(out) < count:
        variant = VARIANTS[seed % len(VARIANTS)]
        out += [position_of(req) for req, _resp in play(1000 + seed, phases, variant)]
        seed += 1
    return out[:count]


def crowded_positions(count: int, seed: int = 5) -> list[dict]:
    """Every province occupied, by random units of random powers: the most
    supports and convoys a position can have."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        units: dict[str, list[str]] = {p: [] for p in BOARD.powers}
        for prov, v in BOARD.provinces.items():
            if v.kind == "inland" or (v.kind == "coastal" and rng.random() < 0.5):
                unit = f"A {prov}"
            else:
                unit = f"F {rng.choice(BOARD.coasts[prov]) if prov in BOARD.coasts else prov}"
            units[rng.choice(BOARD.powers)].append(unit)
        out.append({"variant": "standard", "phase": "S1901M", "units": units,
                    "centers": {p: list(BOARD.home_centers[p]) for p in BOARD.powers}})
    return out


def option_game_positions(count: int, phases: int = 40) -> list[dict]:
    """``count`` positions of random standard games whose orders are drawn from
    the options themselves (moves by convoy, supports and convoys as often as
    holds), so that convoys, dislodgements and retreats come up."""
    out: list[dict] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        req = initial_position(VARIANTS[seed % len(VARIANTS)])
        for _ in range(phases):
            out.append(position_of(req))
            req["orders"] = _pick(options_by_power(req)["powers"], req["phase"], rng)
            resp = adjudicate(req)
            if "winner" in resp:
                break
            req = {**resp["next"], "variant": req["variant"]}
        seed += 1
    return out[:count]


def _pick(by_power: dict, phase: str, rng: random.Random) -> dict[str, list[str]]:
    """Orders from the options: half the units move (some by convoy), most of
    the others support one of those moves, so that units are dislodged."""
    if phase.endswith("A"):
        out = {}
        for power, opts in by_power.items():
            n, sites = opts["builds"], sorted(opts["sites"])
            out[power] = ([rng.choice(opts["sites"][s]) for s in rng.sample(sites, min(n, len(sites)))]
                          if n > 0 else rng.sample(opts["disbands"], min(-n, len(opts["disbands"]))))
        return out
    chosen: dict[str, dict[str, str]] = {p: {} for p in by_power}
    moves = set()
    for power, opts in by_power.items():
        for unit, orders in opts.items():
            goes = [o for o in orders if o.split()[2] in ("-", "R")]
            if goes and rng.random() < 0.5:
                chosen[power][unit] = o = rng.choice(goes)
                moves.add(o.removesuffix(" VIA"))
    for power, opts in by_power.items():
        for unit, orders in opts.items():
            if unit not in chosen[power]:
                helps = [o for o in orders if o.split(" S ")[-1] in moves]
                chosen[power][unit] = rng.choice(helps or orders)
    return {p: list(c.values()) for p, c in chosen.items()}


# -- the judge ---------------------------------------------------------------------
class Judge:
    """check_orders on one position (``OrderChecker`` is check_orders with the
    position read once)."""

    def __init__(self, position: dict):
        self.position = position
        self.check = OrderChecker(position).check

    def accepted(self, power: str, orders: list[str]) -> dict[str, str]:
        """order -> its canonical form, for each of ``orders`` that check_orders
        accepts on its own."""
        out = {}
        for o in orders:
            [r] = self.check(power, [o])
            if r["valid"]:
                out[o] = r["order"]
        return out

    def void_support(self, order: str) -> bool:
        """Is ``order`` a support or convoy of a move its unit's own power may
        not order (no unit could make it, or the unit is neutral)?"""
        words = order.split()
        if len(words) != 7 or words[2] not in ("S", "C"):
            return False
        other, dest = f"{words[3]} {words[4]}", words[6]
        owner = next(p for p, us in self.position["units"].items() if other in us)
        coasts = BOARD.coasts.get(dest, ()) if words[3] == "F" else ()
        moves = [f"{other} - {d}" for d in (dest, *coasts)] + [f"{other} - {dest} VIA"]
        return not any(r["valid"] for m in moves for r in self.check(owner, [m]))


def candidates(position: dict, power: str, units: list[str] | None = None,
               others: list[str] | None = None) -> list[str]:
    """Orders of every kind for ``power`` (or for ``units`` of it): each unit
    with every place of the board, and with every other unit (or ``others``)
    at every place, in canonical text; hold supports of every unit."""
    phase = position["phase"][-1]
    everyone = [u for us in position["units"].values() for u in us]
    if phase == "A":
        mine = position["units"].get(power, [])
        return ([f"{t} {place} B" for place in PLACES for t in "AF"] + [f"{u} D" for u in mine]
                + ["WAIVE"])
    if phase == "R":
        mine = [d["unit"] for d in (position.get("dislodged") or {}).get(power, [])]
        mine = [u for u in mine if units is None or u in units]
        return [o for u in mine for o in [f"{u} D"] + [f"{u} R {place}" for place in PLACES]]
    mine = [u for u in position["units"].get(power, []) if units is None or u in units]
    out = []
    for u in mine:
        out.append(f"{u} H")
        out += [f"{u} - {place}" for place in PLACES]
        out += [f"{u} - {place} VIA" for place in PLACES]
        out += [f"{u} S {other}" for other in everyone if other != u]
        for other in everyone if others is None else others:
            if other != u:
                out += [f"{u} S {other} - {place}" for place in PLACES]
                out += [f"{u} C {other} - {prov}" for prov in PROVINCES]
    return out


def flat(options: dict, phase: str) -> list[str]:
    """Every order of one power's options, in one list."""
    return options["orders"] if phase.endswith("A") else [o for os in options.values() for o in os]
