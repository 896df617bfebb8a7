"""Each phase is adjudicated exactly once: racing jobs, re-runs and a worker killed mid-job."""
from __future__ import annotations

import json
import signal
import threading

import redis
import requests
from rq import Queue, Retry

from tests.service import sse
from tests.service.svc_stack import wait_for
from tests.service.gamekit import LONG, POWERS, Game, new_game
from workers.core import keys
from workers.tables.games import Games
from workers.core.store import Store
from workers.runtime.worker import AdjudicationWorker


def test_racing_adjudications_commit_once(api, inproc, redis_url):
    """Two jobs and four direct calls race on one closed phase; one commits.  In this process:
    the jobs use the in-process stack's store, and no job runs while the race is set up."""
    with inproc.holding():  # nobody else takes the jobs while we set up the race
        game = new_game(api)
        game.submit("FRANCE", ["A PAR - BUR"])
        assert game.director_action("adjudicate").json()["status"] == "adjudicating"
        q = Queue(keys.QUEUE, connection=redis.Redis.from_url(redis_url))
        q.enqueue("workers.runtime.jobs.advance", "game", game.id, 1, job_id=f"race-{game.id}", retry=Retry(max=1))
        store = Games(Store(redis_url))
        barrier = threading.Barrier(4)
        outcomes = []

        def run():
            barrier.wait()
            outcomes.append(store.phases.advance(game.id, 1))

        threads = [threading.Thread(target=run) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sum(o.done for o in outcomes) == 1 and all(not o.done for o in outcomes if "committed" not in str(o)), outcomes
        # and the two queued jobs (the director's and the extra one) are no-ops
        worker = AdjudicationWorker([q], connection=q.connection)
        handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            assert worker.work(burst=True)
        finally:  # the worker installs its own Ctrl-C handlers in this process
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        for job_id in (f"advance-game-{game.id}-1", f"race-{game.id}"):
            assert not q.fetch_job(job_id).return_value().done, job_id
        assert [h["phase"] for h in game.history()] == ["S1901M"]
        assert game.state()["phase"] == "F1901M"
        # a late re-run of the deadline job for the old phase is a no-op too
        assert not store.phases.on_deadline(game.id, 1, 0).done
        assert not store.phases.advance(game.id, 1).done
        assert len(game.history()) == 1


def test_worker_killed_mid_adjudication(live_api, stack, live_redis_client):
    """The worker dies (SIGKILL) in the middle of an adjudication.  RQ's
    abandoned-job handling retries the job on the next worker, the phase is
    adjudicated once, every accepted order is in the result, and the accounts of its seats count
    the phase once (docs/seats.md).  (Real processes.)"""
    redis_client = live_redis_client
    stack.stop("worker")
    stack.start("worker", ADJ_FAULT_STALL_SECONDS="9")  # stalls inside the adjudication
    accounts = {power: live_api.post("/v1/accounts", json={"name": power.title()}).json()
                for power in ("FRANCE", "TURKEY")}
    created = live_api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    tokens = {power: live_api.post(f"/v1/games/{created['game']['id']}/players", json={"name": power, "power": power},
                                   token=accounts[power]["token"] if power in accounts else None).json()["token"]
              for power in POWERS}
    game = Game(live_api, created["game"]["id"], created["director_token"], tokens)
    orders = {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - RUH"], "ITALY": ["A VEN - PIE"]}
    for power, lines in orders.items():
        assert game.submit(power, lines).status_code == 200
    game.all_ready()
    wait_for(lambda: redis_client.hget(keys.game(game.id), "attempts") == "1", 15, "the adjudication to start")
    stack.stop("worker", signal.SIGKILL)
    assert game.state()["status"] == "adjudicating"
    assert game.submit("FRANCE", ["A PAR H"]).status_code == 409  # closed: nothing can slip in now
    stack.start("worker")  # a fresh worker without the stall
    state = game.wait_phase("F1901M", timeout=40)
    history = game.history()
    assert [h["phase"] for h in history] == ["S1901M"]
    assert history[0]["orders"] == orders
    assert history[0]["attempts"] == 2
    assert "A BUR" in state["position"]["units"]["FRANCE"] and "A RUH" in state["position"]["units"]["GERMANY"]
    raw = [json.loads(h) for h in redis_client.lrange(keys.history(game.id), 0, -1)]
    assert len(raw) == 1
    for power, account in accounts.items():  # counted in the commit's transaction: once
        record = live_api.get(f"/v1/accounts/{account['account']['id']}").json()["record"]
        assert (record["games"], record["phases_due"], record["phases_on_time"]) == (1, 1, 1), power
    # its live event (published in the commit's transaction) was delivered once: every event from the
    # start, read up to one made after the phase opened, holds one "phase" event for F1901M
    assert game.submit("FRANCE", ["A BUR H"]).status_code == 200
    with requests.get(f"{live_api.base}{game.path}/events", stream=True, timeout=15,
                      headers={"Authorization": f"Bearer {game.director}", "Last-Event-ID": "0-0"}) as resp:
        assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("text/event-stream")
        seen = []
        for event in sse.parse(resp.iter_content(chunk_size=None)):
            seen.append(event)
            if event.type == "orders" and event.data["phase"] == "F1901M":
                break
    assert [e.data["phase"] for e in seen if e.type == "phase"] == ["S1901M", "F1901M"]
