"""The RQ jobs.  A job names only ``(table, id, seq)`` and is idempotent per step:
running one twice, or two at once, takes the step once (see ``workers.store``)."""
from __future__ import annotations

import logging
import os
from concurrent.futures import ThreadPoolExecutor

from . import observe
from .store import Store

_tables: dict | None = None
log = logging.getLogger(__name__)


def tables() -> dict:
    """The tables by name, on one Store per worker process."""
    global _tables
    if _tables is None:
        from .games import Games
        from .resolutions import Resolutions

        store = Store(os.environ["REDIS_URL"])
        _tables = {"game": Games(store), "resolution": Resolutions(store)}
    return _tables


def _stall() -> float:
    # Fault injection used by the end-to-end tests that kill a worker in the
    # middle of a step; unset in normal operation.
    return float(os.environ.get("ADJ_FAULT_STALL_SECONDS") or 0)


@observe.job
@observe.step
def advance(table: str, tid: str, seq: int) -> str:
    """Take step ``seq`` of a table that needs nobody now (a closed phase, server dice, a bot)."""
    return tables()[table].advance(tid, seq, stall=_stall())


@observe.job
@observe.step(deadline_arg=3)
def on_deadline(table: str, tid: str, seq: int, deadline: int) -> str:
    """A step's deadline has come; a superseded deadline makes it a no-op."""
    return tables()[table].on_deadline(tid, seq, deadline, stall=_stall())


class DeadlinesFailed(Exception):
    """Some deadlines of a batch failed; the retry of the batch re-runs them (the others are no-ops then)."""


DEADLINE_THREADS = int(os.environ.get("DEADLINE_THREADS", "4"))
_pool: ThreadPoolExecutor | None = None


@observe.job
def on_deadlines(entries: list[str]) -> str:
    """The job for a batch of due deadlines (``table:id:seq:deadline`` entries, see
    ``Store.dispatch_deadlines``): each is taken as :func:`on_deadline`, in its own
    transactions, ``DEADLINE_THREADS`` at a time (while one waits for Redis, and for
    its writes to reach the disk, another computes; Redis writes theirs to disk
    together).  One failing deadline does not hold up the others; the job then
    fails, and RQ's retry runs the batch again, where the deadlines already taken
    are no-ops."""
    global _pool
    tables()
    if _pool is None:
        _pool = ThreadPoolExecutor(DEADLINE_THREADS, thread_name_prefix="deadline")

    def take(entry: str) -> tuple[str, str | None]:
        table, tid, seq, deadline = entry.split(":")
        try:
            return str(on_deadline(table, tid, int(seq), int(deadline))), None
        except Exception as e:  # noqa: BLE001 - reported below, and the batch is retried
            log.exception("deadline %s failed", entry)
            return "", f"{entry}: {e!r}"

    results = list(_pool.map(take, entries))
    failed = [why for _, why in results if why]
    if failed:
        raise DeadlinesFailed(f"{len(failed)} of {len(entries)} deadlines failed: " + "; ".join(failed))
    taken = sum(not r.startswith("noop") for r, _ in results)
    return f"{taken} of {len(entries)} deadlines taken" if taken else f"noop: {len(entries)} deadlines superseded"
