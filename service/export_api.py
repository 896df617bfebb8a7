"""A game's records: the export (its public state and whole history as one JSON document, with the
time it expires: a finished game, or one abandoned while forming, is kept for a configurable time,
``GAME_TTL_FINISHED``, ``GAME_TTL_FORMING``), the same as a MILA saved game (``?format=mila``), and
a new game made from a MILA record (docs/clients.md, "Game records (MILA)")."""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, request
from marshmallow import ValidationError, fields, validate

from . import schemas
from .http import load, reply

bp = Blueprint("export", __name__)
FORMATS = ("service", "mila")


def games():
    return current_app.extensions["games"]


@bp.get("/v1/games/<game_id>/export")
def export_game(game_id):
    form = request.args.get("format", "service")
    if form not in FORMATS:
        raise ValidationError({"format": [f"one of {list(FORMATS)}"]}, where="query")
    if form == "mila":
        return Response(json.dumps(games().views.export_mila(game_id)), mimetype="application/json")
    return reply(schemas.GameExportSchema(), games().views.export(game_id))


class ImportGameSchema(schemas.CreateGameSchema):
    """A MILA record and the settings of the game made from it (those of a new game, but its variant
    and start, which the record gives)."""

    format = fields.String(required=True, validate=validate.OneOf(["mila"]))
    game = fields.Dict(required=True)

    class Meta:
        exclude = ("variant", "start")


@bp.post("/v1/games/import")
def import_game():
    body = load(ImportGameSchema())
    body.pop("format")
    saved = body.pop("game")
    game, director_token = games().setup.import_mila(body, saved)
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)
