"""Pages for people (docs/maps.md, "The pages"): a game and a tournament as
server-rendered HTML (Jinja2 templates in ``service/templates``), readable without JavaScript."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from marshmallow import Schema, ValidationError, fields, validate

from maps import phase_title
from workers.core.errors import NotFound
from workers.tables.games import engine

from . import boards, schemas
from .contract import arguments, doc, response

bp = Blueprint("pages", __name__, template_folder="templates")
HTML = {"text/html": {"schema": {"type": "string"}}}
PAGE_ERRORS = {400: "The query cannot be read.", 422: "The query names what is not there.", 404: "No such game, tournament or phase.",
               503: "The game store is unreachable; try again."}


class LobbyPageQuerySchema(Schema):
    """The lobby page's query: GET /v1/games's, where an empty value (a form's "any") is no filter."""

    class Meta:
        component = "LobbyPageQuery"

    status = fields.String(validate=validate.OneOf(["forming", "started", "finished", ""]))
    seats = fields.String(validate=validate.OneOf(["open", ""]))
    variant = fields.String(validate=validate.Length(max=40))
    cursor = fields.String(validate=validate.Regexp(r"^(?:[0-9]+(\.[0-9]+)?_[0-9a-f]{12})?\Z"))
    limit = fields.String(validate=validate.Regexp(r"^(?:[1-9][0-9]?|100)?\Z"))  # 1 to 100, or empty: the default


def page_errors(*statuses: int):
    """Declare a page's errors: HTML pages too (service/page_auth.py), never problem+json."""
    def declare(view):
        for status in statuses:
            view = response(None, status, f"{PAGE_ERRORS[status]} (An HTML page.)", content=HTML)(view)
        return view
    return declare


def _phase_query() -> str | None:
    try:
        query = schemas.PhaseQuerySchema().load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return query.get("phase")


def _counts(position: dict) -> tuple[dict, dict]:
    centres = {p: len(cs) for p, cs in (position.get("centers") or {}).items()}
    units = {p: len(us) for p, us in (position.get("units") or {}).items()}
    return centres, units


def describe(b: boards.Board, final: bool = False) -> str:
    """The map's alternative text: what a reader of the picture learns from it, in words."""
    centres, units = _counts(b.position)
    owners = ", ".join(f"{p.title()} {n}" for p, n in sorted(centres.items()) if n)
    text = (f"Map of {phase_title(b.phase)}: {sum(units.values())} units on the board; "
            f"supply centres: {owners or 'none owned'}.")
    if b.adjudicated:
        text += f" {len(b.results)} orders drawn with their outcomes, listed in the table below."
    elif final:
        text += " The game ended here."
    else:
        text += " The orders of this phase are secret until it is adjudicated."
    return text


@bp.get("/")
@doc("lobbyPage", ["pages"], "The lobby as a page for people (HTML)",
     "Public games that are forming and in play, filtered and paged as GET /v1/games gives them, with "
     "Join and Take over.")
@arguments(LobbyPageQuerySchema)
@response(None, 200, "An HTML page.", content=HTML)
@page_errors(400, 422, 503)
def lobby_page():
    """Public games, newest first, a page at a time (``GET /v1/games``'s listing and filters)."""
    try:
        query = schemas.LobbyQuerySchema().load({k: v for k, v in request.args.items() if v})
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")
    return render_template("lobby.html", listing=boards.games().lobby.page(query), query=query,
                           phase_title=phase_title, variants=sorted(engine().VARIANTS),
                           powers_of=lambda variant: engine().variant_info(variant)["powers"])


@bp.get("/games")
@doc("gamesPage", ["pages"], "The lobby's old address: a permanent redirect to /")
@response(None, 301, "To the lobby page.", content=HTML)
def games_page():
    return redirect(url_for("pages.lobby_page"), 301)


@bp.get("/games/<game_id>")
@doc("gamePage", ["pages"], "The game as a page for people (HTML, no JavaScript)",
     "The current map and deadline, the players and their supply-centre counts, and each phase "
     "with its map, orders and results, with links to step through them (`?phase=`).")
@arguments(schemas.PhaseQuerySchema)
@response(None, 200, "An HTML page.", content=HTML)
@page_errors(400, 422, 404, 503)
def game_page(game_id):
    if "token" in request.args:  # an invitation link: into the sign-in flow, the token left behind
        from .play_pages import invitation

        return invitation(game_id, request.args["token"])
    phase = _phase_query()
    state = boards.games().views.public_state(game_id)
    every = boards.boards(state, boards.live_history(game_id))
    current = every[-1]
    chosen = current
    if phase is not None:
        chosen = next((b for b in reversed(every) if b.phase == phase), None)
        if chosen is None:
            raise NotFound(f"query.phase: game '{game_id}' has no phase {phase}")
    index = every.index(chosen)
    centres, units = _counts(current.position)
    players = [{"name": p["name"], "powers": [{"power": w, "centres": centres.get(w, 0), "units": units.get(w, 0)}
                                              for w in p["powers"]]} for p in state["players"]]
    return render_template(
        "game.html", state=state, title=boards.title(state), boards=every, chosen=chosen, current=current,
        previous=every[index - 1] if index else None, following=every[index + 1] if index + 1 < len(every) else None,
        players=players, describe=describe, phase_title=phase_title,
        powers=sorted(centres, key=lambda p: (-centres[p], p)), centres=centres, units=units)


@bp.get("/tournaments/<tournament_id>")
@doc("tournamentPage", ["pages"], "The tournament as a page for people (HTML, no JavaScript)",
     "The standings (the numbers of the JSON standings) and the boards of each round, linking to "
     "their games.")
@response(None, 200, "An HTML page.", content=HTML)
@page_errors(400, 404, 503)
def tournament_page(tournament_id):
    tournaments = current_app.extensions["tournaments"]
    view = tournaments.view(tournament_id)
    standings = tournaments.standings(tournament_id)
    return render_template("tournament.html", view=view, standings=standings, rounds=tournament_rounds(view, standings),
                           names={p["id"]: p["name"] for p in view["players"]})


def tournament_rounds(view: dict, standings: dict) -> list[dict]:
    """Each round of the standings with its boards' seats (power, player id) beside their scores."""
    seats = {b["game"]: sorted(b["seats"].items()) for b in view["boards"]}
    return [{**rd, "boards": [{**b, "seats": seats.get(b["game"], [])} for b in rd["boards"]]}
            for rd in standings["rounds"]]
