"""The lobby: public games, newest first, found through index sets that never scan every game.

Each public game is in sorted sets (``keys.lobby``) scored by its creation time:
``all``, its stage (``status:forming``, ``status:started``, ``status:finished``),
its variant (``variant:standard``) and, while one of its seats is open to take
over, ``open``.  The writes (:func:`enter`, :func:`stage`, :func:`seats_open`) are
queued on the pipe of the transaction that changes the game, so the index and
the games never disagree.  A private game, or a tournament's board, is never indexed.  A game whose keys
expired leaves its entries behind; a listing that meets one drops it.

A listing (:meth:`Lobby.list`) walks the most selective of the sets that
its filters name, newest first, from the cursor on, checking the other filters
on each id with ``ZSCORE``: its cost is the page and what it skips, never the
number of games.
"""
from __future__ import annotations

from adjudicator import diplomacy

from ..core import keys
from ..core.records import GameRecord, PlayerRecord
from ..core.store import iso
from . import press

STAGES = ("forming", "started", "finished")
STAGE_OF = {"forming": "forming", "open": "started", "paused": "started", "adjudicating": "started", "halted": "started",
            "finished": "finished"}
MAX_SCAN = 2000  # ids looked at per listing before it answers with what it found and a cursor
FIELDS = ("id", "name", "variant", "status", "phase", "settings", "created_at")


def listed(g: GameRecord) -> bool:
    """Whether the lobby lists ``g``: a public game, never a tournament's board (its director seats it)."""
    return g.settings.get("visibility", "public") == "public" and not g.tournament


def enter(pipe, g: GameRecord) -> None:
    """Queue (after MULTI): a game just made is in the lobby (if public), forming."""
    if listed(g):
        score = {g.id: g.created_at}
        pipe.zadd(keys.lobby("all"), score)
        pipe.zadd(keys.lobby(f"variant:{g.variant}"), score)
        pipe.zadd(keys.lobby("status:forming"), score)


def stage(pipe, g: GameRecord, status: str) -> None:
    """Queue (after MULTI): game ``g`` moves to ``status`` (a game status); its stage index follows."""
    now = STAGE_OF[str(status)]
    if not listed(g) or STAGE_OF[str(g.status)] == now:  # the index holds it where it stays
        return
    for other in STAGES:
        if other != now:
            pipe.zrem(keys.lobby(f"status:{other}"), g.id)
    pipe.zadd(keys.lobby(f"status:{now}"), {g.id: g.created_at})
    if now == "finished":
        pipe.zrem(keys.lobby("open"), g.id)


def seats_open(pipe, g: GameRecord, any_open: bool) -> None:
    """Queue (after MULTI): whether game ``g`` has a seat open to take over."""
    if not listed(g):
        return
    if any_open:
        pipe.zadd(keys.lobby("open"), {g.id: g.created_at})
    else:
        pipe.zrem(keys.lobby("open"), g.id)


def seat_summary(g: GameRecord, players: list[PlayerRecord]) -> dict:
    """``{taken, total, open}``: seats held by a player, all seats, the powers open to take over."""
    held = [p for p in players if p.powers and p.holds]
    taken = len(held) if g.seq else len([p for p in players if not p.retired])
    return {"taken": taken, "total": g.settings.get("seats", 0),
            "open": sorted(power for p in players if p.open for power in p.powers)}


class Lobby:
    def __init__(self, store):
        self.r = store.r

    def list(self, status: str | None = None, seats: str | None = None, variant: str | None = None,
             cursor: tuple[float, str] | None = None, limit: int = 20) -> dict:
        """Public games matching every filter given, newest first, ``limit`` at most, after ``cursor``
        (``(score, id)`` of the last game of the previous page); ``next`` is the next page's cursor."""
        filters = ([keys.lobby("open")] if seats == "open" else []) + \
                  ([keys.lobby(f"status:{status}")] if status else []) + \
                  ([keys.lobby(f"variant:{variant}")] if variant else [])
        base, others = (filters[0], filters[1:]) if filters else (keys.lobby("all"), [])
        found: list[tuple[str, float]] = []
        position, scanned, more = cursor, 0, False
        while len(found) <= limit:  # one more than the page: is there a next page?
            if scanned >= MAX_SCAN:
                more = True  # answer now; the cursor goes on from the last id looked at
                break
            top = "+inf" if position is None else position[0]
            chunk = self.r.zrevrangebyscore(base, top, "-inf", start=0, num=2 * limit + 2, withscores=True)
            if position is not None:  # equal scores come in descending id order: skip up to the position
                chunk = [(gid, s) for gid, s in chunk if not (s == position[0] and gid >= position[1])]
            if not chunk:
                break
            with self.r.pipeline(transaction=False) as pipe:
                for gid, _s in chunk:
                    for key in others:
                        pipe.zscore(key, gid)
                scores = pipe.execute()
            for i, (gid, score) in enumerate(chunk):
                scanned += 1
                position = (score, gid)
                if all(s is not None for s in scores[i * len(others):(i + 1) * len(others)]):
                    found.append((gid, score))
                    if len(found) > limit:
                        break
        if len(found) > limit:
            found, more = found[:limit], True
            position = (found[-1][1], found[-1][0])
        games = self._summaries([gid for gid, _s in found])
        return {"games": games, "next": f"{position[0]!r}_{position[1]}" if more else None}

    def page(self, query: dict) -> dict:
        """:meth:`list` for a listing's query as ``GET /v1/games`` takes it (``cursor`` as the
        previous page's ``next`` gave it)."""
        cursor = None
        if "cursor" in query:
            score, _, gid = query["cursor"].partition("_")
            cursor = (float(score), gid)
        return self.list(query.get("status"), query.get("seats"), query.get("variant"), cursor, query["limit"])

    def _summaries(self, ids: list[str]) -> list[dict]:
        with self.r.pipeline(transaction=False) as pipe:
            for gid in ids:
                pipe.hgetall(keys.game(gid))
                pipe.hvals(keys.players(gid))
            found = pipe.execute()
        games, gone = [], []
        for gid, raw, players in zip(ids, found[::2], found[1::2]):
            if not raw:
                gone.append(gid)
                continue
            g = GameRecord.restore(raw)
            settings = g.settings
            games.append({"id": gid, "name": g.name, "variant": g.variant, "status": str(g.status),
                          "phase": g.phase or None, "seats": seat_summary(g, PlayerRecord.loads_all(players)),
                          "deadlines": settings["deadlines"], "press": press.in_force(settings),
                          "min_reliability": settings.get("min_reliability"), "created_at": iso(g.created_at)})
        if gone:
            self._forget(gone)
        return games

    def _forget(self, ids: list[str]) -> None:
        """Drop games whose keys expired from every index."""
        names = ["all", "open", *(f"status:{s}" for s in STAGES), *(f"variant:{v}" for v in diplomacy.VARIANTS)]
        with self.r.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.zrem(keys.lobby(name), *ids)
            pipe.execute()
