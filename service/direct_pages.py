"""The directors' consoles (contracts/play.md): a game's, ``/games/{id}/direct``, for its director (a
tournament board's: the tournament director), and a tournament's, ``/tournaments/{id}/direct``, with
its printable player slips.

As on the player's page (service/play_pages.py), each form is read through the API route's own schema
and calls the table method the API route calls, with the session's token hash in the token's place:
nothing here decides a rule.  A refusal shows the console again with the rule's reason; a success
redirects back to it (POST/redirect/GET).
"""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from marshmallow import ValidationError

from maps import phase_title
from workers.core.errors import Conflict, Forbidden, Invalid, NotFound
from workers.tables.tournaments import POWERS

from . import boards, page_auth, page_views, schemas
from .page_auth import SignIn, credential, viewer
from .pages import describe, tournament_rounds
from .play_pages import attempt
from .tournaments_api import PlayerSchema, RecordResultSchema, RoundClockSchema, WithdrawSchema

bp = Blueprint("direct", __name__, template_folder="templates")


def games():
    return current_app.extensions["games"]


def tournaments():
    return current_app.extensions["tournaments"]


def refused(found, what: str):
    """Who may not see a console: a known token gets 403, anyone else the sign-in form."""
    if found.known:
        raise Forbidden(f"the console of {what} is for its director")
    raise SignIn(found.refused or "")


def whole(value: str | None):
    """A form's number as the API's schemas take it (strict integers); anything else as typed, for the
    schema to refuse with its reason."""
    value = (value or "").strip()
    return int(value) if value.lstrip("-").isdigit() else value


# ---------------------------------------------------------------- a game
def game_director(gid: str):
    found = viewer("game", gid)
    if found.is_director:
        return found
    tournament = games().core.load(games().r, gid).tournament
    board = page_auth.board_viewer(gid, tournament) if tournament else found
    return board if board.is_director else refused(found, f"game '{gid}'")


def render_game(gid: str, status: int = 200, **shown):
    state = games().views.public_state(gid)
    history = boards.live_history(gid)
    current = boards.boards(state, history)[-1]
    return render_template(
        "direct_game.html", state=state, title=boards.title(state), last=history[-1] if history else None,
        phases=[(h.seq, h.phase) for h in history], describe_map=describe(current, state["status"] == "finished"),
        units=(state.get("position") or {}).get("units") or {}, powers=[s["power"] for s in state["seats"]],
        phase_title=phase_title, tournament=state["tournament"], **({"checked": {}, "drafts": {}} | shown)), status


def act_on_game(gid: str, action):
    """Run ``action(token)`` for the game's director: back to the console (303), or its refusal shown."""
    found = game_director(gid)
    return attempt(lambda: action(credential(found)), lambda status, error: render_game(gid, status, error=error),
                   url_for("direct.game_console", game_id=gid))


def _extend(gid: str, token, form) -> None:
    minutes = whole(form.get("minutes"))
    if not isinstance(minutes, int):
        raise ValidationError({"minutes": ["a whole number of minutes"]})
    body = schemas.ExtendSchema().load({"seconds": minutes * 60})
    games().director.extend(gid, token, body["seconds"])


def _end(gid: str, token, form) -> None:
    result = page_views.result_from_form(form, POWERS)
    body = schemas.EndSchema().load({"reason": form.get("reason", ""),
                                     **({"result": result} if result != {"end": "timeout"} else {})})
    games().director.end_game(gid, token, body["reason"], body.get("result"))


def _rollback(gid: str, token, form) -> None:
    body = schemas.RollbackSchema().load({"seq": whole(form.get("seq")), "reason": form.get("reason", "")})
    games().director.rollback(gid, token, body["seq"], body["reason"])


GAME_ACTIONS = {
    "start": lambda gid, token, form: games().setup.start(gid, token),
    "adjudicate": lambda gid, token, form: games().director.force(gid, token),
    "pause": lambda gid, token, form: games().director.pause(gid, token),
    "resume": lambda gid, token, form: games().director.resume(gid, token),
    "extend": _extend, "end": _end, "rollback": _rollback,
}


@bp.get("/games/<game_id>/direct")
def game_console(game_id):
    game_director(game_id)
    return render_game(game_id)


@bp.post("/games/<game_id>/direct/<action>")
def direct_game(game_id, action):
    if action not in GAME_ACTIONS:
        raise NotFound(f"there is no page at {request.path}")
    return act_on_game(game_id, lambda token: GAME_ACTIONS[action](game_id, token, request.form))


@bp.post("/games/<game_id>/direct/seats/<power>/open")
def open_seat(game_id, power):
    reason = schemas.OpenSeatSchema().load({"reason": request.form.get("reason", "opened from the console")})["reason"]
    return act_on_game(game_id, lambda token: games().director.open_seat(game_id, token, power.upper(), reason))


