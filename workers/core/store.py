"""The one home of the state machinery every kind of table shares.

A *table* is anything players sit at and the service runs by deadline: a
Diplomacy game (``workers.games``) or a resolution of another game's procedure
(``workers.resolutions``).  Each keeps one Redis hash, its *record*, and moves
through numbered steps (``seq``: a game's phase number, a resolution's log
index).  What they share lives here, once:

* **transactions**: every change is one WATCH/MULTI/EXEC on the record
  (:meth:`Store.transact`), retried when another client changed it between;
* **tokens**: random, shown once, stored only as SHA-256 (:func:`new_token`,
  :meth:`Store.holder`, :meth:`Store.check_director`);
* **exactly-once jobs**: a job names only ``(table, id, seq)``; it is enqueued
  in the same transaction as the change that needs it, and it commits only if
  the record is still at that ``seq`` in the state that asked for it, so a
  second run, a racing run or the re-run of a job whose worker died is a no-op;
* **deadlines**: an entry ``table:id:seq:deadline`` in one sorted set scored by
  the deadline (:meth:`Store.schedule_deadline`), written in the transaction
  that sets the deadline and taken off when it changes.  The scheduler process
  (``workers.scheduler``; any number of them) moves the due entries, in the
  same transaction that removes them, to the queue as jobs of up to
  ``DEADLINE_BATCH`` deadlines each (:meth:`Store.dispatch_deadlines`): no
  lock, so nothing waits for a dead scheduler, and a deadline that passed
  while the service was down is due at once.  A superseded entry that is
  dispatched anyway finds its deadline gone;
* **the clock**: extend, pause and resume a step's deadline (:class:`Clock`).

The record's clock fields are the same for every table: ``status`` (``open``
while a step waits, ``paused``), ``seq``, ``deadline`` (whole epoch seconds,
empty if none), ``deadline_job``, ``remaining`` (seconds left when paused)
and ``director`` (the director token's hash).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import time
import uuid
from datetime import datetime, timezone

import redis
from rq import Queue, Retry

from . import keys

JOB_TIMEOUT = int(os.environ.get("ADJ_JOB_TIMEOUT", "60"))
JOB_RETRIES = 3
# ZSET: "table:id:seq:deadline" -> deadline (epoch seconds), every step's pending deadline
DEADLINES = f"{keys.PREFIX}:deadlines"
DEADLINE_BATCH = int(os.environ.get("DEADLINE_BATCH", "20"))  # deadlines per job

# Count one attempt at step ARGV[1] of the record KEYS[1] if it is in status ARGV[2]; the record, or nil.
CLAIM = """
local now = redis.call('HMGET', KEYS[1], 'seq', 'status')
if now[1] ~= ARGV[1] or now[2] ~= ARGV[2] then return false end
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
return redis.call('HGETALL', KEYS[1])
"""


class GameError(Exception):
    """A request the table cannot accept; ``status`` is the HTTP status it maps to."""

    status = 400
    title = "Bad request"

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(GameError):
    status, title = 404, "Not found"


class Unauthorized(GameError):
    status, title = 401, "Missing or unknown token"


class Forbidden(GameError):
    status, title = 403, "Not allowed"


class Conflict(GameError):
    status, title = 409, "Not possible in the current state"


class Invalid(GameError):
    status, title = 422, "Invalid content"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_id() -> str:
    return uuid.uuid4().hex[:12]


def iso(ts: float | None) -> str | None:
    if ts is None or ts == "":
        return None
    return datetime.fromtimestamp(float(ts), timezone.utc).isoformat().replace("+00:00", "Z")


def loads(value: str | None, default=None):
    return default if value in (None, "") else json.loads(value)


class Store:
    """The Redis connection and the machinery above; tables are built on one."""

    def __init__(self, url: str):
        self.url = url
        self.r = redis.Redis.from_url(url, decode_responses=True)
        self.queue = Queue(keys.QUEUE, connection=redis.Redis.from_url(url))
        self._claim = self.r.register_script(CLAIM)

    # ------------------------------------------------------------ transactions
    def transact(self, watch: list[str], body):
        """Run ``body(pipe)`` under WATCH ``watch``; ``body`` reads, calls
        ``pipe.multi()``, queues writes and returns the result.  Retried when a
        watched key changed before EXEC."""
        for _ in range(100):
            with self.r.pipeline() as pipe:
                try:
                    pipe.watch(*watch)
                    result = body(pipe)
                    if pipe.explicit_transaction:
                        pipe.execute()
                    return result
                except redis.WatchError:
                    continue
        raise Conflict("this is changing too fast; try again")

    def claim(self, key: str, seq: int, status: str) -> dict | None:
        """Where a job's work on step ``seq`` starts: if the record at ``key`` is at that step
        in ``status``, count the attempt (``attempts``, durably, before any work) and return
        the record; else None.  One atomic script, so a racing job that loses counts nothing."""
        found = self._claim(keys=[key], args=[seq, status])
        return dict(zip(found[::2], found[1::2])) if found else None

    @staticmethod
    def record(pipe, key: str, what: str) -> dict:
        found = pipe.hgetall(key)
        if not found:
            raise NotFound(f"there is no {what}")
        return found

    # ------------------------------------------------------------ tokens
    def holder(self, tokens_key: str, token: str | None, what: str) -> str | None:
        """The id ``token`` was issued to in ``tokens_key`` (None if no token was sent)."""
        if not token:
            return None
        holder = self.r.hget(tokens_key, hash_token(token))
        if holder is None:
            raise Unauthorized(f"the token is not a token of {what}")
        return holder

    @staticmethod
    def is_director(record: dict, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(record["director"], hash_token(token))

    def check_director(self, record: dict, token: str | None, what: str) -> None:
        if not token:
            raise Unauthorized("this needs the director token: send 'Authorization: Bearer <token>'")
        if not self.is_director(record, token):
            raise Forbidden(f"only the director of {what} may do this")

    # ------------------------------------------------------------ jobs
    def enqueue_advance(self, pipe, table: str, tid: str, seq: int) -> None:
        """Queue (in ``pipe``'s transaction) the job that takes step ``seq`` of a table.  Steps and
        deadlines go to the front of the queue: players wait for them, listeners (mail, webhooks)
        can wait for the steps."""
        self.queue.enqueue("workers.jobs.advance", table, tid, seq, job_id=f"advance-{table}-{tid}-{seq}",
                           retry=Retry(max=JOB_RETRIES), job_timeout=JOB_TIMEOUT, pipeline=pipe, at_front=True)

    def schedule_deadline(self, pipe, table: str, tid: str, seq: int, deadline: int) -> str:
        """Queue (in ``pipe``'s transaction) the deadline of step ``seq``; returns its entry,
        which the record keeps as ``deadline_job``."""
        entry = f"{table}:{tid}:{seq}:{deadline}"
        pipe.zadd(DEADLINES, {entry: deadline})
        return entry

    def cancel_deadline(self, pipe, record: dict) -> None:
        """Take the step's deadline off the schedule.  If it was already dispatched, its job
        finds the deadline superseded and does nothing."""
        entry = record.get("deadline_job")
        if entry:
            pipe.zrem(DEADLINES, entry)

    def dispatch_deadlines(self, now: float, limit: int = 1000) -> int:
        """Move up to ``limit`` deadlines due by ``now`` to the queue, ``DEADLINE_BATCH`` to a job
        (``workers.jobs.on_deadlines``), in the transaction that takes them off the schedule:
        each due entry becomes exactly one job however many schedulers run.  Returns how many."""
        def body(pipe):
            due = pipe.zrangebyscore(DEADLINES, "-inf", now, start=0, num=limit)
            if not due:
                return 0
            pipe.multi()
            pipe.zrem(DEADLINES, *due)
            for i in range(0, len(due), DEADLINE_BATCH):
                self.queue.enqueue("workers.jobs.on_deadlines", due[i:i + DEADLINE_BATCH], at_front=True,
                                   retry=Retry(max=JOB_RETRIES), job_timeout=JOB_TIMEOUT, pipeline=pipe)
            return len(due)

        return self.transact([DEADLINES], body)

    def next_deadline(self) -> float | None:
        """The earliest pending deadline (epoch seconds), if any."""
        first = self.r.zrange(DEADLINES, 0, 0, withscores=True)
        return first[0][1] if first else None

    def deadline_fields(self, pipe, table: str, tid: str, seq: int, seconds: float | None) -> dict:
        """The record fields of a step opening now with ``seconds`` to run (None: no deadline)."""
        if seconds is None:
            return {"deadline": "", "deadline_job": "", "remaining": ""}
        deadline = math.ceil(time.time() + seconds)
        return {"deadline": deadline, "deadline_job": self.schedule_deadline(pipe, table, tid, seq, deadline),
                "remaining": ""}


class Clock:
    """The director's hold on a step's deadline, the same for every table.

    A table names itself (``table``), its record key (``key(id)``) and how it
    is described in messages (``what(id)``)."""

    table = ""

    def __init__(self, store: Store):
        self.store = store

    def key(self, tid: str) -> str:
        raise NotImplementedError

    def what(self, tid: str) -> str:
        return f"{self.table} '{tid}'"

    def director_change(self, tid: str, token: str | None, change) -> None:
        """Run ``change(pipe, record)`` in a transaction once the director token is checked."""
        def body(pipe):
            record = self.store.record(pipe, self.key(tid), self.what(tid))
            self.store.check_director(record, token, self.what(tid))
            change(pipe, record)

        self.store.transact([self.key(tid)], body)

    def extend(self, tid: str, token: str | None, seconds: int | None = None, until: float | None = None) -> None:
        """Move the deadline ``seconds`` later, or to ``until`` (epoch seconds, not earlier than it is)."""
        def change(pipe, rec):
            if rec["status"] == "paused" and rec.get("remaining"):
                if until is not None:
                    raise Conflict(f"{self.what(tid)} is paused; extend it by 'seconds', or resume it first")
                pipe.multi()
                pipe.hset(self.key(tid), "remaining", float(rec["remaining"]) + seconds)
            elif rec["status"] == "open" and rec.get("deadline"):
                if until is not None:
                    deadline = math.ceil(until)
                    if deadline < int(rec["deadline"]):
                        raise Invalid(f"body.deadline: {iso(until)} is before the current deadline "
                                      f"{iso(rec['deadline'])}; a deadline can only be extended")
                else:
                    deadline = max(int(rec["deadline"]), math.ceil(time.time())) + seconds
                pipe.multi()
                self.store.cancel_deadline(pipe, rec)
                pipe.hset(self.key(tid), mapping={
                    "deadline": deadline, "waiting": "",
                    "deadline_job": self.store.schedule_deadline(pipe, self.table, tid, int(rec["seq"]), deadline)})
            else:
                raise Conflict(f"{self.what(tid)} is {self.status_word(rec)}; only a step waiting for a deadline "
                               "can be extended")

        self.director_change(tid, token, change)

    def pause(self, tid: str, token: str | None) -> None:
        def change(pipe, rec):
            if rec["status"] != "open":
                raise Conflict(f"{self.what(tid)} is {self.status_word(rec)}; only an open step can be paused")
            remaining = max(0.0, float(rec["deadline"]) - time.time()) if rec.get("deadline") else ""
            pipe.multi()
            self.store.cancel_deadline(pipe, rec)
            pipe.hset(self.key(tid), mapping={"status": "paused", "deadline": "", "deadline_job": "",
                                              "remaining": remaining})

        self.director_change(tid, token, change)

    def resume(self, tid: str, token: str | None) -> None:
        def change(pipe, rec):
            if rec["status"] != "paused":
                raise Conflict(f"{self.what(tid)} is {self.status_word(rec)}, not paused")
            pipe.multi()
            seconds = float(rec["remaining"]) if rec.get("remaining") not in (None, "") else None
            pipe.hset(self.key(tid), mapping={
                "status": "open", **self.store.deadline_fields(pipe, self.table, tid, int(rec["seq"]), seconds)})

        self.director_change(tid, token, change)

    @staticmethod
    def status_word(rec: dict) -> str:
        return rec["status"]
