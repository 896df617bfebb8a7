"""Every RQ job, and the runtime they run in.

A job names only plain values (a table's ``(table, id, seq)``, a message id,
an event); the store and the tables come from the process's :class:`Runtime`,
which the worker installs when it starts (:func:`install`) and the tests
install for jobs they run in-process.  The lower layers enqueue these jobs by
name (``"workers.runtime.jobs.advance"``) and never import this module.

Table jobs are idempotent per step: running one twice, or two at once, takes
the step once (see ``workers.core.store``); the delivery jobs keep their own
record of what they have done (see ``workers.delivery``).
"""
from __future__ import annotations

import contextvars
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from ..core import settings
from ..core.store import TIMER, Store
from ..delivery import mail, reminders, webhooks
from ..tables.games import Games
from ..tables.resolutions import Resolutions
from ..tables.tournaments import Tournaments
from . import observe
from ..core.outcome import JobOutcome

log = logging.getLogger(__name__)


class Steps(Protocol):
    """What the jobs ask of a table whose steps follow one another: a game's phases, a resolution's steps.
    A table may also take several deadlines in one transaction: ``on_deadlines(due, stall)``, each
    one's outcome, or None for one to take alone with :meth:`on_deadline` (a game's phases do)."""

    def advance(self, tid: str, seq: int, stall: float = 0.0) -> JobOutcome:
        """Take step ``seq``, which needs nobody now (a closed phase, server dice, a bot); once."""

    def on_deadline(self, tid: str, seq: int, deadline: int, stall: float = 0.0) -> JobOutcome:
        """Step ``seq``'s deadline ``deadline`` has come (a superseded one does nothing)."""

    def count_attempts(self, due: list[tuple[str, int, int]]) -> None:
        """Before a batch takes its deadlines ``(id, seq, deadline)``: count, on disk, an attempt at each
        that the table counts (a table that counts none does nothing)."""


@dataclass
class Runtime:
    """What the jobs of one process work on: its store and the tables built on it."""

    store: Store
    games: Games = field(init=False)
    steps: dict[str, Steps] = field(init=False)

    def __post_init__(self):
        self.games = Games(self.store)
        self.steps = {"game": self.games.phases, "resolution": Resolutions(self.store)}


_runtime: Runtime | None = None
_pool: ThreadPoolExecutor | None = None


def install(store: Store) -> Runtime:
    """Make ``store`` the one the jobs of this process use (the worker at its start, a test)."""
    global _runtime, _pool
    _runtime, _pool = Runtime(store), None
    return _runtime


def runtime() -> Runtime:
    """The installed runtime; a process that installed none (RQ's own worker) gets one from its settings."""
    if _runtime is None:
        install(Store(settings.current().redis_url))
    return _runtime


@observe.job
@observe.step
def advance(table: str, tid: str, seq: int) -> JobOutcome:
    """Take step ``seq`` of a table that needs nobody now (a closed phase, server dice, a bot)."""
    rt = runtime()
    return rt.steps[table].advance(tid, seq, stall=rt.store.settings.fault_stall_seconds)


@observe.job
@observe.step(deadline_arg=3)
def on_deadline(table: str, tid: str, seq: int, deadline: int) -> JobOutcome:
    """A step's deadline has come; a superseded deadline makes it a no-op."""
    rt = runtime()
    return rt.steps[table].on_deadline(tid, seq, deadline, stall=rt.store.settings.fault_stall_seconds)


@observe.job
def prepare_bots(gid: str, seq: int, missing: bool = False) -> JobOutcome:
    """The bot's orders for the seats it plays in the open phase ``seq`` of game ``gid`` (``missing``:
    and for the powers still without orders, which it gives if they miss the deadline), ahead of its
    closing."""
    return runtime().games.phases.prepare_bots(gid, seq, missing)


@observe.job
def bots_ahead(gid: str, seq: int) -> JobOutcome:
    """The timer a little before the deadline of phase ``seq`` of a game whose missed orders the bot
    gives: queues :func:`prepare_bots` for the powers without orders, behind the deadlines and steps."""
    rt = runtime()
    rt.store.enqueue(None, "workers.runtime.jobs.prepare_bots", gid, seq, True, job_id=f"bots-ahead-{gid}-{seq}")
    return JobOutcome.did("the bot's orders queued")


@observe.job
def seat_bots(gid: str, seq: int) -> JobOutcome:
    """The timer, due at once, of phase ``seq`` of a game whose seats the bot plays in it (opened with
    them, or a seat handed to the bot): queues :func:`prepare_bots` for them, behind the deadlines and
    steps.  A timer rather than a job queued by the transaction that opens the phase: a deadline that
    many such games share reopens them all, one batch of timers after, before any job is queued."""
    runtime().store.enqueue(None, "workers.runtime.jobs.prepare_bots", gid, seq)
    return JobOutcome.did("the bot's orders queued")


class DeadlinesFailed(Exception):
    """Some deadlines of a batch failed; the retry of the batch re-runs them (the others are no-ops then)."""


