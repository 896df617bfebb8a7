"""Accounts: a person (or a program playing for one) across games, and their reliability record.

An account is one Redis hash (``keys.account``): who it is (``name``, ``email``,
never shown) and the counters of its record.  Its token is shown once and kept
only as SHA-256 (``keys.account_tokens``: hash -> account id), like every token.

The counters change only inside the transaction of what changes them (a
phase's adjudication, a seat given up or taken, the end of a game, a
rollback): :meth:`Accounts.count` queues ``HINCRBY`` on the caller's pipe, so
a job that commits nothing (a replay, a racing run) counts nothing, and a
rollback takes back exactly what the phases it removes counted
(``workers.tables.games.seats``).
"""
from __future__ import annotations

from ..core import keys
from ..core.records import AuditEntry, PlayerRecord
from ..core.errors import Forbidden, NotFound
from ..core.store import hash_token, iso, new_id, new_token
from .viewers import who

COUNTERS = ("games", "finished", "phases_due", "phases_on_time", "civil_disorder", "left", "replaced", "took_over")
DELETED_NAME = "deleted account"


def record_of(raw: dict) -> dict:
    """The public record of an account hash as read."""
    counts = {name: int(raw.get(name) or 0) for name in COUNTERS}
    due, on_time = counts["phases_due"], counts["phases_on_time"]
    return {**counts, "missed": due - on_time, "reliability": round(on_time / due, 3) if due else None}


class Accounts:
    def __init__(self, store):
        self.store, self.r = store, store.r

    # ------------------------------------------------------------ the account itself
    def create(self, name: str, email: str | None = None) -> tuple[dict, str]:
        """A new account; returns its view and its token (shown this once)."""
        aid, token = f"u{new_id()}", new_token()
        with self.r.pipeline() as pipe:
            pipe.hset(keys.account(aid), mapping={"id": aid, "name": name, "email": email or "",
                                                  "created_at": self.store.now(),
                                                  **{counter: 0 for counter in COUNTERS}})
            pipe.hset(keys.account_tokens(), hash_token(token), aid)
            pipe.execute()
        return self.view(aid), token

    def view(self, aid: str) -> dict:
        """The public view: the name and the record (never the address)."""
        raw = self.r.hgetall(keys.account(aid))
        if not raw:
            raise NotFound(f"there is no account '{aid}'")
        return {"id": aid, "name": raw.get("name") or None, "created_at": iso(raw.get("created_at")),
                "deleted": bool(raw.get("deleted_at")), "record": record_of(raw)}

    def delete(self, aid: str, token: str | None) -> dict:
        """Drop the account's name, address and token; its games and record stay (the seats it held
        lose their address and show no name)."""
        if self.holder(token) != aid:
            raise Forbidden(f"only the holder of account '{aid}' may delete it")

        def body(pipe):
            games = pipe.smembers(keys.account_games(aid))
            seats = {gid: dict(pipe.hgetall(keys.players(gid))) for gid in games}
            logs = {gid: pipe.lrange(keys.audit("game", gid), 0, -1) for gid in games}
            pipe.multi()
            pipe.hset(keys.account(aid), mapping={"name": "", "email": "", "deleted_at": self.store.now()})
            pipe.hdel(keys.account_tokens(), hash_token(token))  # its one token, the one that asks
            for gid, players in seats.items():
                self._forget_in_game(pipe, gid, aid, players, logs[gid])

        watched = [keys.account(aid), keys.account_games(aid)]
        self.store.transact(watched, body)
        return self.view(aid)

    @staticmethod
    def _forget_in_game(pipe, gid: str, aid: str, players: dict[str, str], log: list[str]) -> None:
        """Queue (after MULTI): the account's seats in game ``gid`` and the entries of its audit log
        (``log``, as read) no longer name it."""
        for pid, raw in players.items():
            player = PlayerRecord.loads(raw)
            if player.account == aid:
                pipe.hset(keys.players(gid), pid, player.changed(email=None, name=DELETED_NAME).dumps())
        for i, raw in enumerate(log):
            entry = AuditEntry.loads(raw)
            if entry.detail.get("account") == aid and entry.detail.get("name"):
                pipe.lset(keys.audit("game", gid), i, AuditEntry(entry.at, entry.action, entry.by,
                                                                 {**entry.detail, "name": DELETED_NAME}).dumps())

    def games(self, aid: str) -> list[str]:
        """The games in which the account holds, or held, a seat."""
        return sorted(self.r.smembers(keys.account_games(aid)))

    # ------------------------------------------------------------ tokens
    def holder(self, token: str | None) -> str:
        """The account id of ``token``; 401 without one or for a token no account holds."""
        return who(self.r, "account", "", token).account_holder()

    # ------------------------------------------------------------ the record
    def reliability(self, reader, aid: str) -> float | None:
        due, on_time = reader.hmget(keys.account(aid), "phases_due", "phases_on_time")
        return int(on_time or 0) / int(due) if due and int(due) else None

    def require(self, reader, aid: str | None, minimum: float | None, gid: str) -> None:
        """403 if game ``gid`` asks for ``minimum`` reliability and ``aid`` (None: no account) falls short."""
        if not minimum:
            return
        if aid is None:
            raise Forbidden(f"game '{gid}' requires min_reliability {minimum}: join with an account token")
        found = self.reliability(reader, aid)
        if found is None or found < minimum:
            shown = "no phase due yet" if found is None else f"{found:.3f}"
            raise Forbidden(f"game '{gid}' requires min_reliability {minimum}; account '{aid}' has {shown}")

    @staticmethod
    def count(pipe, aid: str | None, **counts: int) -> None:
        """Queue (after MULTI, in the transaction of the change) the counters' increments of ``aid``."""
        if not aid:
            return
        for name, n in counts.items():
            if name not in COUNTERS:
                raise ValueError(f"no counter {name}")
            if n:
                pipe.hincrby(keys.account(aid), name, n)
