"""Where the time of a resolution answer goes, in one process (not a timed test; prints figures).

    .venv/bin/python benchmarks/answer_profile.py [--runs 30] [--durable]

Starts a redis-server of its own (``--durable``: fsyncing every write, as ``serve``'s
does), builds the Flask application on it (``service.app.create_app``) and plays
``--runs`` Statecraft governance votes (TV-06, director dice: 17 answers each, the
longest log of the resolutions benchmark) through Flask's test client, that is
everything of an answer but the HTTP server and the network.  It prints, per
answer: the time, the Redis round trips and commands (Redis ``INFO commandstats``),
and a cProfile breakdown by what the time is spent on (the replay of the log,
marshmallow, Redis, JSON).  Then it times the job that takes a step that needs
nobody (an all-bot, server-dice Statecraft conflict), run by an RQ ``SimpleWorker``
as the worker runs them: the job itself against RQ's handling around it.
"""
from __future__ import annotations

import argparse
import logging
import cProfile
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from rq import SimpleWorker  # noqa: E402

from service.app import create_app  # noqa: E402
from service.launch import start_redis, stop  # noqa: E402
from tests.service.resolution_cases import CASES, answer_for  # noqa: E402
from workers.core import keys  # noqa: E402
from workers.core.settings import Settings  # noqa: E402
from workers.core.store import Store  # noqa: E402
from workers.runtime import jobs  # noqa: E402

GROUPS = {  # cProfile functions, by what they are part of (cumulative time of the outermost)
    "the engine: replaying the log, or feeding one answer (adjudicator.procedure)": ("procedure.py", "replay"),
    "the engine: feeding one answer": ("procedure.py", "feed"),
    "the engine: starting the procedure (its state's schema)": ("procedure.py", "__init__"),
    "marshmallow (request and response schemas)": ("marshmallow/schema.py", "_do_load"),
    "marshmallow dump": ("marshmallow/schema.py", "dump"),
    "Redis round trips (redis-py, waiting for the reply)": ("redis/connection.py", "read_response"),
    "Redis sends": ("redis/connection.py", "send_packed_command"),
    "JSON (records)": ("json/__init__.py", "loads"),
    "JSON dumps": ("json/__init__.py", "dumps"),
    "RQ enqueue (in the transaction)": ("rq/queue.py", "enqueue"),
}


def commandstats(r) -> dict[str, int]:
    return {k: v["calls"] for k, v in r.info("commandstats").items()}


