"""What every route shares: reading a body with a schema, the bearer token,
replies dumped through a schema, and problem+json errors.

Every request passes, in this order, before its view runs (:func:`register`):

1. its path parameters are checked against the formats the OpenAPI document
   (service/contract.py) gives them (a game id is 12 lowercase hex digits): anything else is a 404, so
   no id can name an internal key (``{gid}:tokens``);
2. an operation the spec marks with ``security`` needs a token: without one
   it is a 401, before the body is read;
3. a body is parsed once as JSON (:func:`parse_json`): what is not JSON, or
   holds a number no store can (an integer of more digits than Python
   converts, NaN and Infinity), is a 400 saying where; a text holding a lone
   surrogate (JSON's ``\ud800`` escapes make one; no store holds it) is a
   422 naming the field, as every other character a text may not hold is
   (service/schemas.py).

Errors: a :class:`~workers.core.store.GameError` is its own status; a store
(Redis) that fails is a 503 with ``Retry-After`` that says the request may or
may not have been applied; anything else unexpected is a 500 that says the
same, never that nothing changed.
"""
from __future__ import annotations

import json
import logging
import math
import re

import redis
from jsonschema_path import SchemaPath
from flask import Response, current_app, g, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException

from workers.core.connection import NotReplicated
from workers.core.errors import GameError, NotFound, Unauthorized
from workers.core.text import SURROGATE

from . import schemas
from .contract import Operation, declared, flask_path

PROBLEM = "application/problem+json"
MAX_BODY = 256 * 1024  # bytes; larger bodies get 413
MAX_DIGITS = 4300  # Python's own limit on converting digits to an int (sys.get_int_max_str_digits)
RETRY_AFTER = 2  # seconds a client waits before retrying after a 503
log = logging.getLogger(__name__)


# ---------------------------------------------------------------- helpers
class BadRequest(Exception):
    def __init__(self, detail: str):
        self.detail = detail


def _view() -> Operation | None:
    view = current_app.view_functions.get(request.endpoint or "")
    return declared(view) if view else None


def reply(schema: Schema, data, status: int = 200) -> Response:
    """``data`` dumped by ``schema``: the schema the view declared for ``status`` (``@response``)."""
    op = _view()
    answer = op.responses.get(str(status), {}) if op else {}
    shape = answer.get("content", {}).get("application/json", {}).get("schema")
    if isinstance(shape, dict):  # a list: {"type": "array", "items": Schema}
        shape = shape.get("items")
    if shape is not None and shape is not type(schema):
        raise TypeError(f"{request.endpoint} answers {status} with {type(schema).__name__}; it declares "
                        f"{shape.__name__} (@response)")
    return Response(json.dumps(schema.dump(data)), status=status, mimetype="application/json")


def _big_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadRequest(f"body: an integer of {len(digits.lstrip('-'))} digits; at most {MAX_DIGITS} are read")
    return int(digits)


def _number(text: str) -> float | int:
    """A JSON number with a fraction or exponent; a whole one (80.0, 1e3) is an int, as JSON Schema
    counts it an integer."""
    value = float(text)
    if not math.isfinite(value):
        raise BadRequest(f"body: the number {text[:40]} is too large to be read")
    return int(value) if value.is_integer() else value


def _constant(name: str):
    raise BadRequest(f"body: {name} is not JSON (RFC 8259 has no NaN or Infinity)")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
