"""Webhook routes of games and tournaments: register (the secret shown once), list, remove, delivery log."""
from __future__ import annotations

from flask import Blueprint, current_app
from marshmallow import fields, validate

from workers.delivery.webhooks import EVENTS, Webhooks
from workers.tables.viewers import who

from .contract import authenticate, body, declare_as, doc, documented, other_responses, response
from .http import load, reply, token
from .schemas import Described, Reply, Schema, Strings, Timestamp, _about

bp = Blueprint("webhooks", __name__)
MAX_URL = 2000  # characters of a webhook URL (what browsers and proxies take everywhere)


class AddWebhookSchema(Schema):
    url = fields.Url(required=True, schemes={"http", "https"}, require_tld=False,
                     validate=validate.Length(max=MAX_URL),
                     metadata=_about("http:// or https://, at most 2,000 characters", format="uri"))
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)), load_default=lambda: list(EVENTS),
                         validate=validate.Length(min=1), metadata=_about(
        "All of them if left out. A press event carries the message's id, phase and sent_at only, never its body, "
        "sender or recipients. A seat event says which powers' seat opened or was taken."))


class WebhookSchema(Reply):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = Strings(required=True)
    created_at = Timestamp(required=True)
    secret = Described(fields.String, "Only in the answer that registers it.")


class WebhooksSchema(Reply):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class DeliverySchema(Reply):
    event = fields.String(required=True)
    type = fields.String(required=True)
    at = Timestamp(required=True)
    url = fields.String(required=True)
    status = Described(fields.Integer, "The HTTP status, null when no answer came.", required=True, allow_none=True)
    ok = fields.Boolean(required=True)
    error = fields.String(allow_none=True)
    ms = fields.Float()


class DeliveriesSchema(WebhookSchema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


@documented
class WebhookPayloadSchema(Reply):
    class Meta:
        description = (
            'The body of every delivery (not an endpoint of this service). "game" or "tournament" names where it '
            'happened; "data" holds only public facts (adjudicated results, the end, a passed proposal\'s terms), '
            "never orders before adjudication nor ballots.")

    id = fields.String(required=True)
    type = fields.String(required=True)
    game = fields.String()
    at = Timestamp(required=True)
    data = fields.Dict(required=True)


def _owner(kind: str, oid: str) -> str:
    """The owner of the subscriptions of a game or tournament, once its director token is checked."""
    table = "game" if kind == "games" else "tournament"
    who(hooks().r, table, oid, token()).director()
    return f"{table}:{oid}"


def hooks() -> Webhooks:
    return current_app.extensions["webhooks"]


@doc("add{Owner}Webhook", ["webhooks"], "Register a URL for the {events} (director)",
     "Each event is a JSON POST signed with HMAC-SHA256: header X-Webhook-Signature \"t=<unix seconds>,v1=<hex "
     "HMAC of '<t>.' + body>\" with the subscription's secret, which this answer shows once. Also X-Webhook-Id (the "
     "event id: the same on every retry), X-Webhook-Event and X-Webhook-Timestamp. A non-2xx answer is retried "
     "with backoff (1 s, 5 s, 30 s, 2 min, 10 min, 30 min).")
@authenticate("directorToken")
@body(AddWebhookSchema)
@response(WebhookSchema, 201, "The subscription, with its secret (shown only this once).")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "Invalid",
                 "TooManyRequests", "Unavailable")
def add(kind, oid):
    body = load(AddWebhookSchema())
    return reply(WebhookSchema(), hooks().add(_owner(kind, oid), body["url"], body["events"]), 201)


@doc("list{Owner}Webhooks", ["webhooks"], "The {owner}'s webhooks, without their secrets (director)")
@authenticate("directorToken")
@response(WebhooksSchema, 200, "The subscriptions.")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Unavailable")
def list_hooks(kind, oid):
    return reply(WebhooksSchema(), {"webhooks": hooks().list(_owner(kind, oid))})


@doc("remove{Owner}Webhook", ["webhooks"], "Remove a webhook (director)")
@authenticate("directorToken")
@response(None, 204, "Removed; deliveries still queued find it gone and send nothing.")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Unavailable")
def remove(kind, oid, hook_id):
    hooks().remove(_owner(kind, oid), hook_id)
    return "", 204


@doc("{owner}WebhookDeliveries", ["webhooks"], "A webhook's delivery log, every attempt oldest first (director)")
@authenticate("directorToken")
@response(DeliveriesSchema, 200, "The subscription and its attempts.")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Unavailable")
def deliveries(kind, oid, hook_id):
    return reply(DeliveriesSchema(), hooks().deliveries(_owner(kind, oid), hook_id))


WORDS = {"games": {"owner": "game", "Owner": "Game", "events": "game's events"},
         "tournaments": {"owner": "tournament", "Owner": "Tournament",
                         "events": "events of every board of the tournament"}}


def _routes(kind: str, param: str) -> None:
    """The same four routes under /v1/games/{game_id} and /v1/tournaments/{tournament_id}."""
    base = f"/v1/{kind}/<{param}>/webhooks"
    for rule, view, method in [("", add, "POST"), ("", list_hooks, "GET"), ("/<hook_id>", remove, "DELETE"),
                               ("/<hook_id>/deliveries", deliveries, "GET")]:
        def bound(view=view, **args):
            return view(kind, args.pop(param), **args)
        declare_as(bound, view, **WORDS[kind])
        bp.add_url_rule(base + rule, f"{kind}_{view.__name__}", bound, methods=[method])


_routes("games", "game_id")
_routes("tournaments", "tournament_id")
