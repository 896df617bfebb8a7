"""What happens at a table, told to whoever listens (webhooks, e-mail), each exactly once.

A change that others should hear of calls :func:`emit` inside its own
transaction: the event is queued as one RQ job per listener in the same
MULTI, so it is sent if and only if the change commits (a phase's event only
for the listeners that would hear it: :func:`game_listeners`).  The job id is made
from the event's id, and each listener keeps its own record of what it has
done per event id, so a job run twice (a retry after a crash) does its work
once.

A listener is a function ``on_event(store, event) -> JobOutcome`` of a
delivery module, named in :data:`LISTENERS`; the job that calls it is
``workers.runtime.jobs.deliver_event``.  An event is ``{"id", "type", "table", "table_id",
"at", "data"}``; ``data`` holds only what the event's audience may see (no
orders before they are adjudicated, no ballots).
"""
from __future__ import annotations

import re

from rq import Retry

from ..core import keys
from ..core.records import PlayerRecord
from ..core.store import Store

TYPES = ("phase_adjudicated", "deadline_approaching", "deadline_passed", "game_ended", "vote_passed",
         "player_joined", "press", "seat",
         # heard by the mail alone: a webhook is not offered them
         "game_started", "vote_proposed", "vote_lapsed")
LISTENERS = ("webhooks", "mail")
RETRY = Retry(max=8, interval=[1, 2, 5, 10, 30, 60, 300, 900])


def game_hooks(gid: str) -> str:
    """The key a game's listeners depend on besides its players: watch it with :func:`game_listeners`."""
    return keys.hooks(f"game:{gid}")


def game_listeners(reader, gid: str, tournament: str | None, players: list[PlayerRecord]) -> tuple[str, ...]:
    """The listeners an event of game ``gid`` would reach now (read before MULTI, with the game's
    players and :func:`game_hooks` watched): ``webhooks`` if the game (or its tournament, not
    read here) has a subscription, ``mail`` if a player has an address.  An event nobody would
    hear is not queued, which spares a deadline of many games a job per listener and game."""
    heard = ("webhooks",) if tournament or reader.scard(game_hooks(gid)) else ()
    return heard + (("mail",) if any(p.email for p in players) else ())


def emit(store: Store, pipe, table: str, table_id: str, type_: str, key: str, data: dict,
         listeners: tuple[str, ...] = LISTENERS) -> None:
    """Queue (after MULTI, in ``pipe``'s transaction) event ``type_`` of a table for ``listeners``
    (every listener unless told: press is mailed by its own change, so it skips ``mail``).

    ``key`` makes the event's id unique and stable (e.g. the phase number), so
    that a re-run of the change that emits it gives the same id."""
    assert type_ in TYPES, type_
    event = {"id": f"{table}:{table_id}:{type_}:{key}", "type": type_, "table": table, "table_id": table_id,
             "at": store.now(), "data": data}
    for listener in listeners:
        job_id = re.sub(r"[^A-Za-z0-9_-]", "-", f"event-{listener}-{event['id']}")  # RQ's job id alphabet
        store.enqueue(pipe, "workers.runtime.jobs.deliver_event", listener, event, job_id=job_id, retry=RETRY)
