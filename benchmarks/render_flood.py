"""A render flood from one address against the API as the launcher runs it (gunicorn with
service/gunicorn_conf.py, its rate limits on), while /v1/health is polled: not a timed test,
it prints figures (docs/security.md, "Floods").

    .venv/bin/python benchmarks/render_flood.py [--clients 30] [--seconds 15] [--png]

``--clients`` threads send stateless renders (SVG, or PNG with ``--png``) as fast as they are
answered, from one address, for ``--seconds``; another polls /v1/health every 50 ms.  Prints
how the renders were answered (200, 429 over the quota, 503 from a full render queue) and the
health check's p50, p99 and worst latency.  The issue's flood (30 clients, 1,200 SVG renders)
pushed health to 6-12 s before renders had a quota and a bounded queue.
"""
from __future__ import annotations

import argparse
import collections
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.launch import free_port, service_commands  # noqa: E402
from tests.service.svc_stack import TEST_ENV, environment, redis_server  # noqa: E402
from workers.core.settings import Settings  # noqa: E402

RENDER = {"variant": "standard", "phase": "S1901M",
          "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER", "F KIE"]},
          "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]},
          "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}


def flood(base: str, clients: int, seconds: float, png: bool) -> tuple[collections.Counter, list[float]]:
    answers: collections.Counter = collections.Counter()
    health: list[float] = []
    stop = time.monotonic() + seconds
    url = f"{base}/v1/render/diplomacy?format={'png' if png else 'svg'}"

    def render():
        with requests.Session() as session:
            i = 0
            while time.monotonic() < stop:
                i += 1
                body = {**RENDER, "orders": {**RENDER["orders"], "GERMANY": [f"A MUN - {('BUR', 'RUH')[i % 2]}"]}}
                try:
                    answers[session.post(url, json=body, timeout=30).status_code] += 1
                except requests.RequestException:
                    answers["error"] += 1

    def poll():
        with requests.Session() as session:
            while time.monotonic() < stop:
                started = time.monotonic()
                try:
                    session.get(f"{base}/v1/health", timeout=30)
                except requests.RequestException:
                    pass
                health.append(time.monotonic() - started)
                time.sleep(0.05)

    threads = [threading.Thread(target=render) for _ in range(clients)] + [threading.Thread(target=poll)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers, health


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--png", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, redis_server(Path(folder)) as url:
        port = free_port()
        env = {**environment(), **TEST_ENV, "REDIS_URL": url, "PROMETHEUS_MULTIPROC_DIR": folder,
               "PYTHONPATH": str(ROOT), "RATE_LIMITS": "on",
               **({"RENDER_DRAWING": os.environ["RENDER_DRAWING"]} if "RENDER_DRAWING" in os.environ else {})}
        proc = subprocess.Popen(service_commands("127.0.0.1", port, Settings.from_env(env))["api"], env=env, cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if requests.get(f"{base}/v1/health", timeout=1).status_code == 200:
                        break
                except requests.RequestException:
                    time.sleep(0.2)
            answers, health = flood(base, args.clients, args.seconds, args.png)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(15)
    health.sort()
    p99 = health[min(len(health) - 1, int(len(health) * 0.99))]
    print(f"renders ({'png' if args.png else 'svg'}, {args.clients} clients, {args.seconds:g} s): "
          + ", ".join(f"{code}: {n}" for code, n in sorted(answers.items(), key=str)))
    print(f"/v1/health: {len(health)} polls, p50 {statistics.median(health) * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms, worst {health[-1] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
