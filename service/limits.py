"""Per-client rate limits on every request that creates something (a game, a
fork, a seat, a proposal, an absence, an account, a tournament, its players
and boards, a webhook, press, a resolution) and on those that change things at
volume (submissions, answers); and the same limits on the mail commands that
create something (:class:`MailLimits`, counted per sender address).

Flask-Limiter, counting in the service's Redis (keys ``dip:limits:*``) so that
every gunicorn process shares the counts; a client is its address.  Over a
limit a request gets a 429 problem+json with ``Retry-After``.  Each limit is
a Flask-Limiter string (``"20 per minute; 200 per day"``) in the environment
variable that ``workers.core.settings.RATE_LIMITS`` names; ``RATE_LIMITS=off`` turns them all off (the test stack
and the load script do, as they play thousands of moves from one address).
If Redis cannot be reached the limits let requests through (the request then
meets the same Redis and gets its own 503).
"""
from __future__ import annotations

import logging

from flask import request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import STRATEGIES

from workers.core.settings import PER_TOKEN, Settings
from workers.core.store import hash_token


def init_app(app, redis_url: str, config: Settings) -> Limiter | None:
    """Put the limits of ``config.rate_limits`` on their endpoints (call after every blueprint is registered)."""
    if not config.rate_limits_on:
        return None
    limiter = Limiter(get_remote_address, app=app, storage_uri=config.rate_limit_storage or redis_url,
                      strategy=config.rate_limit_strategy, key_prefix="dip:limits",
                      headers_enabled=True, swallow_errors=True)
    for endpoint, limit in config.rate_limits.items():
        view = app.view_functions.get(endpoint)
        if view is not None:
            per_token = endpoint in PER_TOKEN
            app.view_functions[endpoint] = limiter.limit(limit, key_func=token_key if per_token else None)(view)
    return limiter


def token_key() -> str:
    """Who a per-token limit counts: the bearer token's hash (the client's address if it sent none)."""
    sent = token_or_none()
    return f"token:{hash_token(sent)}" if sent else get_remote_address()


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
        for item in parse_many(self.config.rate_limits[endpoint]):
            try:
                allowed = self.limiter.hit(item, "dip:limits:mail", endpoint, sender.lower())
            except Exception:  # the store is unreachable: let it through, as the API's limits do
                logging.getLogger(__name__).warning("mail rate limit not counted", exc_info=True)
                return None
            if not allowed:
                return f"too many {word} commands from {sender}: at most {item} (try again later)"
        return None
