"""Tournament routes: create and settings, players (add, change, withdraw), a round's boards, clock and
slips, a board's result recorded at the table, standings (JSON and CSV), audit."""
from __future__ import annotations

from flask import Blueprint, Response, current_app
from marshmallow import ValidationError, fields, validate, validates_schema

from adjudicator import scoring
from workers.core import versions
from workers.tables.tournaments import BYE_SCORES, DEFAULT_BYE, MAX_PLAYERS, MAX_ROUNDS, POWERS, Tournaments

from .contract import arguments, authenticate, bearer, body, doc, links, other_responses, response
from .etags import conditional
from .http import load, reply, token
from .schemas import (POWER, POWER_NAME, AuditEntrySchema, Bool, GameOptionsSchema, Moment, Name, Reply, Schema,
                      TableResultSchema, Timestamp, _about, _Upper, json_pattern)

bp = Blueprint("tournaments", __name__)
NEW = {"tournament_id": "$response.body#/tournament/id"}  # the links of a new tournament


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

    class Meta:
        description = ('How a bye scores: "average" (the default: the average seat score of the round\'s finished '
                       'boards), "fixed" (the "value" given), or "zero".')

    score = fields.String(required=True, validate=validate.OneOf(BYE_SCORES))
    value = Number(validate=validate.Range(0, 1000), metadata={"description": "The score of a fixed bye."})

    @validates_schema
    def _value(self, data, **kwargs):
        if (data.get("score") == "fixed") != ("value" in data):
            raise ValidationError("'value' goes with score 'fixed', and only with it", "value")


class Preferences(fields.List):
    """Powers, the most wanted first, each at most once."""

    component = "PowerPreferences"

    def openapi(self, ref) -> dict:
        return {"type": "array", "maxItems": 7, "uniqueItems": True,
                "description": "Powers, the most wanted first (case-insensitive); a power left out ranks after every "
                               "listed one.", "items": {"type": "string", "pattern": json_pattern(POWER_NAME)}}

    def __init__(self, **kw):
        super().__init__(_Upper(validate=[POWER, validate.OneOf(POWERS)]), validate=validate.Length(max=7), **kw)

    def _deserialize(self, value, attr, data, **kwargs):
        found = super()._deserialize(value, attr, data, **kwargs)
        if len(set(found)) != len(found):
            raise ValidationError("each power at most once")
        return found


class CreateTournamentSchema(Schema):
    name = Name(load_default="")
    system = fields.String(required=True, metadata=_about(
        "One of the scoring systems of POST /v1/scoring/{system}.", enum=list(scoring.SYSTEMS)))
    aggregate = fields.Nested(AggregateSchema, load_default=lambda: {"method": "sum"})
    rounds = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_ROUNDS))
    players = fields.List(Name(min=1, max=50), load_default=list,
                          validate=validate.Length(max=MAX_PLAYERS),
                          metadata=_about("Names; ids t1, t2, ... in this order."))
    bye_score = fields.Nested(ByeScoreSchema, load_default=lambda: dict(DEFAULT_BYE))
    preferences = Bool(load_default=False, metadata={"description": "The seating draw asks for power preferences."})


class ChangeTournamentSchema(Schema):
    bye_score = fields.Nested(ByeScoreSchema)
    preferences = Bool(metadata=_about("The seating draw asks for the players\' power preferences."))

    @validates_schema
    def _some(self, data, **kwargs):
        if not data:
            raise ValidationError("name at least one of 'bye_score' and 'preferences'")


class PlayerSchema(Schema):
    class Meta:
        component = "TournamentPlayerName"

    name = Name(min=1, max=50, required=True)
    email = fields.Email(validate=validate.Length(max=254),
                         metadata=_about("Mailed each round's slip; shown to the director only."))
    preferences = Preferences()


class ChangePlayerSchema(Schema):
    class Meta:
        component = "ChangeTournamentPlayer"

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
    class Meta:
        component = "RoundClock"

    ends_at = Moment(required=True, allow_none=True, metadata=_about("When the round ends; null clears it."))