def play(client, body: dict, rng: random.Random, count) -> int:
    created = client.post("/v1/resolutions", json=body).get_json()
    rid, tokens = created["resolution"]["id"], created["tokens"] | {"director": created["director_token"]}
    view, answers = created["resolution"], 0
    while view["status"] == "waiting":
        step = view["step"]
        who = "director" if step["type"] == "dice" else step["participant"] if "participant" in step else \
            next(p for p in step["participants"] if p not in step["answered"])
        value = [rng.randint(1, step["sides"]) for _ in range(step["count"])] if step["type"] == "dice" \
            else answer_for("", step)
        with count():
            resp = client.post(f"/v1/resolutions/{rid}/answers", json={"step": step["index"], "answer": value},
                               headers={"Authorization": f"Bearer {tokens[who]}"})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        view, answers = resp.get_json(), answers + 1
    return answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--durable", action="store_true")
    parser.add_argument("--top", type=int, default=0, help="also print the N functions of most cumulative time")
    args = parser.parse_args()
    logging.disable(logging.INFO)  # RQ's and the service's lines per job and request
    with tempfile.TemporaryDirectory(prefix="answer-profile-") as tmp:
        proc, url = start_redis(Path(tmp) / "redis", persist=args.durable)
        try:
            config = Settings.from_env({"REDIS_URL": url, "RATE_LIMITS": "off", "LOG_LEVEL": "WARNING"})
            store = Store(url, config)
            app = create_app(store=store)
            client = app.test_client()
            r = redis.Redis.from_url(url, decode_responses=True)
            state = CASES["statecraft.governance"][1]
            body = {"kind": "statecraft.governance", "state": state, "dice": "director",
                    "participants": {p: {"name": p} for p in state["powers"]}}
            rng = random.Random(6)
            play(client, body, rng, lambda: _Nothing())  # warm up
            times: list[float] = []
            calls = {"n": 0}

            class Count:
                def __enter__(self):
                    self.started = time.perf_counter()

                def __exit__(self, *exc):
                    times.append(time.perf_counter() - self.started)

            original = redis.connection.Connection.send_packed_command

            def counted(self, *a, **k):
                calls["n"] += 1
                return original(self, *a, **k)

            redis.connection.Connection.send_packed_command = counted
            before = commandstats(r)
            profile = cProfile.Profile()
            profile.enable()
            answers = sum(play(client, body, rng, Count) for _ in range(args.runs))
            profile.disable()
            after = commandstats(r)
            redis.connection.Connection.send_packed_command = original
            creates = args.runs
            total = sum(times)
            print(f"{answers} answers in {args.runs} governance votes (director dice), Redis "
                  f"{'fsyncing every write' if args.durable else 'not persisting'}: {total / answers * 1000:.2f} ms "
                  f"per answer (Flask test client, no HTTP server), p50 {sorted(times)[len(times) // 2] * 1000:.2f} ms")
            print(f"Redis round trips (requests sent) per answer: "
                  f"{calls['n'] / answers:.1f} (creation and the answers; {creates} creations)")
            diff = {k: after.get(k, 0) - before.get(k, 0) for k in after}
            diff = {k: v for k, v in sorted(diff.items(), key=lambda kv: -kv[1]) if v and k != "cmdstat_info"}
            print("Redis commands per answer: " + ", ".join(f"{k.removeprefix('cmdstat_')} {v / answers:.1f}"
                                                          for k, v in diff.items()))
            stats = pstats.Stats(profile)
            print("where the time goes (cumulative, share of the answers' time):")
            for label, (file, name) in GROUPS.items():
                cumulative = sum(v[3] for k, v in stats.stats.items() if k[0].endswith(file) and k[2] == name)
                print(f"  {label}: {cumulative / answers * 1000:.2f} ms per answer")
            if args.top:
                stats.sort_stats("cumulative").print_stats(args.top)
            print(f"  (profiler on: {sum(v[2] for v in stats.stats.values()) / answers * 1000:.2f} ms own time "
                  "per answer in all)")

            # a step that needs nobody: the RQ job, and RQ around it
            bots = CASES["statecraft.conflict"][1]
            jobs.install(store)
            worker = SimpleWorker([store.queue], connection=store.queue.connection)
            rids = []
            for _ in range(args.runs):
                created = client.post("/v1/resolutions", json={
                    "kind": "statecraft.conflict", "state": bots, "dice": "server",
                    "participants": {p: {"bot": True} for p in bots["powers"]}}).get_json()
                rids.append(created["resolution"]["id"])
            started = time.perf_counter()
            job_time = {"s": 0.0, "n": 0}
            original_advance = store_advance = jobs.runtime().steps["resolution"].advance

            def timed(*a, **k):
                t = time.perf_counter()
                try:
                    return original_advance(*a, **k)
                finally:
                    job_time["s"] += time.perf_counter() - t
                    job_time["n"] += 1

            jobs.runtime().steps["resolution"].advance = timed
            worker.work(burst=True)
            wall = time.perf_counter() - started
            steps = sum(len(r.hget(keys.resolution(rid), "log") and
                            __import__("json").loads(r.hget(keys.resolution(rid), "log"))) for rid in rids)
            print(f"steps that need nobody: {steps} steps of {len(rids)} all-bot conflicts in {job_time['n']} RQ jobs, "
                  f"{wall / job_time['n'] * 1000:.2f} ms per job in the worker, of which the step itself (its "
                  f"transaction) {job_time['s'] / job_time['n'] * 1000:.2f} ms")
            del store_advance
        finally:
            stop(proc)
    return 0


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


if __name__ == "__main__":
    sys.exit(main())
