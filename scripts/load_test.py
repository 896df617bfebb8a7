"""Load test: many games through the API (not a timed test; prints figures).

    python scripts/load_test.py --games 1000 --workers 2           # 1,000 games sharing one deadline
    python scripts/load_test.py --games 300 --rate 300             # submissions paced at 300/s
    python scripts/load_test.py --games 300 --spread 60            # deadlines spread over a minute
    python scripts/load_test.py --base http://127.0.0.1:8000 --games 100   # against a running service
    python scripts/load_test.py --games 1000 --workers 1 --durable --baseline REV --rounds 3
                                   # side by side with the service of commit REV, alternately
    python scripts/load_test.py --games 1000 --workers 1 --bots missed --bot-budget 50
                                   # every game has one power the bot orders at the deadline

With the compiled engine, as ``manage.py serve`` runs it where a C compiler is there (its build
selected by ``python3 manage.py build-engine``):

    PYTHONPATH=.build/diplomacy-engine .venv/bin/python scripts/load_test.py --games 1000 --workers 1 --durable

Without --base it starts its own service exactly as ``python -m service.launch``
does (gunicorn, ``--workers`` workers, the scheduler) against a private
redis-server on a free port.  It then

1. creates N standard games with chosen powers, all with the same first
   deadline (or, with ``--spread S``, deadlines spread evenly over S seconds),
   and joins 7 players to each;
2. submits orders for every power of every game from C client threads
   (each submission a full set of legal orders, each power submitting twice:
   a first set and a replacement), as fast as the clients go or, with
   ``--rate R``, R a second on a fixed timetable (open loop: a submission's
   latency counts from its planned start, so a server that falls behind
   shows it), and reports submission throughput and p50/p99 latency;
3. waits for the deadline(s) and reports, per game, the time from its deadline
   to its next phase being open (p50/p99/max, from the history record's
   ``adjudicated_at``, written in the transaction that opens the next phase),
   and how long after the shared deadline the first game reopened; with its own
   service, the worker's CPU time from the deadline until the last game reopened,
   and from the end of the submissions to the deadline;
4. checks every game adjudicated exactly the orders last accepted for it.

With ``--bots`` every game has one power (TURKEY) that the bot orders in the
phase: ``missed`` (``missed_orders: bot``, and TURKEY's player sends
nothing: its orders are computed ahead of the deadline, or at it) or ``seat``
(created with ``bots: ["TURKEY"]``); ``--bot-budget`` sets the service's
``BOT_DEADLINE_BUDGET`` (docs/bots.md).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ORDERS = {
    "AUSTRIA": [["A VIE - GAL", "A BUD - SER", "F TRI - ALB"], ["A VIE - TRI", "A BUD - RUM", "F TRI H"]],
    "ENGLAND": [["F LON - NTH", "F EDI - NWG", "A LVP - YOR"], ["F LON - ENG", "F EDI - NTH", "A LVP - WAL"]],
    "FRANCE": [["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], ["A PAR - PIC", "A MAR S A PAR - BUR", "F BRE H"]],
    "GERMANY": [["A BER - KIE", "A MUN - RUH", "F KIE - DEN"], ["A BER - SIL", "A MUN - TYR", "F KIE - HOL"]],
    "ITALY": [["A ROM - APU", "A VEN H", "F NAP - ION"], ["A ROM - TUS", "A VEN - PIE", "F NAP - TYS"]],
    "RUSSIA": [["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
               ["A MOS - STP", "A WAR H", "F SEV - RUM", "F STP/SC - FIN"]],
    "TURKEY": [["A CON - BUL", "A SMY - CON", "F ANK - BLA"], ["A CON H", "A SMY - ARM", "F ANK - CON"]],
}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def epoch(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


BOT_POWER = "TURKEY"


def start_service(workers: int, durable: bool, tree: Path = ROOT, bot_budget: int | None = None):
    """The service of the source tree ``tree`` (this one, or a baseline's checkout) on a Redis of its own."""
    from benchmarks import baseline
    from service.launch import free_port, start_redis, stop, wait_until
    import subprocess

    tmp = Path(tempfile.mkdtemp(prefix="loadtest-"))
    redis_proc, url = start_redis(tmp / "redis", persist=durable)
    port = free_port()
    # this tree's service runs the engine this process was started with (the compiled build's selection on
    # PYTHONPATH, as manage.py serve starts it); a baseline's checkout, its own source
    path = [str(tree)] + ([os.environ["PYTHONPATH"]] if tree == ROOT and os.environ.get("PYTHONPATH") else [])
    env = {**os.environ, "REDIS_URL": url, "PYTHONPATH": os.pathsep.join(path), "LOG_LEVEL": "WARNING",
           "RATE_LIMITS": "off"}
    if bot_budget is not None:
        env["BOT_DEADLINE_BUDGET"] = str(bot_budget)
    log = open(tmp / "service.log", "w")
    commands = baseline.commands(tree, "127.0.0.1", port, env)
    commands = [cmd for name, cmd in commands.items() if name != "worker"] + [commands["worker"]] * workers
    procs = [subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=tree)
             for cmd in commands]
    base = f"http://127.0.0.1:{port}"
    wait_until(lambda: requests.get(f"{base}/v1/health", timeout=2).ok, 30, "the API")

    def shutdown():
        for p in procs:
            stop(p)
        stop(redis_proc)

    shutdown.workers = [p.pid for p in procs[-workers:]]  # whose CPU time the deadline is measured in
    shutdown.redis = redis_proc.pid
    return base, shutdown, tmp, url


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes ``pids`` have used so far (Linux /proc)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def finished(base: str, redis_url: str | None, gids: set[str], s: requests.Session) -> set[str]:
    """The games of ``gids`` whose first phase has been adjudicated.  With the script's own
    service, read from its Redis in one round trip, so that watching costs the server nothing."""
    if redis_url:
        import redis

        with redis.Redis.from_url(redis_url, decode_responses=True).pipeline(transaction=False) as p:
            for gid in gids:
                p.hget(f"dip:game:{gid}", "seq")
            return {gid for gid, seq in zip(gids, p.execute()) if seq and int(seq) > 1}
    done = set()
    for gid in gids:  # over HTTP: one game at a time, so that watching costs the server little
        if s.get(f"{base}/v1/games/{gid}").json()["seq"] == 1:
            break
        done.add(gid)
    return done


