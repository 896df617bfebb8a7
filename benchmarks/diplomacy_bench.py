"""Benchmark: the batch adjudicator against MILA, side by side, in one run.

    .venv/bin/python benchmarks/diplomacy_bench.py [--phases 6000] [--datc-rounds 5]
        [--seed 1901] [--repeat 5] [--baseline-src DIR] [--compiled] [--set-up] [--no-mila]

1. The mix: the first ``--phases`` phases of random games
   (benchmarks/positions.py: every movement phase, and the retreat and
   adjustment phases that follow), then every DATC step MILA can play
   (tests/diplomacy/datc: the standard game, the 2000 convoy rule; 201 steps)
   ``--datc-rounds`` times.  Our engine reads the DATC orders as the cases
   write them (often English); MILA gets the same orders in its own notation.
2. ``--repeat`` rounds, one after the other, each timing both engines on the
   whole mix: ``python -m adjudicator.diplomacy`` as one JSON Lines batch (one
   process, one core, start-up included, from compiled bytecode as an
   installed package runs), then MILA (the PyPI package ``diplomacy``,
   installed on first use into its own virtualenv under .bench/, for this
   benchmark only) as in a long game: each game built before the clock
   starts, only ``set_orders`` + ``process()`` timed
   (benchmarks/diplomacy_mila_runner.py).  The compiled build of our engine
   (``python3 manage.py build-engine``, scripts/compiled_engine.py) is timed
   in each round too when it is built from the source as it is now, or with
   ``--compiled``, which builds it first; its output must be byte for byte
   the pure engine's, in every round, or the benchmark stops with an error.
   With ``--baseline-src DIR`` a
   second copy of our engine (DIR holds its ``adjudicator/``, e.g. an older
   commit: ``git archive COMMIT adjudicator | tar -x -C DIR``) is timed in
   each round too.  The ratio of each round is MILA's time over ours in that
   round, in CPU time (user + system; what one core gives, whatever else the
   machine runs) and in wall clock; the median and the range over the rounds
   are printed.
3. By phase type, in process: each round also times every engine of ours
   on the mix inside one process (benchmarks/diplomacy_in_process.py: the
   requests read from JSON off the clock, then ``adjudicate`` on each, the
   position read from the request included; a first, cold pass and a warm
   one), and, when a build of dipcc (Meta's C++ engine, the one behind
   Cicero) is importable, dipcc with each position set up off the clock
   (benchmarks/diplomacy_dipcc_runner.py; build it with
   benchmarks/dipcc/build.sh, docs/benchmarks.md).  The table gives MILA's
   time over each engine's per phase type, and the whole-process CLI's
   ratio over the in-process one.
4. The same ratios for each part of the mix alone (random games, DATC), each
   part in its own process; whether the engines leave the same units and go
   on to the same phase; with ``--set-up``, MILA with a new game set up per
   phase too.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = ROOT / ".bench"
MILA_PYTHON = BENCH / "mila-venv" / "bin" / "python"
#: where benchmarks/dipcc/build.sh puts pydipcc (or DIPCC_PATH, a folder holding it)
DIPCC = Path(os.environ.get("DIPCC_PATH") or BENCH / "dipcc")
TYPES = {"M": "movement", "R": "retreat", "A": "adjustment"}

from benchmarks.positions import datc_phases, game_phases  # noqa: E402
from scripts import compiled_engine  # noqa: E402

# Our CLI runs as an installed package would: from compiled bytecode.  A first,
# untimed run writes the .pyc files (so PYTHONDONTWRITEBYTECODE is not passed on).
CLI = [sys.executable, "-m", "adjudicator.diplomacy"]
CLI_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def engine_env(src: Path) -> dict[str, str]:
    """The environment that makes the CLI run the engine in ``src``: a source
    tree's, or the compiled build's folder."""
    if src == compiled_engine.OUT:
        return compiled_engine.environ(CLI_ENV)
    return {**CLI_ENV, "PYTHONPATH": str(src)}


def run_cli(path: Path, src: Path) -> tuple[float, float, bytes]:
    """Wall-clock and CPU seconds (user + system) of one run of the CLI of the
    engine in ``src`` on ``path``, and its output."""
    with path.open("rb") as feed:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(CLI, stdin=feed, capture_output=True, check=True, cwd=src,
                              env=engine_env(src))
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, done.stdout


def warm_up(src: Path) -> None:
    where = subprocess.run(
        CLI[:1] + ["-c", "import adjudicator.diplomacy.engine as e; print(e.__file__)"],
        capture_output=True, check=True, text=True, cwd=src, env=engine_env(src)).stdout.strip()
    # the compiled build's modules are in the user's cache, which src (this checkout's selection) names
    if src != compiled_engine.OUT and not Path(where).resolve().is_relative_to(src.resolve()):
        raise SystemExit(f"the engine in {src} is shadowed by {where}")
    if (src == compiled_engine.OUT) != (not where.endswith(".py")):
        raise SystemExit(f"the engine in {src} is {where}")
    subprocess.run(CLI, input=b"", capture_output=True, check=True, cwd=src, env=engine_env(src))


def same_output(pure: bytes, compiled: bytes, what: str) -> None:
    """Stop the benchmark, loudly, when the compiled engine answered otherwise."""
    if pure == compiled:
        return
    a, b = pure.splitlines(), compiled.splitlines()
    line = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    raise SystemExit(f"THE COMPILED ENGINE'S ANSWERS DIFFER from the pure engine's ({what}), "
                     f"first at output line {line + 1} of {len(a)} / {len(b)}:\n"
                     f"  pure:     {a[line][:500] if line < len(a) else '(none)'}\n"
                     f"  compiled: {b[line][:500] if line < len(b) else '(none)'}")


def responses(out: bytes) -> list[dict]:
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    errors = [r for r in answers if "error" in r]
    if errors:
        raise SystemExit(f"our engine refused {len(errors)} requests, first: {errors[0]}")
    return answers


def in_process(path: Path, src: Path) -> dict:
    """CPU seconds by phase type of the engine in ``src`` on ``path``, in one
    process (benchmarks/diplomacy_in_process.py): a cold pass and a warm one."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "diplomacy_in_process.py"),
                           str(path)], capture_output=True, check=True, cwd=src, env=engine_env(src))
    return json.loads(done.stdout)


