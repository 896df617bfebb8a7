"""Capacity: what one Redis and one worker host carry (not a timed test; prints figures).

    .venv/bin/python benchmarks/capacity.py [--forming 300] [--played 4] [--phases 30] [--burst 400]

Starts redis-servers of its own and prints

1. Redis memory per game (``used_memory`` before and after, divided by the games): ``--forming``
   games just created, then the same with their seven players joined (the first phase open);
2. ``--played`` games played ``--phases`` phases each with press, through the Flask application
   (its test client) and the worker (in this process, burst): every phase each power submits the
   orders of a random game (benchmarks/positions.py) and sends one message (60-300 characters)
   to one to three others, one power a broadcast, and the director closes the phase.  The memory
   per game after, and the Redis commands and round trips per phase (the requests' and the
   adjudication job's);
3. a deadline burst: ``--burst`` games (one player each, the others in civil disorder) share a
   deadline on a Redis that fsyncs every write (as ``serve``'s does); the scheduler's dispatch
   queues them and 1, then 2 worker processes (``python -m workers.runtime.worker``) adjudicate
   them: the time from the dispatch until every game's next phase is open;
4. from these: the games one 1 GB Redis holds, and the games one worker host (2 cores, 2
   workers) adjudicates within a minute of a daily deadline;
5. what ``REDIS_MIN_REPLICAS=1`` costs: ``--submissions`` order submissions through the Flask
   application to a primary with one replica (both fsyncing every write), with 0 and with 1
   replica waited for: the median and 99th percentile.

Figures taken on a shared machine are noisy: say what else ran.
"""
from __future__ import annotations

import argparse
import logging
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from benchmarks.positions import game_phases  # noqa: E402
from service import schemas  # noqa: E402
from service.app import create_app  # noqa: E402
from service.launch import redis_server_binary, start_redis, stop, wait_until  # noqa: E402
from workers.core import keys  # noqa: E402
from workers.core.settings import Settings  # noqa: E402
from workers.core.store import Store  # noqa: E402
from workers.runtime import jobs  # noqa: E402
from workers.runtime.worker import AdjudicationQueue, AdjudicationWorker  # noqa: E402
from workers.tables.games import Games  # noqa: E402

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
LONG = {"first_movement": 3600, "movement": 3600, "retreat": 3600, "adjustment": 3600}
GB = 1024 ** 3
GAME_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{12}(?![0-9a-f])")


class RoundTrips:
    """Requests sent to Redis by this process while counting (redis-py's send_packed_command)."""

    def __init__(self):
        self.n, self.on = 0, False
        original = redis.connection.Connection.send_packed_command
        counter = self

        def counted(conn, *a, **k):
            counter.n += counter.on
            return original(conn, *a, **k)

        redis.connection.Connection.send_packed_command = counted


def commands(r: redis.Redis) -> int:
    return sum(v["calls"] for k, v in r.info("commandstats").items() if k not in ("cmdstat_info",))


def memory(r: redis.Redis) -> int:
    return r.info("memory")["used_memory"]


def game_bytes(r: redis.Redis, gids: list[str]) -> tuple[float, float]:
    """The bytes of the keys of ``gids`` (MEMORY USAGE, every element counted), per game: all
    but its event stream, and its event stream; RQ's jobs aside (a finished job and its result
    expire after RQ's result_ttl, 500 s)."""
    ids, total, events = set(gids), 0, 0
    for key in r.scan_iter(count=1000):
        if key.startswith(b"rq:"):
            continue
        found = GAME_ID.search(key.decode())
        if found and found.group() in ids:
            size = r.memory_usage(key, samples=0)
            if key.endswith(b":events"):
                events += size
            else:
                total += size
    return total / len(gids), events / len(gids)


def forming(url: str, count: int) -> dict:
    """Bytes per game just created, and once its seven players have joined: of its keys, and
    Redis's ``used_memory`` growth (its own overhead included)."""
    r = redis.Redis.from_url(url)
    games = Games(Store(url, Settings.from_env({"REDIS_URL": url})))
    spec = schemas.CreateGameSchema().load({"assignment": "chosen", "deadlines": LONG})
    before = memory(r)
    gids = [games.setup.create_game(spec)[0]["id"] for _ in range(count)]
    found = {"created": sum(game_bytes(r, gids)), "created_used": (memory(r) - before) / count}
    for gid in gids:
        for power in POWERS:
            games.setup.join(gid, power.title(), power)
    return {**found, "seated": sum(game_bytes(r, gids)), "seated_used": (memory(r) - before) / count}


