"""Benchmark: phases per second through the batch command line, against MILA.

    .venv/bin/python benchmarks/diplomacy_bench.py [--phases 5000] [--seed 1901] [--repeat 3] [--no-mila]

1. Plays random games (benchmarks/positions.py) and keeps their first
   ``--phases`` phases in the order played: every movement phase, and the
   retreat and adjustment phases that follow them.
2. Times ``python -m adjudicator.diplomacy`` on them as one JSON Lines batch:
   one process, one core, wall clock, process start-up included (best of
   ``--repeat``), from compiled bytecode as an installed package runs.  Then
   once per phase type, each its own process, for the phases/s of each type.
3. Unless ``--no-mila``: installs the PyPI package ``diplomacy`` (the MILA
   engine) into its own virtualenv under .bench/ (only for this benchmark) and
   times it on the same phases in the same run, two ways
   (benchmarks/diplomacy_mila_runner.py): as in a long game (the game object
   already built, only ``set_orders`` + ``process()`` timed), and with a new
   game set up at each position.  Prints both ratios, phases/s per phase type,
   and how often the two engines leave the same units and go on to the same
   phase.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = ROOT / ".bench"
MILA_PYTHON = BENCH / "mila-venv" / "bin" / "python"
TYPES = {"M": "movement", "R": "retreat", "A": "adjustment"}

from benchmarks.positions import game_phases  # noqa: E402


# Our CLI runs as an installed package would: from compiled bytecode.  A first,
# untimed run writes the .pyc files (so PYTHONDONTWRITEBYTECODE is not passed on).
CLI = [sys.executable, "-m", "adjudicator.diplomacy"]
CLI_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def ours(path: Path, repeat: int) -> tuple[float, float, list[dict]]:
    """Wall-clock and CPU seconds (user + system) of the CLI on ``path``, each the
    best of ``repeat`` runs, and its responses."""
    subprocess.run(CLI, input=b"", capture_output=True, check=True, cwd=ROOT, env=CLI_ENV)
    best_wall = best_cpu = None
    out = b""
    for _ in range(repeat):
        with path.open("rb") as feed:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run(CLI, stdin=feed, capture_output=True, check=True, cwd=ROOT,
                                  env=CLI_ENV)
            seconds = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if best_wall is None or seconds < best_wall:
            best_wall, out = seconds, done.stdout
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    responses = [json.loads(line) for line in out.splitlines() if line.strip()]
    errors = [r for r in responses if "error" in r]
    if errors:
        raise SystemExit(f"our engine refused {len(errors)} requests, first: {errors[0]}")
    return best_wall, best_cpu, responses


def mila(path: Path) -> dict:
    if not MILA_PYTHON.exists():
        print("installing the MILA engine (PyPI 'diplomacy') into .bench/mila-venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(MILA_PYTHON.parent.parent)
        subprocess.run([str(MILA_PYTHON), "-m", "pip", "install", "--quiet", "diplomacy"], check=True)
    done = subprocess.run([str(MILA_PYTHON), str(ROOT / "benchmarks" / "diplomacy_mila_runner.py"), str(path)],
                          capture_output=True, check=True, text=True)
    return json.loads(done.stdout)


def units_after(response: dict) -> dict[str, list[str]]:
    return {p: sorted(us) for p, us in response["next"]["units"].items() if us}


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1901)
    parser.add_argument("--repeat", type=int, default=3, help="runs of our CLI; the best is kept")
    parser.add_argument("--no-mila", action="store_true")
    args = parser.parse_args()

    BENCH.mkdir(exist_ok=True)
    games = game_phases(args.phases, seed=args.seed)
    requests = [r for game in games for r in game]
    stem = f"diplomacy-{args.phases}-{args.seed}"
    path = BENCH / f"{stem}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in requests))
    kinds = [r["phase"][-1] for r in requests]
    count = {t: kinds.count(t) for t in TYPES}
    units = sum(len(us) for r in requests if r["phase"].endswith("M") for us in r["units"].values())
    print(f"{len(requests)} phases from {len(games)} random games: "
          + ", ".join(f"{count[t]} {name}" for t, name in TYPES.items())
          + f"; {units / max(count['M'], 1):.1f} units per movement phase")

    seconds, cpu, responses = ours(path, args.repeat)
    print(f"\nthis engine, batch CLI, one process, start-up included: {seconds:.2f} s wall, "
          f"{cpu:.2f} s CPU; {len(requests) / seconds:,.0f} phases/s")
    own = {}
    for t in TYPES:
        part = BENCH / f"{stem}-{t}.jsonl"
        part.write_text("".join(json.dumps(r) + "\n" for r in requests if r["phase"].endswith(t)))
        own[t] = ours(part, args.repeat)[:2] if count[t] else (0.0, 0.0)
    if args.no_mila:
        for t, name in TYPES.items():
            print(f"  {name:<10} {rate(count[t], own[t][0]):>8} phases/s (its own process)")
        return

    games_path = BENCH / f"{stem}-games.json"
    games_path.write_text(json.dumps({"games": games}))
    theirs = mila(games_path)
    total = {key: sum(theirs[key].values()) for key in ("long_game", "long_game_cpu", "set_up", "set_up_cpu")}
    print(f"MILA diplomacy, long game (game built; set_orders + process() timed): "
          f"{total['long_game']:.2f} s wall, {total['long_game_cpu']:.2f} s CPU; "
          f"{len(requests) / total['long_game']:,.0f} phases/s")
    print(f"MILA diplomacy, new game set up per phase + set_orders + process(): "
          f"{total['set_up']:.2f} s wall, {total['set_up_cpu']:.2f} s CPU; "
          f"{len(requests) / total['set_up']:,.0f} phases/s")
    print("\nratio against MILA as in a long game:  "
          f"{total['long_game'] / seconds:.1f}x wall clock, {total['long_game_cpu'] / cpu:.1f}x CPU time")
    print("ratio against MILA set up per phase:    "
          f"{total['set_up'] / seconds:.1f}x wall clock, {total['set_up_cpu'] / cpu:.1f}x CPU time")

    print(f"\nphases/s by type (wall clock)  {'this CLI':>10} {'MILA long game':>15} {'MILA set up':>12}")
    for t, name in TYPES.items():
        print(f"  {name:<10} {count[t]:>6}          {rate(count[t], own[t][0]):>10} "
              f"{rate(count[t], theirs['long_game'][t]):>15} {rate(count[t], theirs['set_up'][t]):>12}")
    print("  (this CLI: each type in its own process, start-up included)")

    same_units = {t: 0 for t in TYPES}
    same_phase = {t: 0 for t in TYPES}
    differ = []
    for i, (r, m) in enumerate(zip(responses, theirs["after"])):
        t = requests[i]["phase"][-1]
        ok_units = units_after(r) == m["units"]
        ok_phase = r["next"]["phase"] == m["phase"]
        same_units[t] += ok_units
        same_phase[t] += ok_phase
        if not (ok_units and ok_phase):
            differ.append(i + 1)
    print("\nsame units after the phase as MILA: "
          + ", ".join(f"{name} {same_units[t]}/{count[t]}" for t, name in TYPES.items()))
    print("same next phase as MILA:            "
          + ", ".join(f"{name} {same_phase[t]}/{count[t]}" for t, name in TYPES.items()))
    print(f"MILA re-set at our position (after a disagreement): {theirs['resyncs']} times")
    if differ:
        print(f"first differing phases (line numbers in {path.name}): {differ[:10]}")


if __name__ == "__main__":
    main()
