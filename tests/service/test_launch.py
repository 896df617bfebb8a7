"""The one-command start: python -m service.launch (embedded Redis or REDIS_URL), stopped by Ctrl-C;
``--workers N``; supervision (dead children started again, giving up after repeated failures).
Real processes, in the background from the start of the session (tests/service/background.py)."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
import requests

from tests.service.gamekit import new_game
from tests.service.svc_stack import ROOT, Api, Launcher, environment, wait_for
from service.launch import free_port


def _launch(cwd, **env):
    port = free_port()
    log = open(cwd / "launch.log", "w")
    full_env = {k: v for k, v in environment().items() if k != "REDIS_URL"}
    full_env |= {"PORT": str(port), "PYTHONPATH": str(ROOT), **env}
    proc = subprocess.Popen([sys.executable, "-m", "service.launch"], cwd=cwd, env=full_env, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_for(lambda: "Docs:" in (cwd / "launch.log").read_text() or proc.poll() is not None, 60,
             "the launcher to print its URLs")
    assert proc.poll() is None, (cwd / "launch.log").read_text()
    return proc, base


def _ctrl_c(proc, base, cwd) -> None:
    proc.send_signal(signal.SIGINT)
    assert proc.wait(40) == 0, (cwd / "launch.log").read_text()
    try:
        requests.get(f"{base}/v1/health", timeout=2)
        raise AssertionError("the API still answers after Ctrl-C")
    except requests.ConnectionError:
        pass
    assert "Stopped." in (cwd / "launch.log").read_text()


@pytest.mark.background(seconds=9)
def test_embedded_redis_keeps_data_across_restarts(tmp_path):
    proc, base = _launch(tmp_path)
    try:
        out = (tmp_path / "launch.log").read_text()
        assert f"API:  {base}/v1" in out and f"Docs: {base}/docs" in out and "embedded" in out
        assert out.startswith("Diplomacy engine: ")  # its first line (PYTHONPATH here: the source, pure)
        assert requests.get(f"{base}/docs", timeout=5).status_code == 200
        gid = requests.post(f"{base}/v1/games", json={}, timeout=5).json()["game"]["id"]
    finally:
        _ctrl_c(proc, base, tmp_path)
    assert (tmp_path / "data" / "appendonly.aof").exists()
    proc, base = _launch(tmp_path)
    try:
        assert requests.get(f"{base}/v1/games/{gid}", timeout=5).json()["status"] == "forming"
    finally:
        _ctrl_c(proc, base, tmp_path)


@pytest.mark.background
def test_uses_redis_url_when_given(tmp_path):
    from service.launch import start_redis, stop

    redis_proc, redis_url = start_redis(tmp_path / "redis", persist=False)  # a Redis of its own
    try:
        proc, base = _launch(tmp_path, REDIS_URL=redis_url)
        try:
            assert f"Redis: {redis_url}" in (tmp_path / "launch.log").read_text()
            assert requests.get(f"{base}/v1/health", timeout=5).json()["redis"] is True
        finally:
            _ctrl_c(proc, base, tmp_path)
        assert not (tmp_path / "data").exists()
    finally:
        stop(redis_proc)


@pytest.mark.background(seconds=12)
def test_workers_option_and_dead_children_started_again_while_the_api_serves(tmp_path):
    service = Launcher(tmp_path, "--workers", "2").start()
    try:
        assert "2 workers and the scheduler are running" in service.log
        before = service.children()
        assert len(before["worker"]) == 2 and len(before["scheduler"]) == 1 and len(before["api"]) == 1
        killed = [before["worker"][0], before["scheduler"][0]]
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        answers = []

        def replaced() -> bool:  # the API answers all along
            answers.append(requests.get(f"{service.base}/v1/health", timeout=5).status_code)
            now = service.children()
            return len(now.get("worker", [])) == 2 and len(now.get("scheduler", [])) == 1 and \
                not set(killed) & set(now["worker"] + now["scheduler"])

        wait_for(replaced, 30, "the launcher to start the killed worker and scheduler again", interval=0.1)
        assert set(answers) == {200}
        assert service.children()["api"] == before["api"]
        assert "was killed by SIGKILL" in service.log and "starting it again in 0.5 s" in service.log
        api = Api(service.base)  # and the new ones work
        game = new_game(api)
        assert game.director_action("adjudicate").status_code == 200
        game.wait_phase("F1901M", timeout=20)
    finally:
        assert service.stop() == 0, service.log


@pytest.mark.background
def test_a_bad_setting_stops_the_launcher_at_once_and_says_which(tmp_path):
    service = Launcher(tmp_path, WORKER_MAINTENANCE_INTERVAL="five").start(wait=False)
    assert service.proc.wait(30) == 2, service.log
    assert "WORKER_MAINTENANCE_INTERVAL='five' is not a valid int" in service.log


@pytest.mark.background(seconds=12)
def test_gives_up_after_repeated_failures_and_says_why(tmp_path):
    # a worker that cannot start: the interpreter of the worker, and only its, exits at start-up
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\nif 'workers.runtime.worker' in sys.orig_argv:\n    sys.exit(1)\n")
    service = Launcher(tmp_path, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}").start(wait=False)
    assert service.proc.wait(90) == 1, service.log
    log = service.log
    assert "worker-1 exited with status 1" in log and "starting it again in 0.5 s" in log
    assert "5 failures in a row" in log and "giving up" in log and log.rstrip().endswith("Stopped.")
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{service.base}/v1/health", timeout=2)


@pytest.mark.background
def test_a_role_alone_needs_the_shared_redis(tmp_path):
    service = Launcher(tmp_path, "--role", "worker").start(wait=False)
    assert service.proc.wait(30) == 1, service.log
    assert "--role needs REDIS_URL" in service.log


@pytest.mark.background(seconds=7)
def test_scheduler_roles_one_active_a_standby_takes_over_within_10_s_and_queues_the_deadlines(tmp_path):
    """Two ``--role scheduler`` on one Redis, as on two hosts: one holds the lock, the other stands
    by; the active one's host dies (SIGKILL, every process) and the standby is active within
    10 s, and queues the deadlines that fall due."""
    from service.launch import start_redis, stop
    from workers.core.store import Store

    redis_proc, url = start_redis(tmp_path / "redis", persist=False)
    hosts = []
    try:
        for name in ("one", "two"):
            (tmp_path / name).mkdir()
        hosts = [Launcher(tmp_path / name, "--role", "scheduler", REDIS_URL=url, LOG_LEVEL="WARNING").start(wait=False)
                 for name in ("one", "two")]
        wait_for(lambda: all("Press Ctrl-C" in h.log for h in hosts), 60, "both schedulers to start", real=True)
        wait_for(lambda: sum("active" in h.log for h in hosts) == 1 and sum("standing by" in h.log for h in hosts) == 1,
                 20, "one scheduler active, the other standing by", real=True)
        active, standby = sorted(hosts, key=lambda h: "active" not in h.log)
        assert "The scheduler is running." in active.log and f"Redis: {url}" in active.log
        for pid in active.everything():
            os.kill(pid, signal.SIGKILL)
        killed = time.time()
        active.proc.wait(10)
        wait_for(lambda: "active" in standby.log, 10, "the standby to take over", real=True)
        assert time.time() - killed < 10
        store = Store(url)  # a deadline due now: the scheduler left queues it
        with store.r.pipeline() as pipe:
            store.schedule_deadline(pipe, "games", "0123456789ab", 1, int(time.time()))
            pipe.execute()
        wait_for(lambda: store.next_deadline() is None and store.queue.count == 1, 10, "the deadline to be queued",
                 real=True)
    finally:
        for host in hosts:
            if host.proc.poll() is None:
                assert host.stop() == 0, host.log
        stop(redis_proc)


def test_redis_on_a_port_taken_before_it_binds_is_started_on_another(tmp_path, monkeypatch):
    """A free port can be taken between its choice and redis-server binding it (a test run met it):
    start_redis then chooses another, unless the port was given."""
    import socket

    from service import launch

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        choices = iter([taken])
        monkeypatch.setattr(launch, "free_port", lambda: next(choices, None) or free_port())
        proc, url = launch.start_redis(tmp_path / "redis", persist=False)
        try:
            assert not url.endswith(f":{taken}/0") and launch.connection.client(url).ping()
        finally:
            launch.stop(proc)
        with pytest.raises(RuntimeError, match="redis-server exited"):
            launch.start_redis(tmp_path / "given", port=taken, persist=False)


def test_free_port_does_not_follow_the_shared_random_module():
    """Hypothesis seeds the random module for each example it runs: a free_port taking its chance
    from there chose the same port in every thread and process choosing at such a moment (a launch
    test's API port was then taken by another's)."""
    saved = random.getstate()
    try:
        chosen = set()
        for _ in range(3):
            random.seed(0)
            chosen.add(free_port())
    finally:
        random.setstate(saved)
    assert len(chosen) > 1
