"""The Diplomacy game routes: create, join, orders, ready, history, and the director's actions."""
from __future__ import annotations

from flask import Blueprint, current_app, request
from marshmallow import ValidationError

from workers.core import versions
from workers.tables.games import Games

from . import schemas
from .contract import arguments, authenticate, bearer, body, doc, links, other_responses, response
from .etags import conditional
from .http import load, reply, token

bp = Blueprint("games", __name__)
# where the links of a new game's and a new seat's answers find their parameters
NEW_GAME, THIS_GAME = {"game_id": "$response.body#/game/id"}, {"game_id": "$request.path.game_id"}
DIRECTOR, PLAYER = bearer("$response.body#/director_token"), bearer("$response.body#/token")
SEAT_POWER = {"power": "$response.body#/player/powers/0"}


def games() -> Games:
    return current_app.extensions["games"]


# ---------------------------------------------------------------- games
@bp.post("/v1/games")
@doc("createGame", ["games"], "Create a game",
     "Chooses the variant, rule options, deadlines per phase type (seconds), how powers are "
     "assigned (random draw or chosen on joining) and what a missed deadline means (hold = civil "
     "disorder, wait = the phase waits for the missing orders). Returns the director token, shown"
     " only this once.")
@body(schemas.CreateGameSchema, required=False)
@response(schemas.CreatedGameSchema, 201, "The game (forming, waiting for players) and the director token.",
          links=links(NEW_GAME, GetGame='getGame', JoinGame='joinGame',
                      GetHistory='getHistory', ExportGame='exportGame', ListAbsences='listAbsences',
                      GetResult='getResult', GetGameMapSvg='getGameMapSvg', GetGameMapPng='getGameMapPng',
                      GamePage='gamePage')
                | links(NEW_GAME | DIRECTOR,
                        StartGame='startGame', ExtendDeadline='extendDeadline', PauseGame='pauseGame',
                        ResumeGame='resumeGame', ForceAdjudication='forceAdjudication', ForkAsDirector='forkGame',
                        GetAudit='getAudit', EndGame='endGame', SetLastYear='setLastYear',
                        RollbackGame='rollbackGame', AddGameWebhook='addGameWebhook',
                        ListGameWebhooks='listGameWebhooks', SetPressRules='setPressRules',
                        ReadPressAsDirector='readPress', ListProposalsAsDirector='listProposals'))
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Invalid")
def create_game():
    game, director_token = games().setup.create_game(load(schemas.CreateGameSchema()))
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)


@bp.get("/v1/games")
@doc("listGames", ["games"], "The lobby, public games newest first",
     "Public games only (private ones never appear), newest first, filtered by stage (forming = "
     "waiting for players, started = in play, finished), by a seat open to take over (seats=open)"
     " and by variant; paged by the \"next\" cursor.")
@arguments(schemas.LobbyQuerySchema)
@response(schemas.LobbySchema, 200, "A page of games and the next page's cursor.")
@other_responses("Unavailable", "Invalid")
def lobby():
    try:
        query = schemas.LobbyQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.LobbySchema(), games().lobby.page(query))


@bp.get("/v1/games/<not_import:game_id>")
@doc("getGame", ["games"], "Public state of a game",
     "Units, centres, phase, deadline, which powers must order, which have submitted and which "
     "are ready. Never what anyone ordered.")
@arguments(None, "IfNoneMatch")
@response(schemas.GameSchema, 200, "The public state.", headers={'ETag': 'ETag'})
@other_responses("NotModified", "Unavailable", "NotFound")
def get_game(game_id):
    return conditional("game", game_id, versions.VIEW,
                       lambda: reply(schemas.GameSchema(), games().views.public_state(game_id)))


@bp.post("/v1/games/<game_id>/players")
@doc("joinGame", ["games"], "Take a seat",
     "Returns the player's secret token, shown only this once. In a game with chosen powers, "
     "\"power\" names one power of the seat wanted (in 2-4 player variants the player gets that "
     "power's whole group). The game starts when the last seat is taken; powers are then drawn at"
     " random if the game says so. In a game in play, \"power\" names an open seat to take over "
     "(docs/seats.md): the taker is a new player with a new token, and the token of the one "
     "before gets 401s (404 if no seat plays that power, 409 if its seat is not open). With an "
     "account token as the Authorization, the seat is tied to that account and counts in its "
     "record (docs/seats.md); the seat still gets a player token of its own. A game's "
     "\"min_reliability\" refuses (403) a join without an account, or whose account's reliability "
     "is below it.")
