"""Tournament routes: create and settings, players (add, change, withdraw), a round's boards, clock and
slips, a board's result recorded at the table, standings (JSON and CSV), audit."""
from __future__ import annotations

from flask import Blueprint, Response, current_app
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from workers.core import versions
from workers.tables.tournaments import BYE_SCORES, DEFAULT_BYE, MAX_PLAYERS, MAX_ROUNDS, POWERS, Tournaments

from .etags import conditional
from .http import load, reply, token
from .schemas import POWER, AuditEntrySchema, Bool, GameOptionsSchema, Moment, Name, TableResultSchema, _Upper

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


class Number(fields.Float):
    """A JSON number (not a string of digits, not true or false)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class ByeScoreSchema(Schema):
    """How a bye scores (docs/tournaments.md, "Byes"): the round's average seat score, a fixed score, or zero."""

    score = fields.String(required=True, validate=validate.OneOf(BYE_SCORES))
    value = Number(validate=validate.Range(0, 1000), metadata={"description": "The score of a fixed bye."})

    @validates_schema
    def _value(self, data, **kwargs):
        if (data.get("score") == "fixed") != ("value" in data):
            raise ValidationError("'value' goes with score 'fixed', and only with it", "value")


class Preferences(fields.List):
    """Powers, the most wanted first, each at most once."""

    def __init__(self, **kw):
        super().__init__(_Upper(validate=[POWER, validate.OneOf(POWERS)]), validate=validate.Length(max=7), **kw)

    def _deserialize(self, value, attr, data, **kwargs):
        found = super()._deserialize(value, attr, data, **kwargs)
        if len(set(found)) != len(found):
            raise ValidationError("each power at most once")
        return found


class CreateTournamentSchema(Schema):
    name = Name(load_default="")
    system = fields.String(required=True)
    aggregate = fields.Nested(AggregateSchema, load_default=lambda: {"method": "sum"})
    rounds = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_ROUNDS))
    players = fields.List(Name(min=1, max=50), load_default=list,
                          validate=validate.Length(max=MAX_PLAYERS))
    bye_score = fields.Nested(ByeScoreSchema, load_default=lambda: dict(DEFAULT_BYE))
    preferences = Bool(load_default=False, metadata={"description": "The seating draw asks for power preferences."})


class ChangeTournamentSchema(Schema):
    bye_score = fields.Nested(ByeScoreSchema)
    preferences = Bool()

    @validates_schema
    def _some(self, data, **kwargs):
        if not data:
            raise ValidationError("name at least one of 'bye_score' and 'preferences'")


class PlayerSchema(Schema):
    name = Name(min=1, max=50, required=True)
    email = fields.Email(validate=validate.Length(max=254))
    preferences = Preferences()


class ChangePlayerSchema(Schema):
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))
    preferences = Preferences(allow_none=True)

    @validates_schema
    def _some(self, data, **kwargs):
        if not data:
            raise ValidationError("name at least one of 'email' and 'preferences'")


class WithdrawSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class RecordResultSchema(Schema):
    result = fields.Nested(TableResultSchema, required=True)
    reason = fields.String(load_default="result recorded at the table", validate=validate.Length(max=500))


class RoundClockSchema(Schema):
    ends_at = Moment(required=True, allow_none=True)


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


# ---------------------------------------------------------------- replies
class TournamentPlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    withdrawn = fields.Boolean(required=True)
    withdrawn_at = fields.String(metadata={"format": "date-time"})


class DirectorPlayerSchema(TournamentPlayerSchema):
    email = fields.String(required=True, allow_none=True)
    preferences = fields.List(fields.String(), required=True)
    byes = fields.List(fields.Integer(), required=True, metadata={"description": "The rounds sat out."})


class DirectorPlayersSchema(Schema):
    tournament = fields.String(required=True)
    players = fields.List(fields.Nested(DirectorPlayerSchema), required=True)


class BoardSchema(Schema):
    round = fields.Integer(required=True)
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "Power -> player id."})
    status = fields.String(required=True)