def main() -> None:
    args = arguments()
    if not args.baseline:
        run(args)
        return
    from benchmarks import baseline

    results = []
    with tempfile.TemporaryDirectory(prefix="loadtest-baseline-") as tmp:
        trees = [(ROOT, "working tree"), (baseline.checkout(args.baseline, Path(tmp) / "tree"),
                                          f"baseline {args.baseline}")]
        try:
            for round_ in range(args.rounds):
                for tree, label in (trees if round_ % 2 == 0 else trees[::-1]):
                    print(f"--- {label}, round {round_ + 1}", flush=True)
                    results.append((label, run(args, tree)))
        finally:
            baseline.remove(Path(tmp) / "tree")
    print("\nmedian [range] over the rounds:")
    for label in dict.fromkeys(label for label, _ in results):
        runs = [r for name, r in results if name == label]
        shown = []
        for key in ("p50_ms", "p99_ms", "deadline_to_open_p50_s", "deadline_to_open_p99_s", "deadline_to_open_max_s",
                    "deadline_worker_cpu_s", "ahead_worker_cpu_s"):
            values = [r[key] for r in runs if r.get(key) is not None]
            if values:
                shown.append(f"{key} {statistics.median(values):g} [{min(values):g}-{max(values):g}]")
        print(f"  {label}: " + ", ".join(shown))


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="URL of a running service (default: start one)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--clients", type=int, default=16, help="concurrent HTTP clients")
    parser.add_argument("--lead", type=int, default=0,
                        help="seconds from creation to the shared deadline (default: enough for setup)")
    parser.add_argument("--workers", type=int, default=2, help="workers of the service it starts (default 2)")
    parser.add_argument("--rate", type=float, default=0,
                        help="submissions a second, on a fixed timetable (default: as fast as the clients go)")
    parser.add_argument("--durable", action="store_true",
                        help="its own Redis keeps its data as the launcher's does (append-only file, fsync on "
                             "every write); default: no persistence")
    parser.add_argument("--spread", type=int, default=0,
                        help="spread the games' deadlines evenly over this many seconds (default: one shared)")
    parser.add_argument("--baseline", help="a commit whose service runs the same load, alternately with this tree's "
                                           "(not with --base)")
    parser.add_argument("--rounds", type=int, default=1, help="with --baseline: runs of each (default 1)")
    parser.add_argument("--bots", choices=["missed", "seat"],
                        help=f"every game has one power ({BOT_POWER}) the bot orders at the deadline: its player "
                             "misses it (missed_orders bot), or the bot has its seat from the start")
    parser.add_argument("--bot-budget", type=int, help="the bot's budget in deadline jobs (BOT_DEADLINE_BUDGET)")
    return parser.parse_args()