class Seating(fields.Field):
    """ "draw", or a list of boards, each {POWER: player id} (checked by the schema)."""

    def openapi(self, ref) -> dict:
        return {"oneOf": [{"type": "string", "enum": ["draw"]},
                          {"type": "array", "minItems": 1, "items": {
                              "type": "object", "additionalProperties": {"type": "string"},
                              "description": "POWER -> player id"}}]}


class BoardsSchema(Schema):
    class Meta:
        component = "CreateBoards"

    seating = Seating(required=True)
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
class TournamentPlayerSchema(Reply):
    id = fields.String(required=True)
    name = fields.String(required=True)
    withdrawn = fields.Boolean(required=True)
    withdrawn_at = fields.String(metadata={"format": "date-time"})


class DirectorPlayerSchema(TournamentPlayerSchema):
    class Meta:
        component = "DirectorTournamentPlayer"

    email = fields.String(required=True, allow_none=True)
    preferences = fields.List(fields.String(), required=True)
    byes = fields.List(fields.Integer(), required=True, metadata={"description": "The rounds sat out."})


class DirectorPlayersSchema(Reply):
    class Meta:
        component = "TournamentPlayers"

    tournament = fields.String(required=True)
    players = fields.List(fields.Nested(DirectorPlayerSchema), required=True)


class BoardSchema(Reply):
    round = fields.Integer(required=True)
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "Power -> player id."})
    status = fields.String(required=True)


class TournamentSchema(Reply):
    id = fields.String(required=True)
    name = fields.String()
    system = fields.String(required=True)
    aggregate = fields.Dict(required=True)
    rounds = fields.Integer(required=True)
    tie_break = fields.String(required=True)
    created_at = fields.String(metadata={"format": "date-time"})
    bye_score = fields.Nested(ByeScoreSchema, required=True)
    preferences = fields.Boolean(required=True)
    round_ends = fields.Dict(keys=fields.String(), values=Timestamp(), required=True,
                             metadata={"description": "Round -> when the director says it ends."})
    byes = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                       metadata={"description": "Round -> the ids of the players who sat it out."})
    players = fields.List(fields.Nested(TournamentPlayerSchema), required=True)
    boards = fields.List(fields.Nested(BoardSchema), required=True)


class CreatedTournamentSchema(Reply):
    tournament = fields.Nested(TournamentSchema, required=True)
    director_token = fields.String(required=True)


class SeatTokenSchema(Reply):
    player = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's player token, shown once."})


class CreatedBoardSchema(Reply):
    round = fields.Integer(required=True)
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatTokenSchema), required=True)


class NamedPlayerSchema(Reply):
    class Meta:
        component = "NamedTournamentPlayer"

    player = fields.String(required=True)
    name = fields.String(required=True)


class SlipSchema(NamedPlayerSchema):
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    power = fields.String(required=True)
    token = fields.String(metadata={"description": "The player token: only in the answer that made the boards."})
    signin = fields.String(allow_none=True, metadata={
        "description": "A one-time sign-in link to the player's board (null: the seat has no player any more)."})


class CreatedBoardsSchema(Reply):
    tournament = fields.String(required=True)
    round = fields.Integer(required=True)
    boards = fields.List(fields.Nested(CreatedBoardSchema), required=True)
    byes = fields.List(fields.Nested(NamedPlayerSchema), required=True,
                       metadata=_about("The players who sit this round out."))
    slips = fields.List(fields.Nested(SlipSchema), required=True,
                        metadata=_about("Each seated player's board, power and token, by name."))


class SlipsSchema(Reply):
    class Meta:
        component = "RoundSlips"

    tournament = fields.String(required=True)
    name = fields.String(required=True)
    round = fields.Integer(required=True)
    ends_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    slips = fields.List(fields.Nested(SlipSchema), required=True)
    byes = fields.List(fields.Nested(NamedPlayerSchema), required=True)


class FiguresSchema(Reply):
    """A score as a number, as the exact fraction, and with two decimals for reading (null: not known yet)."""

    class Meta:
        description = ("A score as a number, as the exact fraction, and with two decimals for reading (null, not "
                       "known yet).")

    score = fields.Float(required=True, allow_none=True)
    exact = fields.String(required=True, allow_none=True)
    rounded = fields.String(required=True, allow_none=True, metadata={"pattern": "^-?[0-9]+[.][0-9]{2}$"})


class BoardScoreSchema(FiguresSchema):
    power = fields.String(required=True)
    centers = fields.Integer(required=True)