def dipcc_built() -> bool:
    return any(DIPCC.glob("pydipcc*.so"))


def dipcc(path: Path) -> dict:
    """dipcc's CPU seconds by phase type (benchmarks/diplomacy_dipcc_runner.py)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "diplomacy_dipcc_runner.py"),
                           str(path)], capture_output=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(DIPCC), "GLOG_minloglevel": "2"})
    return json.loads(done.stdout)


def mila(path: Path, set_up: bool) -> dict:
    if not MILA_PYTHON.exists():
        print("installing the MILA engine (PyPI 'diplomacy') into .bench/mila-venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(MILA_PYTHON.parent.parent)
        subprocess.run([str(MILA_PYTHON), "-m", "pip", "install", "--quiet", "diplomacy"], check=True)
    command = [str(MILA_PYTHON), str(ROOT / "benchmarks" / "diplomacy_mila_runner.py"), str(path)]
    done = subprocess.run(command + ([] if set_up else ["--no-set-up"]),
                          capture_output=True, check=True, text=True)
    return json.loads(done.stdout)


def write_jsonl(path: Path, requests: list[dict]) -> Path:
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "mila_orders"}) + "\n"
                            for r in requests))
    return path


def spread(values: list[float], unit: str = "x", digits: int = 1) -> str:
    return (f"{statistics.median(values):.{digits}f}{unit} "
            f"(range {min(values):.{digits}f}-{max(values):.{digits}f}{unit}, {len(values)} rounds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phases", type=int, default=6000, help="phases of random games")
    parser.add_argument("--datc-rounds", type=int, default=5, help="times the DATC steps are played")
    parser.add_argument("--seed", type=int, default=1901)
    parser.add_argument("--repeat", type=int, default=5, help="rounds of timing, both engines each")
    parser.add_argument("--baseline-src", type=Path, help="a folder holding another adjudicator/ to time")
    parser.add_argument("--compiled", action="store_true",
                        help="build the compiled engine first if it is not built from this source")
    parser.add_argument("--set-up", action="store_true", help="MILA with a game set up per phase too")
    parser.add_argument("--no-mila", action="store_true")
    args = parser.parse_args()

    BENCH.mkdir(exist_ok=True)
    games = game_phases(args.phases, seed=args.seed)
    datc = datc_phases()
    random_part = [r for game in games for r in game]
    datc_part = datc * args.datc_rounds
    mix = random_part + datc_part
    stem = f"diplomacy-{args.phases}-{args.seed}-datc{args.datc_rounds}"
    files = {"mix": write_jsonl(BENCH / f"{stem}.jsonl", mix),
             "random games": write_jsonl(BENCH / f"{stem}-random.jsonl", random_part),
             "DATC": write_jsonl(BENCH / f"{stem}-datc.jsonl", datc_part)}
    parts = {"mix": range(len(mix)), "random games": range(len(random_part)),
             "DATC": range(len(random_part), len(mix))}
    kinds = [r["phase"][-1] for r in mix]
    count = {t: kinds.count(t) for t in TYPES}
    units = sum(len(us) for r in random_part if r["phase"].endswith("M") for us in r["units"].values())
    moves = sum(1 for r in random_part if r["phase"].endswith("M"))
    print(f"{len(mix)} phases: {len(random_part)} from {len(games)} random games "
          f"({units / max(moves, 1):.1f} units per movement phase) and {len(datc)} DATC steps "
          f"x {args.datc_rounds}; " + ", ".join(f"{count[t]} {name}" for t, name in TYPES.items()))

    engines = {"pure engine": ROOT}
    if args.compiled:
        try:
            compiled_engine.build(sys.executable)
        except compiled_engine.BuildError as e:
            raise SystemExit(f"the compiled engine cannot be built: {e}")
    if compiled_engine.is_built(sys.executable):
        engines["compiled engine"] = compiled_engine.OUT
    else:
        print("the compiled engine is not built from this source: not timed "
              "(--compiled, or python3 manage.py build-engine, builds it)")
    if args.baseline_src:
        engines["baseline engine"] = args.baseline_src.resolve()
    with_dipcc = dipcc_built() and not args.no_mila
    if not with_dipcc:
        print(f"no build of dipcc in {DIPCC}: no dipcc column (benchmarks/dipcc/build.sh builds one)")
    for src in engines.values():
        warm_up(src)
    games_path = BENCH / f"{stem}-games.json"
    games_path.write_text(json.dumps({"games": games + [[d] for d in datc_part]}))

    # rounds: every engine on the whole mix, one after the other
    ours = {name: [] for name in engines}  # name -> [(wall, cpu)]
    inside = {name: [] for name in engines}  # name -> [{"passes": [{type: cpu}, ...]}]
    theirs: list[dict] = []
    dipccs: list[dict] = []
    first_out = None
    for n in range(args.repeat):
        for name, src in engines.items():
            wall, cpu, out = run_cli(files["mix"], src)
            ours[name].append((wall, cpu))
            if first_out is None:
                first_out = out
            if name == "compiled engine":
                same_output(first_out, out, f"the mix, round {n + 1}")
            inside[name].append(in_process(files["mix"], src))
        if not args.no_mila:
            theirs.append(mila(games_path, set_up=args.set_up and n == 0))
        if with_dipcc:
            dipccs.append(dipcc(games_path))
        print(f"round {n + 1}: " + ", ".join(f"{name} {w:.2f} s wall {c:.2f} s CPU"
                                              for name, ((w, c)) in ((k, v[-1]) for k, v in ours.items()))
              + (f"; MILA {sum(theirs[-1]['long_game']):.2f} s wall "
                 f"{sum(theirs[-1]['long_game_cpu']):.2f} s CPU" if theirs else ""), flush=True)
    answers = responses(first_out)

    print(f"\nthe mix, one process each, start-up included ({args.repeat} rounds, median and range):")
    for name, runs in ours.items():
        print(f"  {name:<16} {spread([len(mix) / c for _w, c in runs], ' phases/s', 0)} by CPU time; "
              f"{spread([len(mix) / w for w, _c in runs], ' phases/s', 0)} by wall clock")
    for slow, fast in (("pure engine", "compiled engine"), ("baseline engine", "pure engine")):
        if slow in ours and fast in ours:
            print(f"  the {slow}'s time over the {fast}'s: "
                  f"{spread([s[1] / f[1] for s, f in zip(ours[slow], ours[fast])])} CPU, "
                  f"{spread([s[0] / f[0] for s, f in zip(ours[slow], ours[fast])])} wall")
    if "compiled engine" in ours:
        print(f"  the compiled engine's answers: the pure engine's, byte for byte, "
              f"in all {args.repeat} rounds ({len(mix)} answers each)")
    if args.no_mila:
        return

    print(f"  MILA long game   {spread([len(mix) / sum(t['long_game_cpu']) for t in theirs], ' phases/s', 0)}"
          f" by CPU time (set_orders + process() only)")
    for name, runs in ours.items():
        print(f"\nMILA's time over {name}'s, the mix:")
        print("  CPU time:   " + spread([sum(t["long_game_cpu"]) / c for t, (_w, c) in zip(theirs, runs)]))
        print("  wall clock: " + spread([sum(t["long_game"]) / w for t, (w, _c) in zip(theirs, runs)]))

    by_type_table(kinds, count, theirs, dipccs, inside, ours)

    print("\neach part in its own process (CPU time, median of the rounds):")
    for part in ("random games", "DATC"):
        theirs_cpu = statistics.median(sum(t["long_game_cpu"][i] for i in parts[part]) for t in theirs)
        for name in ("pure engine", "compiled engine"):
            if name not in engines:
                continue
            runs = [run_cli(files[part], engines[name]) for _ in range(args.repeat)]
            if name == "compiled engine":
                pure_out = run_cli(files[part], ROOT)[2]
                for _w, _c, out in runs:
                    same_output(pure_out, out, part)
            mine = statistics.median(c for _w, c, _out in runs)
            print(f"  {part:<13} {len(parts[part]):>5} phases: {name} {mine:.2f} s, "
                  f"MILA {theirs_cpu:.2f} s: {theirs_cpu / mine:.1f}x")

    if args.set_up:
        set_up = theirs[0]
        print(f"MILA with a new game set up per phase: {sum(set_up['set_up_cpu']):.2f} s CPU; "
              f"the pure engine's first round {ours['pure engine'][0][1]:.2f} s: "
              f"{sum(set_up['set_up_cpu']) / ours['pure engine'][0][1]:.1f}x")

    print("\nsame units after the phase and same next phase as ours:")
    others = [("MILA", theirs[0]["after"])] + ([("dipcc", dipccs[0]["after"])] if dipccs else [])
    for other, after in others:
        for part in ("random games", "DATC"):
            played = [i for i in parts[part] if after[i] is not None]
            same = [i for i in played
                    if {p: sorted(us) for p, us in answers[i]["next"]["units"].items() if us}
                    == after[i]["units"] and answers[i]["next"]["phase"] == after[i]["phase"]]
            print(f"  {other:<5} {part:<13} {len(same)}/{len(played)}")
    print(f"MILA re-set at our position (new DATC steps, disagreements): {theirs[0]['resyncs']} times")


def by_type_table(kinds: list[str], count: dict[str, int], theirs: list[dict], dipccs: list[dict],
                  inside: dict[str, list[dict]], ours: dict[str, list]) -> None:
    """MILA's CPU time over each engine's, by phase type, in process (median of the rounds)."""
    def mila_cpu(left_out=()) -> list[dict[str, float]]:
        out = []
        for r in theirs:
            seconds = {t: 0.0 for t in TYPES}
            for i, (c, k) in enumerate(zip(r["long_game_cpu"], kinds)):
                if i not in left_out:
                    seconds[k] += c
            out.append({**seconds, "all": sum(seconds.values())})
        return out

    def ratios(runs: list[dict], pass_: int, mila: list[dict[str, float]]) -> dict[str, float]:
        mine = [r["passes"][pass_] for r in runs]
        return {t: statistics.median(m[t] / (sum(x.values()) if t == "all" else x[t])
                                     for m, x in zip(mila, mine)) for t in [*TYPES, "all"]}

    mila = mila_cpu()
    columns = {}
    if dipccs:
        skipped = set(dipccs[0]["skipped"])
        columns["dipcc (C++)"] = {t: f"{x:.1f}x" for t, x in ratios(dipccs, 0, mila_cpu(skipped)).items()}
    for name, runs in inside.items():
        cold, warm = ratios(runs, 0, mila), ratios(runs, -1, mila)
        columns[f"ours, {name.replace(' engine', '')}"] = {
            t: f"{cold[t]:.1f}x ({warm[t]:.1f}x warm)" for t in cold}
    print(f"\nby phase type, in process: MILA's CPU time over each engine's "
          f"(median of {len(theirs)} rounds; ours: the first pass in a new process, and warm):")
    print("| phases | MILA phases/s | " + " | ".join(columns) + " |")
    print("| --- | --- |" + " --- |" * len(columns))
    for t in [*TYPES, "all"]:
        n = sum(count.values()) if t == "all" else count[t]
        rate = statistics.median(n / m[t] for m in mila)
        label = "all" if t == "all" else TYPES[t]
        print(f"| {label} ({n:,}) | {rate:,.0f} | " + " | ".join(c[t] for c in columns.values()) + " |")
    if dipccs and dipccs[0]["skipped"]:
        print(f"dipcc cannot play {len(dipccs[0]['skipped'])} phases (DATC steps it raises on): "
              f"its column leaves them out, MILA's time beside it too")
    print("the whole-process CLI (start-up, JSON in and out) against in process, the mix:")
    for name, runs in ours.items():
        inproc = [sum(r["passes"][0].values()) for r in inside[name]]
        print(f"  {name:<16} CLI {statistics.median(c for _w, c in runs):.3f} s CPU, in process "
              f"{statistics.median(inproc):.3f} s: the CLI's ratio to MILA is "
              f"{spread([i / c for i, (_w, c) in zip(inproc, runs)], '', 2)} of the in-process one")


if __name__ == "__main__":
    main()
