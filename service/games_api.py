"""The Diplomacy game routes: create, join, orders, ready, history, and the director's actions."""
from __future__ import annotations

from flask import Blueprint, current_app, request
from marshmallow import ValidationError

from workers.core import versions
from workers.tables.games import Games

from . import schemas
from .etags import conditional
from .http import load, reply, token

bp = Blueprint("games", __name__)


def games() -> Games:
    return current_app.extensions["games"]


# ---------------------------------------------------------------- games
@bp.post("/v1/games")
def create_game():
    game, director_token = games().setup.create_game(load(schemas.CreateGameSchema()))
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)


@bp.get("/v1/games")
def lobby():
    try:
        query = schemas.LobbyQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.LobbySchema(), games().lobby.page(query))


@bp.get("/v1/games/<not_import:game_id>")
def get_game(game_id):
    return conditional("game", game_id, versions.VIEW,
                       lambda: reply(schemas.GameSchema(), games().views.public_state(game_id)))


@bp.post("/v1/games/<game_id>/players")
def join(game_id):
    body = load(schemas.JoinSchema())
    account = games().accounts.holder(token()) if token() else None  # an account token ties the seat
    player, player_token = games().setup.join(game_id, body["name"], body.get("power"), body.get("email"), account)
    return reply(schemas.JoinedSchema(), {"player": player, "token": player_token,
                                          "game": games().views.public_state(game_id)}, 201)


# ---------------------------------------------------------------- seats
@bp.post("/v1/games/<game_id>/seats/<power>/open")
def open_seat(game_id, power):
    body = load(schemas.OpenSeatSchema())
    return reply(schemas.GameSchema(), games().director.open_seat(game_id, token(), power.upper(), body["reason"]))


@bp.post("/v1/games/<game_id>/seats/<power>/leave")
def leave_seat(game_id, power):
    games().seats.leave(game_id, token(), power.upper())
    return reply(schemas.GameSchema(), games().views.public_state(game_id))


@bp.get("/v1/games/<game_id>/history")
def history(game_id):
    return conditional("game", game_id, versions.HISTORY,
                       lambda: reply(schemas.HistorySchema(), {"game": game_id, "phases": games().views.history(game_id)}))


@bp.get("/v1/games/<game_id>/orders")
def own_orders(game_id):
    return reply(schemas.OwnOrdersSchema(), games().views.own_orders(game_id, token()))


@bp.put("/v1/games/<game_id>/orders/<power>")
def submit_orders(game_id, power):
    body = load(schemas.OrdersSchema())
    return reply(schemas.SubmissionSchema(),
                 games().orders.submit(game_id, token(), power.upper(), body["orders"], body.get("phase")))


@bp.delete("/v1/games/<game_id>/orders/<power>")
def clear_orders(game_id, power):
    try:
        query = schemas.ClearOrdersQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.SubmissionSchema(), games().orders.clear(game_id, token(), power.upper(), query.get("phase")))


@bp.put("/v1/games/<game_id>/ready")
def set_ready(game_id):
    body = load(schemas.ReadySchema())
    return reply(schemas.ReadyStateSchema(), games().orders.set_ready(game_id, token(), body["ready"]))


# ---------------------------------------------------------------- director
@bp.post("/v1/games/<game_id>/start")
def start(game_id):
    return reply(schemas.GameSchema(), games().setup.start(game_id, token()))


@bp.post("/v1/games/<game_id>/extend")
def extend(game_id):
    body = load(schemas.ExtendSchema())
    until = body["deadline"].timestamp() if "deadline" in body else None
    return reply(schemas.GameSchema(), games().director.extend(game_id, token(), body.get("seconds"), until))


@bp.post("/v1/games/<game_id>/pause")
def pause(game_id):
    return reply(schemas.GameSchema(), games().director.pause(game_id, token()))


@bp.post("/v1/games/<game_id>/resume")
def resume(game_id):
    return reply(schemas.GameSchema(), games().director.resume(game_id, token()))


@bp.post("/v1/games/<game_id>/adjudicate")
def force(game_id):
    return reply(schemas.GameSchema(), games().director.force(game_id, token()))


# ---------------------------------------------------------------- absences
def absences():
    return games().absences


@bp.get("/v1/games/<game_id>/absences")
def list_absences(game_id):
    return reply(schemas.AbsencesSchema(), {"game": game_id, "absences": absences().list(game_id)})


@bp.post("/v1/games/<game_id>/absences")
def declare_absence(game_id):
    body = load(schemas.DeclareAbsenceSchema())
    return reply(schemas.AbsenceSchema(), absences().declare(
        game_id, token(), body["start"].timestamp(), body["end"].timestamp()), 201)


@bp.put("/v1/games/<game_id>/absences/<absence_id>")
def decide_absence(game_id, absence_id):
    body = load(schemas.AbsenceDecisionSchema())
    return reply(schemas.AbsenceSchema(), absences().decide(game_id, token(), absence_id, body["status"]))


@bp.delete("/v1/games/<game_id>/absences/<absence_id>")
def cancel_absence(game_id, absence_id):
    return reply(schemas.AbsenceSchema(), absences().cancel(game_id, token(), absence_id))


@bp.post("/v1/games/<game_id>/end")
def end_game(game_id):
    body = load(schemas.EndSchema())
    return reply(schemas.GameSchema(), games().director.end_game(game_id, token(), body["reason"], body.get("result")))


@bp.put("/v1/games/<game_id>/last-year")
def set_last_year(game_id):
    body = load(schemas.LastYearSchema())
    return reply(schemas.GameSchema(), games().director.set_last_year(game_id, token(), body["year"]))


@bp.post("/v1/games/<game_id>/rollback")
def rollback(game_id):
    body = load(schemas.RollbackSchema())
    return reply(schemas.GameSchema(), games().director.rollback(game_id, token(), body["seq"], body["reason"]))


@bp.post("/v1/games/<game_id>/fork")
def fork(game_id):
    body = load(schemas.ForkSchema())
    seq = body.pop("seq", None)
    game, director_token = games().director.fork(game_id, token(), seq, body)
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)


@bp.get("/v1/games/<game_id>/audit")
def audit(game_id):
    return reply(schemas.AuditSchema(), {"game": game_id, "entries": games().views.audit(game_id, token())})


# ---------------------------------------------------------------- game end
@bp.post("/v1/games/<game_id>/proposals")
def propose(game_id):
    body = load(schemas.ProposeSchema())
    return reply(schemas.ProposalSchema(), games().votes.propose(
        game_id, token(), body["power"], body["kind"], body.get("members"), body.get("to")), 201)


@bp.get("/v1/games/<game_id>/proposals")
def proposals(game_id):
    return reply(schemas.ProposalsSchema(), {"game": game_id, "proposals": games().votes.proposals(game_id, token())})


@bp.put("/v1/games/<game_id>/proposals/<proposal_id>/votes/<power>")
def vote(game_id, proposal_id, power):
    body = load(schemas.VoteSchema())
    return reply(schemas.VotedSchema(), games().votes.vote(game_id, token(), proposal_id, power.upper(), body["vote"]))


@bp.get("/v1/games/<game_id>/result")
def result(game_id):
    return reply(schemas.GameResultSchema(), games().views.result(game_id))


@bp.get("/v1/games/<game_id>/scores/<system>")
def scores(game_id, system):
    return reply(schemas.GameScoresSchema(), games().views.scores(game_id, system))