class RoundBoardSchema(Reply):
    board = fields.Integer(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True)
    end = fields.String(required=True, allow_none=True)
    scores = fields.Dict(keys=fields.String(), values=fields.Nested(BoardScoreSchema), required=True,
                         metadata={"description": "Player id -> the power played, its score and centres."})


class RoundSchema(Reply):
    round = fields.Integer(required=True)
    complete = fields.Boolean(required=True, metadata={"description": "It has boards, and every one has ended."})
    ends_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    boards = fields.List(fields.Nested(RoundBoardSchema), required=True)
    byes = fields.List(fields.Nested(NamedPlayerSchema), required=True)
    bye_score = fields.Nested(FiguresSchema, required=True)


class StandingSchema(Reply):
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
    byes = fields.List(fields.Integer(), required=True, metadata=_about("The rounds sat out with a bye."))
    rounds = fields.Dict(keys=fields.String(), values=fields.Float(allow_none=True), required=True)
    rounds_rounded = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True), required=True)


class AwardHolderSchema(NamedPlayerSchema):
    round = fields.Integer(required=True)
    board = fields.Integer(required=True)


class BestCountrySchema(FiguresSchema):
    power = fields.String(required=True)
    centers = fields.Integer(required=True)
    holders = fields.List(fields.Nested(AwardHolderSchema), required=True)


class StandingsSchema(Reply):
    tournament = fields.String(required=True)
    name = fields.String()
    system = fields.String(required=True)
    aggregate = fields.Dict(required=True)
    tie_break = fields.String(required=True)
    bye_score = fields.Nested(ByeScoreSchema, required=True)
    complete = fields.Boolean(required=True, metadata=_about("Every round is complete."))
    rounds = fields.List(fields.Nested(RoundSchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    withdrawn = fields.List(fields.Nested(TournamentPlayerSchema), required=True,
                            metadata={"description": "Players withdrawn before any result: not ranked."})
    best_country_rule = fields.String(required=True)
    best_countries = fields.List(fields.Nested(BestCountrySchema), required=True, metadata=_about(
        "For each power played on a finished board, its best result and who earned it."))


class RoundClockReplySchema(Reply):
    class Meta:
        component = "RoundClockSet"

    round = fields.Integer(required=True)
    ends_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})


class TournamentAuditSchema(Reply):
    tournament = fields.String(required=True)
    entries = fields.List(fields.Nested(AuditEntrySchema), required=True)


@bp.post("/v1/tournaments")
@doc("createTournament", ["tournaments"], "Create a tournament",
     "Its scoring system, how round scores add up (sum of every round, or the best N), its number"
     " of rounds and (optionally) its players. Returns the director token, shown once: it alone "
     "changes the tournament and directs its boards.")
@body(CreateTournamentSchema)
@response(CreatedTournamentSchema, 201, "The tournament and its director token.",
          links=links(NEW, GetTournament='getTournament',
                      GetStandings='getStandings', GetStandingsCsv='getStandingsCsv', TournamentPage='tournamentPage')
                | links(NEW | bearer("$response.body#/director_token"),
                        AddTournamentPlayer='addTournamentPlayer', GetTournamentAudit='getTournamentAudit',
                        AddTournamentWebhook='addTournamentWebhook', ListTournamentWebhooks='listTournamentWebhooks'))
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Invalid")
def create():
    tournament, director_token = tournaments().create(load(CreateTournamentSchema()))
    return reply(CreatedTournamentSchema(), {"tournament": tournament, "director_token": director_token}, 201)


@bp.get("/v1/tournaments/<tournament_id>")
@doc("getTournament", ["tournaments"], "A tournament, its players and boards")
@arguments(None, "IfNoneMatch")
@response(TournamentSchema, 200, "The tournament.", headers={'ETag': 'ETag'})
@other_responses("NotModified", "Unavailable", "NotFound")
def get(tournament_id):
    return conditional("tournament", tournament_id, versions.VIEW,
                       lambda: reply(TournamentSchema(), tournaments().view(tournament_id)))


@bp.patch("/v1/tournaments/<tournament_id>")
@doc("changeTournament", ["tournaments"],
     "Change the bye score, or whether the draw asks for power preferences (director)")
