"""Slow clients: a request's body is read whole, within a deadline, before the application runs.

The API runs under gunicorn's gevent worker (service/gunicorn_worker.py): a connection that sends
slowly holds a greenlet, not a thread, so a few hundred stalled uploads leave the others served.
What bounds them:

* the request line and headers must arrive within gunicorn's ``keepalive`` (5 s,
  service/gunicorn_conf.py), or the connection is closed;
* the body within ``REQUEST_BODY_TIMEOUT`` (10 s) of the headers, read here: or a 408
  problem+json and the connection closed (what was not read of the body is not waited for).

Without gevent (another worker class, the tests' in-process client) the body is read plainly.
"""
from __future__ import annotations

import io
import json

from gevent import Timeout, monkey


class BodyDeadline:
    """WSGI middleware: read the request body (at most ``max_bytes`` + 1) within ``seconds``."""

    def __init__(self, app, seconds: float, max_bytes: int):
        self.app, self.seconds, self.max_bytes = app, seconds, max_bytes

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked and not (length.isdigit() and 0 < int(length) <= self.max_bytes):
            return self.app(environ, start_response)  # no body, or one refused unread (413)
        want = self.max_bytes + 1 if chunked else int(length)
        try:
            if monkey.is_module_patched("socket"):
                with Timeout(self.seconds):
                    body = _read(environ["wsgi.input"], want)
            else:
                body = _read(environ["wsgi.input"], want)
        except Timeout:
            return self._timed_out(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        if not chunked:
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)

    def _timed_out(self, environ, start_response):
        close = getattr(getattr(start_response, "__self__", None), "force_close", None)
        if close is not None:  # gunicorn's response: no keep-alive, the rest of the body is not awaited
            close()
        body = json.dumps({"type": "about:blank", "title": "Request Timeout", "status": 408,
                           "detail": f"body: not received within {self.seconds:g} s of the headers; "
                                     "send the whole body at once",
                           "instance": environ.get("PATH_INFO", "")}).encode()
        start_response("408 Request Timeout", [("Content-Type", "application/problem+json"),
                                               ("Content-Length", str(len(body)))])
        return [body]


def _read(stream, want: int) -> bytes:
    """Up to ``want`` bytes of ``stream``, fewer if it ends first."""
    parts, got = [], 0
    while got < want:
        part = stream.read(min(want - got, 65536))
        if not part:
            break
        parts.append(part)
        got += len(part)
    return b"".join(parts)
