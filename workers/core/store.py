"""The one home of the state machinery every kind of table shares.

A *table* is anything players sit at and the service runs by deadline: a
Diplomacy game (``workers.tables.games``) or a resolution of another game's
procedure (``workers.tables.resolutions``).  Each keeps one Redis hash, its *record*, and moves
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
  (``workers.runtime.scheduler``; any number of them) moves the due entries, in the
  same transaction that removes them, to the queue as jobs of up to
  ``deadline_batch`` deadlines each (:meth:`Store.dispatch_deadlines`): no
  lock, so nothing waits for a dead scheduler, and a deadline that passed
  while the service was down is due at once.  A superseded entry that is
  dispatched anyway finds its deadline gone;
* **timers**: the same schedule holds the work due at a time that is no step's
  deadline, ``timer:name:id:n...`` (:meth:`Store.schedule_timer`: a reminder,
  the bot's orders ahead of a deadline), dispatched the same way in batches of
  their own queued behind the deadlines and steps.  One member in a sorted
  set, where an RQ job on RQ's schedule would be a job record and its
  registries in every phase's transaction;
* **the time**: every table reads the time from :attr:`Store.now`, which a test
  may replace with a clock of its own.

The director's hold on a deadline is ``workers.core.clock``.

The record's clock fields are the same for every table: ``status`` (``open``
while a step waits, ``paused``), ``seq``, ``deadline`` (whole epoch seconds,
empty if none), ``deadline_job``, ``remaining`` (seconds left when paused)
and ``director`` (the director token's hash).
"""
from __future__ import annotations

import hashlib
import math
import secrets
import time
import uuid
from datetime import datetime, timezone

import redis
from rq import Queue, Retry

from . import connection, keys, settings, versions
from .errors import Conflict, NotFound

JOB_RETRIES = 3
CONNECTIONS = 256  # Redis connections of a process's store at most
CONNECTION_WAIT = 20  # seconds a command waits for one of them before it fails (a 503)
DEADLINES = keys.deadlines()
TIMER = "timer:"  # how a schedule entry that is a timer, not a deadline, begins

# Count one attempt at step ARGV[1] of the record KEYS[1] if it is in status ARGV[2]; the record, or nil.
CLAIM = """
local now = redis.call('HMGET', KEYS[1], 'seq', 'status')
if now[1] ~= ARGV[1] or now[2] ~= ARGV[2] then return false end
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
return redis.call('HGETALL', KEYS[1])
"""

# Count one attempt at deadline ARGV[2] of step ARGV[1] of the record KEYS[1] if that is still the open
# step's deadline and it is due by ARGV[3] (what the deadline's job checks again before it acts).
COUNT_DUE = """
local now = redis.call('HMGET', KEYS[1], 'seq', 'status', 'deadline')
if now[1] ~= ARGV[1] or now[2] ~= 'open' or now[3] ~= ARGV[2] or tonumber(ARGV[2]) > tonumber(ARGV[3]) then
  return 0
end
return redis.call('HINCRBY', KEYS[1], 'attempts', 1)
"""


class Digest(str):
    """A token's hash standing in for the token: what a page's session holds (workers/core/sessions.py).
    :func:`hash_token` passes it through, so every token-checked method takes it as it takes a token."""


def hash_token(token: str) -> str:
    if isinstance(token, Digest):
        return str(token)
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_id() -> str:
    return uuid.uuid4().hex[:12]


#: the first and last whole seconds every view can write (iso): what is stored lies between them
FIRST_MOMENT = datetime(1, 1, 1, 0, 0, 1, tzinfo=timezone.utc).timestamp()
LAST_MOMENT = datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone.utc).timestamp()


def iso(ts: float | None) -> str | None:
    if ts is None or ts == "":
        return None
    return datetime.fromtimestamp(float(ts), timezone.utc).isoformat().replace("+00:00", "Z")




