"""Webhook routes of games and tournaments: register (the secret shown once), list, remove, delivery log."""
from __future__ import annotations

from flask import Blueprint, current_app
from marshmallow import Schema, fields, validate

from workers.core import audit, keys
from workers.core.errors import NotFound
from workers.delivery.webhooks import EVENTS, Webhooks

from .http import load, reply, token

bp = Blueprint("webhooks", __name__)
MAX_URL = 2000  # characters of a webhook URL (what browsers and proxies take everywhere)


class AddWebhookSchema(Schema):
    url = fields.Url(required=True, schemes={"http", "https"}, require_tld=False,
                     validate=validate.Length(max=MAX_URL))
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)), load_default=lambda: list(EVENTS),
                         validate=validate.Length(min=1))


class WebhookSchema(Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    created_at = fields.String()
    secret = fields.String()


class WebhooksSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema))


class DeliveriesSchema(WebhookSchema):
    deliveries = fields.List(fields.Dict())


def _owner(kind: str, oid: str) -> tuple[str, object]:
    """Check the director token of a game or tournament; the owner name and an audit writer."""
    table, record_key = ("game", keys.game(oid)) if kind == "games" else ("tournament", keys.tournament(oid))
    store = current_app.extensions["games"].store
    director = store.r.hget(record_key, "director")
    if director is None:
        raise NotFound(f"there is no {table} '{oid}'")
    store.check_director(director, token(), f"{table} '{oid}'", keys.tokens(oid) if table == "game" else None)

    def record(pipe, action, detail):
        audit.record(pipe, table, oid, store.now(), action, detail)

    return f"{table}:{oid}", record


def hooks() -> Webhooks:
    return current_app.extensions["webhooks"]


def add(kind, oid):
    body = load(AddWebhookSchema())
    owner, audit = _owner(kind, oid)
    return reply(WebhookSchema(), hooks().add(owner, body["url"], body["events"], audit), 201)


def list_hooks(kind, oid):
    owner, _audit = _owner(kind, oid)
    return reply(WebhooksSchema(), {"webhooks": hooks().list(owner)})


def remove(kind, oid, hook_id):
    owner, audit = _owner(kind, oid)
    hooks().remove(owner, hook_id, audit)
    return "", 204


def deliveries(kind, oid, hook_id):
    owner, _audit = _owner(kind, oid)
    return reply(DeliveriesSchema(), hooks().deliveries(owner, hook_id))


def _routes(kind: str, param: str) -> None:
    """The same four routes under /v1/games/{game_id} and /v1/tournaments/{tournament_id}."""
    base = f"/v1/{kind}/<{param}>/webhooks"
    for rule, view, method in [("", add, "POST"), ("", list_hooks, "GET"), ("/<hook_id>", remove, "DELETE"),
                               ("/<hook_id>/deliveries", deliveries, "GET")]:
        def bound(view=view, **args):
            return view(kind, args.pop(param), **args)
        bp.add_url_rule(base + rule, f"{kind}_{view.__name__}", bound, methods=[method])


_routes("games", "game_id")
_routes("tournaments", "tournament_id")
