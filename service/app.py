"""The HTTP API: routing, request/response schemas, tokens and problem+json errors.

This module holds the application factory and the service-wide routes
(health, variants, the stateless adjudicator, the contract).  Each kind of
table has its own routes module (``games_api``, ``resolutions_api``,
``scoring_api``); state lives in Redis behind ``workers`` (the shared
machinery of ``workers.core.store`` and one module per kind of table).
"""
from __future__ import annotations


from flask import Blueprint, Flask, Response, current_app
from marshmallow import ValidationError
from werkzeug.routing import BaseConverter

from workers.tables.games import Games, engine
from workers.tables.resolutions import Resolutions
from workers.core import settings
from workers.core.settings import Settings
from workers.core.store import Store
from workers.tables.tournaments import Tournaments
from workers.delivery.webhooks import Webhooks

from . import schemas
from .docs import docs_page
from . import limits, logs, metrics
from .http import MAX_BODY, load, problem, register, reply
from .slow_clients import BodyDeadline
from .accounts_api import bp as accounts_bp
from .events_api import bp as events_bp
from .export_api import bp as export_bp
from .games_api import bp as games_bp
from .maps_api import bp as maps_bp
from .pages import bp as pages_bp
from .play_pages import bp as play_bp
from . import page_auth
from .press_api import bp as press_bp
from .resolutions_api import bp as resolutions_bp
from .scoring_api import bp as scoring_bp
from .tournaments_api import bp as tournaments_bp
from .webhooks_api import bp as webhooks_bp

# The contract lives at the repository root; an installed copy (the Dockerfile) says where with OPENAPI_SPEC.
api = Blueprint("api", __name__)


def games() -> Games:
    return current_app.extensions["games"]


# ---------------------------------------------------------------- service
@api.get("/v1/health")
def health():
    """Redis, and the workers, the scheduler and the oldest waiting job it can see there: "ok" when at
    least one worker and a scheduler are there, else "degraded" (still 200: the API itself is up)."""
    redis_up = bool(games().r.ping())
    state = metrics.queue_state(games().store)
    status = "ok" if state["workers"] and state["scheduler"]["running"] else "degraded"
    return reply(schemas.HealthSchema(), {"status": status, "redis": redis_up, **state})


@api.get("/metrics")
def prometheus_metrics():
    return metrics.render(current_app)


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


# ---------------------------------------------------------------- contract
@api.get("/openapi.yaml")
def spec():
    return Response(current_app.config["OPENAPI_SPEC"].read_text(), mimetype="application/yaml")


@api.get("/docs")
def docs():
    return Response(docs_page(current_app.config["OPENAPI_SPEC"]), mimetype="text/html")


class NotImport(BaseConverter):
    """A path segment but ``import``: ``/v1/games/import`` is a route of its own (POST), not a game."""

    regex = r"(?!import$)[^/]+"


def create_app(redis_url: str | None = None, config: Settings | None = None, store: Store | None = None) -> Flask:
    """The application factory (gunicorn: ``'service.app:create_app()'``); the tests hand it
    settings of their own, or a whole store (with a clock of their own)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    config = store.settings if store else config or settings.current()
    url = store.url if store else redis_url or config.redis_url
    if not url:
        raise RuntimeError("set REDIS_URL (python -m service.launch starts an embedded Redis for you)")
    store = store or Store(url, config)
    app.config["OPENAPI_SPEC"] = config.openapi_spec
    logs.init_app(app)  # first: the request id and the clock for every other hook
    metrics.init_app(app, store)
    app.extensions["games"] = Games(store)
    app.extensions["resolutions"] = Resolutions(store)
    app.extensions["tournaments"] = Tournaments(app.extensions["games"])
    app.extensions["webhooks"] = Webhooks(store)
    app.url_map.converters["not_import"] = NotImport
    app.register_blueprint(api)
    app.register_blueprint(games_bp)
    app.register_blueprint(maps_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(play_bp)
    app.register_blueprint(accounts_bp)
    app.register_blueprint(press_bp)
    app.register_blueprint(export_bp)
    app.register_blueprint(events_bp)
    app.register_blueprint(resolutions_bp)
    app.register_blueprint(scoring_bp)
    app.register_blueprint(tournaments_bp)
    app.register_blueprint(webhooks_bp)
    register(app, config.openapi_spec)
    page_auth.init_app(app)  # after register: the API's error handlers stay the API's
    limits.init_app(app, url, config)
    app.wsgi_app = BodyDeadline(app.wsgi_app, config.request_body_timeout, MAX_BODY)
    return app
