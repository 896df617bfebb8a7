"""Press routes: send and read messages between the powers, and the director's change of the
game's press rules (the press contract; docs/press.md)."""
from __future__ import annotations

from flask import Blueprint, current_app, request
from marshmallow import ValidationError

from . import schemas
from .contract import arguments, authenticate, body, doc, other_responses, response
from .http import load, reply, token

bp = Blueprint("press", __name__)


def press():
    return current_app.extensions["games"].press


@bp.post("/v1/games/<game_id>/press")
@doc("sendPress", ["press"], "Send press from one of the caller's powers (player token)",
     "\"to\" is a list of other powers, or \"all\" for a broadcast; \"power\" is needed only by a "
     "player of several powers; \"grey\" left out is the game's default (true when its press is "
     "grey only). A 422 whose detail names the rule when the game's press rules forbid the "
     "message (private, public, grey or fake broadcast off; no press in this phase; a power out "
     "of the game). Per-token rate limit (RATE_LIMIT_PRESS).")
@authenticate("playerToken")
@body(schemas.SendPressSchema)
@response(schemas.SentPressSchema, 201, "The message as its sender sees it.")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "Invalid",
                 "TooManyRequests", "Unavailable")
def send(game_id):
    body = load(schemas.SendPressSchema())
    message = press().send(game_id, token(), body.get("power"), body["to"], body["body"], body.get("grey"),
                           body["fake_broadcast"])
    return reply(schemas.SentPressSchema(), {"message": message}, 201)


@bp.get("/v1/games/<game_id>/press")
@doc("readPress", ["press"], "The press the caller may read, oldest first (player or director token)",
     "A player's token: the messages its powers sent or received, and the broadcasts. The "
     "director's: the broadcasts, and every private message when the game's press rules say "
     "director_reads. \"from\" is null for grey press except to its sender; a fake broadcast shows "
     "\"to\": \"all\" except to its sender.")
@authenticate("playerToken", "directorToken")
@arguments(schemas.PressQuerySchema)
@response(schemas.PressSchema, 200, "The messages.")
@other_responses("Malformed", "Unauthorized", "NotFound", "Invalid", "Unavailable")
def read(game_id):
    try:
        query = schemas.PressQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.PressSchema(), {"messages": press().read(game_id, token(), query.get("after"),
                                                                  query.get("limit"))})


@bp.put("/v1/games/<game_id>/press/rules")
@doc("setPressRules", ["press", "director"], "Change the game's press rules (director; audited)")
@authenticate("directorToken")
@body(schemas.PressRulesChangeSchema)
@response('GameState', 200)
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "Invalid",
                 "Unavailable")
def set_rules(game_id):
    body = load(schemas.PressRulesChangeSchema())
    press().set_rules(game_id, token(), body["press"])
    return reply(schemas.GameSchema(), current_app.extensions["games"].views.public_state(game_id))
