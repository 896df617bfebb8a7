"""Runs inside the benchmark's own virtualenv, where the PyPI package
``diplomacy`` (the MILA engine) is installed; it never imports this project.

    python diplomacy_mila_runner.py GAMES.json [--no-set-up]

GAMES.json is ``{"games": [[request, ...], ...]}``: the phases of each game in
the order they were played, in our interchange format (movement, retreat and
adjustment phases); a DATC step is a game of one phase.  A request's
``mila_orders``, when present, are its orders as MILA reads them (the DATC
cases write many in English).  Prints one JSON object with two timings (the
second left out with ``--no-set-up``) and MILA's view of every phase:

* ``long_game``: the way MILA runs a long game.  One ``Game`` per game, built
  before the clock starts; per phase only ``set_orders`` for each power and
  ``process()`` are timed.  Whenever MILA's position is not the one our phase
  starts from (the engines disagreed earlier, MILA skipped differently, or a
  new DATC step), the game is re-created at our position, off the clock, and
  counted in ``resyncs``.
* ``set_up``: per phase a new ``Game`` set up at the position, then
  ``set_orders`` and ``process()``, all timed.

Seconds are given per phase, in the order of GAMES.json, wall clock
(``long_game``, ``set_up``) and CPU time of this process (``long_game_cpu``,
``set_up_cpu``).  ``after`` holds, per phase, the units MILA leaves on the
board (dislodged ones left out) and the phase it goes on to, from the
long-game run.
"""
import json
import sys
import time

from diplomacy import Game


def set_up(request):
    """A new Game at the request's position (any phase type)."""
    game = Game()
    game.clear_units()
    game.set_current_phase(request["phase"])
    dislodged = request.get("dislodged") or {}
    for power in set(request["units"]) | set(dislodged):
        units = list(request["units"].get(power, ()))
        units += ["*" + d["unit"] for d in dislodged.get(power, ())]
        game.set_units(power, units, reset=True)
    for power, centers in request["centers"].items():
        game.set_centers(power, centers, reset=True)
    if request["phase"].endswith("R"):
        # MILA's own set-up knows no attacker or standoff: use the options of the position
        options = request.get("retreat_options") or {}
        for power in dislodged:
            mila_power = game.get_power(power)
            for unit in list(mila_power.retreats):
                mila_power.retreats[unit] = list(options.get(unit, ()))
    return game


def same_position(game, request):
    if game.get_current_phase() != request["phase"]:
        return False
    units = game.get_units()
    centers = game.get_centers()
    for power in set(units) | set(request["units"]):
        mine = sorted(u for u in units.get(power, ()) if not u.startswith("*"))
        if mine != sorted(request["units"].get(power, ())):
            return False
        if request["phase"].endswith("R"):
            waiting = sorted(u[1:] for u in units.get(power, ()) if u.startswith("*"))
            if waiting != sorted(d["unit"] for d in (request.get("dislodged") or {}).get(power, ())):
                return False
        if sorted(centers.get(power, ())) != sorted(request["centers"].get(power, ())):
            return False
    return True


def play(game, request):
    for power, orders in request.get("mila_orders", request["orders"]).items():
        game.set_orders(power, orders)
    game.process()


def view(game):
    after = {power: sorted(u for u in units if not u.startswith("*"))
             for power, units in game.get_units().items()}
    return {"units": {p: us for p, us in after.items() if us}, "phase": game.get_current_phase()}


def main(path, set_up_too=True):
    games = json.load(open(path))["games"]
    wall, cpu = time.perf_counter, time.process_time
    timing = {"long_game": [], "long_game_cpu": [], "set_up": [], "set_up_cpu": []}
    after, resyncs = [], 0
    for phases in games:
        game = Game()
        for request in phases:
            if not same_position(game, request):
                game = set_up(request)
                resyncs += 1
            started, started_cpu = wall(), cpu()
            play(game, request)
            timing["long_game_cpu"].append(cpu() - started_cpu)
            timing["long_game"].append(wall() - started)
            after.append(view(game))
    for phases in games if set_up_too else ():
        for request in phases:
            started, started_cpu = wall(), cpu()
            play(set_up(request), request)
            timing["set_up_cpu"].append(cpu() - started_cpu)
            timing["set_up"].append(wall() - started)
    json.dump({**timing, "resyncs": resyncs, "after": after}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], "--no-set-up" not in sys.argv[2:])
