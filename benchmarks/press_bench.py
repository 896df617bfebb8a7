"""How fast GET /v1/games/{id}/press?after= answers in a game with a great deal of press.

    .venv/bin/python benchmarks/press_bench.py [--messages 100000] [--reads 2000] [--sends 2000]

Starts a Redis of its own (no persistence) and the API under gunicorn as ``service.launch`` runs
it (``WEB_CONCURRENCY`` gevent processes, rate limits off), creates a standard game with seven
players, and fills it with ``--messages`` messages written by the same code as a send
(``workers.tables.press.write``, in pipelines): a random sender each, 10 % broadcasts, the rest to
one to three other powers.  It then times ``--sends`` real sends over HTTP (one client), and
``--reads`` reads over HTTP by random players, each ``?after=`` a random message among the last
20 (a client polling for news), among the last thousand (a client catching up), and from the
start (``?limit=100``), and prints p50 / p99 of each.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.launch import free_port, service_commands, start_redis, stop, wait_until  # noqa: E402
from workers.core.settings import Settings  # noqa: E402
from workers.core.records import PressMessage  # noqa: E402
from workers.tables import press  # noqa: E402

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p = statistics.quantiles(ms, n=100)
    return f"p50 {p[49]:.2f} ms, p99 {p[98]:.2f} ms, max {ms[-1]:.2f} ms (n={len(ms)})"


def fill(r: redis.Redis, gid: str, count: int, phase: str) -> list[str]:
    """``count`` messages, written as a send writes them, 1,000 to a pipeline; their ids, oldest first."""
    rng, now, ids = random.Random(1), time.time(), []
    for start in range(1, count + 1, 1000):
        with r.pipeline(transaction=False) as pipe:
            for n in range(start, min(start + 1000, count + 1)):
                sender = rng.choice(POWERS)
                others = [p for p in POWERS if p != sender]
                to = "all" if rng.random() < 0.1 else sorted(rng.sample(others, rng.randint(1, 3)))
                ids.append(press.new_message_id())
                press.write(pipe, gid, PressMessage(n=n, phase=phase, seq=1, sent_at=now, sender=sender, to=to,
                                                    body=f"message {n}: " + "x" * rng.randint(20, 300),
                                                    id=ids[-1]), director_reads=False)
            pipe.execute()
    return ids


def main(argv=None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--messages", type=int, default=100_000)
    args.add_argument("--reads", type=int, default=2000)
    args.add_argument("--sends", type=int, default=2000)
    opts = args.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="press-bench-") as tmp:
        redis_proc, url = start_redis(Path(tmp), persist=False)
        port = free_port()
        env = {**os.environ, "REDIS_URL": url, "RATE_LIMITS": "off",
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        api = subprocess.Popen(service_commands("127.0.0.1", port, Settings.from_env(env))["api"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: requests.get(f"{base}/v1/health", timeout=1).ok, 30, "the API")
            http = requests.Session()
            created = http.post(f"{base}/v1/games", json={"assignment": "chosen"}).json()
            gid = created["game"]["id"]
            tokens = {p: http.post(f"{base}/v1/games/{gid}/players", json={"name": p, "power": p}).json()["token"]
                      for p in POWERS}
            r = redis.Redis.from_url(url)
            started = time.perf_counter()
            ids = fill(r, gid, opts.messages, "S1901M")
            print(f"{opts.messages} messages written in {time.perf_counter() - started:.1f} s; "
                  f"Redis holds {r.info('memory')['used_memory_human']}")

            sends = []
            for i in range(opts.sends):
                sender = random.choice(POWERS)
                to = sorted(random.sample([p for p in POWERS if p != sender], 2))
                t = time.perf_counter()
                resp = http.post(f"{base}/v1/games/{gid}/press", json={"to": to, "body": f"bench {i}"},
                                 headers={"Authorization": f"Bearer {tokens[sender]}"})
                sends.append(time.perf_counter() - t)
                assert resp.status_code == 201, resp.text
                ids.append(resp.json()["message"]["id"])
            print(f"POST /press (a real send over HTTP, game at {opts.messages}+ messages): {percentiles(sends)}")

            for label, after, limit in (("?after=<one of the last 20>", lambda: random.choice(ids[-20:]), None),
                                        ("?after=<one of the last 1,000>", lambda: random.choice(ids[-1000:]), None),
                                        ("?limit=100 (from the start)", lambda: None, 100)):
                samples, sizes = [], []
                for _ in range(opts.reads):
                    power = random.choice(POWERS)
                    params = {"after": after(), **({"limit": limit} if limit else {})}
                    t = time.perf_counter()
                    resp = http.get(f"{base}/v1/games/{gid}/press", params=params,
                                    headers={"Authorization": f"Bearer {tokens[power]}"})
                    samples.append(time.perf_counter() - t)
                    assert resp.status_code == 200, resp.text
                    sizes.append(len(json.loads(resp.content)["messages"]))
                print(f"GET /press{label}: {percentiles(samples)}; {statistics.mean(sizes):.0f} messages an answer")
        finally:
            stop(api)
            stop(redis_proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
