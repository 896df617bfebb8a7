"""The RQ jobs.  Both are idempotent per (game, phase number): running one twice,
or two at once, adjudicates the phase once (see workers.state)."""
from __future__ import annotations

import os

from .state import Store

_store: Store | None = None


def store() -> Store:
    global _store
    if _store is None:
        _store = Store(os.environ["REDIS_URL"])
    return _store


def _stall() -> float:
    # Fault injection used by the end-to-end test that kills a worker in the
    # middle of an adjudication; unset in normal operation.
    return float(os.environ.get("ADJ_FAULT_STALL_SECONDS") or 0)


def adjudicate_phase(gid: str, seq: int) -> str:
    """Adjudicate a phase that was closed early (all ready, director, nothing to order)."""
    return store().adjudicate(gid, seq, stall=_stall())


def on_deadline(gid: str, seq: int, deadline: int) -> str:
    """Scheduled for a phase's deadline: close the phase if that deadline is still
    current, then adjudicate it.  A superseded deadline (extended, paused, closed
    early) makes this a no-op."""
    if not store().close_at_deadline(gid, seq, deadline):
        return "noop: deadline superseded or phase waits for missing orders"
    return store().adjudicate(gid, seq, stall=_stall())
