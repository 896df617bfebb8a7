"""What the fixtures in tests/conftest.py are built from: the service stack as
the launcher runs it (``Stack``), an HTTP client that validates every response
against openapi.yaml (``Api``), and ``wait_for`` (poll a condition with a
bounded timeout)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from workers.core.settings import Settings

ROOT = Path(__file__).resolve().parent.parent.parent
SPEC = ROOT / "openapi.yaml"

# Fast failure recovery for tests: a started job whose worker stopped beating is
# abandoned after 3 s, and an idle worker runs RQ's maintenance every ~1 s.
# (tests/service/test_recovery.py checks the defaults instead.)
TEST_ENV = {"WEBHOOK_HOSTS": "loopback",  # the tests' receivers; nothing generated reaches another host
            "ADJ_JOB_TIMEOUT": "10", "JOB_HEARTBEAT_TTL": "3", "WORKER_MAINTENANCE_INTERVAL": "1",
            "LOG_LEVEL": "INFO", "RATE_LIMITS": "off"}


def wait_for(condition, timeout: float = 20.0, what: str = "the condition", interval: float = 0.05):
    """Poll ``condition`` until it returns something truthy (returned) or ``timeout`` passes."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; last value {value!r}")
        time.sleep(interval)


class Stack:
    """gunicorn + worker + scheduler, as ``python -m service.launch`` starts them."""

    def __init__(self, redis_url: str, logs: Path, env: dict | None = None):
        """``env``: the service's settings (default ``TEST_ENV``)."""
        from service.launch import free_port, service_commands

        self.redis_url = redis_url
        self.logs = logs
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(TEST_ENV if env is None else env), "REDIS_URL": redis_url,
                    "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.commands = service_commands("127.0.0.1", self.port, Settings.from_env(self.env))
        self.procs: dict[str, subprocess.Popen] = {}
        for name in ("api", "scheduler", "worker"):
            self.start(name)
        wait_for(self._api_up, 30, "the API to answer /v1/health")

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
        for name in list(self.procs):
            self.stop(name)


class ApiProcess:
    """gunicorn alone, with settings of its own (``extra``) on top of ``TEST_ENV``, against ``redis_url``:
    for tests that need an API unlike the shared stack's.  ``close()`` stops it."""

    def __init__(self, redis_url: str, logs: Path, **extra: str):
        from service.launch import free_port, service_commands

        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {**os.environ, **TEST_ENV, "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT), **extra}
        with open(logs / "api.log", "wb") as log:
            self.proc = subprocess.Popen(service_commands("127.0.0.1", port)["api"], env=env, cwd=ROOT,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(self._up, 30, "the API")

    def _up(self) -> bool:
        try:
            return requests.get(f"{self.base}/v1/variants", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def close(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(15)


def _text(body, **parameters) -> str:
    return body.decode() if isinstance(body, bytes) else body


def _yaml(body, **parameters):
    import yaml

    return yaml.safe_load(_text(body))


class Api:
    """requests, against the stack, with every response validated against openapi.yaml."""

    def __init__(self, base: str):
        import json

        from openapi_core import Config, OpenAPI

        self.base = base
        self.http = requests.Session()
        self.spec = OpenAPI.from_file_path(str(SPEC), config=Config(
            extra_media_type_deserializers={"application/problem+json": json.loads,
                                            "application/yaml": _yaml, "text/html": _text, "text/plain": _text}))
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

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, **kw):
        return self.call("POST", path, **kw)

    def put(self, path, **kw):
        return self.call("PUT", path, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)



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
        self.env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
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
                     "the launcher to print its URLs")
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