def run(args, tree: Path = ROOT) -> dict:

    shutdown, redis_url = None, None
    if args.base:
        base = args.base.rstrip("/")
    else:
        base, shutdown, tmp, redis_url = start_service(args.workers, args.durable, tree, args.bot_budget)
        print(f"service started at {base} with {args.workers} worker(s)"
              f"{', Redis fsyncing every write' if args.durable else ''} (logs in {tmp})")
        if tree == ROOT:
            from service.launch import engine_line
            print(engine_line())
    local = threading.local()

    def session() -> requests.Session:
        if not hasattr(local, "s"):
            local.s = requests.Session()
        return local.s

    try:
        # 1. games, all with the same first deadline
        lead = args.lead or max(20, int(args.games * (0.25 + (1.2 / args.rate if args.rate else 0.05))) + 15)
        t0 = time.time()

        humans = [p for p in ORDERS if not (args.bots == "seat" and p == BOT_POWER)]
        bot_settings = {"missed": {"missed_orders": "bot"}, "seat": {"bots": [BOT_POWER]}}.get(args.bots, {})

        def make_game(_):
            s = session()
            created = s.post(f"{base}/v1/games", json={"assignment": "chosen", "deadlines": {
                "first_movement": lead, "movement": 3600, "retreat": 3600, "adjustment": 3600},
                **bot_settings}).json()
            gid = created["game"]["id"]
            tokens = {}
            for power in humans:
                r = s.post(f"{base}/v1/games/{gid}/players", json={"name": power, "power": power})
                r.raise_for_status()
                tokens[power] = r.json()["token"]
            return gid, tokens, created["director_token"]

        with ThreadPoolExecutor(args.clients) as pool:
            games = list(pool.map(make_game, range(args.games)))
        setup = time.time() - t0
        # one shared deadline: the director of each game moves it to the same second
        shared = max(epoch(requests.get(f"{base}/v1/games/{gid}").json()["deadline"]) for gid, _, _ in games)
        shared_iso = datetime.fromtimestamp(shared, timezone.utc).isoformat()

        def align(item):
            i, (gid, _, director) = item
            when = shared + (args.spread * i // len(games) if args.spread else 0)
            r = session().post(f"{base}/v1/games/{gid}/extend", headers={"Authorization": f"Bearer {director}"},
                               json={"deadline": datetime.fromtimestamp(when, timezone.utc).isoformat()})
            r.raise_for_status()
            return epoch(r.json()["deadline"])

        with ThreadPoolExecutor(args.clients) as pool:
            deadlines = dict(zip((g[0] for g in games), pool.map(align, enumerate(games))))
        if args.spread:
            print(f"created {len(games)} games with 7 players each in {setup:.1f} s; their deadlines are spread "
                  f"over {args.spread} s from {shared_iso}")
        else:
            assert len(set(deadlines.values())) == 1, "deadlines differ"
            print(f"created {len(games)} games with {len(humans)} players each in {setup:.1f} s; all share the deadline "
                  f"{shared_iso}")

        # 2. order submissions
        ordering = [p for p in ORDERS if not (args.bots and p == BOT_POWER)]
        work = [(gid, power, tokens[power], orders)
                for round_ in (0, 1) for gid, tokens, _ in games for power in ordering
                for orders in [ORDERS[power][round_]]]
        latencies: list[float] = []
        errors: list[str] = []

        t1 = time.perf_counter()

        def submit(item):
            i, (gid, power, token, orders) = item
            start = time.perf_counter()
            if args.rate:  # open loop: wait for this submission's time, and count from it
                planned = t1 + i / args.rate
                time.sleep(max(0.0, planned - start))
                start = planned
            r = session().put(f"{base}/v1/games/{gid}/orders/{power}", json={"orders": orders},
                              headers={"Authorization": f"Bearer {token}"})
            took = time.perf_counter() - start
            if r.status_code != 200:
                errors.append(f"{r.status_code} {r.text[:200]}")
            return took

        with ThreadPoolExecutor(args.clients) as pool:
            latencies = list(pool.map(submit, enumerate(work)))
        elapsed = time.perf_counter() - t1
        paced = f" paced at {args.rate:g}/s" if args.rate else ""
        print(f"order submissions: {len(work)} in {elapsed:.2f} s = {len(work) / elapsed:.0f}/s{paced} "
              f"with {args.clients} clients; latency p50 {pct(latencies, 50) * 1000:.1f} ms, "
              f"p99 {pct(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; errors {len(errors)}")
        for e in errors[:5]:
            print("  ", e)

        # 3. deadline -> next phase open, from the server's own clock: the history
        # record's adjudicated_at is written in the transaction that opens the next phase
        last = max(deadlines.values())
        if time.time() > shared:
            print("warning: the submissions ended after the deadline; use --lead to give them more time")
        ahead = cpu_seconds(shutdown.workers) if shutdown else None
        time.sleep(max(0.0, shared - time.time() - 0.2))  # the worker's CPU counts from the deadline on
        cpu_before = (cpu_seconds(shutdown.workers), cpu_seconds([shutdown.redis])) if shutdown else None
        pending = {gid for gid, _, _ in games}
        while pending and time.time() < last + 300:
            time.sleep(max(0.2 if redis_url else 1.0, min(5.0, shared - time.time())))  # the API: seldom
            pending -= finished(base, redis_url, pending, session())
        lags, bad = [], 0
        s = session()
        for gid, _, _ in games:
            phases = s.get(f"{base}/v1/games/{gid}/history").json()["phases"]
            if phases:
                lags.append(epoch(phases[0]["adjudicated_at"]) - deadlines[gid])
                # the accepted (second) submission is what was adjudicated
                orders = dict(phases[0]["orders"])
                by_bot = orders.pop(BOT_POWER, None) if args.bots else None
                bad += orders != {p: ORDERS[p][1] for p in ordering} or bool(args.bots) and (
                    not by_bot or phases[0].get("bots") != [BOT_POWER])
        if lags:
            how = f"deadlines spread over {args.spread} s" if args.spread else "sharing one deadline"
            print(f"deadline -> next phase open, {len(lags)} games {how}: p50 {pct(lags, 50):.2f} s, "
                  f"p99 {pct(lags, 99):.2f} s, max {max(lags):.2f} s; the first reopened {min(lags):.2f} s "
                  "after its deadline")
        worker_cpu = None
        if cpu_before:  # CPU time, unlike the clock, hardly depends on what else the machine runs
            worker_cpu = cpu_seconds(shutdown.workers) - cpu_before[0]
            print(f"CPU time over the deadline: the worker(s) {worker_cpu:.2f} s "
                  f"({worker_cpu / len(games) * 1000:.2f} ms a game), Redis "
                  f"{cpu_seconds([shutdown.redis]) - cpu_before[1]:.2f} s; the worker(s) between the "
                  f"submissions and the deadline (the bot's orders computed ahead, if any) {cpu_before[0] - ahead:.2f} s")
        if pending:
            print(f"{len(pending)} games did not open F1901M within 300 s of the deadline")
        print(f"history check: {len(lags) - bad}/{len(games)} games adjudicated exactly the last accepted orders")
        summary = {"games": args.games, "clients": args.clients, "submissions": len(work),
                   "throughput_per_s": round(len(work) / elapsed), "p50_ms": round(pct(latencies, 50) * 1000, 1),
                   "p99_ms": round(pct(latencies, 99) * 1000, 1),
                   "deadline_to_open_p50_s": round(pct(lags, 50), 2) if lags else None,
                   "deadline_to_open_p99_s": round(pct(lags, 99), 2) if lags else None,
                   "deadline_to_open_max_s": round(max(lags), 2) if lags else None,
                   "deadline_to_first_open_s": round(min(lags), 2) if lags else None,
                   "deadline_worker_cpu_s": round(worker_cpu, 2) if worker_cpu is not None else None,
                   "ahead_worker_cpu_s": round(cpu_before[0] - ahead, 2) if cpu_before else None,
                   "workers": None if args.base else args.workers, "rate": args.rate or None,
                   "spread_s": args.spread or None, "bots": args.bots, "bot_budget": args.bot_budget}
        print(json.dumps(summary))
        return summary
    finally:
        if shutdown:
            shutdown()


if __name__ == "__main__":
    main()
