"""The lobby's cost against the number of games (not a timed test; prints figures).

    python benchmarks/lobby_bench.py --games 1000 10000 50000

For each size it fills a private redis-server with that many games (a mix of
variants, one in ten private, one in fifty started with a seat open to take
over; made through ``workers.tables.games``, as the API makes them), then times
``Lobby.list`` (what ``GET /v1/games`` calls) for the first page and a page
deep in, with each filter: the p50 and p99 of 200 listings, in milliseconds.
A listing walks the index set of its most selective filter, so its time should
not grow with the number of games.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VARIANTS = ("standard", "five_player", "two_player_1914")
BASE = {"assignment": "chosen", "missed_orders": "hold", "deadlines": {"movement": 3600}}


def fill(games, n: int) -> None:
    for i in range(n):
        spec = {**BASE, "name": f"game {i}", "variant": VARIANTS[i % 3],
                "visibility": "private" if i % 10 == 7 else "public"}
        created, director = games.setup.create_game(spec)
        if i % 50 == 0 and spec["variant"] == "standard" and spec["visibility"] == "public":
            games.setup.join(created["id"], "A", "FRANCE")
            games.setup.join(created["id"], "B", "TURKEY")
            games.setup.start(created["id"], director)
            games.director.open_seat(created["id"], director, "TURKEY", "benchmark")


def timed(call, rounds: int = 200, quantile: float = 0.99) -> tuple[float, float]:
    """The median and the ``quantile`` of ``rounds`` calls of ``call``, in milliseconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * quantile) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    from service.launch import start_redis, stop
    from workers.core.store import Store
    from workers.tables.games import Games

    print(f"{'games':>7} {'listing':<38} {'p50 ms':>7} {'p99 ms':>7} {'found':>5}")
    for n in args.games:
        proc, url = start_redis(Path(tempfile.mkdtemp()) / "redis", persist=False)
        try:
            games = Games(Store(url))
            fill(games, n)
            lobby = games.lobby
            deep = lobby.list(limit=100)
            for _ in range(4):  # a cursor a few pages in
                deep = lobby.list(cursor=_cursor(deep["next"]), limit=100)
            for label, kwargs in (("newest 20", {}), ("forming, five_player", {"status": "forming",
                                                                               "variant": "five_player"}),
                                  ("seats=open", {"seats": "open"}), ("started", {"status": "started"}),
                                  ("page 6 (cursor)", {"cursor": _cursor(deep["next"])})):
                found = len(lobby.list(**kwargs)["games"])
                p50, p99 = timed(lambda: lobby.list(**kwargs))
                print(f"{n:>7} {label:<38} {p50:>7.2f} {p99:>7.2f} {found:>5}")
        finally:
            stop(proc)


def _cursor(text: str) -> tuple[float, str]:
    score, _, gid = text.partition("_")
    return float(score), gid


if __name__ == "__main__":
    main()
