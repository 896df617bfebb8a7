"""A render flood from one address against the API as the launcher runs it (gunicorn with
service/gunicorn_conf.py, its rate limits on), while /v1/health is polled: not a timed test,
it prints figures (docs/security.md, "Floods").

    .venv/bin/python benchmarks/render_flood.py [--clients 30] [--seconds 15] [--png | --bot]

``--clients`` threads send stateless renders (SVG, or PNG with ``--png``) as fast as they are
answered, from one address, for ``--seconds``; a process of its own polls /v1/health every
50 ms (a thread beside the flood's would share its GIL and time the client, not the service).
The flood starts once the API is warm and idle: every gunicorn worker booted, eight renders
drawn (which starts their drawing processes), their CPU quiet.  Prints how the renders were
answered (200, 429 over the quota, 503 from a full render queue), the drawn ones' latency, and
the health check's p50, p99 and worst latency.  ``RENDER_*`` and ``RATE_LIMIT_*`` variables are
passed on to the API (``--clients 1`` with ``RATE_LIMIT_RENDER="1000 per minute"``: how long
one render takes).  The issue's flood (30 clients, 1,200 SVG renders) pushed health to 6-12 s
before renders had a quota and a bounded queue.  ``--bot`` floods the stateless bot instead
(``POST /v1/bots/diplomacy/orders`` at the standard start, a new seed each; ``BOT_*`` variables
are passed on too).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.diplomacy import initial_position  # noqa: E402
from service.launch import free_port, service_commands  # noqa: E402
from tests.service.svc_stack import TEST_ENV, environment, redis_server  # noqa: E402
from workers.core.settings import Settings  # noqa: E402

RENDER = {"variant": "standard", "phase": "S1901M",
          "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER", "F KIE"]},
          "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]},
          "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}
BOT = {**{k: v for k, v in initial_position("standard").items() if k in ("phase", "units", "centers")},
       "power": "FRANCE"}


def flood(base: str, clients: int, seconds: float, png: bool, bot: bool = False
          ) -> tuple[collections.Counter, list[float]]:
    """How the renders (or bot requests) were answered, and how long each 200 took."""
    answers: collections.Counter = collections.Counter()
    drawn: list[float] = []
    stop = time.monotonic() + seconds
    url = f"{base}/v1/bots/diplomacy/orders" if bot else f"{base}/v1/render/diplomacy?format={'png' if png else 'svg'}"

    def render():
        with requests.Session() as session:
            i = 0
            while time.monotonic() < stop:
                i += 1
                body = {**BOT, "seed": f"{threading.get_ident()}:{i}"} if bot else {
                    **RENDER, "orders": {**RENDER["orders"], "GERMANY": [f"A MUN - {('BUR', 'RUH')[i % 2]}"]}}
                started = time.monotonic()
                try:
                    status = session.post(url, json=body, timeout=30).status_code
                except requests.RequestException:
                    status = "error"
                answers[status] += 1
                if status == 200:
                    drawn.append(time.monotonic() - started)

    threads = [threading.Thread(target=render) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers, drawn


def poll(base: str, seconds: float) -> list[float]:
    """/v1/health's latency every 50 ms for ``seconds`` (run in a process of its own: ``--poll``)."""
    health = []
    stop = time.monotonic() + seconds
    with requests.Session() as session:
        while time.monotonic() < stop:
            started = time.monotonic()
            try:
                session.get(f"{base}/v1/health", timeout=30)
            except requests.RequestException:
                pass
            health.append(time.monotonic() - started)
            time.sleep(0.05)
    return health


def cpu_seconds(root: int) -> float:
    """The CPU time used so far by process ``root`` and its descendants (Linux's /proc)."""
    parents, used = {}, {}
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split() if entry.name.isdigit() else None
        except OSError:
            continue
        if fields:
            parents[int(entry.name)], used[int(entry.name)] = int(fields[1]), int(fields[11]) + int(fields[12])
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree, grown = tree | more, bool(more)
    return sum(used.get(pid, 0) for pid in tree) / os.sysconf("SC_CLK_TCK")


def warm(base: str, api_pid: int, bot: bool = False) -> None:
    """Eight renders (``bot``: bot requests) at once (both workers draw, their drawing processes start),
    then until the API's processes are quiet (under 5% of a core over a second), at most a minute."""
    path, body = ("/v1/bots/diplomacy/orders", BOT) if bot else ("/v1/render/diplomacy", RENDER)
    threads = [threading.Thread(target=requests.post, args=(f"{base}{path}",),
                                kwargs={"json": body, "timeout": 60}) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    deadline = time.monotonic() + 60
    before = cpu_seconds(api_pid)
    while time.monotonic() < deadline:
        time.sleep(1)
        now = cpu_seconds(api_pid)
        if now - before < 0.05:
            return
        before = now


def quantiles(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"p50 {statistics.median(times) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
            f"worst {times[-1] * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=15)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--png", action="store_true")
    kind.add_argument("--bot", action="store_true", help="the stateless bot's answers instead of renders")
    parser.add_argument("--poll", metavar="URL", help=argparse.SUPPRESS)  # the health poller's process
    args = parser.parse_args()
    if args.poll:
        print(json.dumps(poll(args.poll, args.seconds)))
        return 0
    with tempfile.TemporaryDirectory() as folder, redis_server(Path(folder)) as url:
        port = free_port()
        env = {**environment(), **TEST_ENV, "REDIS_URL": url, "PROMETHEUS_MULTIPROC_DIR": folder,
               "PYTHONPATH": str(ROOT), "RATE_LIMITS": "on",
               **{k: v for k, v in os.environ.items() if k.startswith(("RENDER_", "RATE_LIMIT_", "BOT_"))}}
        proc = subprocess.Popen(service_commands("127.0.0.1", port, Settings.from_env(env))["api"], env=env, cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if requests.get(f"{base}/v1/health", timeout=1).status_code == 200:
                        break
                except requests.RequestException:
                    time.sleep(0.2)
            warm(base, proc.pid, args.bot)
            # a session of its own: the kernel's scheduler shares the CPU between sessions, not with the flood's
            poller = subprocess.Popen([sys.executable, __file__, "--poll", base, "--seconds", str(args.seconds)],
                                      stdout=subprocess.PIPE, text=True, start_new_session=True)
            answers, drawn = flood(base, args.clients, args.seconds, args.png, args.bot)
            health = json.loads(poller.communicate()[0])
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(15)
    what = "bot answers (" if args.bot else f"renders ({'png' if args.png else 'svg'}, "
    print(f"{what}{args.clients} clients, {args.seconds:g} s): "
          + ", ".join(f"{code}: {n}" for code, n in sorted(answers.items(), key=str))
          + (f"; the 200s {quantiles(drawn)}" if drawn else ""))
    print(f"/v1/health: {len(health)} polls, {quantiles(health)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
