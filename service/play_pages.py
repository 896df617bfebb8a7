"""The pages people act from (contracts/play.md): signing in and out, the player's page of a game
with its forms, and a resolution's page.

Every view asks who the session is (``page_auth.viewer``, i.e. ``workers.tables.viewers.who``) and
calls the same table methods as the API routes, with the token's hash where the API passes the
bearer token; nothing here decides a rule.  A refusal (409, 422, 403) re-renders the page with the
rule's reason; a token that stopped working sends the person to the sign-in form.
"""
from __future__ import annotations

import json
from functools import lru_cache
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from marshmallow import ValidationError

from maps import phase_title
from workers.core import sessions
from workers.core.errors import Conflict, Forbidden, Invalid, NotFound
from workers.core.sessions import Place
from workers.core.store import hash_token
from workers.tables.resolutions import DIRECTOR
from workers.tables.viewers import Role, who

from . import boards, drawing, page_auth, page_views, schemas
from .events_api import _audiences, stream
from .page_auth import SignIn, credential, viewer

bp = Blueprint("play", __name__, template_folder="templates")
PAGES = {"game": "play.play_page", "resolution": "play.resolution_page", "tournament": "pages.tournament_page",
         "account": "play.me"}


def games():
    return current_app.extensions["games"]


def resolutions():
    return current_app.extensions["resolutions"]


CONSOLES = {"game": "direct.game_console", "tournament": "direct.tournament_console"}


def page_of(place: Place, found_role: Role | None = None) -> str:
    """The page a token opens at ``place``: a director's, its console."""
    if place.table == "account":
        return url_for("play.me")
    director = found_role in (Role.DIRECTOR, Role.TOURNAMENT_DIRECTOR) and place.table in CONSOLES
    endpoint = CONSOLES[place.table] if director else PAGES[place.table]
    key = {"game": "game_id", "resolution": "resolution_id", "tournament": "tournament_id"}[place.table]
    return url_for(endpoint, **{key: place.id})


def attempt(action, again, done: str):
    """POST/redirect/GET: run ``action()``, then redirect to ``done`` (303); a refusal (409, 422, 403, or
    a form the API's schema refuses) answers ``again(status, reason)``, the page with the rule's reason."""
    try:
        action()
    except (Conflict, Invalid, Forbidden, ValidationError) as e:
        return again(*page_auth.refusal(e))
    return redirect(done, 303)


# ---------------------------------------------------------------- signing in
def place_of(path: str | None) -> Place | None:
    """The table a page path (``next``) shows: ``/games/{id}...``, ``/resolutions/{id}``, ``/tournaments/{id}``."""
    parts = urlsplit(path or "").path.strip("/").split("/")
    tables = {"games": "game", "resolutions": "resolution", "tournaments": "tournament"}
    if len(parts) >= 2 and parts[0] in tables and parts[1]:
        return Place(tables[parts[0]], parts[1])
    return None


