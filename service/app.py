"""The HTTP API: routing, request/response schemas, tokens and problem+json errors.

This module holds the application factory and the service-wide routes
(health, variants, the stateless adjudicator, the contract).  Each kind of
table has its own routes module (``games_api``, ``resolutions_api``,
``scoring_api``); state lives in Redis behind ``workers`` (the shared
machinery of ``workers.core.store`` and one module per kind of table).
"""
from __future__ import annotations


from flask import Blueprint, Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.routing import BaseConverter

from workers.tables.games import Games, engine
from workers.tables.resolutions import Resolutions
from workers.core import settings
from workers.core.errors import NotFound
from workers.core.settings import Settings
from workers.core.store import Store
from workers.tables.tournaments import Tournaments
from workers.delivery.webhooks import Webhooks

from . import contract, schemas
from .contract import arguments, body, doc, other_responses, response
from .docs import docs_page
from . import drawing, limits, logs, metrics
from .http import MAX_BODY, load, problem, register, reply
from .slow_clients import BodyDeadline
from .accounts_api import bp as accounts_bp
from .events_api import bp as events_bp
from .export_api import bp as export_bp
from .games_api import bp as games_bp
from .maps_api import bp as maps_bp
from .pages import bp as pages_bp
from .play_pages import bp as play_bp
from .direct_pages import bp as direct_bp
from . import page_auth
from .press_api import bp as press_bp
from .resolutions_api import bp as resolutions_bp
from .scoring_api import bp as scoring_bp
from .tournaments_api import bp as tournaments_bp
from .webhooks_api import bp as webhooks_bp

api = Blueprint("api", __name__)


def games() -> Games:
    return current_app.extensions["games"]


# ---------------------------------------------------------------- service
@api.get("/v1/health")
@doc("health", ["service"], "Liveness, Redis, and the workers, scheduler and oldest waiting job seen there")
@response(schemas.HealthSchema, 200,
          "The API and its Redis are up (\"status\" says whether workers and a scheduler are).")
@other_responses("Unavailable")
def health():
    """Redis, and the workers, the scheduler and the oldest waiting job it can see there: "ok" when at
    least one worker and a scheduler are there, else "degraded" (still 200: the API itself is up)."""
    state = metrics.queue_state(games().store)  # Redis answered (a store that does not is a 503)
    status = "ok" if state["workers"] and state["scheduler"]["running"] else "degraded"
    return reply(schemas.HealthSchema(), {"status": status, "redis": True, **state})


@api.get("/metrics")
@doc("getMetrics", ["service"], "Prometheus metrics of every process of the service",
     "Requests by endpoint and status with latency histograms, submissions, jobs (adjudications, "
     "their duration and retries), the deadline lag, and, read from Redis at each scrape, the "
     "queue depth, workers and scheduler.")
@response(None, 200, "Prometheus text exposition format.", content={"text/plain": {"schema": {"type": "string"}}})
@other_responses("Unavailable")
def prometheus_metrics():
    return metrics.render(current_app)


@api.get("/v1/variants")
@doc("listVariants", ["service"], "The variants (player arrangements) a game may use")
@response(schemas.VariantSchema, 200, "Every variant with its powers and seats (one list of powers per player).",
          many=True)
def variants():
    return reply(schemas.VariantSchema(many=True), [engine().variant_info(v) for v in engine().VARIANTS])


def _stateless(request_schema, answer, response_schema):
    """A stateless route's reply: ``answer(body)`` for the body read with ``request_schema``; an unknown
    variant, or a position or power the engine refuses, is a 422 naming the field."""
    body = load(request_schema)
    if body["variant"] not in engine().VARIANTS:
        raise ValidationError({"variant": [f"unknown variant; one of {list(engine().VARIANTS)}"]})
    try:
        result = answer(body)
    except (engine().RequestError, drawing.Invalid) as e:  # the engine's refusal, here or in a child process
        field = getattr(e, "field", None)
        return problem(422, "Invalid position", f"{f'body.{field}' if field else 'body'}: {e}")
    return reply(response_schema, result)


BOARD_MAX_AGE = 86400  # seconds a client may keep a variant's board (it changes only with a release)


@api.get("/v1/variants/<name>")
@doc("getVariantBoard", ["service"], "A variant's board: provinces and adjacency",
     "Every province (id, name, type, supply centre, home power, coasts) and where an army or a fleet moves "
     "from each place, as the adjudicator uses them. The same for everyone: cache it by its ETag.")
@arguments(None, "IfNoneMatch")
@response(schemas.BoardSchema, 200, "The board.", headers={'ETag': 'ETag'})
@other_responses("NotModified", "NotFound")
def variant_board(name):
    """A variant's board as the adjudicator uses it; the same for everyone, so cached by tag and age."""
    if name not in engine().VARIANTS:
        raise NotFound(f"there is no variant '{name}'; the variants are {', '.join(engine().VARIANTS)}")
    response = reply(schemas.BoardSchema(), engine().board_data(name))
    response.add_etag()
    response.headers["Cache-Control"] = f"public, max-age={BOARD_MAX_AGE}"
    return response.make_conditional(request)


