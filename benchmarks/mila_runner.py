"""Runs inside the benchmark's own virtualenv, where the PyPI package
``diplomacy`` (the MILA engine) is installed; it never imports this project.

Reads movement-phase requests (JSON Lines, our interchange format) from the
file named on the command line, adjudicates each with MILA and prints one JSON
object: the seconds spent, with and without creating a fresh ``Game`` per
phase, and the units after each phase (dislodged units left out).
"""
import json
import sys
import time

from diplomacy import Game


def load(request):
    game = Game()
    game.clear_units()
    for power, units in request["units"].items():
        game.set_units(power, units, reset=True)
    for power, centers in request["centers"].items():
        game.set_centers(power, centers, reset=True)
    game.set_current_phase(request["phase"])
    return game


def adjudicate(game, request):
    for power, orders in request["orders"].items():
        game.set_orders(power, orders)
    game.process()
    after = {power: sorted(u for u in units if not u.startswith("*")) for power, units in game.get_units().items()}
    return {power: units for power, units in after.items() if units}


def main(path):
    requests = [json.loads(line) for line in open(path)]
    started = time.perf_counter()
    games = [load(r) for r in requests]
    loaded = time.perf_counter()
    after = [adjudicate(g, r) for g, r in zip(games, requests)]
    done = time.perf_counter()
    json.dump({"load_seconds": loaded - started, "adjudicate_seconds": done - loaded,
               "units_after": after}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
