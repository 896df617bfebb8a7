"""What every page shares (contracts/play.md, "Signing in" and "How pages are built"): the
server-side session behind one cookie, the forms' CSRF check, who the session is at a table,
the security headers, and errors as HTML pages.

* **Session.** Flask's ``session`` is kept in Redis (``workers.core.sessions``) behind a cookie
  holding a random id (``HttpOnly``, ``SameSite=Lax``, ``Secure`` over https).  It holds the
  forms' CSRF secret and, per table signed in to, the token's hash, never the token.
* **Who.** :func:`viewer` asks ``workers.tables.viewers.who`` with that hash at every request,
  as the API asks with a bearer token; a token that stopped working (a seat taken over) is
  forgotten and the page sends the person to sign in.  Pages then call the same table methods
  as the API routes, with the hash (a ``Digest``) in the token's place.
* **CSRF.** Flask-WTF's token on every form; a page POST without a valid one is a 400 page and
  nothing changes (checked before the view runs).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import redis
from flask import current_app, redirect, render_template, request, send_from_directory, session, url_for
from flask.sessions import SessionInterface, SessionMixin
from flask_wtf.csrf import CSRFError, CSRFProtect
from marshmallow import ValidationError
from werkzeug.datastructures import CallbackDict
from werkzeug.exceptions import HTTPException

from workers.core import sessions
from workers.core.errors import GameError, Unauthorized
from workers.core.sessions import Place
from workers.core.store import Digest
from workers.tables.viewers import Role, Viewer, who

from .contract import BROWSER_ONLY
from .http import FORM_BLUEPRINTS as PAGE_BLUEPRINTS, BadRequest

COOKIE = "dip_session"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
STOPPED = ("The token you signed in with no longer works here (a seat given up or taken over, or a "
           "token replaced): sign in again.")
csrf = CSRFProtect()


def store():
    return current_app.extensions["games"].store


# ---------------------------------------------------------------- the session
class PageSession(CallbackDict, SessionMixin):
    """Flask's session for a page: the CSRF secret, and the places signed in (``fields``)."""

    def __init__(self, sid: str | None, fields: dict[str, str]):
        def changed(_self):
            self.modified = True

        csrf_secret = fields.get(sessions.CSRF)
        super().__init__({"csrf_token": csrf_secret} if csrf_secret else {}, changed)
        self.sid, self.fields, self.modified = sid, fields, False


class PageSessions(SessionInterface):
    def open_session(self, app, request):
        sid = request.cookies.get(COOKIE)
        if not sid or request.path.startswith("/v1/"):  # the API never reads a session
            return PageSession(None, {})
        fields = sessions.read(store().r, sid)
        return PageSession(sid if fields else None, fields)

    def save_session(self, app, session: PageSession, response):
        if session.modified and session.get("csrf_token"):
            if session.sid is None:
                session.sid = sessions.new_session_id()
            sessions.set_field(store().r, session.sid, sessions.CSRF, session["csrf_token"])
            set_cookie(response, session.sid)


def set_cookie(response, sid: str) -> None:
    response.set_cookie(COOKIE, sid, max_age=sessions.SESSION_TTL, httponly=True, samesite="Lax",
                        secure=request.is_secure, path="/")


def sign_in(response, place: Place, digest: str) -> None:
    """The browser's session is signed in at ``place`` with the token whose hash is ``digest``: a new
    session id (the old one ends), keeping the places it held."""
    r = store().r
    sid = sessions.new_session_id()
    for held in sessions.places(session.fields):
        sessions.sign_in(r, sid, held, session.fields[held.field])
    sessions.sign_in(r, sid, place, digest)
    if session.get("csrf_token"):
        sessions.set_field(r, sid, sessions.CSRF, session["csrf_token"])
    if session.sid:
        sessions.end(r, session.sid)
    session.sid, session.modified = sid, False
    set_cookie(response, sid)


def sign_out(response) -> None:
    if session.sid:
        sessions.end(store().r, session.sid)
    session.sid, session.modified = None, False
    response.delete_cookie(COOKIE, path="/")


# ---------------------------------------------------------------- who the session is
class SignIn(Exception):
    """The page needs a signed-in token for ``place``: send the person to the sign-in form."""

    def __init__(self, why: str = ""):
        self.why = why


def viewer(table: str, tid: str) -> Viewer:
    """Who this browser's session is at ``table`` ``tid`` (404 if there is no such table); a token
    that no longer works there is forgotten, and the viewer is anyone who remembers why."""
    place = Place(table, tid)
    digest = sessions.digest_at(session.fields, place)
    found = who(store().r, table, tid, digest)
    if digest is not None and not found.known and found.role is not Role.ACCOUNT:
        sessions.forget(store().r, session.sid, place)
        del session.fields[place.field]
        return replace(found, refused=found.refused or STOPPED)
    return found


