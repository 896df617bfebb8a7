"""Webhook routes of games and tournaments: register (the secret shown once), list, remove, delivery log."""
from __future__ import annotations

from flask import Blueprint, current_app
from marshmallow import Schema, fields, validate

from workers.delivery.webhooks import EVENTS, Webhooks
from workers.tables.viewers import who

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


def _owner(kind: str, oid: str) -> str:
    """The owner of the subscriptions of a game or tournament, once its director token is checked."""
    table = "game" if kind == "games" else "tournament"
    who(hooks().r, table, oid, token()).director()
    return f"{table}:{oid}"


def hooks() -> Webhooks:
    return current_app.extensions["webhooks"]


def add(kind, oid):
    body = load(AddWebhookSchema())
    return reply(WebhookSchema(), hooks().add(_owner(kind, oid), body["url"], body["events"]), 201)


def list_hooks(kind, oid):
    return reply(WebhooksSchema(), {"webhooks": hooks().list(_owner(kind, oid))})


def remove(kind, oid, hook_id):
    hooks().remove(_owner(kind, oid), hook_id)
    return "", 204


def deliveries(kind, oid, hook_id):
    return reply(DeliveriesSchema(), hooks().deliveries(_owner(kind, oid), hook_id))


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
