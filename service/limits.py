"""Per-client rate limits on the requests that create or change things at
volume: game creation, joins, submissions, resolution creation and answers.

Flask-Limiter, counting in the service's Redis (keys ``dip:limits:*``) so that
every gunicorn process shares the counts; a client is its address.  Over a
limit a request gets a 429 problem+json with ``Retry-After``.  Each limit is
a Flask-Limiter string (``"20 per minute; 200 per day"``) in the environment
variable named below; ``RATE_LIMITS=off`` turns them all off (the test stack
and the load script do, as they play thousands of moves from one address).
If Redis cannot be reached the limits let requests through (the request then
meets the same Redis and gets its own 503).
"""
from __future__ import annotations

import os

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# endpoint -> (environment variable, default limit per client)
LIMITS = {
    "games.create_game": ("RATE_LIMIT_CREATE_GAME", "20 per minute; 200 per day"),
    "games.join": ("RATE_LIMIT_JOIN", "30 per minute"),
    "games.submit_orders": ("RATE_LIMIT_SUBMIT", "120 per minute"),
    "resolutions.create": ("RATE_LIMIT_CREATE_RESOLUTION", "20 per minute; 200 per day"),
    "resolutions.answer": ("RATE_LIMIT_ANSWER", "120 per minute"),
}


def enabled() -> bool:
    return os.environ.get("RATE_LIMITS", "on").strip().lower() not in ("off", "0", "false", "no")


def init_app(app, redis_url: str) -> Limiter | None:
    """Put the limits on the endpoints above (call after every blueprint is registered)."""
    if not enabled():
        return None
    limiter = Limiter(get_remote_address, app=app, storage_uri=os.environ.get("RATE_LIMIT_STORAGE", redis_url),
                      strategy=os.environ.get("RATE_LIMIT_STRATEGY", "fixed-window"), key_prefix="dip:limits",
                      headers_enabled=True, swallow_errors=True)
    for endpoint, (variable, default) in LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is not None:
            app.view_functions[endpoint] = limiter.limit(os.environ.get(variable, default))(view)
    return limiter
