"""Benchmark: phases per second through the batch command line, against MILA.

    .venv/bin/python benchmarks/diplomacy_bench.py [--phases 5000] [--seed 1901] [--repeat 3] [--no-mila]

1. Plays random games (benchmarks/positions.py) and keeps their first
   ``--phases`` phases in the order played: every movement phase, and the
   retreat and adjustment phases that follow them.
2. Times ``python -m adjudicator.diplomacy`` on them as one JSON Lines batch:
   one process, one core, wall clock, process start-up included (best of
   ``--repeat``).  Then once per phase type, each its own process, for the
   phases/s of each type.
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


def ours(path: Path, repeat: int) -> tuple[float, list[dict]]:
    """Best wall-clock seconds of ``repeat`` runs of the CLI on ``path``, and its responses."""
    best, out = None, b""
    for _ in range(repeat):
        with path.open("rb") as feed:
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "adjudicator.diplomacy"], stdin=feed,
                                  capture_output=True, check=True, cwd=ROOT)
            seconds = time.perf_counter() - started
        if best is None or seconds < best:
            best, out = seconds, done.stdout
    responses = [json.loads(line) for line in out.splitlines() if line.strip()]
    errors = [r for r in responses if "error" in r]
    if errors:
        raise SystemExit(f"our engine refused {len(errors)} requests, first: {errors[0]}")
    return best, responses


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

    seconds, responses = ours(path, args.repeat)
    print(f"\nthis engine, batch CLI, one process, start-up included: {seconds:.2f} s, "
          f"{len(requests) / seconds:,.0f} phases/s")
    own = {}
    for t in TYPES:
        part = BENCH / f"{stem}-{t}.jsonl"
        part.write_text("".join(json.dumps(r) + "\n" for r in requests if r["phase"].endswith(t)))
        own[t] = ours(part, args.repeat)[0] if count[t] else 0.0
    if args.no_mila:
        for t, name in TYPES.items():
            print(f"  {name:<10} {rate(count[t], own[t]):>8} phases/s (its own process)")
        return

    games_path = BENCH / f"{stem}-games.json"
    games_path.write_text(json.dumps({"games": games}))
    theirs = mila(games_path)
    long_game, set_up = theirs["long_game"], theirs["set_up"]
    long_total, setup_total = sum(long_game.values()), sum(set_up.values())
    print(f"MILA diplomacy, long game (game built; set_orders + process() timed): {long_total:.2f} s, "
          f"{len(requests) / long_total:,.0f} phases/s")
    print(f"MILA diplomacy, new game set up per phase + set_orders + process(): {setup_total:.2f} s, "
          f"{len(requests) / setup_total:,.0f} phases/s")
    print(f"\nratio against MILA as in a long game: {long_total / seconds:.1f}x")
    print(f"ratio against MILA set up per phase:   {setup_total / seconds:.1f}x")

    print(f"\nphases/s by type    {'this CLI':>10} {'MILA long game':>15} {'MILA set up':>12}")
    for t, name in TYPES.items():
        print(f"  {name:<10} {count[t]:>6} {rate(count[t], own[t]):>10} {rate(count[t], long_game[t]):>15} "
              f"{rate(count[t], set_up[t]):>12}")
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