@authenticate(None, "accountToken")
@body(schemas.JoinSchema)
@response(schemas.JoinedSchema, 201, "The seat, the player token and the game.",
          links=links(THIS_GAME | SEAT_POWER | PLAYER,
                      SubmitOrders='submitOrders', ClearOrders='clearOrders', LeaveSeat='leaveSeat')
                | links(THIS_GAME | PLAYER,
                        SetReady='setReady', GetOwnOrders='getOwnOrders', SendPress='sendPress',
                        ReadPress='readPress', DeclareAbsence='declareAbsence', Propose='propose',
                        ListProposals='listProposals', ForkAsPlayer='forkGame'))
@other_responses("Unauthorized", "Forbidden", "TooManyRequests", "Unavailable", "Malformed", "TooLarge", "NotFound",
                 "Conflict", "Invalid")
def join(game_id):
    body = load(schemas.JoinSchema())
    sent = token()
    director = bool(sent) and games().core.who(game_id, sent).is_director  # a tournament's director seats its boards
    account = games().accounts.holder(sent) if sent and not director else None  # an account token ties the seat
    player, player_token = games().setup.join(game_id, body["name"], body.get("power"), body.get("email"), account,
                                                  sent=sent)
    return reply(schemas.JoinedSchema(), {"player": player, "token": player_token,
                                          "game": games().views.public_state(game_id)}, 201)


# ---------------------------------------------------------------- seats
@bp.post("/v1/games/<game_id>/seats/<power>/open")
@doc("openSeat", ["director"], "Open a seat for a replacement (director)",
     "The seat's player no longer plays (its token gets 401); anyone may take the seat over. "
     "Until then its power plays as the game's missed_orders says.")
@authenticate("directorToken")
@body(schemas.OpenSeatSchema, required=False)
@response(schemas.GameSchema, 200, "The game.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge",
                 "Invalid")
def open_seat(game_id, power):
    body = load(schemas.OpenSeatSchema())
    return reply(schemas.GameSchema(), games().director.open_seat(game_id, token(), power.upper(), body["reason"]))


@bp.post("/v1/games/<game_id>/seats/<power>/bot")
@doc("botSeat", ["director"], "Hand a seat to the bot (director)",
     "The bot plays the power from the open phase on (what its player stored for it is dropped), every phase, "
     "until someone takes the seat over (POST /v1/games/{id}/players with the power), which ends the bot's "
     "play at once. A seat held by a player opens (its token gets 401); a power nobody plays gets a seat. A "
     "phase whose only powers left to order are the bot's closes when the others are ready. 409 before the "
     "start, after the end, or for a seat the bot plays already.")