@authenticate("directorToken")
@body(ChangeTournamentSchema)
@response(TournamentSchema, 200, "The tournament as changed.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "TooLarge",
                 "Invalid")
def change(tournament_id):
    return reply(TournamentSchema(), tournaments().change(tournament_id, token(), load(ChangeTournamentSchema())))


@bp.get("/v1/tournaments/<tournament_id>/players")
@doc("listTournamentPlayers", ["tournaments"], "Every player with address, power preferences and byes (director)")
@authenticate("directorToken")
@response(DirectorPlayersSchema, 200, "The players, in the order they were added.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound")
def players(tournament_id):
    return reply(DirectorPlayersSchema(), {"tournament": tournament_id,
                                           "players": tournaments().players(tournament_id, token())})


@bp.post("/v1/tournaments/<tournament_id>/players")
@doc("addTournamentPlayer", ["tournaments"], "Register a player (director)",
     "With an optional address (the player is mailed each round's slip) and, where the tournament"
     " asks for them, power preferences.")
@authenticate("directorToken")
@body(PlayerSchema)
@response(DirectorPlayerSchema, 201, "The player and its id.")
@other_responses("Conflict", "TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound",
                 "TooLarge", "Invalid")
def add_player(tournament_id):
    body = load(PlayerSchema())
    return reply(DirectorPlayerSchema(), tournaments().add_player(
        tournament_id, token(), body["name"], body.get("email"), body.get("preferences")), 201)


@bp.patch("/v1/tournaments/<tournament_id>/players/<player_id>")
@doc("changeTournamentPlayer", ["tournaments"], "Set a player's address or power preferences (director)",
     "null clears a value.")
@authenticate("directorToken")
@body(ChangePlayerSchema)
@response(DirectorPlayerSchema, 200, "The player as changed.")
@other_responses("Conflict", "TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound",
                 "TooLarge", "Invalid")
def change_player(tournament_id, player_id):
    return reply(DirectorPlayerSchema(), tournaments().change_player(tournament_id, token(), player_id,
                                                                     load(ChangePlayerSchema())))


@bp.post("/v1/tournaments/<tournament_id>/players/<player_id>/withdraw")
@doc("withdrawTournamentPlayer", ["tournaments"], "Withdraw a player (director)",
     "The player keeps the scores already earned and gets no new board nor bye. A board in play "
     "goes on (its seat can be opened for a replacement). A player withdrawn before any result is"
     " not ranked: the standings list them apart (\"withdrawn\").")
@authenticate("directorToken")
@body(WithdrawSchema, required=False)
@response(DirectorPlayerSchema, 200, "The player, withdrawn.")
@other_responses("Conflict", "TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound",
                 "TooLarge", "Invalid")
def withdraw(tournament_id, player_id):
    body = load(WithdrawSchema())
    return reply(DirectorPlayerSchema(), tournaments().withdraw(tournament_id, token(), player_id, body["reason"]))


@bp.post("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/boards")
@doc("createBoards", ["tournaments"], "Create a round's boards and seat the players (director)",
     "\"seating\" is \"draw\" (every player still in, at boards of seven, drawn so that no two "
     "players meet again where possible: the fewest repeated pairs; the players left over sit out"
     " with a bye, those with the fewest byes so far first; powers drawn at random, or to satisfy"
     " the players' power preferences best where the tournament asks for them) or a list of "
     "boards, each {POWER: player id} (the players still in left out of them sit out with a bye)."
     " The boards are standard games directed by the tournament's director token, started at "
     "once; \"game\" sets their options (deadlines, last_year, a set start position, ...). The "
     "answer holds each seat's player token, shown only this once, for the director to hand out, "
     "and the same as slips; each player with an address is mailed their slip. One call per "
     "round.")
@authenticate("directorToken")
@body(BoardsSchema)
@response(CreatedBoardsSchema, 201, "The boards, with the seats' tokens.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict",
                 "TooLarge", "Invalid")
def create_boards(tournament_id, round_number):
    body = load(BoardsSchema())
    made = tournaments().create_boards(tournament_id, token(), round_number, body["seating"], body["game"])
    return reply(CreatedBoardsSchema(), {"tournament": tournament_id, "round": round_number, **made}, 201)