@bp.post("/games/<game_id>/direct/orders/<power>")
def enter_orders(game_id, power):
    """A power's orders typed in by the director (paper orders at a face-to-face board): the player's
    submission, audited as entered by the director."""
    power, text = power.upper(), request.form.get("text", "")
    found = game_director(game_id)
    try:
        games().orders.submit(game_id, credential(found), power, page_views.orders_from_form(request.form))
    except (Conflict, Invalid, Forbidden) as e:
        return render_game(game_id, e.status, error=e.detail, checked={power: e.extra.get("orders", [])},
                           drafts={power: text})
    return redirect(url_for("direct.game_console", game_id=game_id), 303)


# ---------------------------------------------------------------- a tournament
def tournament_director(tid: str):
    found = viewer("tournament", tid)
    return found if found.is_director else refused(found, f"tournament '{tid}'")


def render_tournament(tid: str, found, status: int = 200, **shown):
    view, standings = tournaments().view(tid), tournaments().standings(tid)
    played = {b["round"] for b in view["boards"]} | {int(r) for r in view["byes"]}
    return render_template(
        "direct_tournament.html", view=view, standings=standings, rounds=tournament_rounds(view, standings),
        players=tournaments().players(tid, credential(found)), names={p["id"]: p["name"] for p in view["players"]},
        next_round=max(played, default=0) + 1, powers=POWERS, **shown), status


def act_on_tournament(tid: str, action):
    found = tournament_director(tid)
    return attempt(lambda: action(credential(found)),
                   lambda status, error: render_tournament(tid, found, status, error=error),
                   url_for("direct.tournament_console", tournament_id=tid))


@bp.get("/tournaments/<tournament_id>/direct")
def tournament_console(tournament_id):
    return render_tournament(tournament_id, tournament_director(tournament_id))


@bp.post("/tournaments/<tournament_id>/direct/players")
def add_player(tournament_id):
    form = request.form
    typed = {"name": form.get("name", "").strip(), "email": form.get("email", "").strip(),
             "preferences": form.get("preferences", "").replace(",", " ").split()}

    def add(token):
        body = PlayerSchema().load({k: v for k, v in typed.items() if v})
        tournaments().add_player(tournament_id, token, body["name"], body.get("email"), body.get("preferences"))

    return act_on_tournament(tournament_id, add)


@bp.post("/tournaments/<tournament_id>/direct/players/<player_id>/withdraw")
def withdraw(tournament_id, player_id):
    reason = WithdrawSchema().load({"reason": request.form.get("reason", "")})["reason"]
    return act_on_tournament(tournament_id, lambda token: tournaments().withdraw(tournament_id, token, player_id,
                                                                                 reason))


@bp.post("/tournaments/<tournament_id>/direct/rounds/<int:round_number>/boards")
def make_boards(tournament_id, round_number):
    """"Make boards": the round's seating draw (byes for the players left over), boards with the API's
    default game options; the seats' tokens are never shown (the slips carry sign-in links)."""
    return act_on_tournament(tournament_id, lambda token: tournaments().create_boards(
        tournament_id, token, round_number, "draw", {}))


@bp.post("/tournaments/<tournament_id>/direct/rounds/<int:round_number>/clock")
def round_clock(tournament_id, round_number):
    typed = request.form.get("ends_at", "").strip()  # a datetime-local input's value, in UTC

    def set_clock(token):
        at = RoundClockSchema().load({"ends_at": (typed + ("Z" if len(typed) > 16 else ":00Z")) if typed else None})
        ends = at["ends_at"]
        tournaments().set_round_end(tournament_id, token, round_number, ends and ends.timestamp())

    return act_on_tournament(tournament_id, set_clock)


@bp.post("/tournaments/<tournament_id>/direct/boards/<game_id>/result")
def record_result(tournament_id, game_id):
    def record(token):
        body = RecordResultSchema().load({"result": page_views.result_from_form(request.form, POWERS)})
        tournaments().record_result(tournament_id, token, game_id, body["result"], body["reason"])

    return act_on_tournament(tournament_id, record)


@bp.get("/tournaments/<tournament_id>/direct/slips")
def slips(tournament_id):
    """"Player slips": a printable page of a round's slips, each with a new one-time sign-in link (as
    ``GET .../rounds/{n}/slips`` gives them; never a token)."""
    found = tournament_director(tournament_id)
    round_number = whole(request.args.get("round"))
    if not isinstance(round_number, int):
        raise ValidationError({"round": ["the round's number"]}, "query")
    return render_template("slips.html", slips=tournaments().slips(tournament_id, credential(found), round_number))
