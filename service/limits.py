"""Per-client rate limits on every request that creates something (a game, a
fork, a seat, a proposal, an absence, an account, a tournament, its players
and boards, a webhook, press, a resolution) and on those that change things at
volume (submissions, answers); and the same limits on the mail commands that
create something (:class:`MailLimits`, counted per sender address).

Flask-Limiter, counting in the service's Redis (keys ``dip:limits:*``) so that
every gunicorn process shares the counts.  **Quotas follow the credential**
(docs/clients.md, "Quotas"): a request whose token the service knows (an account's,
or a player's, director's or participant's of the table in its path) counts
against that token's hash, with the limits of
``workers.core.settings.CREDENTIAL_LIMITS`` (higher where an app serving many
players needs it) or else those of ``RATE_LIMITS``; only a request without such
a token counts against its address.  The token is checked before anything is
counted (one Redis round trip), so a made-up token neither spends another's
quota nor escapes its address's.  Over a limit a request gets a 429
problem+json naming the quota (its variable), whose it is, and when it resets,
with ``Retry-After``.  Each limit is a Flask-Limiter string (``"20 per minute;
200 per day"``) in the environment variable the settings name;
``RATE_LIMITS=off`` turns them all off (the test stack and the load script do,
as they play thousands of moves from one address).
If Redis cannot be reached the limits let requests through (the request then
meets the same Redis and gets its own 503).
"""
from __future__ import annotations

import logging
import os
import threading
from contextlib import contextmanager

import math
import time

from flask import current_app, g, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import STRATEGIES

from workers.core.errors import NotFound
from workers.core.settings import CREDENTIAL_LIMITS, RATE_LIMITS, Settings
from workers.core.store import iso
from workers.tables.viewers import Role, who

from . import drawing
from .http import RETRY_AFTER, problem


