"""Recovery in seconds, with the service's default settings: real processes killed for real
(these tests run in the background from the start of the session: tests/service/background.py).

* the scheduler killed (SIGKILL): the launcher starts it again and the next
  deadline fires within 10 s;
* the whole service killed (the launcher alone, or every process at once,
  like a power cut) and started again on the same data: a deadline that
  passed while it was down is handled within 10 s of the restart, a later
  one on time;
* Redis killed: started again on its own data, nothing lost, the next
  deadline fires within 10 s;
* a worker killed in the middle of a step: the step runs again within 30 s,
  once, and ``attempts`` counts both tries; killed in the middle of a batch of
  deadlines taken together, every game is adjudicated once;
* several schedulers racing on the same due deadlines queue each exactly once;
* and, in this process (nothing is killed there), a failing deadline does not hold
  up the others of its batch.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import closing, contextmanager
from datetime import datetime, timezone
from pathlib import Path

import pytest
import redis
import requests
from rq import Queue
from rq.job import Job

from tests.service.gamekit import LONG, new_game
from tests.service.svc_stack import ROOT, Api, Launcher, Stack, environment, wait_for
from workers.core import keys
from workers.core.settings import Settings

DEADLINES = keys.deadlines()
DEADLINE_BATCH = Settings().deadline_batch

FRANCE = ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]


def epoch(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def reopened(game) -> float:
    """When the game's first phase was adjudicated and the next one opened (the server's clock)."""
    return epoch(game.history()[0]["adjudicated_at"])


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def replaced(service: Launcher, kind: str, old: int) -> int:
    """The pid of the process the launcher started in place of ``old``."""
    return wait_for(lambda: next((p for p in service.children().get(kind, []) if p != old), None), 20,
                    f"the launcher to start a new {kind}")


@pytest.mark.background(seconds=10)
def test_a_killed_scheduler_is_started_again_and_the_next_deadline_fires_within_10_s(tmp_path):
    service = Launcher(tmp_path).start()
    try:
        game = new_game(Api(service.base), deadlines={**LONG, "first_movement": 2})
        deadline = epoch(game.state()["deadline"])
        [scheduler] = service.children()["scheduler"]
        os.kill(scheduler, signal.SIGKILL)
        killed = time.time()
        replaced(service, "scheduler", scheduler)
        game.wait_phase("F1901M", timeout=30)
        assert reopened(game) - max(deadline, killed) < 10
        assert [h["closed_by"] for h in game.history()] == ["deadline"]
        assert "scheduler was killed by SIGKILL" in service.log
    finally:
        assert service.stop() == 0, service.log


@pytest.mark.background(seconds=20)
@pytest.mark.parametrize("what", ["the launcher", "every process"])
def test_after_a_sigkill_of_the_service_deadlines_fire_within_10_s_of_the_restart(tmp_path, what):
    service = Launcher(tmp_path).start()
    try:  # whatever fails, the service stops with the test (a launcher left running keeps its children)
        api = Api(service.base)
        missed = new_game(api, deadlines={**LONG, "first_movement": 2})  # its deadline passes while all is down
        later = new_game(api, deadlines={**LONG, "first_movement": 10})  # after the restart
        assert missed.submit("FRANCE", FRANCE).status_code == 200
        missed_at, later_at = (epoch(g.state()["deadline"]) for g in (missed, later))
        processes = service.everything()
        for pid in processes if what == "every process" else [service.proc.pid]:
            os.kill(pid, signal.SIGKILL)
        service.proc.wait(10)
        # killed alone, the launcher takes its children with it (they get SIGTERM when it dies)
        wait_for(lambda: not any(alive(pid) for pid in processes), 30, "every process of the service to end")
        wait_for(lambda: time.time() > missed_at + 1, 10, "the first deadline to pass while the service is down")
        service.start()  # the same port and data
        missed.wait_phase("F1901M", timeout=30)
        assert reopened(missed) - service.started < 10
        assert missed.history()[0]["orders"] == {"FRANCE": FRANCE}
        later.wait_phase("F1901M", timeout=60)
        assert reopened(later) - later_at < 10
        assert [len(g.history()) for g in (missed, later)] == [1, 1]
    finally:
        stopped = service.stop()
    assert stopped == 0, service.log


@pytest.mark.background(seconds=12)
def test_redis_killed_is_started_again_on_its_data_and_the_next_deadline_fires_within_10_s(tmp_path):
    service = Launcher(tmp_path).start()
    try:
        api = Api(service.base)
        game = new_game(api, deadlines={**LONG, "first_movement": 3})
        assert game.submit("FRANCE", FRANCE).status_code == 200
        deadline = epoch(game.state()["deadline"])
        [old] = service.children()["redis"]
        os.kill(old, signal.SIGKILL)
        killed = time.time()
        replaced(service, "redis", old)
        wait_for(lambda: requests.get(f"{service.base}/v1/games/{game.id}", timeout=5).status_code == 200, 20,
                 "the API to read from Redis again")
        assert game.state()["submitted"] == ["FRANCE"]  # the accepted submission survived the crash
        game.wait_phase("F1901M", timeout=30)
        assert reopened(game) - max(deadline, killed) < 10
        assert game.history()[0]["orders"] == {"FRANCE": FRANCE}
        assert "redis was killed by SIGKILL" in service.log
    finally:
        assert service.stop() == 0, service.log


@contextmanager
def own_redis(tmp_path):
    """A Redis of this test alone (so no other test's worker takes its jobs); its URL."""
    from service.launch import start_redis, stop

    proc, url = start_redis(tmp_path / "redis", persist=False)
    try:
        yield url
    finally:
        stop(proc)


@pytest.fixture
def private_redis(tmp_path):
    with own_redis(tmp_path) as url:
        yield url


@pytest.mark.background(seconds=24)
def test_a_step_whose_worker_died_runs_again_within_30_s_and_counts_every_attempt(tmp_path):
    with own_redis(tmp_path) as private_redis:
        stack = Stack(private_redis, tmp_path, env={"RATE_LIMITS": "off"})  # the default recovery settings
        r = redis.Redis.from_url(private_redis, decode_responses=True)
        try:
            stack.stop("worker")
            stack.start("worker", ADJ_FAULT_STALL_SECONDS="15")  # stalls inside the adjudication
            game = new_game(Api(stack.base), deadlines={**LONG, "first_movement": 2})
            assert game.submit("FRANCE", FRANCE).status_code == 200
            wait_for(lambda: r.hget(keys.game(game.id), "attempts") == "1", 20, "the deadline's adjudication to start")
            stack.stop("worker", signal.SIGKILL)
            killed = time.time()
            stack.start("worker")
            game.wait_phase("F1901M", timeout=45)
            assert reopened(game) - killed <= 30
            [record] = game.history()
            assert record["attempts"] == 2 and record["closed_by"] == "deadline"
            assert record["orders"] == {"FRANCE": FRANCE}
        finally:
            stack.close()


@pytest.mark.background(seconds=30)
def test_a_batch_of_deadlines_whose_worker_died_adjudicates_every_game_exactly_once(tmp_path):
    """Six games sharing a deadline are one batch job, taken in shares of several games, each share
    one transaction; the worker is killed while every share is inside its transaction.  The job runs
    again on a new worker: every game is adjudicated once, with its orders, and counts both tries."""
    with own_redis(tmp_path) as private_redis:
        stack = Stack(private_redis, tmp_path, env={"RATE_LIMITS": "off"})  # the default recovery settings
        r = redis.Redis.from_url(private_redis, decode_responses=True)
        try:
            stack.stop("worker")
            stack.start("worker", ADJ_FAULT_STALL_SECONDS="15")  # stalls inside each share's transaction
            api = Api(stack.base)
            games = [new_game(api, deadlines={**LONG, "first_movement": 8}) for _ in range(6)]
            last = max(epoch(game.state()["deadline"]) for game in games)  # then all moved to one second
            shared = datetime.fromtimestamp(last + 1, timezone.utc).isoformat()
            for game in games:
                assert game.director_action("extend", json={"deadline": shared}).status_code == 200
                assert game.submit("FRANCE", FRANCE).status_code == 200
            wait_for(lambda: all(r.hget(keys.game(g.id), "attempts") == "1" for g in games), 20,
                     "the batch to start")
            stack.stop("worker", signal.SIGKILL)
            assert all(r.hget(keys.game(g.id), "status") == "open" for g in games)  # nothing committed
            stack.start("worker")
            for game in games:
                game.wait_phase("F1901M", timeout=45)
                [record] = game.history()
                assert record["attempts"] == 2 and record["closed_by"] == "deadline"
                assert record["orders"] == {"FRANCE": FRANCE}
        finally:
            stack.close()


def test_a_failing_deadline_does_not_hold_up_the_others_of_its_batch(private_redis):
    """No process is killed here: the service runs in this process (on a Redis of its own, so that
    no other test's deadline joins the batch), its fake clock passes the deadline."""
    from rq.registry import FailedJobRegistry

    from tests.service.inprocess import InProcessApi, InProcessStack

    stack = InProcessStack(private_redis)
    r = redis.Redis.from_url(private_redis)
    with stack.driving(), closing(stack):
        game = new_game(InProcessApi(stack), deadlines={**LONG, "first_movement": 3})
        assert game.submit("FRANCE", FRANCE).status_code == 200
        deadline = int(epoch(game.state()["deadline"]))
        broken = f"nosuchtable:{game.id}:1:{deadline}"
        r.zadd(DEADLINES, {broken: deadline})  # due with the game's: one batch
        game.wait_phase("F1901M", timeout=20)
        failed = FailedJobRegistry(keys.QUEUE, connection=r)
        [job] = wait_for(lambda: [j for j in (Job.fetch(i, connection=r) for i in failed.get_job_ids())
                                  if broken in j.args[0]], 30, "the batch to fail after its retries")
        assert "1 of 2 deadlines failed" in job.latest_result().exc_string and "nosuchtable" in \
            job.latest_result().exc_string
        assert [h["orders"] for h in game.history()] == [{"FRANCE": FRANCE}]  # the retries were no-ops


@pytest.mark.background
def test_schedulers_racing_queue_each_due_deadline_exactly_once(tmp_path):
    with own_redis(tmp_path) as private_redis:
        r = redis.Redis.from_url(private_redis)
        env = {**environment(), "REDIS_URL": private_redis, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "INFO"}
        logs = [tmp_path / f"scheduler-{i}.log" for i in range(3)]
        schedulers = [subprocess.Popen([sys.executable, "-m", "workers.runtime.scheduler"], env=env,
                                       stdout=log.open("w"), stderr=subprocess.STDOUT) for log in logs]
        try:
            wait_for(lambda: all("started" in log.read_text() for log in logs), 30, "the three schedulers to run")
            past = int(time.time()) - 5
            entries = [f"game:{i:012x}:1:{past}" for i in range(600)]
            for i in range(0, len(entries), 50):  # added while they run, as phases open
                r.zadd(DEADLINES, {e: past for e in entries[i:i + 50]})
            wait_for(lambda: r.zcard(DEADLINES) == 0, 20, "the schedulers to take every due deadline")
            queue = Queue(keys.QUEUE, connection=r)
            batches = [Job.fetch(j, connection=r).args[0] for j in queue.get_job_ids()]
            assert sorted(e for batch in batches for e in batch) == sorted(entries)  # each once, none lost
            assert max(map(len, batches)) <= DEADLINE_BATCH
        finally:
            for proc in schedulers:
                proc.terminate()
            for proc in schedulers:
                assert proc.wait(10) == 0
