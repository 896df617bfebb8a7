"""Two hosts: two ``serve --role api --role worker --role scheduler`` instances, as on two machines,
share one Redis.  500 games share one deadline; both workers take its jobs; one instance is
SIGKILLed (every process of it, as when its machine fails) during the burst, and the other
finishes it: every game adjudicated exactly once."""
from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from rq import Worker

from service import schemas
from service.launch import start_redis, stop
from tests.service.svc_stack import Launcher, wait_for
from workers.core import keys
from workers.core.settings import Settings
from workers.core.store import Store
from workers.tables.games import Games

GAMES = 500
ROLES = ("--role", "api", "--role", "worker", "--role", "scheduler")


def seed(url: str, deadline: int, count: int) -> list[str]:
    """``count`` started games (FRANCE seated, the rest in civil disorder) whose first deadline is
    ``deadline``: made on a clock of their own, so they share it to the second."""
    config = Settings.from_env({"REDIS_URL": url})
    games = Games(Store(url, config, now=lambda: deadline - 3600))
    spec = schemas.CreateGameSchema().load({"assignment": "chosen", "deadlines": {
        "first_movement": 3600, "movement": 3600, "retreat": 3600, "adjustment": 3600}})

    def one(_):
        state, director = games.setup.create_game(spec)
        games.setup.join(state["id"], "France", "FRANCE")
        games.setup.start(state["id"], director)
        return state["id"]

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(count)))


@pytest.mark.scale
def test_two_instances_share_a_500_game_deadline_and_one_finishes_it_when_the_other_dies(tmp_path):
    redis_proc, url = start_redis(tmp_path / "redis", persist=False)
    r = redis.Redis.from_url(url, decode_responses=True)
    rq_connection = redis.Redis.from_url(url)  # RQ reads bytes
    hosts = []
    try:
        env = {"REDIS_URL": url, "DEADLINE_BATCH": "25", "JOB_HEARTBEAT_TTL": "3", "WORKER_MAINTENANCE_INTERVAL": "1",
               "WEB_CONCURRENCY": "1", "LOG_LEVEL": "WARNING"}
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            hosts.append(Launcher(tmp_path / name, *ROLES, **env).start(wait=False))
        wait_for(lambda: all(h.log.count("Docs:") for h in hosts) or any(h.proc.poll() is not None for h in hosts),
                 60, "both instances to start", real=True)
        assert all(h.proc.poll() is None for h in hosts), [h.log for h in hosts]
        a, b = hosts

        started = time.time()
        seed(url, int(started) + 3600, 20)  # how fast seeding goes here (on a far deadline)
        rate = (time.time() - started) / 20
        # a deadline after the seeding, as a rule: under a burst of load the later games are due at once
        # instead, the deadline they share being the same
        deadline = int(time.time() + rate * GAMES + 5)
        gids = seed(url, deadline, GAMES)
        print(f"seeded {GAMES} games in {time.time() - started:.1f} s; the deadline in {deadline - time.time():.1f} s")

        def workers_of(host) -> list[Worker]:
            pids = set(host.children().get("worker", []))
            return [w for w in Worker.all(connection=rq_connection) if w.pid in pids]

        # once a worker of A runs a deadline job (and before the burst is over), A's machine fails
        wait_for(lambda: any(w.get_current_job_id() for w in workers_of(a)), max(0.0, deadline - time.time()) + 30,
                 "a worker of the first instance to take a deadline job", interval=0.01, real=True)
        for pid in a.everything():
            os.kill(pid, signal.SIGKILL)
        killed = time.time()
        a.proc.wait(10)

        def adjudicated() -> int:
            with r.pipeline(transaction=False) as pipe:
                for gid in gids:
                    pipe.hget(keys.game(gid), "seq")
                return sum(seq == "2" for seq in pipe.execute())

        assert adjudicated() < GAMES, "the burst was over before the first instance died"
        wait_for(lambda: adjudicated() == GAMES, 60, "every game to be adjudicated", interval=0.5, real=True)
        assert [w.successful_job_count for w in workers_of(b)] and all(w.successful_job_count for w in workers_of(b))
        with r.pipeline(transaction=False) as pipe:
            for gid in gids:
                pipe.llen(keys.history(gid))
            assert set(pipe.execute()) == {1}  # each game adjudicated once
        print(f"burst of {GAMES}: first instance killed {killed - deadline:.1f} s after the deadline, "
              f"all adjudicated {time.time() - deadline:.1f} s after it")
        assert b.stop() == 0, b.log
    finally:
        for host in hosts:
            if host.proc.poll() is None:
                host.proc.kill()
        stop(redis_proc)
