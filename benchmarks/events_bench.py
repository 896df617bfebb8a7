"""Benchmark: live events (Server-Sent Events) to many open streams.

    .venv/bin/python benchmarks/events_bench.py [--streams 2000] [--events 20] [--interval 0.5] [--web 2]

Starts its own stack as benchmarks/resolutions_bench.py does (a private
redis-server, gunicorn as ``service.launch`` runs it: gevent workers, ``--web``
of them; one RQ worker; the scheduler).  Creates a game with every seat taken,
then opens ``--streams`` event streams on it (asyncio, one TCP connection
each, the players' and the director's tokens in turn) and waits until every
one has its first bytes.  Then ``--events`` times, ``--interval`` seconds
apart, a player submits or clears its orders (each an ``orders`` event that
every stream may see) and notes the time just before the request.

Printed: for every (event, stream) pair the delay from that moment until the
stream had the event, p50/p99/max, and how many pairs never arrived (within
``--timeout`` s of the last event).  The target the clients' live events were built to:
2,000 streams, p99 under 1 s, on this machine (2 cores, client and service
together).
"""
from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.resolutions_bench import Stack  # noqa: E402

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def new_game(base: str) -> tuple[str, str, dict[str, str]]:
    made = requests.post(f"{base}/v1/games", json={"assignment": "chosen", "deadlines": {
        "first_movement": 86400, "movement": 86400, "retreat": 86400, "adjustment": 86400}}, timeout=30).json()
    gid, tokens = made["game"]["id"], {}
    for power in POWERS:
        joined = requests.post(f"{base}/v1/games/{gid}/players", json={"name": power.title(), "power": power},
                               timeout=30).json()
        tokens[power] = joined["token"]
    return gid, made["director_token"], tokens


async def listen(port: int, path: str, token: str, ready: asyncio.Event, opened: list, arrivals: dict,
                 stop: asyncio.Event) -> None:
    """One stream: note when each event id arrives."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError((head + await reader.read(2000)).decode(errors="replace"))
    opened.append(1)
    if len(opened) == ready.expected:
        ready.set()
    buffer = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.monotonic()
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if line.startswith(b"id: "):
                    arrivals.setdefault(line[4:].decode(), []).append(now)
    finally:
        writer.close()


async def run(args, base: str, port: int) -> None:
    gid, director, tokens = new_game(base)
    path = f"/v1/games/{gid}/events"
    everyone = [director, *tokens.values()]
    ready, stop = asyncio.Event(), asyncio.Event()
    ready.expected = args.streams
    opened: list = []
    arrivals: dict = {}
    started = time.monotonic()
    tasks = []
    for i in range(args.streams):
        tasks.append(asyncio.create_task(listen(port, path, everyone[i % len(everyone)], ready, opened, arrivals,
                                                stop)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # a ramp, as clients arrive
    await asyncio.wait_for(ready.wait(), timeout=args.timeout + 60)
    print(f"{args.streams} streams open in {time.monotonic() - started:.1f} s", flush=True)
    await asyncio.sleep(1)
    sent = []
    session = requests.Session()
    for n in range(args.events):
        power = POWERS[n % len(POWERS)]
        t0 = time.monotonic()
        resp = await asyncio.to_thread(session.put, f"{base}/v1/games/{gid}/orders/{power}",
                                       json={"orders": []}, headers={"Authorization": f"Bearer {tokens[power]}"},
                                       timeout=30)
        assert resp.status_code == 200, resp.text
        sent.append(t0)
        await asyncio.sleep(args.interval)
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline and sum(len(v) for v in arrivals.values()) < args.events * args.streams:
        await asyncio.sleep(0.1)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # the k-th event id (Redis's, time-ordered) is the k-th request's
    order = sorted(arrivals, key=lambda i: tuple(map(int, i.split("-"))))
    delays = []
    for k, key in enumerate(order[:len(sent)]):
        delays += [t - sent[k] for t in arrivals[key]]
    expected = args.events * args.streams
    delays.sort()
    q = statistics.quantiles(delays, n=100) if len(delays) > 1 else delays * 99
    print(f"events: {args.events}, streams: {args.streams}, deliveries: {len(delays)} of {expected}")
    print(f"delay from the request to the stream: p50 {q[49] * 1000:.0f} ms, p99 {q[98] * 1000:.0f} ms, "
          f"max {delays[-1] * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--web", type=int, default=2, help="gunicorn worker processes (WEB_CONCURRENCY)")
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the stack's processes inherit it
    import os
    os.environ["WEB_CONCURRENCY"] = str(args.web)
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        stack = Stack(ROOT, Path(tmp))
        try:
            stack.start(workers=1, durable=False)
            asyncio.run(run(args, stack.base, stack.port))
        finally:
            stack.close()
            if os.environ.get("BENCH_KEEP_LOGS"):
                for log in Path(tmp).glob("*.log"):
                    print(f"--- {log.name}", log.read_text()[-3000:], sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
