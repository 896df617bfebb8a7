"""Times our engine in process, by phase type: run by benchmarks/diplomacy_bench.py
in the environment of the engine it times (pure, compiled or a baseline copy).

    python diplomacy_in_process.py REQUESTS.jsonl [--passes 2]

Reads the requests (JSON Lines, as the CLI does, untimed), then times
``adjudicate`` on them, one phase type after the other (movement, retreat,
adjustment; each in the order of the file), in CPU time of this process.
The first pass is the cold one: nothing cached yet (order readings, units
read before); later passes are warm.  Prints one JSON object:
``{"passes": [{"M": seconds, "R": seconds, "A": seconds}, ...]}``.

It never imports the benchmark's own modules, so that the ``adjudicator`` it
times is the one its environment selects.
"""
import gc
import json
import sys
import time

from adjudicator.diplomacy import adjudicate

try:
    import orjson
    loads = orjson.loads
except ImportError:  # pragma: no cover - an engine without orjson beside it
    loads = json.loads


def main(path: str, passes: int) -> None:
    with open(path, "rb") as f:
        requests = [loads(line) for line in f if line.strip()]
    by_type: dict[str, list] = {"M": [], "R": [], "A": []}
    for r in requests:
        by_type[r["phase"][-1]].append(r)
    gc.freeze()  # the requests live as long as the process, as the CLI's start-up does
    cpu = time.process_time
    out = []
    for _ in range(passes):
        seconds = {}
        for kind, group in by_type.items():
            started = cpu()
            for r in group:
                adjudicate(r)
            seconds[kind] = cpu() - started
        out.append(seconds)
    json.dump({"passes": out}, sys.stdout)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], int(args[args.index("--passes") + 1]) if "--passes" in args else 2)