def safe_next(path: str | None) -> str | None:
    """``path`` if it is a path of this site (never another host), else None."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return None
    return path


@bp.get("/signin")
def signin_form():
    return render_template("signin.html", next=safe_next(request.args.get("next")), why=request.args.get("why"))


@bp.post("/signin")
def signin():
    token = (request.form.get("token") or "").strip()
    following = safe_next(request.form.get("next"))
    place = place_of(following)
    r = page_auth.store().r
    issued = sessions.issued_for(r, token)  # where the token was issued: a token alone signs in
    candidates = list(dict.fromkeys(c for c in (place, issued) if c)) + [Place("account", "")]
    for candidate in candidates:
        try:
            found = who(r, candidate.table, candidate.id, token or None)
        except NotFound:
            continue
        if found.known or (candidate.table == "account" and found.account):
            target = following if found.known and following else page_of(candidate, found.role)
            resp = redirect(target, 303)
            page_auth.sign_in(resp, candidate, hash_token(token))
            return resp
    why = "This token opens nothing here: check that it was copied whole, or use the sign-in link from your mail."
    return render_template("signin.html", next=following, error=why), 401


@bp.get("/signin/<code>")
def signin_link(code):
    return render_template("signin_link.html", code=code)


@bp.post("/signin/<code>")
def signin_with_code(code):
    found = sessions.redeem(page_auth.store().r, code)
    if found is None:
        return page_auth.error_page(404, "This sign-in link does not work", "It has been used already, or it "
                                    "is more than 7 days old. Sign in with your token instead.")
    place, digest = found
    seen = who(page_auth.store().r, place.table, place.id, digest)
    if not seen.known:
        return page_auth.error_page(403, "This sign-in link no longer works", seen.refused or
                                    "Its token no longer holds a place here.")
    resp = redirect(page_of(place, seen.role), 303)
    page_auth.sign_in(resp, place, digest)
    return resp


@bp.post("/signout")
def signout():
    resp = redirect(url_for("pages.lobby_page"), 303)
    page_auth.sign_out(resp)
    return resp


def invitation(gid: str, token: str) -> Response:
    """``/games/{id}?token=``: the token becomes a one-time sign-in code (the link's URL, with the
    token, is left behind at once)."""
    seen = who(page_auth.store().r, "game", gid, token.strip() or None)
    if not seen.known:
        raise SignIn("The link's token does not hold a place in this game.")
    with page_auth.store().r.pipeline() as pipe:
        code = sessions.make_code(pipe, Place("game", gid), hash_token(token.strip()))
        pipe.execute()
    return redirect(url_for("play.signin_link", code=code), 303)


# ---------------------------------------------------------------- the player's page
def player_of(gid: str):
    found = viewer("game", gid)
    if found.role is Role.PLAYER:
        return found
    if found.is_director:
        raise Forbidden(f"the player's page of game '{gid}' is for its players; you are signed in as its director")
    raise SignIn(found.refused or "")


def render_play(gid: str, found, status: int = 200, **shown):
    view = page_views.play_view(gid, found)
    return render_template("play.html", **view, **shown, phase_title=phase_title), status


def act(gid: str, action, **shown):
    """Run ``action(credential)`` for the signed-in player; on success back to the page (303), on
    a refusal the page again with the rule's reason."""
    found = player_of(gid)
    return attempt(lambda: action(credential(found)),
                   lambda status, error: render_play(gid, found, status, error=error, **shown),
                   url_for("play.play_page", game_id=gid))


@bp.get("/games/<game_id>/play")
def play_page(game_id):
    return render_play(game_id, player_of(game_id))


@bp.post("/games/<game_id>/play/orders/<power>")
def submit_orders(game_id, power):
    found = player_of(game_id)
    orders = page_views.orders_from_form(request.form)
    try:
        done = games().orders.submit(game_id, credential(found), power.upper(), orders)
    except Invalid as e:
        return render_play(game_id, found, 422, error=e.detail, checked={power.upper(): e.extra.get("orders", [])})
    except (Conflict, Forbidden) as e:
        return render_play(game_id, found, e.status, error=e.detail)
    return render_play(game_id, found, checked={done["power"]: done["orders"]},
                       notice=f"Orders for {done['power']} stored.")


@bp.post("/games/<game_id>/play/ready")
def set_ready(game_id):
    ready = request.form.get("ready") == "yes"
    if ready and request.form.get("confirmed") != "yes":
        found = player_of(game_id)
        missing = page_views.without_orders(game_id, found)
        if missing:
            return render_template("confirm_ready.html", game_id=game_id, missing=missing,
                                   title=boards.title(games().views.public_state(game_id)))
    return act(game_id, lambda token: games().orders.set_ready(game_id, token, ready))


@bp.post("/games/<game_id>/play/press")
def send_press(game_id):
    form = request.form
    to = "all" if form.get("all") == "yes" else form.getlist("to")
    grey = True if form.get("grey") == "yes" else None
    return act(game_id, lambda token: games().press.send(
        game_id, token, form.get("power") or None, to, form.get("body", ""), grey, form.get("fake") == "yes"),
        draft=form.get("body", ""))


@bp.post("/games/<game_id>/play/proposals")
def propose(game_id):
    form = request.form
    kind = "concession" if form.get("kind") == "concession" else "draw"
    members = form.getlist("members") or None
    return act(game_id, lambda token: games().votes.propose(
        game_id, token, form.get("power", ""), kind, members if kind == "draw" else None,
        form.get("to") if kind == "concession" else None))


@bp.post("/games/<game_id>/play/proposals/<proposal_id>/<power>")
def vote(game_id, proposal_id, power):
    ballot = "yes" if request.form.get("vote") == "yes" else "no"
    return act(game_id, lambda token: games().votes.vote(game_id, token, proposal_id, power.upper(), ballot))


