"""Deadline reminders: the one mechanism that tells powers without orders that a deadline is near.

A game sets offsets (``settings.reminders``, seconds before the deadline,
e.g. ``[86400, 3600]``).  When a phase opens, :func:`schedule` puts one timer
per offset on the service's schedule (``Store.schedule_timer``, in the same
transaction), due ``offset`` seconds before the deadline; the phase's
adjudication takes them off (:func:`cancel`).  The step, :func:`remind`, follows the deadline rather
than trusting it: if the phase is over it stops; if the deadline has moved
later (extension, absence) it schedules itself again for the new time; while
the clock is paused it checks back when the reminder could first be due; and
when it is due it emits ``deadline_approaching`` through ``workers.delivery.events``
with the powers that have no orders, once per phase and offset, to the listeners the
game has.  The mail listener sends the reminders from that event, and webhooks deliver it too.
"""
from __future__ import annotations

from ..core import keys
from ..core.outcome import JobOutcome
from ..core.records import GameRecord, PlayerRecord
from . import events
from ..core.store import iso

DEFAULT = [24 * 3600, 3600]
POLL = 60  # seconds between checks while the clock is paused


def schedule(store, pipe, gid: str, seq: int, deadline: int | str, offsets: list[int]) -> None:
    """Queue (after MULTI) the reminders of phase ``seq`` whose time is still to come (a second from now
    or later)."""
    if deadline in (None, ""):
        return
    for offset in offsets:
        # at least a second after the phase opens: an offset as long as the phase (its deadline rounded up
        # to the second) would remind the players within that second of their start notice
        if int(deadline) - offset >= store.now() + 1:
            store.schedule_timer(pipe, int(deadline) - offset, "remind", gid, seq, offset)


def cancel(store, pipe, gid: str, seq: int, offsets: list[int]) -> None:
    """Queue (after MULTI): phase ``seq`` is over, and its reminders with it."""
    for offset in offsets:
        store.cancel_timer(pipe, "remind", gid, seq, offset)


def remind(store, gid: str, seq: int, offset: int) -> JobOutcome:
    """The reminder of phase ``seq``, ``offset`` seconds before its deadline."""

    def body(pipe):
        found = pipe.hgetall(keys.game(gid))
        g = GameRecord.restore(found) if found else None
        if not g or g.seq != seq or g.status not in ("open", "paused") or g.late:
            return JobOutcome.noop("the phase is over or its deadline has passed")
        now = store.now()
        if not g.deadline:  # paused: the reminder is due no sooner than this
            pipe.multi()
            store.schedule_timer(pipe, now + max((g.remaining or 0) - offset, POLL), "remind", gid, seq, offset)
            return JobOutcome.did("paused: checking back later")
        deadline = g.deadline
        if now >= deadline:
            return JobOutcome.noop("the deadline has passed")
        if now < deadline - offset - 1:
            pipe.multi()
            store.schedule_timer(pipe, deadline - offset, "remind", gid, seq, offset)
            return JobOutcome.did("the deadline moved: rescheduled")
        submitted = set(pipe.hkeys(keys.orders(gid, seq)))
        missing = [p for p in g.to_order if p not in submitted and p not in g.bots]  # the bot is never late
        if not missing:
            return JobOutcome.noop("every power has orders")
        heard = events.game_listeners(pipe, gid, g.tournament, PlayerRecord.loads_all(pipe.hvals(keys.players(gid))))
        pipe.multi()
        events.emit(store, pipe, "game", gid, "deadline_approaching", f"{seq}-{offset}",
                    {"seq": seq, "phase": g.phase, "deadline": iso(deadline), "seconds_before": offset,
                     "missing": missing}, listeners=heard)
        return JobOutcome.did(f"reminded {', '.join(missing)}")

    return store.transact([keys.game(gid), keys.players(gid), events.game_hooks(gid)], body)  # and who hears it
