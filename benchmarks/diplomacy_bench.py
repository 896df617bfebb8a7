"""Benchmark: movement phases per second through the batch command line.

    .venv/bin/python benchmarks/diplomacy_bench.py [--phases 5000] [--seed 1901] [--no-mila]

1. Makes ``--phases`` realistic movement phases by random play (benchmarks/positions.py).
2. Times ``python -m adjudicator.diplomacy`` on them as one JSON Lines batch,
   wall clock, process start-up included.
3. Unless ``--no-mila``: installs the PyPI package ``diplomacy`` (the MILA
   engine) into its own virtualenv under .bench/ (only for this benchmark),
   times it on the same phases in the same run, and compares the units each
   engine leaves on the board.  The ratio compares like with like (a position
   and its orders in, a result out); MILA's ``process()`` alone is printed too.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = ROOT / ".bench"
MILA_PYTHON = BENCH / "mila-venv" / "bin" / "python"

from benchmarks.positions import movement_phases  # noqa: E402


def ours(path: Path) -> tuple[float, list[dict]]:
    with path.open("rb") as feed:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "adjudicator.diplomacy"], stdin=feed,
                              capture_output=True, check=True, cwd=ROOT)
        seconds = time.perf_counter() - started
    responses = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    errors = [r for r in responses if "error" in r]
    if errors:
        raise SystemExit(f"our engine refused {len(errors)} requests, first: {errors[0]}")
    return seconds, responses


def mila(path: Path) -> dict:
    if not MILA_PYTHON.exists():
        print("installing the MILA engine (PyPI 'diplomacy') into .bench/mila-venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(MILA_PYTHON.parent.parent)
        subprocess.run([str(MILA_PYTHON), "-m", "pip", "install", "--quiet", "diplomacy"], check=True)
    done = subprocess.run([str(MILA_PYTHON), str(ROOT / "benchmarks" / "mila_runner.py"), str(path)],
                          capture_output=True, check=True, text=True)
    return json.loads(done.stdout)


def units_after(response: dict) -> dict[str, list[str]]:
    return {p: sorted(us) for p, us in response["next"]["units"].items() if us}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1901)
    parser.add_argument("--no-mila", action="store_true")
    args = parser.parse_args()

    BENCH.mkdir(exist_ok=True)
    path = BENCH / f"phases-{args.phases}-{args.seed}.jsonl"
    requests = movement_phases(args.phases, seed=args.seed)
    path.write_text("".join(json.dumps(r) + "\n" for r in requests))
    units = sum(len(us) for r in requests for us in r["units"].values())
    print(f"{len(requests)} movement phases, {units / len(requests):.1f} units per phase on average")

    seconds, responses = ours(path)
    print(f"this engine (batch CLI, start-up included): {seconds:.2f} s, "
          f"{len(requests) / seconds:,.0f} phases/s")
    if args.no_mila:
        return
    theirs = mila(path)
    # Like for like: both engines go from a position plus orders to a result.  Ours includes
    # process start-up and JSON; MILA's excludes interpreter start-up and file reading.
    mila_seconds = theirs["load_seconds"] + theirs["adjudicate_seconds"]
    print(f"MILA diplomacy (position set-up + set_orders + process): {mila_seconds:.2f} s, "
          f"{len(requests) / mila_seconds:,.0f} phases/s")
    print(f"ratio: {mila_seconds / seconds:.1f}x MILA's phases per second")
    process_only = theirs["adjudicate_seconds"]
    print(f"(MILA's set_orders + process alone, set-up left out: {len(requests) / process_only:,.0f} phases/s, "
          f"{process_only / seconds:.1f}x)")
    same = sum(units_after(r) == m for r, m in zip(responses, theirs["units_after"]))
    print(f"same units after the phase as MILA: {same}/{len(requests)}")
    differ = [i for i, (r, m) in enumerate(zip(responses, theirs["units_after"])) if units_after(r) != m]
    if differ:
        print(f"first differing phases (line numbers in {path.name}): {differ[:10]}")


if __name__ == "__main__":
    main()
