"""Times dipcc, Meta's C++ engine, on the benchmark's phases: run by
benchmarks/diplomacy_bench.py where ``pydipcc`` is importable (built by
benchmarks/dipcc/build.sh into .bench/dipcc/; docs/benchmarks.md).  It never
imports this project.

    python diplomacy_dipcc_runner.py GAMES.json [--passes 2]

GAMES.json is the MILA runner's (``{"games": [[request, ...], ...]}``).  Each
phase is set up off the clock, as a new ``Game`` read from JSON at the
request's position (``Game.from_json``: the units, the centres and, in a
retreat phase, each dislodged unit with its retreat options); then
``set_orders`` for each power and ``process()`` are timed, one phase type
after the other (the orders of ``mila_orders`` when given: dipcc reads
MILA's notation; the few it cannot read, off the clock, left out).  A pass
sets every phase up again.  Prints one JSON object:
``{"passes": [{"M": seconds, "R": seconds, "A": seconds}, ...], "after":
[...], "skipped": [...]}``: CPU time of this process; per phase (in the order
of GAMES.json) the units dipcc leaves and the phase it goes on to, as the MILA
runner gives them (None where not played); the phases not played.
"""
import json
import sys
import time

import pydipcc


def game_json(request: dict) -> str:
    """A saved game of one phase, at the request's position, in dipcc's reading."""
    phase = request["phase"]
    units = {p: list(us) for p, us in request["units"].items()}
    retreats: dict = {}
    if phase.endswith("R"):
        options = request.get("retreat_options") or {}
        for power, entries in (request.get("dislodged") or {}).items():
            for entry in entries:
                unit = entry["unit"] if isinstance(entry, dict) else entry
                units.setdefault(power, []).append("*" + unit)
                retreats.setdefault(power, {})[unit] = list(options.get(unit, ()))
    state = {"name": phase, "units": units, "centers": request["centers"], "retreats": retreats}
    return json.dumps({"phases": [{"name": phase, "state": state, "orders": {}}]})


def prepare(text: str, orders: dict[str, list[str]]) -> list[tuple[str, list[str]]] | None:
    """Each power's orders that dipcc reads, or None when dipcc cannot play
    the phase.  ``set_orders`` raises on an order it cannot read (an unknown
    place, a malformed order: DATC cases), where MILA and we call it invalid;
    those are left out.  ``process()`` raises on a few DATC positions (a
    build in a game of a few units): those phases are not timed, and MILA's
    time beside dipcc's leaves them out too.  All off the clock."""
    out = []
    for power, given in orders.items():
        try:
            pydipcc.Game.from_json(text).set_orders(power, given)
            out.append((power, given))
        except Exception:
            kept = []
            for order in given:
                try:
                    pydipcc.Game.from_json(text).set_orders(power, [order])
                    kept.append(order)
                except Exception:
                    pass
            out.append((power, kept))
    game = pydipcc.Game.from_json(text)
    for power, given in out:
        game.set_orders(power, given)
    try:
        game.process()
    except Exception:
        return None
    return out


def main(path: str, passes: int) -> None:
    phases = [r for game in json.load(open(path))["games"] for r in game]
    texts = [game_json(r) for r in phases]
    orders = [prepare(texts[i], r.get("mila_orders", r["orders"])) for i, r in enumerate(phases)]
    kinds: dict[str, list[int]] = {"M": [], "R": [], "A": []}
    for i, r in enumerate(phases):
        if orders[i] is not None:
            kinds[r["phase"][-1]].append(i)
    cpu = time.process_time
    out = []
    after: list = [None] * len(phases)
    for _ in range(passes):
        seconds = {}
        for kind, idx in kinds.items():
            games = [pydipcc.Game.from_json(texts[i]) for i in idx]  # off the clock
            started = cpu()
            for i, game in zip(idx, games):
                for power, given in orders[i] or ():
                    game.set_orders(power, given)
                game.process()
            seconds[kind] = cpu() - started
            for i, game in zip(idx, games):
                units = {p: sorted(u for u in us if not u.startswith("*"))
                         for p, us in game.get_units().items()}
                after[i] = {"units": {p: us for p, us in units.items() if us},
                            "phase": game.get_current_phase()}
        out.append(seconds)
    skipped = [i for i, o in enumerate(orders) if o is None]
    json.dump({"passes": out, "after": after, "skipped": skipped}, sys.stdout)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], int(args[args.index("--passes") + 1]) if "--passes" in args else 2)