@bp.put("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/clock")
@doc("setRoundClock", ["tournaments"], "Set when a round ends, or clear it (director)",
     "Shown in the tournament, its standings and its slips; it ends no board by itself (a board "
     "ends by its last year, or by the director).")
@authenticate("directorToken")
@body(RoundClockSchema)
@response(RoundClockReplySchema, 200, "The round's end as set.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "TooLarge",
                 "Invalid")
def round_clock(tournament_id, round_number):
    ends_at = load(RoundClockSchema())["ends_at"]
    return reply(RoundClockReplySchema(), tournaments().set_round_end(
        tournament_id, token(), round_number, None if ends_at is None else ends_at.timestamp()))


@bp.get("/v1/tournaments/<tournament_id>/rounds/<int:round_number>/slips")
@doc("getRoundSlips", ["tournaments"], "Each player's board and power in a round, and the byes (director)",
     "For printing slips. A player token is shown only once, in the answer that made the boards "
     "(its \"slips\" carry them); these slips carry none, and \"signin\" is null until the service "
     "makes sign-in links.")
@authenticate("directorToken")
@response(SlipsSchema, 200, "The slips, by player name.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound")
def slips(tournament_id, round_number):
    return reply(SlipsSchema(), tournaments().slips(tournament_id, token(), round_number))


@bp.post("/v1/tournaments/<tournament_id>/boards/<game_id>/result")
@doc("recordBoardResult", ["tournaments"],
     "Record a face-to-face board's result, without playing its phases (director)",
     "The board's game ends as POST /v1/games/{game_id}/end ends it with a result recorded at the"
     " table (a draw and its members, a solo, a concession, or time called, with the centres "
     "counted at the table); the game's audit and the tournament's both say so.")
@authenticate("directorToken")
@body(RecordResultSchema)
@response(RoundBoardSchema, 200, "The board as the standings score it.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict",
                 "TooLarge", "Invalid")
def record_result(tournament_id, game_id):
    body = load(RecordResultSchema())
    return reply(RoundBoardSchema(), tournaments().record_result(tournament_id, token(), game_id, body["result"],
                                                                 body["reason"]))


@bp.get("/v1/tournaments/<tournament_id>/standings")
@doc("getStandings", ["tournaments"], "Standings per round and overall (anyone)",
     "Every finished board scored under the tournament's system (exact fractions beside the "
     "numbers, and two decimals for reading); byes scored as the tournament's \"bye_score\" says; "
     "each player's round scores, the rounds counted (all, or the best N), the total, and the "
     "rank with the tie-break stated in \"tie_break\"; the best-country awards. Unfinished boards "
     "count nothing yet. A round is \"complete\" when it has boards and every one has ended; the "
     "standings are when every round is.")
@arguments(None, "IfNoneMatch")
@response(StandingsSchema, 200, "The standings.", headers={'ETag': 'ETag'})
@other_responses("NotModified", "Unavailable", "NotFound")
def standings(tournament_id):
    return conditional("tournament", tournament_id, versions.STANDINGS,
                       lambda: reply(StandingsSchema(), tournaments().standings(tournament_id)))


@bp.get("/v1/tournaments/<tournament_id>/standings.csv")
@doc("getStandingsCsv", ["tournaments"], "The overall standings as CSV (anyone)",
     "Columns: rank, player, name, total, total_exact, round_1 ... round_N (empty: no score yet),"
     " best_game, centers, withdrawn (yes or empty).")
@response(None, 200, "One row per player, best first.",
          content={"text/csv": {"schema": {"description": "CSV text (RFC 4180), a header row first."}}})
@other_responses("Unavailable", "NotFound")
def standings_csv(tournament_id):
    return Response(tournaments().standings_csv(tournament_id), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="standings-{tournament_id}.csv"'})


@bp.get("/v1/tournaments/<tournament_id>/audit")
@doc("getTournamentAudit", ["tournaments"], "Every director action on the tournament (director)")
@authenticate("directorToken")
@response(TournamentAuditSchema, 200, "The audit log, oldest first.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound")
def audit(tournament_id):
    return reply(TournamentAuditSchema(), {"tournament": tournament_id,
                                           "entries": tournaments().audit(tournament_id, token())})