def board_viewer(gid: str, tid: str) -> Viewer:
    """Who the session's token at tournament ``tid`` is at its board ``gid`` (a board's director is its
    tournament's director), so that the tournament's console opens its boards' consoles."""
    return who(store().r, "game", gid, sessions.digest_at(session.fields, Place("tournament", tid)))


def credential(found: Viewer) -> Digest | None:
    """What a page hands a table method where the API hands the bearer token."""
    return Digest(found.digest) if found.digest else None


def account_viewer() -> Viewer:
    return viewer("account", "")


# ---------------------------------------------------------------- headers and errors
def is_page() -> bool:
    """A page's request (whose errors are HTML pages): a page's route, or a path nothing serves that
    a browser asked for (one that prefers HTML to JSON)."""
    if request.blueprint in PAGE_BLUEPRINTS:
        return True
    return (request.url_rule is None and not request.path.startswith("/v1/")
            and request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html")


def error_page(status: int, title: str, detail: str):
    return render_template("error.html", status=status, title=title, detail=detail), status


def _page_error(e: Exception):
    if isinstance(e, SignIn):
        return redirect(url_for("play.signin_form", next=request.full_path.rstrip("?"), why=e.why or None))
    if isinstance(e, Unauthorized):
        return redirect(url_for("play.signin_form", next=request.full_path.rstrip("?")))
    if isinstance(e, CSRFError):
        return error_page(400, "The form has expired", "This form was sent without a valid CSRF token, so "
                          "nothing was changed. Go back, reload the page and try again.")
    if isinstance(e, GameError):
        return error_page(e.status, e.title, e.detail)
    if isinstance(e, ValidationError):
        return error_page(400, "Bad request", refusal(e)[1])
    if isinstance(e, BadRequest):
        return error_page(400, "Bad request", e.detail)
    if isinstance(e, HTTPException):
        detail = f"There is no page at {request.path}." if e.code == 404 else e.description
        return error_page(e.code or 500, e.name, detail)
    if isinstance(e, redis.RedisError):
        current_app.logger.warning("store unavailable on page %s: %s", request.path, e)
        return error_page(503, "Try again soon", "The service's store is unavailable for a moment.")
    current_app.logger.exception("unexpected error on page %s", request.path)
    return error_page(500, "Internal error", "The service failed to show this page.")


def refusal(e: GameError | ValidationError) -> tuple[int, str]:
    """A refused action's status and reason, as a page shows them."""
    if isinstance(e, ValidationError):
        return 400, "; ".join(f"{k}: {v}" for k, v in _flat(e.messages))
    return e.status, e.detail


def _flat(messages, where: str = "") -> list[tuple[str, str]]:
    if isinstance(messages, dict):
        return [pair for k, v in messages.items() for pair in _flat(v, f"{where}.{k}" if where else str(k))]
    return [(where or "form", " ".join(map(str, messages)) if isinstance(messages, list) else str(messages))]


def init_app(app) -> None:
    """Sessions, CSRF, headers, and HTML errors for pages (after ``http.register``, whose handlers
    keep answering the API)."""
    app.config.update(WTF_CSRF_CHECK_DEFAULT=False, WTF_CSRF_TIME_LIMIT=None, WTF_CSRF_SSL_STRICT=False)
    app.session_interface = PageSessions()
    csrf.init_app(app)

    @app.before_request
    def _check_csrf():
        if request.blueprint not in PAGE_BLUEPRINTS:
            return
        if not app.config.get("SECRET_KEY"):  # read when first needed: the app starts without Redis
            app.config["SECRET_KEY"] = sessions.secret(store().r)
        if request.method == "POST":
            csrf.protect()

    @app.after_request
    def _headers(resp):
        if is_page() or resp.mimetype == "text/html" and not request.path.startswith("/docs"):
            resp.headers["Content-Security-Policy"] = CSP
            resp.headers["Referrer-Policy"] = "same-origin"
            resp.headers["X-Content-Type-Options"] = "nosniff"
            if request.blueprint in BROWSER_ONLY:  # the pages of a signed-in person
                resp.headers["Cache-Control"] = "no-store"
        return resp

    static = Path(__file__).parent / "static"
    app.add_url_rule("/static/<path:filename>", "static_pages",
                     lambda filename: send_from_directory(static, filename, max_age=86400))

    @app.context_processor
    def _signed_in():
        return {"signed_in": lambda: bool(sessions.places(getattr(session, "fields", {})))}

    api_handlers = dict(app.error_handler_spec[None][None])
    for cls in (SignIn, CSRFError, GameError, ValidationError, BadRequest, HTTPException, redis.RedisError,
                Exception):
        fallback = api_handlers.get(cls) or api_handlers.get(Exception)

        def handle(e, fallback=fallback):
            return _page_error(e) if is_page() or isinstance(e, SignIn) else fallback(e)

        app.register_error_handler(cls, handle)
