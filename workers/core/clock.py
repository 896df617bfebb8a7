"""The director's hold on a step's deadline: extend, pause and resume, the same for every table.

A table owns one :class:`Clock` (composition, not inheritance) and calls it
inside its own director transaction, after the director token is checked:
each action takes the typed record as read (before MULTI), refuses what its
state does not allow (``Conflict``, ``Invalid``), then calls ``pipe.multi()``
and queues its writes.  Nothing is returned; the table answers with its own view.

The clock fields of a record: ``status`` (``open`` while a step waits,
``paused``), ``seq``, ``deadline`` (whole epoch seconds, None if none),
``deadline_job`` (its entry in the deadline schedule), ``remaining`` (seconds
left while paused) and, for a game, ``waiting`` (the phase waits past its
deadline for missing orders, which an extension ends).
"""
from __future__ import annotations

import math
from typing import Callable

from . import live
from .errors import Conflict, Invalid
from .machine import Diagram
from .store import Store, iso


class Clock:
    def __init__(self, store: Store, diagram: Diagram, key: Callable[[str], str], what: Callable[[str], str],
                 status_word: Callable = lambda rec: str(rec.status)):
        """``diagram``: the table's state machine; ``key(id)``: the record's key; ``what(id)``: the
        table as messages name it; ``status_word(record)``: its status as messages name it."""
        self.store, self.diagram, self.key, self.what, self.status_word = store, diagram, key, what, status_word
        self.table = diagram.table

    def open(self, pipe, rec, seconds: float | None, **changes):
        """Queue (after MULTI) the opening of a step with ``seconds`` to run (None: no deadline):
        the move to ``open`` with its deadline scheduled, and ``changes`` (``seq`` among them for a
        new step); returns the record as written.  The one way a step of any table opens."""
        seq = changes.get("seq", rec.seq)
        return self.diagram.transition(self.store, pipe, self.key(rec.id), rec, "open", **changes,
                                       **self.store.deadline_fields(pipe, self.table, rec.id, seq, seconds))

    def due(self, rec, seq: int, deadline: int) -> str | None:
        """Why the deadline job of step ``seq``, scheduled for ``deadline``, has nothing to do now, or
        None when that deadline is the open step's own and has passed: the one check of every table's
        deadline job (an extension, a pause, an answer or another trigger supersedes a scheduled job)."""
        if rec.seq != seq or rec.status != "open" or rec.deadline != deadline:
            return "deadline superseded"
        if self.store.now() < deadline:
            return "too early"
        return None

    def extend(self, pipe, rec, seconds: int | None = None, until: float | None = None) -> None:
        """Move the deadline ``seconds`` later, or to ``until`` (epoch seconds, not earlier than it is)."""
        if rec.status == "paused" and rec.remaining is not None:
            if until is not None:
                raise Conflict(f"{self.what(rec.id)} is paused; extend it by 'seconds', or resume it first")
            pipe.multi()
            pipe.hset(self.key(rec.id), mapping=type(rec).encode(remaining=rec.remaining + seconds))
            self.tell(pipe, rec.changed(remaining=rec.remaining + seconds), "extend")
        elif rec.status == "open" and rec.deadline:
            if until is not None:
                deadline = math.ceil(until)
                if deadline < rec.deadline:
                    raise Invalid(f"body.deadline: {iso(until)} is before the current deadline "
                                  f"{iso(rec.deadline)}; a deadline can only be extended")
            else:
                deadline = max(rec.deadline, math.ceil(self.store.now())) + seconds
            pipe.multi()
            extra = {"waiting": False} if hasattr(rec, "waiting") else {}
            self.tell(pipe, self.diagram.set_clock(
                self.store, pipe, self.key(rec.id), rec, deadline=deadline, **extra,
                deadline_job=self.store.schedule_deadline(pipe, self.table, rec.id, rec.seq, deadline)), "extend")
        else:
            raise Conflict(f"{self.what(rec.id)} is {self.status_word(rec)}; only a step waiting for a deadline "
                           "can be extended")

    def pause(self, pipe, rec) -> None:
        if rec.status != "open":
            raise Conflict(f"{self.what(rec.id)} is {self.status_word(rec)}; only an open step can be paused")
        remaining = max(0.0, rec.deadline - self.store.now()) if rec.deadline else None
        pipe.multi()
        self.tell(pipe, self.diagram.transition(self.store, pipe, self.key(rec.id), rec, "paused",
                                                remaining=remaining), "pause")

    def resume(self, pipe, rec) -> None:
        if rec.status != "paused":
            raise Conflict(f"{self.what(rec.id)} is {self.status_word(rec)}, not paused")
        pipe.multi()
        self.tell(pipe, self.open(pipe, rec, rec.remaining), "resume")

    def tell(self, pipe, rec, why: str) -> None:
        """Queue (after MULTI) the ``deadline`` event of the record as written (``why``: extend, pause,
        resume, grace, wait)."""
        live.publish(self.store, pipe, self.table, rec.id, "deadline", {
            "why": why, "seq": rec.seq, "status": str(rec.status), "deadline": iso(rec.deadline),
            "remaining_seconds": rec.remaining})