class ReadAhead:
    """A transaction's pipe, WATCHing, whose first reads were made together in one round trip.

    ``reads`` are ``(command, key)`` pairs (``hgetall``, ``hvals``, ``hkeys``, ``smembers``, ``scard``,
    ``ttl``), read at
    once on another connection of ``client``: safe, because the WATCH is already in place, so a
    change of a watched key after them makes EXEC fail as it would after reads on the pipe.  Until
    ``multi()``, each of those reads is answered from that round trip; everything else (other reads,
    ``multi``, the writes) goes to the pipe.  Code written for a pipe takes it unchanged."""

    READS = ("hgetall", "hvals", "hkeys", "smembers", "scard", "ttl")

    def __init__(self, pipe, client, reads: list[tuple[str, str]]):
        with client.pipeline(transaction=False) as ahead:
            for command, key in reads:
                getattr(ahead, command)(key)
            found = ahead.execute()
        self._pipe = pipe
        self._found = {read: value for read, value in zip(reads, found)}

    def __getattr__(self, name):
        attr = getattr(self._pipe, name)
        if name not in self.READS:
            return attr

        def read(key):
            found = self._found.get((name, key), attr)
            return attr(key) if found is attr else found

        return read


class NotAhead(Exception):
    """A transaction taken with others (:meth:`Store.transact_together`) asked for what was not read
    ahead for it: it is left out of theirs, and taken alone."""


class Together:
    """The pipe one of several transactions sharing one WATCH and one MULTI/EXEC sees
    (:meth:`Store.transact_together`).  Before ``multi()`` it answers only the reads made ahead for
    all of them (``found``, as :class:`ReadAhead` keeps them); any other command raises
    :class:`NotAhead`.  After, its writes go to a pipeline of its own that is never executed, whose
    commands join the shared MULTI only if its body ends without an exception: a body that fails
    halfway adds nothing."""

    def __init__(self, found: dict, client):
        self._found, self._writes, self.explicit_transaction = found, client.pipeline(transaction=False), False
        self.scripts: set = set()  # what the shared pipe loads before EXEC (redis-py sees no Pipeline here)

    def uses(self, script) -> None:
        """``script`` (a redis-py Script) runs in this transaction: it is loaded before the EXEC."""
        self.scripts.add(script)

    def multi(self) -> None:
        self.explicit_transaction = True

    @property
    def command_stack(self) -> list:
        return self._writes.command_stack

    def __getattr__(self, name):
        if name in ReadAhead.READS:
            def read(key):
                if (name, key) not in self._found:
                    raise NotAhead(f"{name} {key}")
                return self._found[(name, key)]
            return read
        if not self.explicit_transaction:
            raise NotAhead(name)
        return getattr(self._writes, name)


#: what :meth:`Store.transact_together` answers for a transaction it did not take
ALONE = object()


