"""Live events as Server-Sent Events (docs/clients.md, "Live events").

``GET /v1/games/{id}/events`` and ``GET /v1/resolutions/{id}/events`` stream
the table's events (``workers.core.live``) that the token may see: a player
sees what is for everyone and what is for one of its powers, the director
what is for everyone and for the director, a participant what is for everyone
and for itself.  Each event's ``id`` is its stream id; a client that
reconnects with ``Last-Event-ID`` gets every event after it (kept
``live.KEEP`` seconds), one that connects without it gets what happens from
then on.

The token may come as ``?token=`` on these routes alone (a browser's
EventSource sends no headers); the access logs show it as ``token=REDACTED``
(service/gunicorn_conf.py; service/logs.py logs no query at all).

The streams of one table in one process share one ``XREAD BLOCK``
(service/live_hub.py): under gunicorn's gevent worker (service/gunicorn_conf.py)
an open stream costs a greenlet, not a thread, and an event one Redis reply
per process (docs/clients.md has the measurements).  Every
``HEARTBEAT`` seconds without an event the stream sends a comment, which keeps
proxies from closing it and checks that the token still holds.
"""
from __future__ import annotations

import re
from typing import Callable

from flask import Blueprint, Response, current_app, request

from workers.core import connection, live
from workers.core.errors import NotFound, Unauthorized
from workers.core.store import CONNECTIONS, CONNECTION_WAIT
from workers.tables.viewers import who

from .contract import arguments, authenticate, doc, other_responses, response
from .http import BadRequest, token
from .live_hub import Hub, frame_for, prepare

bp = Blueprint("events", __name__)
HEARTBEAT = 15  # seconds between keep-alive comments
RETRY_MS = 2000  # how long a disconnected EventSource waits before it reconnects
EVENT_ID = re.compile(r"\d{1,20}-\d{1,20}")
WHO_CHANGES = ("seat", "phase")  # events after which a token may hold other powers, or none


def _store():
    return current_app.extensions["games"].store


def _needs_token() -> str:
    sent = token()
    if not sent:
        raise Unauthorized("this stream needs a token: send 'Authorization: Bearer <token>' or '?token=<token>'")
    return sent


def _audiences(table: str, tid: str, sent: str) -> Callable[[], frozenset[str]]:
    """Who ``sent`` is at the table (``workers.tables.viewers.who``), as a function that asks again:
    an empty set once the token no longer holds, which ends the stream.  404 and 401 at once."""
    r = _store().r
    viewer = who(r, table, tid, sent)
    if not viewer.audiences():
        raise Unauthorized(viewer.refused or f"the token is not a token of {viewer.what}")

    def audiences() -> frozenset[str]:
        try:
            return who(r, table, tid, sent).audiences()
        except NotFound:  # the table expired
            return frozenset()

    return audiences


def _start() -> str | None:
    sent = request.headers.get("Last-Event-ID", "").strip()
    if sent and not (EVENT_ID.fullmatch(sent) and all(int(part) < 2**64 for part in sent.split("-"))):
        raise BadRequest(f"header Last-Event-ID: '{sent[:40]}' is not an event id (as 1700000000000-0)")
    return sent or None


def _hub() -> Hub:
    """This process's feeds (service/live_hub.py), on a Redis client of their own: a connection
    each while it waits, with a socket timeout longer than a wait."""
    hub = current_app.extensions.get("event_hub")
    if hub is None:
        client = connection.client(_store().url, CONNECTIONS, CONNECTION_WAIT, decode_responses=True,
                                   socket_timeout=HEARTBEAT + 10)
        hub = current_app.extensions["event_hub"] = Hub(client, HEARTBEAT * 1000)
    return hub


def stream(table: str, tid: str, audiences: Callable[[], set[str]]) -> Response:
    hub = _hub()
    start = _start() or live.last_id(hub.r, table, tid)  # read now: what happens after the answer counts

    def events():
        cursor = start
        yield f"retry: {RETRY_MS}\n: events of {table} {tid}\n\n"
        feed = hub.join(table, tid)
        try:
            seen = audiences()
            while seen:
                entries = feed.after(cursor, HEARTBEAT)
                if entries is None:  # older than the feed keeps, or the feed stopped: from Redis
                    entries = [prepare(e) for e in live.since(hub.r, table, tid, cursor)]
                    if feed.stopped:
                        hub.leave(feed)
                        feed = hub.join(table, tid)
                    elif not entries:  # trimmed away meanwhile
                        cursor = max(cursor, feed.base, key=live.order)
                        continue
                if not entries:
                    seen = audiences()
                    yield ": keep-alive\n\n"
                    continue
                if any(kind in WHO_CHANGES for *_rest, kind in entries):
                    seen = audiences()  # a seat given up or taken, powers drawn: ask again before sending
                    if not seen:
                        break
                cursor = entries[-1][0]
                frames = "".join(frame_for(entry, seen) for entry in entries)
                if frames:  # one write for what came together
                    yield frames
        finally:
            hub.leave(feed)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/v1/games/<game_id>/events")
@doc("getGameEvents", ["games"], "Live events of a game (Server-Sent Events)",
     "A stream of Server-Sent Events (contracts/clients.md): \"phase\" (a phase opened; a link to "
     "the results), \"orders\" (a power submitted, cleared or is ready; never order text), \"press\" "
     "(a message this token may read), \"vote\" (a proposal made or decided; never who voted what),"
     " \"deadline\" (extended, paused, resumed, a grace period), \"end\" (the game ended), \"seat\". "
     "Each event's id is kept for at least an hour: reconnect with Last-Event-ID to get what was "
     "missed. Without it the stream starts with what happens next. A player sees the events for "
     "everyone and those for its powers; the director those for everyone and for the director. "
     "The token may be sent as ?token= on this route alone (for a browser's EventSource); it is "
     "redacted in the access logs.")
@authenticate("playerToken", "directorToken", "queryToken")
@arguments(None, "LastEventId", "QueryToken")
@response('EventStream', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "NotFound")
def game_events(game_id):
    return stream("game", game_id, _audiences("game", game_id, _needs_token()))


@bp.get("/v1/resolutions/<resolution_id>/events")
@doc("getResolutionEvents", ["resolutions"], "Live events of a resolution (Server-Sent Events)",
     "As the game's events (contracts/clients.md): \"step\" (a step closed and the next opened), "
     "\"answered\" (who answered the open sealed step, never what), \"resolved\" (resolved, cancelled"
     " or halted), \"deadline\". For a participant or the director; ?token= on this route alone.")
@authenticate("participantToken", "directorToken", "queryToken")
@arguments(None, "LastEventId", "QueryToken")
@response('EventStream', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "NotFound")
def resolution_events(resolution_id):
    return stream("resolution", resolution_id, _audiences("resolution", resolution_id, _needs_token()))