class TournamentSchema(Schema):
    id = fields.String(required=True)
    name = fields.String()
    system = fields.String(required=True)
    aggregate = fields.Dict(required=True)
    rounds = fields.Integer(required=True)
    tie_break = fields.String(required=True)
    created_at = fields.String(metadata={"format": "date-time"})
    bye_score = fields.Nested(ByeScoreSchema, required=True)
    preferences = fields.Boolean(required=True)
    round_ends = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                             metadata={"description": "Round -> when the director says it ends."})
    byes = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                       metadata={"description": "Round -> the ids of the players who sat it out."})
    players = fields.List(fields.Nested(TournamentPlayerSchema), required=True)
    boards = fields.List(fields.Nested(BoardSchema), required=True)


class CreatedTournamentSchema(Schema):
    tournament = fields.Nested(TournamentSchema, required=True)
    director_token = fields.String(required=True)


class SeatTokenSchema(Schema):
    player = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's player token, shown once."})


class CreatedBoardSchema(Schema):
    round = fields.Integer(required=True)
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatTokenSchema), required=True)


class NamedPlayerSchema(Schema):
    player = fields.String(required=True)
    name = fields.String(required=True)


class SlipSchema(NamedPlayerSchema):
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    power = fields.String(required=True)
    token = fields.String(metadata={"description": "The player token: only in the answer that made the boards."})
    signin = fields.String(allow_none=True, metadata={"description": "A one-time sign-in link (null: none yet)."})


class CreatedBoardsSchema(Schema):
    tournament = fields.String(required=True)
    round = fields.Integer(required=True)
    boards = fields.List(fields.Nested(CreatedBoardSchema), required=True)
    byes = fields.List(fields.Nested(NamedPlayerSchema), required=True)
    slips = fields.List(fields.Nested(SlipSchema), required=True)


class SlipsSchema(Schema):
    tournament = fields.String(required=True)
    name = fields.String(required=True)
    round = fields.Integer(required=True)
    ends_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    slips = fields.List(fields.Nested(SlipSchema), required=True)
    byes = fields.List(fields.Nested(NamedPlayerSchema), required=True)


class FiguresSchema(Schema):
    """A score as a number, as the exact fraction, and with two decimals for reading (null: not known yet)."""

    score = fields.Float(required=True, allow_none=True)
    exact = fields.String(required=True, allow_none=True)
    rounded = fields.String(required=True, allow_none=True)


class BoardScoreSchema(FiguresSchema):
    power = fields.String(required=True)
    centers = fields.Integer(required=True)


class RoundBoardSchema(Schema):
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True)
    end = fields.String(required=True, allow_none=True)
    scores = fields.Dict(keys=fields.String(), values=fields.Nested(BoardScoreSchema), required=True,
                         metadata={"description": "Player id -> the power played, its score and centres."})


class RoundSchema(Schema):
    round = fields.Integer(required=True)
    complete = fields.Boolean(required=True, metadata={"description": "It has boards, and every one has ended."})
    ends_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    boards = fields.List(fields.Nested(RoundBoardSchema), required=True)
    byes = fields.List(fields.Nested(NamedPlayerSchema), required=True)
    bye_score = fields.Nested(FiguresSchema, required=True)


class StandingSchema(Schema):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    name = fields.String(required=True)
    withdrawn = fields.Boolean(required=True)
    total = fields.Float(required=True)
    total_exact = fields.String(required=True)
    total_rounded = fields.String(required=True)
    best_game = fields.Float(required=True)
    best_game_rounded = fields.String(required=True)
    centers = fields.Integer(required=True)
    counted_rounds = fields.List(fields.Integer(), required=True)
    byes = fields.List(fields.Integer(), required=True)
    rounds = fields.Dict(keys=fields.String(), values=fields.Float(allow_none=True), required=True)
    rounds_rounded = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True), required=True)


class AwardHolderSchema(NamedPlayerSchema):
    round = fields.Integer(required=True)
    board = fields.Integer(required=True)


