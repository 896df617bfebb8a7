"""gunicorn's access log never shows a token: ``?token=`` (taken on the event streams, for browsers'
EventSource) is written ``token=REDACTED``, and a format that logs the Authorization header gets
``REDACTED`` there."""
from __future__ import annotations

import datetime
import logging

from gunicorn.config import Config

from service.gunicorn_conf import RedactingLogger

SECRET = "s3cr3t-token-value"


class _Response:
    status, sent, headers = "200 OK", 0, [("Content-Type", "text/event-stream")]


def _line(access_format: str) -> str:
    config = Config()
    config.set("accesslog", "-")
    config.set("access_log_format", access_format)
    logger = RedactingLogger(config)
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(record.getMessage())

    logger.access_log.handlers = [Keep()]
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/v1/games/0123456789ab/events?token={SECRET}&x=1",
               "PATH_INFO": "/v1/games/0123456789ab/events", "QUERY_STRING": f"token={SECRET}&x=1",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1"}
    logger.access(_Response(), [("AUTHORIZATION", f"Bearer {SECRET}")], environ, datetime.timedelta(seconds=1))
    assert len(lines) == 1
    return lines[0]


def test_the_default_format_redacts_the_query_token():
    line = _line(Config().access_log_format)
    assert SECRET not in line and "token=REDACTED&x=1" in line


def test_every_field_that_could_show_a_token_is_redacted():
    line = _line('%(r)s %(q)s %({raw_uri}e)s %({query_string}e)s %({authorization}i)s')
    assert SECRET not in line and line.count("REDACTED") == 5
