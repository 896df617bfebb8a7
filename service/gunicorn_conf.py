"""gunicorn's settings for the API: ``gunicorn -c python:service.gunicorn_conf 'service.app:create_app()'``
(the launcher passes it; command-line flags still override what is set here).

* What gunicorn itself refuses before the application sees it (a request
  line over ``limit_request_line``, a malformed request, headers too large)
  is answered as problem+json like every other error, not gunicorn's HTML.
* A request whose body will not be read whole (announced larger than the
  API takes, so the answer is a 413 without reading it; or chunked, whose
  length nobody knows) is answered with ``Connection: close``: gunicorn drains
  at most 64 KiB of an unread body before the next request, and closes the
  connection when it cannot, so announcing keep-alive there would be a lie.
* The Prometheus files of a gunicorn worker that exits are marked dead.
* The worker class is ``service.gunicorn_worker.ServiceWorker``: under the
  launcher, a worker whose master was killed keeps serving until the next
  master's first worker is ready, which tells the launcher (SIGUSR1) to end
  the old ones (docs/service.md, *Recovery*).  It is gevent's: the live event
  streams (service/events_api.py) hold thousands of connections, each a
  greenlet waiting on its table's feed, where gthread would tie a thread to each.
* The access log (off unless ``--access-logfile`` is given) shows a
  ``?token=`` (taken on the event streams for browsers' EventSource) as
  ``token=REDACTED``.
"""
from __future__ import annotations

import json
import os
import re
import signal

from gunicorn import util
from gunicorn.glogging import Logger

from workers.runtime import observe  # noqa: F401  (sets PROMETHEUS_MULTIPROC_DIR for the workers gunicorn forks)

# The application (service.*) is imported by each worker, never here: a worker restarted by a HUP gets new code.
PROBLEM = "application/problem+json"

worker_class = "service.gunicorn_worker.ServiceWorker"  # gevent's, adopted by the launcher
keepalive = 5  # s: an idle kept-alive connection, and a request's line and headers, at most

_DETAILS = {
    414: "path: the request line (method, path and query) is too long: {mesg}",
    431: "headers: too large: {mesg}",
    400: "the request is not valid HTTP: {mesg}",
    403: "the request is not allowed: {mesg}",
    417: "header Expect: {mesg}",
    500: "the service failed to handle this request; it may or may not have been applied",
    501: "{mesg}",
}


def _write_problem(sock, status_int, reason, mesg):
    detail = _DETAILS.get(status_int, "{mesg}").format(mesg=mesg or reason)
    body = json.dumps({"type": "about:blank", "title": reason, "status": status_int, "detail": detail})
    util.write_nonblock(sock, (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
                               f"Content-Type: {PROBLEM}\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode("latin-1"))


util.write_error = _write_problem


_TOKEN = re.compile(r"(^|[?&])token=[^&\s]*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` (a request line, a query) with any ``token=`` value replaced."""
    return _TOKEN.sub(r"\1token=REDACTED", text)


class RedactingLogger(Logger):
    """gunicorn's logger, with the query's token redacted in every access-log field that shows it."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "q", "U"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        for key in ("{raw_uri}e", "{query_string}e"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        if "{authorization}i" in atoms:  # a format that logs request headers never logs a token
            atoms["{authorization}i"] = "REDACTED"
        return atoms


logger_class = RedactingLogger


def pre_request(worker, req):
    from service.http import MAX_BODY

    length = next((value for name, value in req.headers if name == "CONTENT-LENGTH"), "")
    chunked = any(name == "TRANSFER-ENCODING" for name, _ in req.headers)
    if chunked or (length.isdigit() and int(length) > MAX_BODY):
        req.force_close()


def when_ready(server):
    from workers.core import connection, settings

    connection.announce(settings.current().redis_url, "api")


def post_worker_init(worker):
    from workers.core import settings

    launcher = settings.current().launcher_pid
    if launcher and os.getppid() == worker.ppid:  # this worker serves: what a killed master left may stop now
        try:
            os.kill(launcher, signal.SIGUSR1)
        except OSError:
            pass


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)

