"""Where the time of a shared deadline goes, in one process (not a timed test; prints figures).

    .venv/bin/python benchmarks/deadline_profile.py [--games 200] [--durable] [--top 40]

Starts a redis-server of its own (``--durable``: fsyncing every write, as ``serve``'s
does), creates ``--games`` standard games through the Flask application (Flask's test
client) with 7 players each, every power's orders submitted and one shared deadline,
lets the deadline pass, moves the due deadlines to the queue as the scheduler does and
runs the jobs' function as the worker does (RQ's handling of the job aside), its threads' work in
this thread (so that cProfile sees all of it; ``--worker``: through the worker, threads and all).  Prints the time per game,
the Redis commands and round trips per game, and the functions of most cumulative time.
"""
from __future__ import annotations

import argparse
import cProfile
import logging
import pstats
import sys
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from load_test import ORDERS  # noqa: E402
from service.app import create_app  # noqa: E402
from service.launch import start_redis, stop  # noqa: E402
from workers.core.settings import Settings  # noqa: E402
from workers.core.store import Store  # noqa: E402
from workers.runtime import jobs  # noqa: E402


class Inline:
    """The job's thread pool, run in the calling thread: cProfile sees only the thread it is enabled in."""

    def submit(self, fn, *args):
        done = Future()
        done.set_result(fn(*args))
        return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--durable", action="store_true")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--worker", action="store_true",
                        help="run the deadline jobs through the worker (RQ's handling and the threads included)")
    parser.add_argument("--no-profile", action="store_true", help="time without the profiler")
    parser.add_argument("--sort", default="cumulative", help="pstats order: cumulative, tottime, ...")
    args = parser.parse_args()
    logging.disable(logging.INFO)
    with tempfile.TemporaryDirectory(prefix="deadline-profile-") as tmp:
        proc, url = start_redis(Path(tmp) / "redis", persist=args.durable)
        try:
            config = Settings.from_env({"REDIS_URL": url, "RATE_LIMITS": "off"})
            store = Store(url, config)
            client = create_app(store=store).test_client()
            lead = 5 + args.games // 20
            for _ in range(args.games):
                created = client.post("/v1/games", json={"assignment": "chosen", "deadlines": {
                    "first_movement": lead, "movement": 3600, "retreat": 3600, "adjustment": 3600}}).get_json()
                gid = created["game"]["id"]
                tokens = {power: client.post(f"/v1/games/{gid}/players", json={"name": power, "power": power})
                          .get_json()["token"] for power in ORDERS}
                for power, sets in ORDERS.items():
                    token = tokens[power]
                    assert client.put(f"/v1/games/{gid}/orders/{power}", json={"orders": sets[1]},
                                      headers={"Authorization": f"Bearer {token}"}).status_code == 200
            due = store.next_deadline()
            r = redis.Redis.from_url(url)
            last = r.zrange("dip:deadlines", -1, -1, withscores=True)[0][1]
            time.sleep(max(0.0, last - time.time() + 0.01))
            assert store.dispatch_deadlines(time.time()) == args.games
            r.delete("rq:queue:adjudication:intermediate")
            jobs.install(store)
            calls = {"n": 0}
            original = redis.connection.Connection.send_packed_command

            def counted(self, *a, **k):
                calls["n"] += 1
                return original(self, *a, **k)

            before = {k: v["calls"] for k, v in r.info("commandstats").items()}
            redis.connection.Connection.send_packed_command = counted
            # only the deadline jobs: the listeners' jobs (mail, webhooks) they enqueue stay queued
            from rq.job import Job
            ids = [i for i in store.queue.get_job_ids() if Job.fetch(i, connection=store.queue.connection)
                   .func_name.endswith("on_deadlines")]
            profile = cProfile.Profile()
            started, cpu = time.perf_counter(), time.process_time()
            if not args.no_profile:
                profile.enable()
            if args.worker:  # the deadline jobs as the worker runs them, RQ's handling and the threads included
                from workers.runtime.worker import AdjudicationQueue, AdjudicationWorker

                others = [i for i in store.queue.get_job_ids() if i not in ids]
                for job_id in others:
                    store.queue.remove(job_id)
                queue = AdjudicationQueue(store.queue.name, connection=store.queue.connection)
                AdjudicationWorker([queue], connection=store.queue.connection).work(burst=True, logging_level="WARNING")
            else:  # each batch as the job takes it, its threads' work done in this one (RQ's handling aside)
                jobs._pool = Inline()
                for job_id in ids:
                    jobs.on_deadlines(Job.fetch(job_id, connection=store.queue.connection).args[0])
            profile.disable()
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            redis.connection.Connection.send_packed_command = original
            after = {k: v["calls"] for k, v in r.info("commandstats").items()}
            diff = {k.removeprefix("cmdstat_"): after[k] - before.get(k, 0) for k in after}
            diff = {k: v for k, v in sorted(diff.items(), key=lambda kv: -kv[1]) if v and k != "info"}
            print(f"{args.games} games sharing a deadline ({due}), Redis "
                  f"{'fsyncing every write' if args.durable else 'not persisting'}: {seconds / args.games * 1000:.2f} ms "
                  f"per game{'' if args.no_profile else ' with the profiler on'}, {cpu / args.games * 1000:.2f} ms of CPU, "
                  f"in {len(ids)} deadline jobs")
            print(f"Redis round trips (requests sent) per game: {calls['n'] / args.games:.1f}; commands per game: " +
                  ", ".join(f"{k} {v / args.games:.1f}" for k, v in diff.items()))
            if not args.no_profile:
                pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
        finally:
            stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
