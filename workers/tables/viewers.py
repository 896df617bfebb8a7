"""Who holds a token: the one answer that every read, write, event stream, mail command, quota and
page asks (:func:`who`).

A token is one of: a game's director token (a tournament's boards share their tournament
director's), a player's token of a game, a resolution's director or participant token, a
tournament director's token, or an account token.  :func:`who` reads, in one round trip, what
decides it for one table and answers a :class:`Viewer`; the table's rules then ask the viewer
(:meth:`Viewer.player`, :meth:`Viewer.director`, ...), which refuse with the same 401 and 403
everywhere.

A token the table does not know, or a player's token whose seat was given up, is a viewer of
role ``anyone`` that remembers why (``refused``): public views answer it as anyone, the rest
refuse it with that reason.  Nothing here caches: a token that stops working stops at the next
question, which is what ends a session or an event stream.
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass
from enum import StrEnum

from ..core import keys
from ..core.errors import Forbidden, NotFound, Unauthorized
from ..core.records import PlayerRecord
from ..core.store import hash_token

TABLES = ("game", "resolution", "tournament", "account")


class Role(StrEnum):
    ANYONE = "anyone"  # no token, or one this table does not know
    PLAYER = "player"  # a player of a game: its powers
    DIRECTOR = "director"  # the director of a game (a tournament board's: the tournament director) or resolution
    TOURNAMENT_DIRECTOR = "tournament_director"
    PARTICIPANT = "participant"  # of a resolution
    ACCOUNT = "account"  # an account token (on a table, one that is none of the above)


@dataclass(frozen=True)
class Viewer:
    table: str
    id: str
    role: Role = Role.ANYONE
    holder: str | None = None  # the player's, participant's or account's id
    seat: PlayerRecord | None = None  # a player's seat
    account: str | None = None  # the account of an account token
    digest: str | None = None  # the token's hash (None: no token was sent)
    refused: str | None = None  # why a token that was sent counts as anyone here

    @property
    def what(self) -> str:
        return f"{self.table} '{self.id}'"

    @property
    def powers(self) -> list[str]:
        return list(self.seat.powers) if self.seat else []

    @property
    def is_director(self) -> bool:
        return self.role in (Role.DIRECTOR, Role.TOURNAMENT_DIRECTOR)

    @property
    def known(self) -> bool:
        """Whether the token holds a place at this table (director, player or participant)."""
        return self.role in (Role.DIRECTOR, Role.TOURNAMENT_DIRECTOR, Role.PLAYER, Role.PARTICIPANT)

    def audiences(self) -> frozenset[str]:
        """The audiences of the table's live events this viewer is in (empty: none, which ends a stream)."""
        if self.is_director:
            return frozenset({"director"})
        if self.role in (Role.PLAYER, Role.PARTICIPANT):
            return frozenset({self.holder, *self.powers})
        return frozenset()

    # ------------------------------------------------------------ what a rule asks
    def player(self) -> PlayerRecord:
        """The seat of a player of a game: 401 for no token, an unknown one, or a seat given up."""
        if self.role is Role.PLAYER:
            return self.seat
        if self.digest is None:
            raise Unauthorized("this needs a player token: send 'Authorization: Bearer <token>'")
        raise Unauthorized(self.refused or f"the token is not a token of a player of {self.what}")

    def director(self) -> None:
        """401 without a token or with one the table does not know; 403 for its other tokens."""
        if self.is_director:
            return
        if self.digest is None:
            raise Unauthorized("this needs the director token: send 'Authorization: Bearer <token>'")
        if self.known:
            raise Forbidden(f"only the director of {self.what} may do this")
        raise Unauthorized(f"the token is not a token of {self.what}; this needs its director token")

    def participant_or_director(self) -> None:
        """401 unless the token is the director's or a participant's (or a player's) here."""
        if self.known:
            return
        if self.digest is None:
            raise Unauthorized("this needs a token: send 'Authorization: Bearer <token>'")
        raise Unauthorized(self.refused or f"the token is not a token of {self.what}")

    def account_holder(self) -> str:
        """The account id of an account token: 401 otherwise."""
        if self.account:
            return self.account
        if self.digest is None:
            raise Unauthorized("this needs an account token: send 'Authorization: Bearer <token>'")
        raise Unauthorized("the token is not an account token")


# ---------------------------------------------------------------- reading
def queue(reads, table: str, tid: str, token: str | None) -> int:
    """Queue on the non-transactional pipeline ``reads`` what :func:`decide` needs; returns how many
    answers it adds (so a caller may queue reads of its own around them)."""
    digest = hash_token(token or "")
    reads.hget(keys.account_tokens(), digest)
    if table == "game":
        reads.hget(keys.game(tid), "director").hget(keys.tokens(tid), digest).hgetall(keys.players(tid))
        return 4
    if table == "resolution":
        reads.hget(keys.resolution(tid), "director").hget(keys.resolution_tokens(tid), digest)
        return 3
    if table == "tournament":
        reads.hget(keys.tournament(tid), "director")
        return 2
    return 1


def decide(table: str, tid: str, token: str | None, answers: list) -> Viewer:
    """The viewer that ``answers`` (what :func:`queue` read, in order) say ``token`` is."""
    account, director, holder, players = (list(answers) + [None, None, None])[:4]
    digest = hash_token(token) if token else None
    if table != "account" and director is None:
        raise NotFound(f"there is no {table} '{tid}'")
    viewer = Viewer(table, tid, digest=digest, account=account)
    if digest is None:
        return viewer
    if director is not None and hmac.compare_digest(director, digest):
        role = Role.TOURNAMENT_DIRECTOR if table == "tournament" else Role.DIRECTOR
        return Viewer(table, tid, role, digest=digest, account=account)
    if table == "game" and holder is not None:
        raw = (players or {}).get(holder)
        seat = PlayerRecord.loads(raw) if raw else None
        if seat is not None and seat.holds:
            return Viewer(table, tid, Role.PLAYER, holder, seat, account, digest)
        return Viewer(table, tid, digest=digest, account=account,
                      refused=f"this token's seat in game '{tid}' was given up; it no longer plays")
    if table == "resolution" and holder is not None:
        return Viewer(table, tid, Role.PARTICIPANT, holder, digest=digest, account=account)
    if account is not None:
        return Viewer(table, tid, Role.ACCOUNT, account, digest=digest, account=account)
    return Viewer(table, tid, digest=digest)


def who(r, table: str, tid: str, token: str | None) -> Viewer:
    """Who ``token`` is at ``table`` ``tid`` (``table`` one of :data:`TABLES`; for ``account``, ``tid``
    is ignored), in one round trip; 404 if there is no such table."""
    with r.pipeline(transaction=False) as reads:
        queue(reads, table, tid, token)
        return decide(table, tid, token, reads.execute())
