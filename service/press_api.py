"""Press routes: send and read messages between the powers, and the director's change of the
game's press rules (the press contract; docs/press.md)."""
from __future__ import annotations

from flask import Blueprint, current_app, request
from marshmallow import ValidationError

from . import schemas
from .http import load, reply, token

bp = Blueprint("press", __name__)


def press():
    return current_app.extensions["games"].press


@bp.post("/v1/games/<game_id>/press")
def send(game_id):
    body = load(schemas.SendPressSchema())
    message = press().send(game_id, token(), body.get("power"), body["to"], body["body"], body.get("grey"),
                           body["fake_broadcast"])
    return reply(schemas.SentPressSchema(), {"message": message}, 201)


@bp.get("/v1/games/<game_id>/press")
def read(game_id):
    try:
        query = schemas.PressQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    after = int(query["after"][1:]) if "after" in query else 0
    return reply(schemas.PressSchema(), {"messages": press().read(game_id, token(), after, query.get("limit"))})


@bp.put("/v1/games/<game_id>/press/rules")
def set_rules(game_id):
    body = load(schemas.PressRulesChangeSchema())
    press().set_rules(game_id, token(), body["press"])
    return reply(schemas.GameSchema(), current_app.extensions["games"].views.public_state(game_id))
