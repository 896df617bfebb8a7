"""Benchmark: every power's options beside MILA's ``get_all_possible_orders``.

    .venv/bin/python benchmarks/options_bench.py [--positions 200] [--repeat 5] [--seed 1901]

Positions: the most crowded movement phases of random standard games
(benchmarks/positions.py), ``--positions`` of them (30 or more units each
with the default seed; the supports and convoys of a full board).  On each,
in one process on one core:

* ours: ``options_by_power(position, all seven powers)``, the position read
  from its interchange form each time (what the service and the CLI do);
* MILA (the ``diplomacy`` package, a test dependency): ``get_all_possible_orders()``
  on a ``Game`` set up at the position before the clock starts (every
  location of every power, what MILA answers in one call).

``--repeat`` rounds, one after the other; per position the fastest round is
kept (the least disturbed by the rest of the machine).  CPU time of this
process.  Prints the median, the 90th percentile and the slowest position
of each, and MILA's time over ours.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.diplomacy import options_by_power  # noqa: E402
from adjudicator.diplomacy.board import BOARD  # noqa: E402
from benchmarks.diplomacy_mila_runner import set_up  # noqa: E402
from benchmarks.positions import movement_phases  # noqa: E402

POSITION_KEYS = ("variant", "phase", "units", "centers")


def crowded(count: int, seed: int) -> list[dict]:
    """The ``count`` movement phases with the most units, of 5 times as many."""
    phases = movement_phases(count * 5, seed)
    phases.sort(key=lambda r: -sum(map(len, r["units"].values())))
    return [{k: r[k] for k in POSITION_KEYS} for r in phases[:count]]


def timed(call, repeat: int) -> float:
    """The fastest of ``repeat`` calls, CPU seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1901)
    args = parser.parse_args()
    positions = crowded(args.positions, args.seed)
    units = [sum(map(len, p["units"].values())) for p in positions]
    powers = list(BOARD.powers)
    games = [set_up({**p, "orders": {}}) for p in positions]
    ours = [timed(lambda p=p: options_by_power(p, powers), args.repeat) for p in positions]
    theirs = [timed(g.get_all_possible_orders, args.repeat) for g in games]
    counts = [sum(len(os) for opts in options_by_power(p, powers)["powers"].values()
                  for os in opts.values()) for p in positions]

    def line(name, times):
        ms = sorted(t * 1000 for t in times)
        return (f"  {name:<40} median {statistics.median(ms):6.2f} ms   "
                f"p90 {ms[int(len(ms) * 0.9)]:6.2f} ms   max {ms[-1]:6.2f} ms")

    print(f"{len(positions)} positions, {min(units)}-{max(units)} units "
          f"(median {statistics.median(units):.0f}), {statistics.median(counts):.0f} orders a "
          f"position (median); fastest of {args.repeat} rounds, CPU time, one core")
    print(line("ours: options_by_power, all 7 powers", ours))
    print(line("MILA: get_all_possible_orders", theirs))
    ratios = sorted(t / o for t, o in zip(theirs, ours))
    print(f"  MILA's time over ours: median {statistics.median(ratios):.1f}x "
          f"(range {ratios[0]:.1f}-{ratios[-1]:.1f}x); in all {sum(theirs) / sum(ours):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
