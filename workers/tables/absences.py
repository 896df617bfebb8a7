"""Absences: a player says when it will be away; the director approves, or the game does.

The game's ``settings.absences`` say how: ``approval`` (``director``: each
absence waits for the director; ``auto``: approved when declared) and
``effect`` (``extend``: a deadline that falls inside an approved absence of
a power that has no orders moves to the absence's end; ``civil_disorder``:
while away the power is not asked for orders, so a phase opening during the
absence does not wait for it, and its units hold).  ``workers.tables.games`` asks
:func:`covering` when a phase opens and when a deadline passes.

Absences are public (who, which powers, when, status), like the
list of who has submitted; they are kept in ``keys.absences`` for the
life of the game.
"""
from __future__ import annotations

import math

from ..core import keys
from ..core.errors import Conflict, Forbidden, Invalid, NotFound
from ..core.records import Absence
from ..core.store import FIRST_MOMENT, LAST_MOMENT, iso

MAX_DAYS = 30
DEFAULT_POLICY = {"approval": "director", "effect": "extend"}


def policy(settings: dict) -> dict:
    return {**DEFAULT_POLICY, **settings.get("absences", {})}


def covering(r, gid: str, powers, at: float) -> dict[str, float]:
    """Power -> end of an approved absence of its player that covers time ``at``."""
    found: dict[str, float] = {}
    for a in Absence.loads_all(r.hvals(keys.absences(gid))):
        if a.status == "approved" and a.start <= at < a.end:
            for power in set(a.powers) & set(powers):
                found[power] = max(found.get(power, 0), a.end)
    return found


def view(a: Absence) -> dict:
    return {**a.as_dict(), "start": iso(a.start), "end": iso(a.end), "declared_at": iso(a.declared_at)}


class Absences:
    """Declaring, deciding and cancelling absences, with the game's tokens."""

    def __init__(self, table):
        """``table``: the games' ``GameTable``."""
        self.t, self.store, self.r = table, table.store, table.r

    def list(self, gid: str) -> list[dict]:
        if not self.r.exists(keys.game(gid)):
            raise NotFound(f"there is no game '{gid}'")
        return [view(a) for a in sorted(Absence.loads_all(self.r.hvals(keys.absences(gid))), key=lambda a: a.start)]

    def declare(self, gid: str, token: str | None, start: float, end: float) -> dict:
        player = self.t.player_for(gid, token)
        start, end = int(start), math.ceil(end)
        if not (FIRST_MOMENT <= start and end <= LAST_MOMENT):  # checked before it is stored: every view shows it
            raise Invalid(f"body.end: an absence lies between {iso(FIRST_MOMENT)} and {iso(LAST_MOMENT)}")
        if end <= start:
            raise Invalid("body.end: the absence must end after it starts")
        if end <= self.t.store.now():
            raise Invalid("body.end: the absence is already over")
        if end - start > MAX_DAYS * 86400:
            raise Invalid(f"body.end: an absence lasts at most {MAX_DAYS} days")

        def body(pipe):
            g = self.t.load(pipe, gid)
            if g.status == "finished":
                raise Conflict(f"game '{gid}' is over")
            auto = policy(g.settings)["approval"] == "auto"
            aid = f"a{pipe.hlen(keys.absences(gid)) + 1}"
            absence = Absence(aid, player.id, player.powers, start, end, self.t.store.now(),
                              "approved" if auto else "pending")
            pipe.multi()
            pipe.hset(keys.absences(gid), aid, absence.dumps())
            return absence

        return view(self.store.transact([keys.game(gid), keys.absences(gid)], body))

    def _change(self, gid: str, aid: str, check, status: str) -> dict:
        def body(pipe):
            g = self.t.load(pipe, gid)
            raw = pipe.hget(keys.absences(gid), aid)
            if raw is None:
                raise NotFound(f"game '{gid}' has no absence '{aid}'")
            absence = Absence.loads(raw)
            check(g, absence)
            if absence.status == "cancelled":
                raise Conflict(f"absence '{aid}' was cancelled")
            absence = absence.changed(status=status)
            pipe.multi()
            pipe.hset(keys.absences(gid), aid, absence.dumps())
            return absence

        return view(self.store.transact([keys.game(gid), keys.absences(gid)], body))

    def decide(self, gid: str, token: str | None, aid: str, status: str) -> dict:
        """The director approves or rejects an absence."""
        return self._change(gid, aid, lambda g, a: self.t.check_director(g, token), status)

    def cancel(self, gid: str, token: str | None, aid: str) -> dict:
        """The player who declared an absence, or the director, cancels it."""
        def check(g, absence):
            viewer = self.t.who(gid, token)
            if viewer.is_director:
                return
            player = viewer.player()
            if player.id != absence.player:
                raise Forbidden(f"absence '{aid}' is not yours")

        return self._change(gid, aid, check, "cancelled")