def played(url: str, count: int, phases: int, trips: RoundTrips) -> dict:
    """``count`` games played ``phases`` phases with press; memory per game, commands and round trips per phase."""
    r = redis.Redis.from_url(url)
    store = Store(url, Settings.from_env({"REDIS_URL": url, "RATE_LIMITS": "off"}))
    jobs.install(store)
    client = create_app(store=store).test_client()
    worker = AdjudicationWorker([AdjudicationQueue(keys.QUEUE, connection=store.queue.connection)],
                                connection=store.queue.connection)
    rng = random.Random(7)
    scripts = [game_phases(phases, seed=1901 + n, years=40)[0] for n in range(count)]
    if min(map(len, scripts)) < phases:
        raise SystemExit(f"random play ended a game before {phases} phases")
    base, players = memory(r), []
    for _ in range(count):
        made = client.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).get_json()
        gid, director = made["game"]["id"], made["director_token"]
        tokens = {p: client.post(f"/v1/games/{gid}/players", json={"name": p.title(), "power": p}).get_json()["token"]
                  for p in POWERS}
        players.append((gid, director, tokens))
    worker.work(burst=True, logging_level="WARNING")
    totals = {"request_commands": 0, "request_trips": 0, "job_commands": 0, "job_trips": 0, "phases": 0}
    for step in range(phases):
        c0, trips.n, trips.on = commands(r), 0, True
        for (gid, director, tokens), script in zip(players, scripts):
            request = script[step]
            for power, orders in request["orders"].items():
                if power in tokens:
                    client.put(f"/v1/games/{gid}/orders/{power}", json={"orders": orders},
                               headers={"Authorization": f"Bearer {tokens[power]}"})
            for power in POWERS:
                others = [p for p in POWERS if p != power]
                to = "all" if power == POWERS[step % 7] else rng.sample(others, rng.randint(1, 3))
                client.post(f"/v1/games/{gid}/press", json={"to": to, "body": "x" * rng.randint(60, 300)},
                            headers={"Authorization": f"Bearer {tokens[power]}"})
            client.post(f"/v1/games/{gid}/adjudicate", headers={"Authorization": f"Bearer {director}"})
        totals["request_commands"] += commands(r) - c0
        totals["request_trips"] += trips.n
        c0, trips.n = commands(r), 0
        worker.work(burst=True, logging_level="WARNING")
        totals["job_commands"] += commands(r) - c0 - 1  # the worker's own INFO aside
        totals["job_trips"] += trips.n
        trips.on = False
        totals["phases"] += count
        for (gid, _d, _t), script in zip(players, scripts):
            if step + 1 < phases:
                now = client.get(f"/v1/games/{gid}").get_json()["phase"]
                if now != script[step + 1]["phase"]:
                    raise SystemExit(f"game {gid} is at {now}, the script at {script[step + 1]['phase']}")
    kept, events = game_bytes(r, [gid for gid, _d, _t in players])
    return {"bytes": kept, "events": events, "used": (memory(r) - base) / count,
            **{k: v / totals["phases"] for k, v in totals.items()}}


def seed_burst(url: str, count: int) -> list[str]:
    """``count`` started games (one player; the others in civil disorder) whose deadline has passed."""
    deadline = int(time.time()) - 1
    games = Games(Store(url, Settings.from_env({"REDIS_URL": url}), now=lambda: deadline - 3600))
    spec = schemas.CreateGameSchema().load({"assignment": "chosen", "deadlines": LONG})
    gids = []
    for _ in range(count):
        state, director = games.setup.create_game(spec)
        games.setup.join(state["id"], "France", "FRANCE")
        games.setup.start(state["id"], director)
        gids.append(state["id"])
    return gids


