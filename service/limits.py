"""Per-client rate limits on the requests that create or change things at
volume: game creation, joins, submissions, resolution creation and answers.

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

from flask import request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

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
