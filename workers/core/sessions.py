"""The pages' sessions and one-time sign-in codes (contracts/play.md, "Signing in"), in Redis.

A session is one hash (``keys.session``), found by the hash of the random id its cookie holds:
for each table signed in to (``"game:{id}"``, ``"account:"``...) the hash of the token given, and
the forms' CSRF secret.  It holds no token: a page asks ``workers.tables.viewers.who`` with the
hash (a :class:`~workers.core.store.Digest`) at every request, so a session ends when its token
stops working (the page then forgets that table and signs the person out of it).

A sign-in code (``keys.signin_code``) stands for a token's hash at one table: made for a mail
(``workers.delivery.mail``) or an invitation link, it works once (``GETDEL``) and for at most
:data:`CODE_TTL` seconds.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from . import keys
from .records import SigninCode
from .store import Digest, hash_token

SESSION_TTL = 30 * 86400  # seconds a session lasts after its last sign-in
CODE_TTL = 7 * 86400  # seconds a sign-in code works, at most
CSRF = "_csrf"
TOKEN_PLACE_TTL = 365 * 86400  # seconds /signin remembers where a token was issued


@dataclass(frozen=True)
class Place:
    """Where a token holds a place: a table (``game``, ``resolution``, ``tournament``, ``account``) and its id."""

    table: str
    id: str

    @property
    def field(self) -> str:
        return f"{self.table}:{self.id}"


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def read(r, sid: str | None) -> dict[str, str]:
    """The session's fields (``{}`` for none, or one that expired)."""
    return r.hgetall(keys.session(hash_token(sid))) if sid else {}


def digest_at(fields: dict[str, str], place: Place) -> Digest | None:
    """The token's hash a session holds for ``place``, as a Digest for ``who``."""
    found = fields.get(place.field)
    return Digest(found) if found else None


def places(fields: dict[str, str]) -> list[Place]:
    return [Place(*name.split(":", 1)) for name in fields if name != CSRF]


def sign_in(r, sid: str, place: Place, digest: str) -> None:
    key = keys.session(hash_token(sid))
    with r.pipeline() as pipe:
        pipe.hset(key, place.field, digest)
        pipe.expire(key, SESSION_TTL)
        pipe.execute()


def set_field(r, sid: str, name: str, value: str) -> None:
    key = keys.session(hash_token(sid))
    with r.pipeline() as pipe:
        pipe.hset(key, name, value)
        pipe.expire(key, SESSION_TTL)
        pipe.execute()


def forget(r, sid: str, place: Place) -> None:
    """The session is no longer signed in at ``place`` (its token stopped working)."""
    r.hdel(keys.session(hash_token(sid)), place.field)


def end(r, sid: str) -> None:
    r.delete(keys.session(hash_token(sid)))


# ---------------------------------------------------------------- one-time sign-in codes
def make_code(pipe, place: Place, digest: str) -> str:
    """Queue on ``pipe`` (a transaction's, after MULTI, or a plain pipeline) a new one-time code
    for the token whose hash is ``digest`` at ``place``; returns the code."""
    code = secrets.token_urlsafe(24)
    pipe.set(keys.signin_code(hash_token(code)), SigninCode(place.table, place.id, digest).dumps(), ex=CODE_TTL)
    return code


def redeem(r, code: str) -> tuple[Place, Digest] | None:
    """What ``code`` stands for, once: None for an unknown, used or expired code."""
    raw = r.getdel(keys.signin_code(hash_token(code)))
    if raw is None:
        return None
    found = SigninCode.loads(raw)
    return Place(found.table, found.id), Digest(found.digest)


def secret(r) -> str:
    """The pages' signing key: made once, shared by every process of the service."""
    r.set(keys.pages_secret(), secrets.token_hex(32), nx=True)
    return r.get(keys.pages_secret())


def issued(pipe, place: Place, digest: str) -> None:
    """Remember that the token with hash ``digest`` was issued for ``place``: /signin then takes the
    token alone. Only a hint: ``who`` still decides whether the token opens anything there."""
    pipe.set(keys.token_place(digest), place.field, ex=TOKEN_PLACE_TTL)


def issued_for(r, token: str) -> Place | None:
    """Where ``token`` was issued (``issued``), if anywhere."""
    found = r.get(keys.token_place(hash_token(token))) if token else None
    return Place(*found.split(":", 1)) if found else None