@observe.job
def on_deadlines(entries: list[str]) -> JobOutcome:
    """The job for a batch of due deadlines (``table:id:seq:deadline`` entries, see
    ``Store.dispatch_deadlines``) or timers (``timer:name:id:n...``).  The deadlines of a table
    that takes several together (``on_deadlines``: a game's) are taken in ``deadline_threads``
    shares of the batch, each share in one transaction; a deadline its share could not take, those
    of other tables, and each timer (by its function in :data:`TIMERS`) are taken alone, in
    their own transactions.  The shares and those alone go ``deadline_threads`` at a time
    (while one waits for Redis, and for its writes to reach the disk, another computes; Redis
    writes theirs to disk together).  One failing entry does not hold up the others; the job then
    fails, and RQ's retry runs the batch again, where the entries already taken are no-ops."""
    global _pool
    rt = runtime()
    threads = rt.store.settings.deadline_threads
    if _pool is None:
        _pool = ThreadPoolExecutor(threads, thread_name_prefix="deadline")

    def take(entry: str) -> tuple[JobOutcome | None, str | None]:
        try:
            if entry.startswith(TIMER):
                name, tid, *numbers = entry.removeprefix(TIMER).split(":")
                return TIMERS[name](tid, *map(int, numbers)), None
            table, tid, seq, deadline = entry.split(":")
            return on_deadline(table, tid, int(seq), int(deadline)), None
        except Exception as e:  # noqa: BLE001 - reported below, and the batch is retried
            log.exception("deadline %s failed", entry)
            return None, f"{entry}: {e!r}"

    def take_together(table: str, share: list[tuple[str, tuple[str, int, int]]]
                      ) -> list[tuple[JobOutcome | None, str | None]]:
        due = [one for _, one in share]
        started = time.perf_counter()
        try:
            outcomes = rt.steps[table].on_deadlines(due, stall=rt.store.settings.fault_stall_seconds)
        except Exception:  # noqa: BLE001 - each is taken alone, where it is reported
            log.exception("%d deadlines taken together failed; each is taken alone", len(share))
            outcomes = [None] * len(share)
        observe.steps_taken(table, [d for (_, _, d), o in zip(due, outcomes) if o and o.done],
                            time.perf_counter() - started)
        return [take(entry) if outcome is None else (outcome, None) for (entry, _), outcome in zip(share, outcomes)]

    due: dict[str, list[tuple[str, int, int]]] = {}
    together: dict[str, list[tuple[str, tuple[str, int, int]]]] = {}
    alone: list[str] = []
    for entry in entries:
        if entry.startswith(TIMER):
            alone.append(entry)
            continue
        table, tid, seq, deadline = entry.split(":")
        one = (tid, int(seq), int(deadline))
        if table in rt.steps:
            due.setdefault(table, []).append(one)
        if hasattr(rt.steps.get(table), "on_deadlines"):
            together.setdefault(table, []).append((entry, one))
        else:
            alone.append(entry)
    for table, found in due.items():
        rt.steps[table].count_attempts(found)
    tasks = []
    for table, share in together.items():
        size = -(-len(share) // threads)
        tasks += [_pool.submit(contextvars.copy_context().run, take_together, table, share[i:i + size])
                  for i in range(0, len(share), size)]
    tasks += [_pool.submit(contextvars.copy_context().run, lambda e=entry: [take(e)]) for entry in alone]
    results = [result for task in tasks for result in task.result()]
    failed = [why for _, why in results if why]
    if failed:
        raise DeadlinesFailed(f"{len(failed)} of {len(entries)} deadlines failed: " + "; ".join(failed))
    taken = sum(outcome.done for outcome, _ in results)
    if taken:
        return JobOutcome.did(f"{taken} of {len(entries)} deadlines taken")
    return JobOutcome.noop(f"{len(entries)} deadlines superseded or with nothing to do")


LISTENERS = {"webhooks": webhooks.on_event, "mail": mail.on_event}


@observe.job
def deliver_event(listener: str, event: dict) -> JobOutcome:
    """Hand ``event`` to one listener (``workers.delivery.events.LISTENERS``)."""
    return LISTENERS[listener](runtime().store, event)


@observe.job
def send_mail(mid: str) -> JobOutcome:
    """Hand outgoing message ``mid`` to the relay (or the Maildir), then forget it."""
    return mail.send(runtime().store, mid)


@observe.job
def remind(gid: str, seq: int, offset: int) -> JobOutcome:
    """The reminder of phase ``seq`` of game ``gid``, ``offset`` seconds before its deadline (a timer;
    a job of its own when RQ's schedule held it, before the timers)."""
    return reminders.remind(runtime().store, gid, seq, offset)


#: what a due timer runs (``Store.schedule_timer``), by its name
TIMERS = {"remind": remind, "bots": bots_ahead, "seat_bots": seat_bots}


@observe.job
def deliver_webhook(hid: str, event: dict) -> JobOutcome:
    """POST ``event`` to webhook subscription ``hid``."""
    return webhooks.deliver(runtime().store, hid, event)


@observe.job
def tournament_board_ended(tid: str) -> JobOutcome:
    """A board of tournament ``tid`` ended: once every board has, the tournament and its boards expire."""
    return Tournaments(runtime().games).expire_when_over(tid)
