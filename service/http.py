"""What every route shares: reading a body with a schema, the bearer token,
replies dumped through a schema, and problem+json errors."""
from __future__ import annotations

import json
import logging

from flask import Response, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException

from workers.store import GameError

from . import schemas

PROBLEM = "application/problem+json"
MAX_BODY = 256 * 1024  # bytes; larger bodies get 413
log = logging.getLogger(__name__)


# ---------------------------------------------------------------- helpers
class BadRequest(Exception):
    def __init__(self, detail: str):
        self.detail = detail


def reply(schema: Schema, data, status: int = 200) -> Response:
    return Response(json.dumps(schema.dump(data)), status=status, mimetype="application/json")


def load(schema: Schema) -> dict:
    """The request body, parsed as JSON and loaded with ``schema``."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        data = {}
    else:
        try:
            data = json.loads(raw)
        except UnicodeDecodeError:
            raise BadRequest("body: the request body is not UTF-8 text")
        except json.JSONDecodeError as e:
            raise BadRequest(f"body: malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}")
        except RecursionError:
            raise BadRequest("body: JSON nested too deeply")
    if not isinstance(data, dict):
        raise BadRequest(f"body: expected a JSON object, got {type(data).__name__}")
    return schema.load(data)


def token() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise GameError("header Authorization: expected 'Bearer <token>'")
    return value.strip()


def problem(status: int, title: str, detail: str, **extra) -> Response:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail,
            "instance": request.path, **extra}
    resp = Response(json.dumps(schemas.ProblemSchema().dump(body)), status=status, mimetype=PROBLEM)
    if status == 401:
        resp.headers["WWW-Authenticate"] = "Bearer"
    return resp


def _flatten(messages, where: str = "body") -> list[str]:
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            out += _flatten(value, where if key == "_schema" else f"{where}.{key}")
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [f"{where}: {' '.join(messages)}"]
    if isinstance(messages, list):
        return [line for m in messages for line in _flatten(m, where)]
    return [f"{where}: {messages}"]


# ---------------------------------------------------------------- errors
def _game_error(e: GameError):
    return problem(e.status, e.title, e.detail, **e.extra)


def _validation_error(e: ValidationError):
    lines = _flatten(e.messages, e.kwargs.get("where", "body"))
    return problem(422, "Invalid content", "; ".join(lines),
                   errors=e.messages if isinstance(e.messages, dict) else {"_schema": e.messages})


def _bad_request(e: BadRequest):
    return problem(400, "Malformed request", e.detail)


def _http_error(e: HTTPException):
    detail = {404: f"there is no endpoint at {request.path}",
              405: f"{request.method} is not allowed on {request.path}",
              413: f"body: larger than {MAX_BODY} bytes"}.get(e.code, e.description)
    resp = problem(e.code or 500, e.name, detail)
    if e.code == 405 and e.valid_methods:
        resp.headers["Allow"] = ", ".join(e.valid_methods)
    return resp


def _unexpected(e: Exception):
    log.exception("unexpected error on %s %s", request.method, request.path)
    return problem(500, "Internal error", "the service failed to handle this request; nothing was changed")



def register_errors(app) -> None:
    app.register_error_handler(GameError, _game_error)
    app.register_error_handler(ValidationError, _validation_error)
    app.register_error_handler(BadRequest, _bad_request)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
