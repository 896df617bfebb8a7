"""One structured (JSON) log line per request, with a request id that is also
returned in the ``X-Request-Id`` header (a client's own id is kept if it sends
a sane one)."""
from __future__ import annotations

import re
import time
import uuid

from flask import g, request

from workers.runtime.observe import configure_logging

REQUEST_ID = "X-Request-Id"
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def init_app(app) -> None:
    """Register first, so that every other hook (and every error) sees the id and the clock."""
    log = configure_logging().getChild("request")

    @app.before_request
    def _start():
        g.started = time.perf_counter()
        sent = request.headers.get(REQUEST_ID, "")
        g.request_id = sent if _SANE_ID.fullmatch(sent) else uuid.uuid4().hex

    @app.after_request
    def _log(response):
        response.headers[REQUEST_ID] = g.get("request_id", "")
        log.info("request", extra={
            "request_id": g.get("request_id"), "method": request.method, "path": request.path[:200],
            "endpoint": request.endpoint, "status": response.status_code,
            "duration_ms": round((time.perf_counter() - g.get("started", time.perf_counter())) * 1000, 2),
            "client": request.remote_addr, "length": response.content_length})
        return response