class Store:
    """The Redis connection and the machinery above; tables are built on one."""

    def __init__(self, url: str, config: settings.Settings | None = None, now=time.time):
        """``now``: the time source (epoch seconds) of everything built on this store."""
        self.url = url
        self.settings = config or settings.current()
        self.now = now
        # a request waits for a free connection rather than fail: under gunicorn's gevent worker there
        # is no thread count to keep the requests in flight below redis-py's default of 100 connections
        # every MULTI/EXEC on it waits for REDIS_MIN_REPLICAS replicas (workers.core.connection)
        self.r = connection.client(url, CONNECTIONS, CONNECTION_WAIT, replicas=self.settings.redis_min_replicas,
                                   replica_timeout=self.settings.redis_replica_timeout, decode_responses=True)
        self.queue = Queue(keys.QUEUE, connection=connection.client(url))
        self._claim = self.r.register_script(CLAIM)
        self._count_due = self.r.register_script(COUNT_DUE)

    def enqueue(self, pipe, function: str, *args, **options):
        """Queue (in ``pipe``'s transaction) the job ``function`` (a ``workers.runtime.jobs`` name)
        with the service's job timeout; ``options`` are RQ's (``job_id``, ``retry``, ...)."""
        return self.queue.enqueue(function, *args, job_timeout=self.settings.job_timeout, pipeline=pipe,
                                  **options)

    # ------------------------------------------------------------ transactions
    def transact(self, watch: list[str], body):
        """Run ``body(pipe)`` under WATCH ``watch``; ``body`` reads, calls
        ``pipe.multi()``, queues writes and returns the result.  Retried when a
        watched key changed before EXEC.  The views the writes change get new
        versions in the same EXEC (``workers.core.versions``).

        With ``REDIS_MIN_REPLICAS`` n, n replicas have the transaction when this returns, or
        ``connection.NotReplicated`` is raised (a 503): see ``workers.core.connection``."""
        for _ in range(100):
            with self.r.pipeline() as pipe:
                try:
                    pipe.watch(*watch)
                    result = body(pipe)
                    if pipe.explicit_transaction:
                        versions.stamp(pipe)
                        pipe.execute()
                    return result
                except redis.WatchError:
                    continue
        raise Conflict("this is changing too fast; try again")

    def transact_together(self, parts: list[tuple[list[str], list[tuple[str, str]], object]]) -> list:
        """Several transactions ``(watch, reads, body)`` in one: one WATCH of all their keys, their
        ``reads`` (as :class:`ReadAhead` takes them) in one round trip, each ``body(pipe)`` run on a
        :class:`Together` pipe, and the writes of all in one MULTI/EXEC, so that they commit together
        or not at all.  Returns each body's result, or :data:`ALONE` for those it did not take: a
        body that raised (:class:`NotAhead` when it needed a read not made ahead), and every one if a
        watched key changed before EXEC.  The caller takes those alone, as :meth:`transact` does
        (a second run of a body commits nothing twice: each checks what it reads)."""
        with self.r.pipeline() as pipe:
            try:
                pipe.watch(*dict.fromkeys(key for watch, _, _ in parts for key in watch))
                reads = list(dict.fromkeys(read for _, ahead, _ in parts for read in ahead))
                with self.r.pipeline(transaction=False) as ahead:
                    for command, key in reads:
                        getattr(ahead, command)(key)
                    found = dict(zip(reads, ahead.execute()))
                results, writes, scripts = [], [], set()
                for _, _, body in parts:
                    together = Together(found, self.r)
                    try:
                        results.append(body(together))
                    except Exception:  # noqa: BLE001 - taken alone, where it raises again if it must
                        results.append(ALONE)
                        continue
                    writes += together.command_stack
                    scripts |= together.scripts
                if writes:
                    pipe.multi()
                    pipe.command_stack.extend(writes)
                    pipe.scripts |= scripts
                    versions.stamp(pipe)
                    pipe.execute()
                return results
            except redis.WatchError:
                return [ALONE] * len(parts)

    def claim(self, kind, key: str, seq: int, status: str):
        """Where a job's work on step ``seq`` starts: if the record at ``key`` is at that step
        in ``status``, count the attempt (``attempts``, durably, before any work) and return
        the record (of class ``kind``); else None.  One atomic script, so a racing job that
        loses counts nothing."""
        found = self._claim(keys=[key], args=[seq, str(status)])
        return kind.restore(dict(zip(found[::2], found[1::2]))) if found else None

    def count_attempts(self, due: list[tuple[str, int, int]]) -> None:
        """Where the work of a batch of deadlines starts: for each ``(key, seq, deadline)`` whose record is
        still open at step ``seq`` with that deadline, due now, count an attempt (``attempts``, durably,
        before any work), all in one round trip."""
        if due:
            with self.r.pipeline(transaction=False) as pipe:
                for key, seq, deadline in due:
                    self._count_due(keys=[key], args=[seq, deadline, self.now()], client=pipe)
                pipe.execute()

    @staticmethod
    def record(reader, kind, key: str, what: str):
        """The record (of class ``kind``) at ``key``, read with ``reader`` (a pipe, or the client)."""
        found = reader.hgetall(key)
        if not found:
            raise NotFound(f"there is no {what}")
        return kind.restore(found)

    # ------------------------------------------------------------ jobs
    def enqueue_advance(self, pipe, table: str, tid: str, seq: int) -> None:
        """Queue (in ``pipe``'s transaction) the job that takes step ``seq`` of a table.  Steps and
        deadlines go to the front of the queue: players wait for them, listeners (mail, webhooks)
        can wait for the steps."""
        self.enqueue(pipe, "workers.runtime.jobs.advance", table, tid, seq, job_id=f"advance-{table}-{tid}-{seq}",
                     retry=Retry(max=JOB_RETRIES), at_front=True)

    def schedule_deadline(self, pipe, table: str, tid: str, seq: int, deadline: int) -> str:
        """Queue (in ``pipe``'s transaction) the deadline of step ``seq``; returns its entry,
        which the record keeps as ``deadline_job``."""
        entry = f"{table}:{tid}:{seq}:{deadline}"
        pipe.zadd(DEADLINES, {entry: deadline})
        return entry

    @staticmethod
    def timer(name: str, tid: str, *numbers: int) -> str:
        """The schedule entry of timer ``name`` (a ``workers.runtime.jobs.TIMERS`` name) for ``(tid, *numbers)``:
        the step it runs is ``TIMERS[name](tid, *numbers)``."""
        return TIMER + ":".join((name, tid, *map(str, numbers)))

    @staticmethod
    def owner(entry: str) -> str:
        """The id of the game, resolution or tournament a schedule entry (a deadline or a timer) is for."""
        parts = entry.split(":")
        return parts[2] if entry.startswith(TIMER) else parts[1]

    def schedule_timer(self, pipe, when: float, name: str, tid: str, *numbers: int) -> None:
        """Queue (in ``pipe``'s transaction) timer ``name`` of ``(tid, *numbers)`` to run at ``when``
        (epoch seconds); scheduled again, the same timer moves."""
        pipe.zadd(DEADLINES, {self.timer(name, tid, *numbers): when})

    def cancel_timer(self, pipe, name: str, tid: str, *numbers: int) -> None:
        """Queue (in ``pipe``'s transaction): timer ``name`` of ``(tid, *numbers)`` is off the schedule."""
        pipe.zrem(DEADLINES, self.timer(name, tid, *numbers))

    @staticmethod
    def cancel_deadline(pipe, entry: str) -> None:
        """Take a step's deadline (its ``deadline_job`` entry) off the schedule.  If it was already
        dispatched, its job finds the deadline superseded and does nothing."""
        if entry:
            pipe.zrem(DEADLINES, entry)

    def dispatch_deadlines(self, now: float, limit: int = 1000) -> int:
        """Move up to ``limit`` deadlines and timers due by ``now`` to the queue, ``deadline_batch`` to a
        job (``workers.runtime.jobs.on_deadlines``), in the transaction that takes them off the schedule:
        each due entry becomes exactly one job however many schedulers run.  Deadlines go to the front
        of the queue, timers to its back (behind the steps, which players wait for).  Returns how many."""
        def body(pipe):
            due = pipe.zrangebyscore(DEADLINES, "-inf", now, start=0, num=limit)
            if not due:
                return 0
            pipe.multi()
            pipe.zrem(DEADLINES, *due)
            batch = self.settings.deadline_batch
            steps = [e for e in due if not e.startswith(TIMER)]
            timers = [e for e in due if e.startswith(TIMER)]
            for entries, front in ((steps, True), (timers, False)):
                for i in range(0, len(entries), batch):
                    self.enqueue(pipe, "workers.runtime.jobs.on_deadlines", entries[i:i + batch], at_front=front,
                                 retry=Retry(max=JOB_RETRIES))
            return len(due)

        return self.transact([DEADLINES], body)

    def next_deadline(self) -> float | None:
        """The earliest pending deadline (epoch seconds), if any."""
        first = self.r.zrange(DEADLINES, 0, 0, withscores=True)
        return first[0][1] if first else None

    def deadline_fields(self, pipe, table: str, tid: str, seq: int, seconds: float | None) -> dict:
        """The record fields of a step opening now with ``seconds`` to run (None: no deadline)."""
        if seconds is None:
            return {"deadline": None, "deadline_job": "", "remaining": None}
        deadline = math.ceil(self.now() + seconds)
        return {"deadline": deadline, "deadline_job": self.schedule_deadline(pipe, table, tid, seq, deadline),
                "remaining": None}