def init_app(app, redis_url: str, config: Settings) -> Limiter | None:
    """Put the limits of ``config.rate_limits`` on their endpoints (call after every blueprint is registered)."""
    if not config.rate_limits_on:
        return None
    limiter = Limiter(credential_key, app=app, storage_uri=config.rate_limit_storage or redis_url,
                      strategy=config.rate_limit_strategy, key_prefix="dip:limits",
                      headers_enabled=True, swallow_errors=True)
    for endpoint, limit in config.rate_limits.items():
        view = app.view_functions.get(endpoint)
        if view is not None:
            by_credential = config.credential_limits.get(endpoint, limit)
            app.view_functions[endpoint] = limiter.limit(
                lambda anonymous=limit, known=by_credential: known if holder()[0] != "address" else anonymous)(view)
    for endpoint, (variable, default, kind) in RENDER_LIMITS.items():
        if endpoint in app.view_functions:  # a render counts once drawn: a cached picture costs nothing
            app.view_functions[endpoint] = limiter.limit(
                os.environ.get(variable, default),
                deduct_when=lambda _response, kind=kind: kind in g.get("drawn", ()))(app.view_functions[endpoint])
    app.extensions["quota_limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, _refused)
    return limiter


# the quotas on drawing maps (endpoint -> environment variable, default), counted as the others:
# a stateless render, and a game's map drawn (a PNG or SVG not in the cache)
RENDER_LIMITS = {"maps.render": ("RATE_LIMIT_RENDER", "60 per minute; 1000 per day", "any"),
                 "maps.game_map_png": ("RATE_LIMIT_PNG", "30 per minute; 500 per day", "png"),
                 "maps.game_map_svg": ("RATE_LIMIT_SVG", "120 per minute", "svg")}

# what makes credentials counts against the address whatever token is sent: each new account
# would otherwise open a fresh quota for the next
BY_ADDRESS = {"accounts.create_account"}

QUOTA_KINDS = {Role.ACCOUNT: "account", Role.PLAYER: "player", Role.DIRECTOR: "director",
               Role.TOURNAMENT_DIRECTOR: "director", Role.PARTICIPANT: "participant"}


def holder() -> tuple[str, str]:
    """Whose quota the request spends: ``(kind, key)``, kind ``account``, ``player``, ``director`` or
    ``participant`` for a token the service knows (``workers.tables.viewers.who`` of the table in the
    request's path, or of the accounts), else ``address``.  Read once per request."""
    if "quota_holder" in g:
        return g.quota_holder
    found = ("address", get_remote_address() or "unknown")
    sent = token_or_none()
    if sent and request.endpoint not in BY_ADDRESS:
        args = request.view_args or {}
        table, tid = next(((t, args[f"{t}_id"]) for t in ("game", "resolution", "tournament") if args.get(f"{t}_id")),
                          ("account", ""))
        r = current_app.extensions["games"].r
        try:
            viewer = who(r, table, tid, sent)
        except NotFound:  # no such table: the route answers 404; the token may still be an account's
            viewer = who(r, "account", "", sent)
        if viewer.role is Role.PLAYER:  # every token of a seat (its API token, its mail) shares its quota
            found = ("player", seat_key(tid, viewer.holder))
        elif viewer.role in QUOTA_KINDS:
            found = (QUOTA_KINDS[viewer.role], viewer.digest)
    g.quota_holder = found
    return found


def seat_key(gid: str, pid: str) -> str:
    """Whose quota a player's request spends: its seat's, however it is sent (API or mail)."""
    return f"{gid}:{pid}"


def credential_key() -> str:
    kind, key = holder()
    return f"{kind}:{key}"


def _refused(e: RateLimitExceeded):
    """The 429: which quota, whose, and when it resets."""
    kind, _key = holder()
    endpoint = request.endpoint or ""
    named = (CREDENTIAL_LIMITS if kind != "address" and endpoint in CREDENTIAL_LIMITS else RATE_LIMITS)
    variable = named.get(endpoint, RENDER_LIMITS.get(endpoint, ("RATE_LIMITS",)))[0]
    current = current_app.extensions["quota_limiter"].current_limit
    resets = current.reset_at if current else time.time() + RETRY_AFTER
    wait = max(1, math.ceil(resets - time.time()))
    whose = "this address (send your account's token to count against the account)" if kind == "address" \
        else f"this {kind} token"
    resp = problem(429, "Too Many Requests",
                   f"quota {variable} spent: at most {e.limit.limit} for {whose}; it resets at "
                   f"{iso(resets)} (in {wait} s)", quota=variable, credential=kind, resets_at=iso(resets))
    resp.headers["Retry-After"] = str(wait)
    return resp


def token_or_none() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


class MailLimits:
    """The limits of the endpoints that the mail commands creating something stand for, counted per
    sender address (``SIGNON`` takes a seat as ``POST .../players`` does).  A sender's address can
    be forged: these stop one mailbox from flooding, as the API's stop one address."""

    COMMANDS = {"SIGNON": "games.join", "JOIN": "games.join", "DRAW": "games.propose",
                "CONCEDE": "games.propose", "ABSENCE": "games.declare_absence"}

    def __init__(self, redis_url: str, config: Settings):
        self.config = config
        self.limiter = None
        if config.rate_limits_on:
            storage = storage_from_string(config.rate_limit_storage or redis_url)
            self.limiter = STRATEGIES[config.rate_limit_strategy](storage)

    def refusal(self, word: str, sender: str) -> str | None:
        """Why the command ``word`` from ``sender`` is refused now (None: it may run; it is counted)."""
        endpoint = self.COMMANDS.get(word)
        if self.limiter is None or endpoint is None:
            return None
        return self._hit(self.config.rate_limits[endpoint], ("dip:limits:mail", endpoint, sender.lower()),
                         f"too many {word} commands from {sender}")

    def press_refusal(self, gid: str, pid: str) -> str | None:
        """Why one more message of press by mail from player ``pid`` of game ``gid`` is refused now:
        it counts against the very quota of ``POST .../press`` (the seat's, RATE_LIMIT_PRESS)."""
        if self.limiter is None:
            return None
        limit = self.config.credential_limits.get("press.send", self.config.rate_limits["press.send"])
        return self._hit(limit, ("dip:limits", f"player:{seat_key(gid, pid)}", "press.send"),
                         "quota RATE_LIMIT_PRESS spent")

    def _hit(self, limit: str, identifiers: tuple[str, ...], what: str) -> str | None:
        for item in parse_many(limit):
            try:
                allowed = self.limiter.hit(item, *identifiers)
            except Exception:  # the store is unreachable: let it through, as the API's limits do
                logging.getLogger(__name__).warning("mail rate limit not counted", exc_info=True)
                return None
            if not allowed:
                return f"{what}: at most {item} (try again later)"
        return None


class Busy(Exception):
    """Every place in a :class:`WorkQueue` of this process is taken: a 503 with ``Retry-After``."""


class WorkQueue:
    """Costly work of one kind this process has its children do (maps drawn, the bot's answers:
    service/drawing.py): ``running`` at once, ``waiting`` more in line, and every other one refused at
    once (:class:`Busy`), so that a flood of it waits in no line that the health check and the
    games' own requests share."""

    def __init__(self, what: str, running: int, waiting: int):
        self.what = what  # as the refusal names it: "maps are being drawn"
        self.slots = threading.BoundedSemaphore(running)  # made after gevent's patching: waits cooperatively
        self.lock = threading.Lock()
        self.admitted, self.bound = 0, running + waiting

    @contextmanager
    def turn(self):
        with self.lock:
            if self.admitted >= self.bound:
                raise Busy(f"{self.admitted} {self.what} or waiting here; try again in a moment")
            self.admitted += 1
        try:
            with self.slots:
                yield
        finally:
            with self.lock:
                self.admitted -= 1


def busy(e: Busy):
    """The 503 of a full work queue, with ``Retry-After``."""
    resp = problem(503, "Service Unavailable", f"busy: {e}")
    resp.headers["Retry-After"] = str(RETRY_AFTER)
    return resp


RENDERS = WorkQueue("maps are being drawn", drawing.PROCESSES, int(os.environ.get("RENDER_WAITING", 6)))
BOTS = WorkQueue("bot answers are being computed", drawing.BOT_PROCESSES, int(os.environ.get("BOT_WAITING", 4)))
