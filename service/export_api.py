"""A game's records: the export (its public state and whole history as one JSON document, with the
time it expires: a finished game, or one abandoned while forming, is kept for a configurable time,
``GAME_TTL_FINISHED``, ``GAME_TTL_FORMING``), the same as a MILA saved game (``?format=mila``), and
a new game made from a MILA record (docs/clients.md, "Game records (MILA)")."""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, request
from marshmallow import ValidationError, fields, validate

from . import schemas
from .contract import arguments, body, doc, other_responses, response
from .http import load, reply
from .schemas import Reply, Schema, Strings, _about

bp = Blueprint("export", __name__)
FORMATS = ("service", "mila")


def games():
    return current_app.extensions["games"]


class ExportQuerySchema(Schema):
    format = fields.String(load_default="service", validate=validate.OneOf(FORMATS))


class MilaPhaseSchema(Reply):
    name = fields.String(required=True)
    state = fields.Dict(required=True)
    orders = fields.Dict(required=True)
    results = fields.Dict()
    messages = fields.List(fields.Dict(), metadata=_about("The phase's press (MILA's message objects)."))


class MilaGameSchema(Reply):
    class Meta:
        description = "A saved game of the MILA diplomacy package (diplomacy.utils.export)."

    id = fields.String(required=True)
    map = fields.String(required=True)
    rules = Strings(required=True)
    phases = fields.List(fields.Nested(MilaPhaseSchema), required=True)


class MilaRecord(fields.Dict):
    """A MILA record, read as it is (workers.tables.games.mila checks it)."""

    def openapi(self, ref) -> dict:
        return ref(MilaGameSchema)


@bp.get("/v1/games/<game_id>/export")
@doc("exportGame", ["games"], "The game and its whole history as one JSON document, with when it expires",
     "A finished game, and a game abandoned while forming, is kept for a configurable time (30 "
     "and 7 days by default) and then expires; export it before \"expires_at\" to keep it. With "
     "format=mila, the game as a saved game of the MILA diplomacy package "
     "(diplomacy.utils.export's to_saved_game_format: every adjudicated phase with its state, "
     "orders and results, then the phase now open), which MILA's from_saved_game_format loads "
     "(standard map only).")
@arguments(ExportQuerySchema)
@response(None, 200, "The export (GameExport), or with format=mila the MILA record (MilaGame).",
          content={"application/json": {"schema": {"anyOf": [schemas.GameExportSchema, MilaGameSchema]}}})
@other_responses("NotFound", "Invalid", "Unavailable")
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
    game = MilaRecord(required=True)

    class Meta:
        exclude = ("variant", "start")


@bp.post("/v1/games/import")
@doc("importGame", ["games"], "Create a game from a MILA record, at its last phase",
     "\"game\" is a saved game of the MILA diplomacy package (standard map). Its orders are "
     "replayed phase by phase through this service's adjudicator; a record whose orders do not "
     "lead to its own next positions is a 422 naming the first phase that differs (its \"phase\"; "
     "docs/diplomacy.md lists MILA's known adjudication errors). Otherwise a new game (forming, "
     "seats open, the director token returned once) starts at the record's last phase, its "
     "history holding the record's phases. Any setting of POST /v1/games but variant and start "
     "may be given beside \"format\" and \"game\".")
@body(ImportGameSchema)
@response(schemas.CreatedGameSchema, 201, "The game (forming, waiting for players) and the director token.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Invalid")
def import_game():
    body = load(ImportGameSchema())
    body.pop("format")
    saved = body.pop("game")
    game, director_token = games().setup.import_mila(body, saved)
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)