@authenticate("directorToken")
@response(schemas.GameSchema, 200, "The game.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def bot_seat(game_id, power):
    games().seats.to_bot(game_id, token(), power.upper())
    return reply(schemas.GameSchema(), games().views.public_state(game_id))


@bp.post("/v1/games/<game_id>/seats/<power>/leave")
@doc("leaveSeat", ["games"], "Leave the game (the seat's player); the seat opens for a replacement")
@authenticate("playerToken")
@response(schemas.GameSchema, 200, "The game.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def leave_seat(game_id, power):
    games().seats.leave(game_id, token(), power.upper())
    return reply(schemas.GameSchema(), games().views.public_state(game_id))


@bp.get("/v1/games/<game_id>/history")
@doc("getHistory", ["games"], "Every adjudicated phase with all orders and outcomes")
@arguments(None, "IfNoneMatch")
@response(schemas.HistorySchema, 200, "The finished phases, oldest first.", headers={'ETag': 'ETag'})
@other_responses("NotModified", "Unavailable", "NotFound")
def history(game_id):
    return conditional("game", game_id, versions.HISTORY,
                       lambda: reply(schemas.HistorySchema(), {"game": game_id, "phases": games().views.history(game_id)}))


@bp.get("/v1/games/<game_id>/orders")
@doc("getOwnOrders", ["orders"], "The caller's own current orders (player token)")
@authenticate("playerToken")
@response(schemas.OwnOrdersSchema, 200,
          "For each of the caller's powers, its orders this phase (null if none submitted).")
@other_responses("Unavailable", "Malformed", "Unauthorized", "NotFound")
def own_orders(game_id):
    return reply(schemas.OwnOrdersSchema(), games().views.own_orders(game_id, token()))


@bp.get("/v1/games/<game_id>/options")
@doc("getOptions", ["orders"], "Every order the caller may give in the open phase",
     "For a player, its own powers that have something to order; for the director, every such power. "
     "The shapes are those of the stateless options (docs/clients.md).")
@authenticate("playerToken", "directorToken")
@response(schemas.OptionsSchema, 200, "The options of each power.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "NotFound", "Conflict")
def options(game_id):
    return reply(schemas.OptionsSchema(), games().views.options(game_id, token()))


@bp.put("/v1/games/<game_id>/orders/<power>")
@doc("submitOrders", ["orders"], "Submit or replace a power's orders for the current phase",
     "Every order is read at once. If all are valid they replace the power's previous orders and "
     "the answer shows each order's canonical form. If any is invalid (unreadable, not a unit of "
     "this power, not legal) nothing is stored and the 422 problem lists, order by order, how "
     "each was read and why the invalid ones are invalid. Units left without orders hold (or are "
     "disbanded in a retreat phase). \"phase\", if given, must be the current phase.")
@authenticate("playerToken")
@body(schemas.OrdersSchema)
@response(schemas.SubmissionSchema, 200, "Stored.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Unauthorized", "Forbidden", "NotFound",
                 "Conflict", "Invalid")
def submit_orders(game_id, power):
    body = load(schemas.OrdersSchema())
    return reply(schemas.SubmissionSchema(),
                 games().orders.submit(game_id, token(), power.upper(), body["orders"], body.get("phase")))


@bp.delete("/v1/games/<game_id>/orders/<power>")
@doc("clearOrders", ["orders"], "Clear a power's orders for the current phase")
@authenticate("playerToken")
@arguments(schemas.ClearOrdersQuerySchema)
@response(schemas.SubmissionSchema, 200, "Cleared; the power counts as not having submitted.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "Invalid")
def clear_orders(game_id, power):
    try:
        query = schemas.ClearOrdersQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return reply(schemas.SubmissionSchema(), games().orders.clear(game_id, token(), power.upper(), query.get("phase")))


@bp.put("/v1/games/<game_id>/ready")
@doc("setReady", ["orders"], "Mark the caller's powers ready (or not ready)",
     "When every power that has something to order in this phase is ready, the phase is "
     "adjudicated at once.")
@authenticate("playerToken")
@body(schemas.ReadySchema)
@response(schemas.ReadyStateSchema, 200, "The powers now ready.")
@other_responses("Unavailable", "Malformed", "TooLarge", "Unauthorized", "NotFound", "Conflict", "Invalid")
def set_ready(game_id):
    body = load(schemas.ReadySchema())
    return reply(schemas.ReadyStateSchema(), games().orders.set_ready(game_id, token(), body["ready"]))


# ---------------------------------------------------------------- director
@bp.post("/v1/games/<game_id>/start")
@doc("startGame", ["director"], "Start the game before every seat is taken (director)",
     "Powers without a player stay in civil disorder (their units hold).")
@authenticate("directorToken")
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def start(game_id):
    return reply(schemas.GameSchema(), games().setup.start(game_id, token()))


@bp.post("/v1/games/<game_id>/extend")
@doc("extendDeadline", ["director"], "Move the current deadline later (director)",
     "By a number of seconds, or to a given time (e.g. to give many games one shared deadline). "
     "While paused, only \"seconds\" (added to the time left).")
@authenticate("directorToken")
@body(schemas.ExtendSchema)
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "TooLarge", "Unauthorized", "Forbidden", "NotFound", "Conflict",
                 "Invalid")
def extend(game_id):
    body = load(schemas.ExtendSchema())
    until = body["deadline"].timestamp() if "deadline" in body else None
    return reply(schemas.GameSchema(), games().director.extend(game_id, token(), body.get("seconds"), until))


@bp.post("/v1/games/<game_id>/pause")
@doc("pauseGame", ["director"], "Stop the clock (director)",
     "The time left is kept. A pause stops the clock, not the players: orders and readiness may "
     "still change, but the phase does not close until the resume.")
@authenticate("directorToken")
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def pause(game_id):
    return reply(schemas.GameSchema(), games().director.pause(game_id, token()))


@bp.post("/v1/games/<game_id>/resume")
@doc("resumeGame", ["director"], "Restart the clock with the time that was left (director)",
     "If every power that must order became ready while the game was paused, the phase closes now"
     " and is adjudicated instead.")
@authenticate("directorToken")
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def resume(game_id):
    return reply(schemas.GameSchema(), games().director.resume(game_id, token()))


@bp.post("/v1/games/<game_id>/adjudicate")
@doc("forceAdjudication", ["director"], "Close the current phase now and adjudicate it (director)")
@authenticate("directorToken")
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def force(game_id):
    return reply(schemas.GameSchema(), games().director.force(game_id, token()))


# ---------------------------------------------------------------- absences
def absences():
    return games().absences


@bp.get("/v1/games/<game_id>/absences")
@doc("listAbsences", ["games"], "Declared absences (public)")
@response(schemas.AbsencesSchema, 200, "Every absence of the game with its status.")
@other_responses("NotFound")
def list_absences(game_id):
    return reply(schemas.AbsencesSchema(), {"game": game_id, "absences": absences().list(game_id)})


@bp.post("/v1/games/<game_id>/absences")
@doc("declareAbsence", ["games"], "Declare an absence (player)",
     "The player will be away from start to end. Approved at once if the game approves absences "
     "automatically, else pending until the director decides. While approved it moves deadlines "
     "or puts the player's powers in civil disorder, as the game says.")
@authenticate("playerToken")
@body(schemas.DeclareAbsenceSchema)
@response(schemas.AbsenceSchema, 201, "The absence.")
@other_responses("TooManyRequests", "Malformed", "Unauthorized", "NotFound", "Conflict", "TooLarge", "Invalid")
def declare_absence(game_id):
    body = load(schemas.DeclareAbsenceSchema())
    return reply(schemas.AbsenceSchema(), absences().declare(
        game_id, token(), body["start"].timestamp(), body["end"].timestamp()), 201)


@bp.put("/v1/games/<game_id>/absences/<absence_id>")
@doc("decideAbsence", ["director"], "Approve or reject an absence (director)")
@authenticate("directorToken")
@body(schemas.AbsenceDecisionSchema)
@response(schemas.AbsenceSchema, 200, "The absence with its new status.")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge", "Invalid")
def decide_absence(game_id, absence_id):
    body = load(schemas.AbsenceDecisionSchema())
    return reply(schemas.AbsenceSchema(), absences().decide(game_id, token(), absence_id, body["status"]))


@bp.delete("/v1/games/<game_id>/absences/<absence_id>")
@doc("cancelAbsence", ["games"], "Cancel an absence (the player who declared it, or the director)")
@authenticate("playerToken", "directorToken")
@response(schemas.AbsenceSchema, 200, "The absence, now cancelled.")
@other_responses("Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def cancel_absence(game_id, absence_id):
    return reply(schemas.AbsenceSchema(), absences().cancel(game_id, token(), absence_id))


@bp.post("/v1/games/<game_id>/end")
@doc("endGame", ["director"], "End the game by hand, time called or with the result recorded at the table (director)",
     "Without a result the game ends as a timeout with the centres as they stand (ownership after the last Fall "
     "turn played); with one, as the table agreed (a draw, a solo, a concession, or time called with the centres "
     "counted there). Open proposals lapse; the orders of the open phase are discarded unseen.")
@authenticate("directorToken")
@body(schemas.EndSchema, required=False)
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge",
                 "Invalid")
def end_game(game_id):
    body = load(schemas.EndSchema())
    return reply(schemas.GameSchema(), games().director.end_game(game_id, token(), body["reason"], body.get("result")))


@bp.put("/v1/games/<game_id>/last-year")
@doc("setLastYear", ["director"], "Set the game's last year (director)",
     "The game ends after that year's winter adjustments (or, if there are none, after its Fall "
     "turn) as a timeout with the centre count. null removes the limit. A year before the current"
     " phase's is a 422.")
@authenticate("directorToken")
@body(schemas.LastYearSchema)
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge",
                 "Invalid")
def set_last_year(game_id):
    body = load(schemas.LastYearSchema())
    return reply(schemas.GameSchema(), games().director.set_last_year(game_id, token(), body["year"]))


@bp.post("/v1/games/<game_id>/rollback")
@doc("rollbackGame", ["director"], "Reopen the start of an earlier phase (director)",
     "Non-destructive: the adjudicated phases from \"seq\" on stay in the history, each marked "
     "\"superseded\" with who, when and why. The restored phase opens under a new phase number with"
     " a fresh deadline and no orders; the open phase's orders are discarded unseen and open "
     "proposals lapse. A finished game can be rolled back too.")
@authenticate("directorToken")
@body(schemas.RollbackSchema)
@response('GameState', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge",
                 "Invalid")
def rollback(game_id):
    body = load(schemas.RollbackSchema())
    return reply(schemas.GameSchema(), games().director.rollback(game_id, token(), body["seq"], body["reason"]))


@bp.post("/v1/games/<game_id>/fork")
@doc("forkGame", ["games"], "A new game (a sandbox) starting at any phase of this one",
     "The director may fork, and the players once the game has ended: the new game starts at the "
     "start of adjudicated phase \"seq\" (or the current phase), with this game's variant, rules "
     "and settings unless the body changes them, chosen powers, and its own director token "
     "(returned once). \"forked_from\" names the origin. A rule the origin still hides (the "
     "two-player coin toss) is drawn anew, never copied.")
@authenticate("directorToken", "playerToken")
@body(schemas.ForkSchema, required=False)
@response(schemas.CreatedGameSchema, 201, "The new game (forming) and its director token.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict",
                 "TooLarge", "Invalid")
def fork(game_id):
    body = load(schemas.ForkSchema())
    seq = body.pop("seq", None)
    game, director_token = games().director.fork(game_id, token(), seq, body)
    return reply(schemas.CreatedGameSchema(), {"game": game, "director_token": director_token}, 201)


@bp.get("/v1/games/<game_id>/audit")
@doc("getAudit", ["director"], "Every director action on the game, oldest first (director)")
@authenticate("directorToken")
@response(schemas.AuditSchema, 200, "The audit log.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound")
def audit(game_id):
    return reply(schemas.AuditSchema(), {"game": game_id, "entries": games().views.audit(game_id, token())})


# ---------------------------------------------------------------- game end
@bp.post("/v1/games/<game_id>/proposals")
@doc("propose", ["orders"], "Propose a draw or a concession (player)",
     "For one of the caller's surviving powers, whose vote is yes. A draw is among all survivors "
     "(DIAS, \"members\" left out) or, if the game has draw_subsets, among named survivors; a "
     "concession is \"to\" one surviving power. Every surviving power votes; powers without a "
     "player count as the game's civil_disorder_vote says. A proposal passes when every vote is "
     "yes, ending the game, and lapses when its phase is adjudicated.")
@authenticate("playerToken")
@body(schemas.ProposeSchema)
@response(schemas.ProposalSchema, 201, "The proposal as players see it.")
@other_responses("TooManyRequests", "Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict",
                 "TooLarge", "Invalid")
def propose(game_id):
    body = load(schemas.ProposeSchema())
    return reply(schemas.ProposalSchema(), games().votes.propose(
        game_id, token(), body["power"], body["kind"], body.get("members"), body.get("to")), 201)


@bp.get("/v1/games/<game_id>/proposals")
@doc("listProposals", ["games"], "The game's proposals",
     "Anyone sees each proposal's terms and status (open, passed, lapsed), never the votes. With "
     "a player token, \"your_votes\" holds the caller's own ballots; with the director token, who "
     "proposed it and when, and when and why it closed.")
@authenticate(None, "playerToken", "directorToken")
@response(schemas.ProposalsSchema, 200, "Every proposal, oldest first.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "NotFound")
def proposals(game_id):
    return reply(schemas.ProposalsSchema(), {"game": game_id, "proposals": games().votes.proposals(game_id, token())})


@bp.put("/v1/games/<game_id>/proposals/<proposal_id>/votes/<power>")
@doc("vote", ["orders"], "Cast or change a power's secret vote (player)")
@authenticate("playerToken")
@body(schemas.VoteSchema)
@response(schemas.VotedSchema, 200, "The vote is stored; \"status\" says whether the proposal has now passed.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict", "TooLarge",
                 "Invalid")
def vote(game_id, proposal_id, power):
    body = load(schemas.VoteSchema())
    return reply(schemas.VotedSchema(), games().votes.vote(game_id, token(), proposal_id, power.upper(), body["vote"]))


@bp.get("/v1/games/<game_id>/result")
@doc("getResult", ["games"], "A finished game's result",
     "\"result\" is the object of tournament-scoring.md section 2.1 (a solo, draw or timeout can be"
     " sent as it is to POST /v1/scoring/{system}); a concession is end \"concession\" with "
     "\"conceded_to\" (section 2.5). 409 while the game is not finished.")
@response(schemas.GameResultSchema, 200, "How and when the game ended, and its result.")
@other_responses("Unavailable", "NotFound", "Conflict")
def result(game_id):
    return reply(schemas.GameResultSchema(), games().views.result(game_id))


@bp.get("/v1/games/<game_id>/scores/<system>")
@doc("getGameScores", ["scoring"], "A finished game's scores under a scoring system",
     "The result and each power's score, exact to 1e-9 (\"exact\": fractions). A concession scores "
     "as a solo by the power conceded to (section 2.5). A result the system cannot score (a "
     "variant other than the standard map) is a 422.")
@response(schemas.GameScoresSchema, 200, "The scores.")
@other_responses("Unavailable", "NotFound", "Conflict", "Invalid")
def scores(game_id, system):
    return reply(schemas.GameScoresSchema(), games().views.scores(game_id, system))
