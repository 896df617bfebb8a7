"""The stateless bot endpoint's answer time (docs/bots.md): ``POST /v1/bots/diplomacy/orders`` through
the Flask application in this process (schema, bot, JSON), on positions of a game the bot plays against
itself from the standard start, every power of every phase; CPU time an answer, by kind of phase.

    .venv/bin/python benchmarks/bot_endpoint_bench.py --years 4
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.diplomacy import adjudicate, bot_orders, initial_position  # noqa: E402
from tests.service.svc_stack import redis_server  # noqa: E402

POSITION = ("phase", "units", "centers", "dislodged", "contested", "retreat_options", "adjustments")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--years", type=int, default=4, help="years of the game played (default 4)")
    args = parser.parse_args()
    from service.app import create_app
    from workers.core.settings import Settings

    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as url:
        client = create_app(config=Settings(redis_url=url, rate_limits_on=False)).test_client()
        position, times = {**initial_position("standard"), "variant": "standard"}, {}
        last = int(position["phase"][1:5]) + args.years - 1
        while int(position["phase"][1:5]) <= last:
            body = {k: position[k] for k in POSITION if k in position}
            orders = {}
            for i, power in enumerate(sorted(position["units"])):
                start = time.process_time()
                answer = client.post("/v1/bots/diplomacy/orders", json={**body, "power": power, "seed": i})
                times.setdefault(position["phase"][-1], []).append(time.process_time() - start)
                assert answer.status_code == 200, answer.text
                orders[power] = answer.get_json()["orders"]
            assert orders == {p: bot_orders(position, p, seed=i) for i, p in enumerate(sorted(position["units"]))}
            position = {**adjudicate({**position, "orders": orders})["next"], "variant": "standard"}
    for kind, name in (("M", "movement"), ("R", "retreats"), ("A", "adjustments")):
        found = sorted(times.get(kind, []))
        if found:
            p95 = found[min(len(found) - 1, round(0.95 * (len(found) - 1)))]
            print(f"{name}: {len(found)} answers, CPU p50 {statistics.median(found):.3f} s, p95 {p95:.3f} s, "
                  f"max {found[-1]:.3f} s")


if __name__ == "__main__":
    main()
