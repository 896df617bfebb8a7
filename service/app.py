"""The HTTP API: routing, request/response schemas, tokens and problem+json errors.

Game state lives in Redis behind ``workers.state.Store``; this module only
translates between HTTP and that model.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException

from workers.state import GameError, Store, engine

from . import schemas
from .docs import docs_page

# The contract lives at the repository root; an installed copy (the Dockerfile) says where with OPENAPI_SPEC.
SPEC_PATH = Path(os.environ.get("OPENAPI_SPEC", Path(__file__).resolve().parent.parent / "openapi.yaml"))
PROBLEM = "application/problem+json"
MAX_BODY = 256 * 1024  # bytes; larger bodies get 413
log = logging.getLogger(__name__)
api = Blueprint("api", __name__)


# ---------------------------------------------------------------- helpers
class BadRequest(Exception):
    def __init__(self, detail: str):
        self.detail = detail


def store() -> Store:
    return current_app.extensions["store"]


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


# ---------------------------------------------------------------- service
@api.get("/v1/health")
def health():
    return reply(schemas.HealthSchema(), {"status": "ok", "redis": bool(store().r.ping())})


@api.get("/v1/variants")
def variants():
    return reply(schemas.VariantSchema(many=True), [engine().variant_info(v) for v in engine().VARIANTS])


@api.post("/v1/adjudicate/diplomacy")
def adjudicate():
    body = load(schemas.AdjudicateRequestSchema())
    if body["variant"] not in engine().VARIANTS:
        raise ValidationError({"variant": [f"unknown variant; one of {list(engine().VARIANTS)}"]})
    try:
        result = engine().adjudicate(body)
    except engine().RequestError as e:
        field = getattr(e, "field", None)
        return problem(422, "Invalid position", f"{f'body.{field}' if field else 'body'}: {e}")
    return reply(schemas.AdjudicationSchema(), result)


# ---------------------------------------------------------------- games
@api.post("/v1/games")
def create_game():
    game, director_token = store().create_game(load(schemas.CreateGameSchema()))
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)


@api.get("/v1/games/<game_id>")
def get_game(game_id):
    return reply(schemas.GameSchema(), store().public_state(game_id))


@api.post("/v1/games/<game_id>/players")
def join(game_id):
    body = load(schemas.JoinSchema())
    player, player_token = store().join(game_id, body["name"], body.get("power"))
    return reply(schemas.JoinedSchema(), {"player": player, "token": player_token,
                                          "game": store().public_state(game_id)}, 201)


@api.get("/v1/games/<game_id>/history")
def history(game_id):
    return reply(schemas.HistorySchema(), {"game": game_id, "phases": store().history(game_id)})


@api.get("/v1/games/<game_id>/orders")
def own_orders(game_id):
    return reply(schemas.OwnOrdersSchema(), store().own_orders(game_id, token()))


@api.put("/v1/games/<game_id>/orders/<power>")
def submit_orders(game_id, power):
    body = load(schemas.OrdersSchema())
    return reply(schemas.SubmissionSchema(),
                 store().submit_orders(game_id, token(), power.upper(), body["orders"], body.get("phase")))


@api.delete("/v1/games/<game_id>/orders/<power>")
def clear_orders(game_id, power):
    try:
        query = schemas.ClearOrdersQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.SubmissionSchema(), store().clear_orders(game_id, token(), power.upper(), query.get("phase")))


@api.put("/v1/games/<game_id>/ready")
def set_ready(game_id):
    body = load(schemas.ReadySchema())
    return reply(schemas.ReadyStateSchema(), store().set_ready(game_id, token(), body["ready"]))


# ---------------------------------------------------------------- director
@api.post("/v1/games/<game_id>/start")
def start(game_id):
    return reply(schemas.GameSchema(), store().start(game_id, token()))


@api.post("/v1/games/<game_id>/extend")
def extend(game_id):
    body = load(schemas.ExtendSchema())
    until = body["deadline"].timestamp() if "deadline" in body else None
    return reply(schemas.GameSchema(), store().extend(game_id, token(), body.get("seconds"), until))


@api.post("/v1/games/<game_id>/pause")
def pause(game_id):
    return reply(schemas.GameSchema(), store().pause(game_id, token()))


@api.post("/v1/games/<game_id>/resume")
def resume(game_id):
    return reply(schemas.GameSchema(), store().resume(game_id, token()))


@api.post("/v1/games/<game_id>/adjudicate")
def force(game_id):
    return reply(schemas.GameSchema(), store().force(game_id, token()))


# ---------------------------------------------------------------- contract
@api.get("/openapi.yaml")
def spec():
    return Response(SPEC_PATH.read_text(), mimetype="application/yaml")


@api.get("/docs")
def docs():
    return Response(docs_page(SPEC_PATH), mimetype="text/html")


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


def create_app(redis_url: str | None = None) -> Flask:
    """The application factory (gunicorn: ``'service.app:create_app()'``)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    url = redis_url or os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("set REDIS_URL (python -m service.launch starts an embedded Redis for you)")
    app.extensions["store"] = Store(url)
    app.register_blueprint(api)
    app.register_error_handler(GameError, _game_error)
    app.register_error_handler(ValidationError, _validation_error)
    app.register_error_handler(BadRequest, _bad_request)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
    return app
