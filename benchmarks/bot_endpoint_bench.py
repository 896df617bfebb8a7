"""The stateless bot endpoint's answer time (docs/bots.md): ``POST /v1/bots/diplomacy/orders`` through
the Flask application in this process (schema, quota, the bot in the API's child process, JSON), on
positions of a game the bot plays against itself from the standard start, every power of every phase,
one request at a time; CPU time an answer (this process's and the child's) and its wall-clock time, by
kind of phase.

    .venv/bin/python benchmarks/bot_endpoint_bench.py --years 4
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.diplomacy import adjudicate, bot_orders, initial_position  # noqa: E402
from tests.service.svc_stack import redis_server  # noqa: E402

POSITION = ("phase", "units", "centers", "dislodged", "contested", "retreat_options", "adjustments")


def cpu() -> float:
    """CPU seconds used so far by this process and by the API's child processes that compute the bot."""
    from service import drawing

    children = sum(sum(map(int, Path(f"/proc/{c.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[11:13]))
                   for c in drawing.BOTS.idle) / os.sysconf("SC_CLK_TCK")
    return time.process_time() + children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--years", type=int, default=4, help="years of the game played (default 4)")
    args = parser.parse_args()
    from service.app import create_app
    from workers.core.settings import Settings

    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as url:
        client = create_app(config=Settings(redis_url=url, rate_limits_on=False)).test_client()
        position, times, walls = {**initial_position("standard"), "variant": "standard"}, {}, {}
        start = {k: position[k] for k in POSITION if k in position}
        assert client.post("/v1/bots/diplomacy/orders", json={**start, "power": "FRANCE"}).status_code == 200  # warm
        last = int(position["phase"][1:5]) + args.years - 1
        while int(position["phase"][1:5]) <= last:
            body = {k: position[k] for k in POSITION if k in position}
            orders = {}
            for i, power in enumerate(sorted(position["units"])):
                start, wall = cpu(), time.perf_counter()
                answer = client.post("/v1/bots/diplomacy/orders", json={**body, "power": power, "seed": i})
                times.setdefault(position["phase"][-1], []).append(cpu() - start)
                walls.setdefault(position["phase"][-1], []).append(time.perf_counter() - wall)
                assert answer.status_code == 200, answer.text
                orders[power] = answer.get_json()["orders"]
            assert orders == {p: bot_orders(position, p, seed=i) for i, p in enumerate(sorted(position["units"]))}
            position = {**adjudicate({**position, "orders": orders})["next"], "variant": "standard"}
    for kind, name in (("M", "movement"), ("R", "retreats"), ("A", "adjustments")):
        shown = []
        for what, values in (("CPU", times), ("wall clock", walls)):
            found = sorted(values.get(kind, []))
            if found:
                p95 = found[min(len(found) - 1, round(0.95 * (len(found) - 1)))]
                shown.append(f"{what} p50 {statistics.median(found):.3f} s, p95 {p95:.3f} s, max {found[-1]:.3f} s")
        if shown:
            print(f"{name}: {len(times[kind])} answers, " + "; ".join(shown))


if __name__ == "__main__":
    main()