class BestCountrySchema(FiguresSchema):
    power = fields.String(required=True)
    centers = fields.Integer(required=True)
    holders = fields.List(fields.Nested(AwardHolderSchema), required=True)


class StandingsSchema(Schema):
    tournament = fields.String(required=True)
    name = fields.String()
    system = fields.String(required=True)
    aggregate = fields.Dict(required=True)
    tie_break = fields.String(required=True)
    bye_score = fields.Nested(ByeScoreSchema, required=True)
    complete = fields.Boolean(required=True)
    rounds = fields.List(fields.Nested(RoundSchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    withdrawn = fields.List(fields.Nested(TournamentPlayerSchema), required=True,
                            metadata={"description": "Players withdrawn before any result: not ranked."})
    best_country_rule = fields.String(required=True)
    best_countries = fields.List(fields.Nested(BestCountrySchema), required=True)


class RoundClockReplySchema(Schema):
    round = fields.Integer(required=True)
    ends_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})


class TournamentAuditSchema(Schema):
    tournament = fields.String(required=True)
    entries = fields.List(fields.Nested(AuditEntrySchema), required=True)


@bp.post("/v1/tournaments")
def create():
    tournament, director_token = tournaments().create(load(CreateTournamentSchema()))
    return reply(CreatedTournamentSchema(), {"tournament": tournament, "director_token": director_token}, 201)


@bp.get("/v1/tournaments/<tournament_id>")
def get(tournament_id):
    return conditional("tournament", tournament_id, versions.VIEW,
                       lambda: reply(TournamentSchema(), tournaments().view(tournament_id)))


@bp.patch("/v1/tournaments/<tournament_id>")
def change(tournament_id):
    return reply(TournamentSchema(), tournaments().change(tournament_id, token(), load(ChangeTournamentSchema())))


@bp.get("/v1/tournaments/<tournament_id>/players")
def players(tournament_id):
    return reply(DirectorPlayersSchema(), {"tournament": tournament_id,
                                           "players": tournaments().players(tournament_id, token())})


@bp.post("/v1/tournaments/<tournament_id>/players")
def add_player(tournament_id):
    body = load(PlayerSchema())
    return reply(DirectorPlayerSchema(), tournaments().add_player(
        tournament_id, token(), body["name"], body.get("email"), body.get("preferences")), 201)


@bp.patch("/v1/tournaments/<tournament_id>/players/<player_id>")
def change_player(tournament_id, player_id):
    return reply(DirectorPlayerSchema(), tournaments().change_player(tournament_id, token(), player_id,
                                                                     load(ChangePlayerSchema())))


@bp.post("/v1/tournaments/<tournament_id>/players/<player_id>/withdraw")
def withdraw(tournament_id, player_id):
    body = load(WithdrawSchema())
    return reply(DirectorPlayerSchema(), tournaments().withdraw(tournament_id, token(), player_id, body["reason"]))


@bp.post("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/boards")
def create_boards(tournament_id, round_number):
    body = load(BoardsSchema())
    made = tournaments().create_boards(tournament_id, token(), round_number, body["seating"], body["game"])
    return reply(CreatedBoardsSchema(), {"tournament": tournament_id, "round": round_number, **made}, 201)


@bp.put("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/clock")
def round_clock(tournament_id, round_number):
    ends_at = load(RoundClockSchema())["ends_at"]
    return reply(RoundClockReplySchema(), tournaments().set_round_end(
        tournament_id, token(), round_number, None if ends_at is None else ends_at.timestamp()))


@bp.get("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/slips")
def slips(tournament_id, round_number):
    return reply(SlipsSchema(), tournaments().slips(tournament_id, token(), round_number))


@bp.post("/v1/tournaments/<tournament_id>/boards/<game_id>/result")
def record_result(tournament_id, game_id):
    body = load(RecordResultSchema())
    return reply(RoundBoardSchema(), tournaments().record_result(tournament_id, token(), game_id, body["result"],
                                                                 body["reason"]))


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
