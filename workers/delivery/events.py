"""What happens at a table, told to whoever listens (webhooks, e-mail), each exactly once.

A change that others should hear of calls :func:`emit` inside its own
transaction: the event is queued as one RQ job per listener in the same
MULTI, so it is sent if and only if the change commits.  The job id is made
from the event's id, and each listener keeps its own record of what it has
done per event id, so a job run twice (a retry after a crash) does its work
once.

A listener is a function ``on_event(event: dict) -> str`` named in
:data:`LISTENERS` as ``"module:function"``; a listener module that does not
exist (yet) is skipped.  An event is ``{"id", "type", "table", "table_id",
"at", "data"}``; ``data`` holds only what the event's audience may see (no
orders before they are adjudicated, no ballots).
"""
from __future__ import annotations

import importlib
import importlib.util
import re
import time

from rq import Retry

from .store import JOB_TIMEOUT, Store

TYPES = ("phase_adjudicated", "deadline_approaching", "deadline_passed", "game_ended", "vote_passed",
         "player_joined")
LISTENERS = ("workers.webhooks:on_event", "workers.mail:on_event")
RETRY = Retry(max=8, interval=[1, 2, 5, 10, 30, 60, 300, 900])


def _listeners() -> list[str]:
    found = []
    for name in LISTENERS:
        module = name.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            found.append(name)
    return found


def emit(store: Store, pipe, table: str, table_id: str, type_: str, key: str, data: dict) -> None:
    """Queue (after MULTI, in ``pipe``'s transaction) event ``type_`` of a table for every listener.

    ``key`` makes the event's id unique and stable (e.g. the phase number), so
    that a re-run of the change that emits it gives the same id."""
    assert type_ in TYPES, type_
    event = {"id": f"{table}:{table_id}:{type_}:{key}", "type": type_, "table": table, "table_id": table_id,
             "at": time.time(), "data": data}
    for listener in _listeners():
        job_id = re.sub(r"[^A-Za-z0-9_-]", "-", f"event-{listener}-{event['id']}")  # RQ's job id alphabet
        store.queue.enqueue("workers.events.deliver", listener, event, job_id=job_id, retry=RETRY,
                            job_timeout=JOB_TIMEOUT, pipeline=pipe)


def deliver(listener: str, event: dict) -> str:
    """The job: hand ``event`` to one listener."""
    module, function = listener.split(":")
    return getattr(importlib.import_module(module), function)(event)