@bp.get("/games/<game_id>/play/map.svg")
def play_map(game_id):
    """The open phase's board with the player's own stored orders drawn: for this player alone."""
    found = player_of(game_id)
    state = games().views.public_state(game_id)
    current = boards.boards(state, [])[-1]
    own = games().views.own_orders(game_id, credential(found))
    drawn = tuple((power, order) for power, mine in sorted(own["powers"].items()) for order in mine["orders"] or ())
    svg = _own_map(json.dumps({"title": boards.title(state), "position": current.position}, sort_keys=True), drawn)
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "private, no-store"
    return resp


@lru_cache(maxsize=256)
def _own_map(board: str, drawn: tuple) -> str:
    """The SVG of ``board`` (JSON: its title and position) with ``drawn`` ((power, order), ...)."""
    found = json.loads(board)
    return drawing.svg(found["position"], [{"power": p, "order": o, "outcome": ""} for p, o in drawn],
                       found["title"])


@bp.get("/games/<game_id>/play/events")
def play_events(game_id):
    found = player_of(game_id)
    return stream("game", game_id, _audiences("game", game_id, credential(found)))


# ---------------------------------------------------------------- a resolution
def resolution_viewer(rid: str):
    found = viewer("resolution", rid)
    if found.is_director:
        return found, DIRECTOR
    if found.role is Role.PARTICIPANT:
        return found, found.holder
    return found, None


@bp.get("/resolutions/<resolution_id>")
def resolution_page(resolution_id, status: int = 200, **shown):
    found, as_whom = resolution_viewer(resolution_id)
    view = resolutions().view(resolution_id, as_whom)
    return render_template("resolution.html", r=view, knows_you=as_whom is not None,
                           is_director=as_whom is DIRECTOR, **page_views.resolution_controls(view, as_whom),
                           **shown), status


@bp.post("/resolutions/<resolution_id>/answer")
def answer(resolution_id):
    found, as_whom = resolution_viewer(resolution_id)
    if as_whom is None:
        raise SignIn(found.refused or "")
    view = resolutions().view(resolution_id, as_whom)

    def answer_step():
        value = page_views.answer_from_form(view, request.form)
        who_answers = resolutions().answerer(resolution_id, credential(found))
        resolutions().answer(resolution_id, who_answers, int(request.form.get("step", -1)), value,
                             request.form.get("participant") or None)

    return attempt(answer_step, lambda status, error: resolution_page(resolution_id, status=status, error=error),
                   url_for("play.resolution_page", resolution_id=resolution_id))


@bp.post("/resolutions/<resolution_id>/<action>")
def direct_resolution(resolution_id, action):
    if action not in ("pause", "resume", "cancel"):
        raise NotFound(f"there is no page at {request.path}")
    found, as_whom = resolution_viewer(resolution_id)
    if as_whom is None:
        raise SignIn(found.refused or "")
    return attempt(lambda: getattr(resolutions(), action)(resolution_id, credential(found)),
                   lambda status, error: resolution_page(resolution_id, status=status, error=error),
                   url_for("play.resolution_page", resolution_id=resolution_id))


# ---------------------------------------------------------------- an account
@bp.get("/me")
def me():
    found = page_auth.account_viewer()
    if not found.account:
        raise SignIn("")
    accounts = games().accounts
    return render_template("me.html", account=accounts.view(found.account),
                           games=page_views.account_games(found.account))


# ---------------------------------------------------------------- joining from the lobby
@bp.post("/games/<game_id>/join")
def join(game_id):
    """"Join" (a free seat) and "Take over" (an open seat, its power named): the API's join, then
    the new player is signed in."""
    form = {k: v.strip() for k, v in request.form.items() if k in ("name", "email", "power") and v.strip()}
    body = schemas.JoinSchema().load(form)
    account = page_auth.account_viewer().account  # a signed-in account ties the seat to its record
    try:
        _player, token = games().setup.join(game_id, body["name"], body.get("power"), body.get("email"), account)
    except (Conflict, Invalid, Forbidden) as e:
        return page_auth.error_page(e.status, "You could not join", e.detail)
    resp = redirect(url_for("play.play_page", game_id=game_id), 303)
    page_auth.sign_in(resp, Place("game", game_id), hash_token(token))
    return resp
