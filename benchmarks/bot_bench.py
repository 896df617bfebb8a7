"""Benchmark: the bot (adjudicator/diplomacy/bot.py) against three baselines.

    .venv/bin/python benchmarks/bot_bench.py [--games 2] [--years 8] [--first-seed 1]
        [--baselines holder,random,dumbbot] [--budget N]

For each baseline and each seed (``--games`` seeds from ``--first-seed``),
every power in turn is played by the bot against six of the baseline, in the
standard game, from 1901 to the end of the ``--years``-th year (8: the end of
1908).  The same seed is played once more with seven of the baseline.  For
each baseline it prints:

* the bot's mean supply centres against the baseline's on the same power and
  seed, and the mean difference, with 95% confidence intervals (Student's t);
* how often the bot ends with more centres than the baseline on that power
  and seed, and with at least as many;
* its solo rate (18 centres before the end), with a 95% Wilson interval;
* the bot's answer time per power per phase (CPU time of this process: one
  core), p50 / p95 / max by kind of phase, over every call of the run.

Each player's seed is its game's seed, its power and the phase, so a run is
repeatable.  The machine running it may be shared: the figures of the time
are CPU time, but a busy machine still slows them down (caches, frequency).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.diplomacy import (adjudicate, bot_orders, initial_position,  # noqa: E402
                                   options, powers_to_order)
from adjudicator.diplomacy.bot import DEFAULT_BUDGET  # noqa: E402
from adjudicator.diplomacy.dumbbot import dumbbot_orders  # noqa: E402

PHASE_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


# -- the baselines ----------------------------------------------------------------
def holder(position: dict, power: str, seed) -> list[str]:
    """Orders nothing: its units hold, its dislodged units disband, it never builds
    (and civil disorder disbands for it)."""
    return []


def random_bot(position: dict, power: str, seed) -> list[str]:
    """Uniform over the options: one order a unit, one retreat or disband a
    dislodged unit; builds and disbands among the sites and units (a waive is
    one more choice for each build)."""
    rng = random.Random(seed)
    found = options(position, power)
    if position["phase"][-1] != "A":
        return [rng.choice(orders) for orders in found.values()]
    n = found.get("builds", 0)
    out: list[str] = []
    if n > 0:
        sites = dict(found["sites"])
        for _ in range(n):
            choice = rng.choice([*sites, "WAIVE"])
            out.append("WAIVE" if choice == "WAIVE" else rng.choice(sites.pop(choice)))
    elif n < 0:
        out = rng.sample(found["disbands"], -n)
    return out


BASELINES = {"holder": holder, "random": random_bot, "dumbbot": dumbbot_orders}


# -- games ------------------------------------------------------------------------------
def play(players: dict, seed: int, last_year: int, variant: str = "standard",
         timed: str | None = None, times: dict | None = None) -> tuple[dict[str, int], str | None]:
    """One game: centres by power at its end, and the winner (or None).
    ``players`` maps each power to a function (position, power, seed) -> orders;
    ``times`` collects the CPU seconds of ``timed``'s player by kind of phase."""
    position = initial_position(variant)
    while int(position["phase"][1:5]) <= last_year:
        orders = {}
        for power in powers_to_order(position):
            player = players[power]
            started = time.process_time()
            orders[power] = player(position, power, f"{seed}:{power}:{position['phase']}")
            if power == timed and times is not None:
                times.setdefault(position["phase"][-1], []).append(time.process_time() - started)
        resp = adjudicate({**position, "orders": orders})
        position = resp["next"]
        if "winner" in resp:
            return {p: len(c) for p, c in position["centers"].items()}, resp["winner"]
    return {p: len(c) for p, c in position["centers"].items()}, None


def t95(n: int) -> float:
    """Student's t, two-sided 95%, for ``n`` - 1 degrees of freedom."""
    table = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
             10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 30: 2.04, 60: 2.00}
    df = n - 1
    return next((t for d, t in table.items() if df <= d), 1.96)


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{m:.2f}"
    half = t95(len(xs)) * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:.2f} ± {half:.2f}"


def wilson(k: int, n: int) -> str:
    z = 1.96
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    return f"{k}/{n} = {k / n:.0%} [{max(0, centre - half):.0%}, {min(1, centre + half):.0%}]"


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, math.ceil(q * len(xs)) - 1)]


def bench(baseline: str, seeds: list[int], last_year: int, budget: int, times: dict) -> None:
    base = BASELINES[baseline]

    def bot(position, power, seed):
        return bot_orders(position, power, seed, budget)

    ours, theirs, solos = [], [], 0
    started = time.perf_counter()
    for seed in seeds:
        reference, _winner = play({p: base for p in POWERS}, seed, last_year)
        for power in POWERS:
            players = {p: base for p in POWERS}
            players[power] = bot
            centres, winner = play(players, seed, last_year, timed=power, times=times)
            ours.append(centres.get(power, 0))
            theirs.append(reference.get(power, 0))
            solos += winner == power
    diff = [a - b for a, b in zip(ours, theirs)]
    n = len(ours)
    print(f"\nagainst {baseline}: {n} games ({len(seeds)} seeds x 7 powers), "
          f"{time.perf_counter() - started:.0f} s")
    print(f"  bot's centres      {mean_ci(ours)}")
    print(f"  {baseline}'s centres {mean_ci(theirs)} (same power and seed, seven of it)")
    print(f"  difference         {mean_ci(diff)}")
    print(f"  bot ahead          {wilson(sum(d > 0 for d in diff), n)}")
    print(f"  bot at least level {wilson(sum(d >= 0 for d in diff), n)}")
    print(f"  solo               {wilson(solos, n)}")


POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="seeds per baseline (x 7 powers)")
    ap.add_argument("--years", type=int, default=8, help="years played (8: to the end of 1908)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--baselines", default="holder,random,dumbbot")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                    help="the bot's adjudications per movement phase")
    args = ap.parse_args(argv)
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    last_year = 1900 + args.years
    times: dict[str, list[float]] = {}
    print(f"bot (budget {args.budget}) against baselines, seeds {seeds}, to the end of {last_year}")
    for name in args.baselines.split(","):
        bench(name, seeds, last_year, args.budget, times)
    print("\nbot's answer time per power per phase (CPU seconds, one core; the limit is 1 s):")
    for kind, xs in sorted(times.items(), key=lambda kv: "MRA".index(kv[0])):
        print(f"  {PHASE_KINDS[kind]:12} n={len(xs):5}  p50 {percentile(xs, .5):.3f}  "
              f"p95 {percentile(xs, .95):.3f}  max {max(xs):.3f}")


if __name__ == "__main__":
    main()
