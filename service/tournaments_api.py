"""Tournament routes: create, players, a round's boards, standings (JSON and CSV), audit."""
from __future__ import annotations

from flask import Blueprint, Response, current_app
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from workers.core import versions
from workers.tables.tournaments import MAX_PLAYERS, MAX_ROUNDS, Tournaments

from .etags import conditional
from .http import load, reply, token
from .schemas import POWER, GameOptionsSchema, Name, _Upper

bp = Blueprint("tournaments", __name__)


def tournaments() -> Tournaments:
    return current_app.extensions["tournaments"]


class AggregateSchema(Schema):
    method = fields.String(required=True, validate=validate.OneOf(["sum", "best"]))
    n = fields.Integer(strict=True, validate=validate.Range(1, 100))

    @validates_schema
    def _n(self, data, **kwargs):
        if (data.get("method") == "best") != ("n" in data):
            raise ValidationError("'n' (how many round scores count) goes with method 'best', and only with it", "n")


class CreateTournamentSchema(Schema):
    name = Name(load_default="")
    system = fields.String(required=True)
    aggregate = fields.Nested(AggregateSchema, load_default=lambda: {"method": "sum"})
    rounds = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_ROUNDS))
    players = fields.List(Name(min=1, max=50), load_default=list,
                          validate=validate.Length(max=MAX_PLAYERS))


class PlayerSchema(Schema):
    name = Name(min=1, max=50, required=True)


class BoardsSchema(Schema):
    seating = fields.Raw(required=True)
    game = fields.Nested(GameOptionsSchema, load_default=dict)

    @validates_schema
    def _seating(self, data, **kwargs):
        seating = data.get("seating")
        if seating == "draw":
            return
        if not isinstance(seating, list) or not seating or not all(
                isinstance(b, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in b.items())
                for b in seating):
            raise ValidationError('"draw", or a list of boards, each {POWER: player id}', "seating")
        data["seating"] = [{_Upper(validate=POWER).deserialize(k): v for k, v in b.items()} for b in seating]


class TournamentPlayerSchema(Schema):
    id = fields.String()
    name = fields.String()


class TournamentSchema(Schema):
    id = fields.String()
    name = fields.String()
    system = fields.String()
    aggregate = fields.Dict()
    rounds = fields.Integer()
    tie_break = fields.String()
    created_at = fields.String()
    players = fields.List(fields.Nested(TournamentPlayerSchema))
    boards = fields.List(fields.Dict())


class CreatedTournamentSchema(Schema):
    tournament = fields.Nested(TournamentSchema)
    director_token = fields.String()


class CreatedBoardsSchema(Schema):
    tournament = fields.String()
    round = fields.Integer()
    boards = fields.List(fields.Dict())


class StandingsSchema(Schema):
    tournament = fields.String()
    name = fields.String()
    system = fields.String()
    aggregate = fields.Dict()
    tie_break = fields.String()
    complete = fields.Boolean()
    rounds = fields.List(fields.Dict())
    standings = fields.List(fields.Dict())


class TournamentAuditSchema(Schema):
    tournament = fields.String()
    entries = fields.List(fields.Dict())


@bp.post("/v1/tournaments")
def create():
    tournament, director_token = tournaments().create(load(CreateTournamentSchema()))
    return reply(CreatedTournamentSchema(), {"tournament": tournament, "director_token": director_token}, 201)


@bp.get("/v1/tournaments/<tournament_id>")
def get(tournament_id):
    return conditional("tournament", tournament_id, versions.VIEW,
                       lambda: reply(TournamentSchema(), tournaments().view(tournament_id)))


@bp.post("/v1/tournaments/<tournament_id>/players")
def add_player(tournament_id):
    body = load(PlayerSchema())
    return reply(TournamentPlayerSchema(), tournaments().add_player(tournament_id, token(), body["name"]), 201)


@bp.post("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/boards")
def create_boards(tournament_id, round_number):
    body = load(BoardsSchema())
    boards = tournaments().create_boards(tournament_id, token(), round_number, body["seating"], body["game"])
    return reply(CreatedBoardsSchema(), {"tournament": tournament_id, "round": round_number, "boards": boards}, 201)


@bp.get("/v1/tournaments/<tournament_id>/standings")
def standings(tournament_id):
    return conditional("tournament", tournament_id, versions.STANDINGS,
                       lambda: reply(StandingsSchema(), tournaments().standings(tournament_id)))


@bp.get("/v1/tournaments/<tournament_id>/standings.csv")
def standings_csv(tournament_id):
    return Response(tournaments().standings_csv(tournament_id), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="standings-{tournament_id}.csv"'})


@bp.get("/v1/tournaments/<tournament_id>/audit")
def audit(tournament_id):
    return reply(TournamentAuditSchema(), {"tournament": tournament_id,
                                           "entries": tournaments().audit(tournament_id, token())})