def burst(folder: Path, count: int, workers: int) -> float:
    """Seconds from the dispatch of ``count`` due deadlines until all are adjudicated by ``workers`` workers."""
    proc, url = start_redis(folder, persist=True)
    procs = []
    try:
        r = redis.Redis.from_url(url, decode_responses=True)
        gids = seed_burst(url, count)
        store = Store(url, Settings.from_env({"REDIS_URL": url}))
        store.queue.empty()  # the start's mail jobs (nobody to mail)
        env = {**os.environ, "REDIS_URL": url, "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)}
        procs = [subprocess.Popen([sys.executable, "-m", "workers.runtime.worker"], env=env, cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(workers)]
        wait_until(lambda: len(r.smembers("rq:workers")) == workers, 60, "the workers")
        started = time.perf_counter()
        while store.dispatch_deadlines(time.time()):
            pass

        def done() -> bool:
            with r.pipeline(transaction=False) as pipe:
                for gid in gids:
                    pipe.hget(keys.game(gid), "seq")
                return all(seq == "2" for seq in pipe.execute())

        wait_until(done, 600, "every game adjudicated")
        return time.perf_counter() - started
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(20)
        stop(proc)


def waiting_for_replicas(folder: Path, count: int) -> dict[int, tuple[float, float]]:
    """Median and p99 seconds of ``count`` submissions with 0 and 1 replicas waited for."""
    proc, url = start_redis(folder / "primary", persist=True)
    port = redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]
    (folder / "replica").mkdir()
    replica = subprocess.Popen([redis_server_binary(), "--port", "0", "--unixsocket", str(folder / "replica.sock"),
                                "--dir", str(folder / "replica"), "--appendonly", "yes", "--appendfsync", "always",
                                "--replicaof", "127.0.0.1", str(port)], stdout=subprocess.DEVNULL)
    try:
        wait_until(lambda: redis.Redis.from_url(url).info("replication")["connected_slaves"] == 1, 30, "the replica")
        found = {}
        for replicas in (0, 1):
            store = Store(url, Settings.from_env({"REDIS_URL": url, "RATE_LIMITS": "off",
                                                  "REDIS_MIN_REPLICAS": str(replicas)}))
            client = create_app(store=store).test_client()
            made = client.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).get_json()
            gid = made["game"]["id"]
            token = client.post(f"/v1/games/{gid}/players", json={"name": "F", "power": "FRANCE"}).get_json()["token"]
            client.post(f"/v1/games/{gid}/start", headers={"Authorization": f"Bearer {made['director_token']}"})
            times = []
            for n in range(count):
                started = time.perf_counter()
                orders = [["A PAR H"], ["A PAR - BUR"]][n % 2]
                assert client.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": orders},
                                  headers={"Authorization": f"Bearer {token}"}).status_code == 200
                times.append(time.perf_counter() - started)
            times.sort()
            found[replicas] = (times[len(times) // 2], times[int(len(times) * 0.99)])
        return found
    finally:
        stop(replica)
        stop(proc)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--forming", type=int, default=300)
    parser.add_argument("--played", type=int, default=4)
    parser.add_argument("--phases", type=int, default=30)
    parser.add_argument("--burst", type=int, default=400)
    parser.add_argument("--submissions", type=int, default=300)
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    trips = RoundTrips()
    with tempfile.TemporaryDirectory(prefix="capacity-") as tmp:
        proc, url = start_redis(Path(tmp) / "memory", persist=False)
        try:
            form = forming(url, args.forming)
            play = played(url, args.played, args.phases, trips)
        finally:
            stop(proc)
        print(f"Redis memory per game, its keys (used_memory growth): {form['created'] / 1024:.1f} KiB "
              f"({form['created_used'] / 1024:.1f}) created, {form['seated'] / 1024:.1f} KiB "
              f"({form['seated_used'] / 1024:.1f}) with its 7 players (first phase open); "
              f"{(play['bytes'] + play['events']) / 1024:.1f} KiB ({play['used'] / 1024:.1f}, RQ's finished jobs "
              f"of the last 500 s included) after {args.phases} phases with press ({args.played} games), of which "
              f"{play['events'] / 1024:.1f} KiB its event stream")
        print(f"Per phase of a game (7 submissions, 7 messages, the close, the adjudication): "
              f"{play['request_commands']:.0f} commands in {play['request_trips']:.0f} round trips by the requests, "
              f"{play['job_commands']:.0f} commands in {play['job_trips']:.0f} round trips by the worker")
        if args.submissions:
            waits = waiting_for_replicas(Path(tmp) / "replicas", args.submissions)
            print(f"An order submission, primary and replica fsyncing every write: " + "; ".join(
                f"{n} replica{'s' * (n != 1)} waited for: median {m * 1000:.1f} ms, p99 {p * 1000:.1f} ms"
                for n, (m, p) in waits.items()))
        seconds = {n: burst(Path(tmp) / f"burst-{n}", args.burst, n) for n in (1, 2) if args.burst}
        for n, s in seconds.items():
            print(f"Deadline burst, {args.burst} games, Redis fsyncing every write, {n} worker{'s' * (n > 1)}: "
                  f"{s:.1f} s ({args.burst / s:.0f} games/s)")
    # at a daily deadline a game's event stream holds the events of the last 6 hours (live.KEEP): one
    # phase's at most, where this run kept all of them
    per_game = play["bytes"] + play["events"] / args.phases
    held = int(GB * 0.75 / per_game)  # a quarter kept free: fork for RDB/AOF rewrite, fragmentation
    print(f"One Redis of 1 GB (3/4 of it for data): {held:,} games of {args.phases} phases with press at a daily "
          f"deadline ({per_game / 1024:.0f} KiB each, one phase of events)")
    if seconds:
        rate = args.burst / seconds[2]
        print(f"One worker host (2 cores, 2 workers) at a daily deadline: {int(rate * 60):,} games adjudicated "
              f"within a minute of it, {int(rate * 600):,} within ten minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
