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

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from workers.core.settings import Settings


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
            app.view_functions[endpoint] = limiter.limit(limit)(view)
    return limiter
