"""The RQ jobs.  A job names only ``(table, id, seq)`` and is idempotent per step:
running one twice, or two at once, takes the step once (see ``workers.store``)."""
from __future__ import annotations

import os

from . import observe
from .store import Store

_tables: dict | None = None


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
    """Scheduled for a step's deadline; a superseded deadline makes it a no-op."""
    return tables()[table].on_deadline(tid, seq, deadline, stall=_stall())