@api.post("/v1/options/diplomacy")
@doc("optionsOfPosition", ["stateless"], "Every legal order of a position (stateless)",
     "Takes a position in the interchange format (orders, if any, are not read) and answers every order each "
     "power may give, as the orders endpoint would store it as valid.")
@body(schemas.OptionsRequestSchema)
@response(schemas.OptionsSchema, 200, "The options of each power asked for.")
@other_responses("Malformed", "TooLarge", "Invalid")
def stateless_options():
    return _stateless(schemas.OptionsRequestSchema(),
                      lambda body: engine().options_by_power(body, body.pop("powers", None)), schemas.OptionsSchema())


@api.post("/v1/adjudicate/diplomacy")
@doc("adjudicatePosition", ["stateless"], "Adjudicate one position and its orders (stateless)",
     "Takes a request in the interchange format and answers at once with every order's outcome "
     "and the position of the next phase that has something to do. Orders that cannot be read are"
     " reported with outcome \"invalid\" and a reason.")
@body(schemas.AdjudicateRequestSchema)
@response(schemas.AdjudicationSchema, 200, "The adjudicated result.")
@other_responses("Malformed", "TooLarge", "Invalid")
def adjudicate():
    return _stateless(schemas.AdjudicateRequestSchema(), engine().adjudicate, schemas.AdjudicationSchema())


@api.post("/v1/bots/diplomacy/orders")
@doc("botOrders", ["stateless"], "The bot's orders for one power (stateless)",
     "Takes a position in the interchange format (its orders, if any, are ignored), a power and an optional seed "
     "(the same seed gives the same orders), and answers the orders the service's bot gives that power in that "
     "phase: moves, retreats, builds or disbands, every one valid (docs/bots.md). An empty list when the power "
     "has nothing to order. Each answer counts against a quota (RATE_LIMIT_BOT); a process computes a few at "
     "once and refuses more with a 503 and Retry-After.")
@body(schemas.BotOrdersRequestSchema)
@response(schemas.BotOrdersSchema, 200, "The power's orders.")
@other_responses("Malformed", "TooLarge", "Invalid", "TooManyRequests", "Unavailable")
def bot_orders():
    """The bot's orders for a power (docs/bots.md), with the service's budget, computed by a child
    process (service/drawing.py) in their turn of the process's bot queue (service/limits.py)."""
    budget = games().store.settings.bot_budget

    def answer(body):
        with limits.BOTS.turn():
            return {"orders": drawing.bot_orders(body, body["power"], body.get("seed"), budget)}

    return _stateless(schemas.BotOrdersRequestSchema(), answer, schemas.BotOrdersSchema())


# ---------------------------------------------------------------- contract
@api.get("/openapi.yaml")
@doc("getSpec", ["service"], "This document")
@response(None, 200, "The OpenAPI 3.1 document, as YAML.",
          content={"application/yaml": {"schema": schemas.OpenApiDocumentSchema}})
def spec():
    return Response(contract.document_yaml(current_app), mimetype="application/yaml")


@api.get("/docs")
@doc("getDocs", ["service"], "Browsable documentation generated from this document")
@response(None, 200, "An HTML page.", content={"text/html": {"schema": {"type": "string"}}})
def docs():
    return Response(docs_page(contract.document_yaml(current_app)), mimetype="text/html")


class NotImport(BaseConverter):
    """A path segment but ``import``: ``/v1/games/import`` is a route of its own (POST), not a game."""

    regex = r"(?!import$)[^/]+"


def add_routes(app: Flask) -> None:
    """Every route of the API (the contract is generated from them: service/contract.py)."""
    app.url_map.converters["not_import"] = NotImport
    for blueprint in (api, games_bp, maps_bp, pages_bp, play_bp, direct_bp, accounts_bp, press_bp, export_bp, events_bp,
                      resolutions_bp, scoring_bp, tournaments_bp, webhooks_bp):
        app.register_blueprint(blueprint)


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
    logs.init_app(app)  # first: the request id and the clock for every other hook
    metrics.init_app(app, store)
    app.extensions["games"] = Games(store)
    app.extensions["resolutions"] = Resolutions(store)
    app.extensions["tournaments"] = Tournaments(app.extensions["games"])
    app.extensions["webhooks"] = Webhooks(store)
    add_routes(app)
    register(app, contract.document(app))
    page_auth.init_app(app)  # after register: the API's error handlers stay the API's
    limits.init_app(app, url, config)
    app.register_error_handler(limits.Busy, limits.busy)
    app.wsgi_app = BodyDeadline(app.wsgi_app, config.request_body_timeout, MAX_BODY)
    return app
