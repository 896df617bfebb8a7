"""Random but legal-looking games, for property tests and the benchmark."""
from __future__ import annotations

import random

from adjudicator.diplomacy import adjudicate, initial_position
from adjudicator.diplomacy.board import BOARD


def random_orders(req: dict, rng: random.Random) -> dict:
    phase = req["phase"]
    orders: dict[str, list[str]] = {}
    if phase.endswith("M"):
        where = {u.split()[1][:3]: (p, u) for p, us in req["units"].items() for u in us}
        for power, units in req["units"].items():
            out = orders.setdefault(power, [])
            for u in units:
                t, loc = u.split()
                if t == "A":
                    nbrs = sorted(BOARD.army_adj[loc[:3]])
                else:
                    nbrs = sorted(BOARD.fleet_adj.get(loc, ()))
                r = rng.random()
                if r < 0.15 or not nbrs:
                    out.append(f"{u} H")
                elif r < 0.7:
                    out.append(f"{u} - {rng.choice(nbrs)}")
                else:
                    # support a neighbouring unit (hold or a move to one of our neighbours)
                    cands = [where[n[:3]] for n in nbrs if n[:3] in where]
                    if not cands:
                        out.append(f"{u} - {rng.choice(nbrs)}")
                        continue
                    _p, other = rng.choice(cands)
                    if rng.random() < 0.5:
                        out.append(f"{u} S {other}")
                    else:
                        out.append(f"{u} S {other} - {rng.choice(nbrs)[:3]}")
    elif phase.endswith("R"):
        for power, entries in req.get("dislodged", {}).items():
            for e in entries:
                opts = req.get("retreat_options", {}).get(e["unit"], [])
                if opts and rng.random() < 0.8:
                    orders.setdefault(power, []).append(f"{e['unit']} R {rng.choice(opts)}")
    else:
        occupied = {u.split()[1][:3] for us in req["units"].values() for u in us}
        for power, n in req.get("adjustments", {}).items():
            if n > 0:
                free = [h for h in BOARD.home_centers[power]
                        if h in req["centers"].get(power, []) and h not in occupied]
                for h in free[:n]:
                    t = "A" if BOARD.provinces[h].kind == "inland" or rng.random() < 0.5 else "F"
                    loc = BOARD.coasts[h][0] if t == "F" and h in BOARD.coasts else h
                    orders.setdefault(power, []).append(f"{t} {loc} B")
    return orders


def play(seed: int, phases: int, variant: str = "standard"):
    """Yield (request, response) pairs of one random game."""
    rng = random.Random(seed)
    req = initial_position(variant)
    for _ in range(phases):
        req["orders"] = random_orders(req, rng)
        resp = adjudicate(req)
        yield req, resp
        if "winner" in resp:
            return
        nxt = resp["next"]
        req = {k: nxt[k] for k in ("variant", "rules", "phase", "units", "centers",
                                   "dislodged", "contested", "retreat_options", "adjustments")}