def parse_json(raw: bytes):
    """The JSON text ``raw`` as Python values; BadRequest (400) for anything that is not UTF-8
    JSON or holds a number no store can take, a ValidationError (422) for a text holding a lone
    surrogate."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("body: the request body is not UTF-8 text")
    try:
        data = json.loads(text, parse_int=_big_int, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise BadRequest(f"body: malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}")
    except RecursionError:
        raise BadRequest("body: JSON nested too deeply")
    if _SURROGATE_ESCAPE.search(text):
        try:
            schemas.refuse_unsafe_text(data, SURROGATE)
        except RecursionError:
            raise BadRequest("body: JSON nested too deeply")
    return data


NO_BODY = object()


def body_json():
    """The request body as parsed by :func:`parse_json` (:data:`NO_BODY` if there is none)."""
    if "body_json" not in g:
        raw = request.get_data(cache=True)
        g.body_json = parse_json(raw) if raw.strip() else NO_BODY
    return g.body_json


def load(schema: Schema) -> dict:
    """The request body, parsed as JSON and loaded with ``schema`` (no body at all reads as {}): the
    schema the view declared (``@body``)."""
    op = _view()
    if op is not None and op.body is not type(schema):
        raise TypeError(f"{request.endpoint} reads its body with {type(schema).__name__}; it declares "
                        f"{getattr(op.body, '__name__', 'none')} (@body)")
    data = body_json()
    if data is NO_BODY:
        data = {}
    if not isinstance(data, dict):
        raise BadRequest(f"body: expected a JSON object, got {'null' if data is None else type(data).__name__}")
    return schema.load(data)


# The routes that take the token as ``?token=`` too: event streams, for browsers' EventSource
QUERY_TOKEN = frozenset({"events.game_events", "events.resolution_events"})


def token() -> str | None:
    """The bearer token sent (None if none, or an empty one); on the event streams, ``?token=`` too."""
    header = request.headers.get("Authorization", "")
    if not header:
        if request.endpoint in QUERY_TOKEN:
            return request.args.get("token", "").strip() or None
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        raise GameError("header Authorization: expected 'Bearer <token>'")
    return value.strip() or None


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


# ---------------------------------------------------------------- the contract's checks
TOKEN_NAMES = {"playerToken": "a player token", "directorToken": "the director token",
               "participantToken": "a participant token", "accountToken": "an account token"}


class Contract:
    """What the OpenAPI document says each operation needs before its view runs: the formats of
    its path parameters and whether it takes a token.  The document is the one generated from the
    routes (service/contract.py), read with openapi-core's reader (``jsonschema_path``, which
    follows its ``$ref``s)."""

    def __init__(self, document: dict):
        spec = SchemaPath.from_dict(document)
        self.formats: dict[str, dict[str, re.Pattern]] = {}
        self.needs_token: dict[tuple[str, str], str] = {}
        self.creates: set[tuple[str, str]] = set()  # operations answering 201: a retry makes another
        for path, item in (spec / "paths").items():
            shared = list(item / "parameters") if "parameters" in item else []
            for method, op in item.items():
                if method == "parameters" or "responses" not in op:
                    continue
                for param in shared + (list(op / "parameters") if "parameters" in op else []):
                    schema = param / "schema" if "schema" in param else None
                    if (param / "in").read_value() == "path" and schema is not None and "pattern" in schema:
                        name = (param / "name").read_value()
                        self.formats.setdefault(path, {})[name] = re.compile((schema / "pattern").read_value())
                if "201" in op / "responses":
                    self.creates.add((path, method.upper()))
                security = (op / "security").read_value() if "security" in op else None
                if security and all(alternative for alternative in security):
                    names = [TOKEN_NAMES.get(name, "a token") for alt in security for name in alt]
                    self.needs_token[(path, method.upper())] = " or ".join(dict.fromkeys(names))

    def check(self) -> None:
        """Raise the 404 or 401 the request gets before its view runs."""
        if request.url_rule is None:
            return
        path = flask_path(request.url_rule.rule)
        for name, pattern in self.formats.get(path, {}).items():
            value = (request.view_args or {}).get(name)
            if value is not None and not pattern.fullmatch(value):
                noun = name.removesuffix("_id").replace("_", " ")
                raise NotFound(f"there is no {noun} '{value}'")
        method = "GET" if request.method == "HEAD" else request.method
        needed = self.needs_token.get((path, method))
        if needed and token() is None:
            raise Unauthorized(f"this needs {needed}: send 'Authorization: Bearer <token>'")


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
              413: f"body: larger than {MAX_BODY} bytes",
              429: f"too many requests from this client: at most {e.description} here; try again later"
              }.get(e.code, e.description)
    resp = problem(e.code or 500, e.name, detail)
    if e.code == 405 and getattr(e, "valid_methods", None):
        resp.headers["Allow"] = ", ".join(e.valid_methods)
    if e.code in (429, 503):
        resp.headers["Retry-After"] = str(getattr(e, "retry_after", None) or RETRY_AFTER)
    return resp


# Requests whose retry, after a 503 that left it unknown whether they were applied, does more than find
# the change made: by endpoint name, what a retry does.
RETRY_NOTES = {
    "games.create_game": "A retry creates another game if this one was created.",
    "games.join": "A retry takes another seat if this one was taken (its token is lost): "
                  "look at the game's players first.",
    "games.extend": "A retry of an extension by 'seconds' extends again if this one was applied: "
                    "look at the deadline first, or extend to a 'deadline'.",
    "resolutions.create": "A retry starts another resolution if this one was started.",
    "press.send": "A retry sends the message again if this one was sent: read the press (GET .../press) first.",
    "resolutions.extend": "A retry extends again if this one was applied: look at the deadline first.",
}
# the first word of a Redis error that means the store is down (NOREPLICAS: a primary with
# min-replicas-to-write that has too few)
DOWN_REPLIES = ("MISCONF", "LOADING", "MASTERDOWN", "NOREPLICAS")
# NotReplicated: the change is on the primary, but fewer replicas than REDIS_MIN_REPLICAS confirmed it
STORE_DOWN = (NotReplicated, redis.ConnectionError, redis.TimeoutError, redis.exceptions.ReadOnlyError,
              redis.exceptions.OutOfMemoryError, redis.exceptions.ExecAbortError, redis.exceptions.TryAgainError,
              redis.exceptions.ClusterDownError)


def _store_error(e: redis.RedisError):
    down = isinstance(e, STORE_DOWN) or (isinstance(e, redis.ResponseError)
                                         and str(e).split(" ", 1)[0] in DOWN_REPLIES)
    if not down:
        return _unexpected(e)
    log.warning("store unavailable on %s %s: %s", request.method, request.path, e)
    contract = current_app.extensions["contract"]
    creates = request.url_rule is not None and (flask_path(request.url_rule.rule), request.method) in contract.creates
    note = RETRY_NOTES.get(request.endpoint or "") or (
        "A retry creates another if this one was created: look before retrying." if creates else
        "Retrying it is safe: if it was applied, the retry finds the change made (and may answer 409).")
    resp = problem(503, "Store unavailable", "the service's store (Redis) failed while handling this request, "
                   f"so it may or may not have been applied. Try again in {RETRY_AFTER} s. {note}")
    resp.headers["Retry-After"] = str(RETRY_AFTER)
    return resp


def _unexpected(e: Exception):
    log.exception("unexpected error on %s %s", request.method, request.path)
    return problem(500, "Internal error", "the service failed to handle this request; "
                   "it may or may not have been applied")


FORM_BLUEPRINTS = frozenset({"pages", "play", "direct"})  # the pages' HTML forms: no JSON body (service/page_auth.py)


def register(app, document: dict) -> None:
    """The checks every request passes before its view, and the error handlers."""
    contract = app.extensions["contract"] = Contract(document)

    @app.before_request
    def _before_view():
        contract.check()
        if request.method in ("POST", "PUT", "PATCH", "DELETE") and request.blueprint not in FORM_BLUEPRINTS:
            body_json()

    @app.after_request
    def _options(resp):
        """OPTIONS (Flask answers it for every route): 204 with ``Allow``, not an empty text/html page."""
        if request.method == "OPTIONS" and resp.status_code == 200 and not resp.get_data():
            resp.status_code = 204
            del resp.headers["Content-Type"]
        return resp

    app.register_error_handler(GameError, _game_error)
    app.register_error_handler(ValidationError, _validation_error)
    app.register_error_handler(BadRequest, _bad_request)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(redis.RedisError, _store_error)
    app.register_error_handler(Exception, _unexpected)
