"""The HTTP API: routing, request/response schemas, tokens and problem+json errors.

Game state lives in Redis behind ``workers.games`` and ``workers.resolutions``
(on the shared machinery of ``workers.store``); this module and
``service.resolutions_api`` only translate between HTTP and that model.
"""
from __future__ import annotations

import os
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, request
from marshmallow import ValidationError

from workers.games import Games, engine
from workers.resolutions import Resolutions
from workers.store import Store

from . import schemas
from .docs import docs_page
from .http import MAX_BODY, load, problem, register_errors, reply, token
from .resolutions_api import bp as resolutions_bp
from .scoring_api import bp as scoring_bp

# The contract lives at the repository root; an installed copy (the Dockerfile) says where with OPENAPI_SPEC.
SPEC_PATH = Path(os.environ.get("OPENAPI_SPEC", Path(__file__).resolve().parent.parent / "openapi.yaml"))
api = Blueprint("api", __name__)


def games() -> Games:
    return current_app.extensions["games"]


# ---------------------------------------------------------------- service
@api.get("/v1/health")
def health():
    return reply(schemas.HealthSchema(), {"status": "ok", "redis": bool(games().r.ping())})


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
    game, director_token = games().create_game(load(schemas.CreateGameSchema()))
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)


@api.get("/v1/games/<game_id>")
def get_game(game_id):
    return reply(schemas.GameSchema(), games().public_state(game_id))


@api.post("/v1/games/<game_id>/players")
def join(game_id):
    body = load(schemas.JoinSchema())
    player, player_token = games().join(game_id, body["name"], body.get("power"))
    return reply(schemas.JoinedSchema(), {"player": player, "token": player_token,
                                          "game": games().public_state(game_id)}, 201)


@api.get("/v1/games/<game_id>/history")
def history(game_id):
    return reply(schemas.HistorySchema(), {"game": game_id, "phases": games().history(game_id)})


@api.get("/v1/games/<game_id>/orders")
def own_orders(game_id):
    return reply(schemas.OwnOrdersSchema(), games().own_orders(game_id, token()))


@api.put("/v1/games/<game_id>/orders/<power>")
def submit_orders(game_id, power):
    body = load(schemas.OrdersSchema())
    return reply(schemas.SubmissionSchema(),
                 games().submit_orders(game_id, token(), power.upper(), body["orders"], body.get("phase")))


@api.delete("/v1/games/<game_id>/orders/<power>")
def clear_orders(game_id, power):
    try:
        query = schemas.ClearOrdersQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.SubmissionSchema(), games().clear_orders(game_id, token(), power.upper(), query.get("phase")))


@api.put("/v1/games/<game_id>/ready")
def set_ready(game_id):
    body = load(schemas.ReadySchema())
    return reply(schemas.ReadyStateSchema(), games().set_ready(game_id, token(), body["ready"]))


# ---------------------------------------------------------------- director
@api.post("/v1/games/<game_id>/start")
def start(game_id):
    return reply(schemas.GameSchema(), games().start(game_id, token()))


@api.post("/v1/games/<game_id>/extend")
def extend(game_id):
    body = load(schemas.ExtendSchema())
    until = body["deadline"].timestamp() if "deadline" in body else None
    return reply(schemas.GameSchema(), games().extend(game_id, token(), body.get("seconds"), until))


@api.post("/v1/games/<game_id>/pause")
def pause(game_id):
    return reply(schemas.GameSchema(), games().pause(game_id, token()))


@api.post("/v1/games/<game_id>/resume")
def resume(game_id):
    return reply(schemas.GameSchema(), games().resume(game_id, token()))


@api.post("/v1/games/<game_id>/adjudicate")
def force(game_id):
    return reply(schemas.GameSchema(), games().force(game_id, token()))


# ---------------------------------------------------------------- contract
@api.get("/openapi.yaml")
def spec():
    return Response(SPEC_PATH.read_text(), mimetype="application/yaml")


@api.get("/docs")
def docs():
    return Response(docs_page(SPEC_PATH), mimetype="text/html")


def create_app(redis_url: str | None = None) -> Flask:
    """The application factory (gunicorn: ``'service.app:create_app()'``)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    url = redis_url or os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("set REDIS_URL (python -m service.launch starts an embedded Redis for you)")
    store = Store(url)
    app.extensions["games"] = Games(store)
    app.extensions["resolutions"] = Resolutions(store)
    app.register_blueprint(api)
    app.register_blueprint(resolutions_bp)
    app.register_blueprint(scoring_bp)
    register_errors(app)
    return app
