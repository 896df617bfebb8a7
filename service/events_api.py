"""Live events as Server-Sent Events (contracts/clients.md, "Live events").

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

import json
import re

import redis
from typing import Callable

from flask import Blueprint, Response, current_app, request

from workers.core import keys, live
from workers.core.errors import NotFound, Unauthorized
from workers.core.store import CONNECTIONS, CONNECTION_WAIT, hash_token

from .http import BadRequest, token
from .live_hub import Hub, prepare

bp = Blueprint("events", __name__)
HEARTBEAT = 15  # seconds between keep-alive comments
RETRY_MS = 2000  # how long a disconnected EventSource waits before it reconnects
EVENT_ID = re.compile(r"\d{1,20}-\d{1,20}")


def _store():
    return current_app.extensions["games"].store


def _needs_token() -> str:
    sent = token()
    if not sent:
        raise Unauthorized("this stream needs a token: send 'Authorization: Bearer <token>' or '?token=<token>'")
    return sent


def _audiences(record_key: str, tokens_key: str, sent: str, what: str, powers_of=None) -> Callable[[], set[str]]:
    """Who ``sent`` is at the table, as a function that says it again (an empty set once the token
    no longer holds, which ends the stream); 404 and 401 at once."""
    store = _store()

    def audiences() -> set[str]:
        director = store.r.hget(record_key, "director")
        if director is None:
            return set()
        if store.is_director(director, sent):
            return {"director"}
        holder = store.r.hget(tokens_key, hash_token(sent))
        if holder is None:
            return set()
        return {holder, *(powers_of(holder) if powers_of else ())}

    if not store.r.exists(record_key):
        raise NotFound(f"there is no {what}")
    if not audiences():
        raise Unauthorized(f"the token is not a token of {what}")
    return audiences


def _start() -> str | None:
    sent = request.headers.get("Last-Event-ID", "").strip()
    if sent and not EVENT_ID.fullmatch(sent):
        raise BadRequest(f"header Last-Event-ID: '{sent[:40]}' is not an event id (as 1700000000000-0)")
    return sent or None


def _hub() -> Hub:
    """This process's feeds (service/live_hub.py), on a Redis client of their own: a connection
    each while it waits, with a socket timeout longer than a wait."""
    hub = current_app.extensions.get("event_hub")
    if hub is None:
        client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            _store().url, decode_responses=True, socket_timeout=HEARTBEAT + 10, max_connections=CONNECTIONS,
            timeout=CONNECTION_WAIT))
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
                cursor = entries[-1][0]
                frames = "".join(frame for _id, to, frame in entries if to is None or to & seen)
                if frames:  # one write for what came together
                    yield frames
        finally:
            hub.leave(feed)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/v1/games/<game_id>/events")
def game_events(game_id):
    sent = _needs_token()
    r = _store().r

    def powers_of(pid: str) -> list[str]:
        player = r.hget(keys.players(game_id), pid)
        return json.loads(player)["powers"] if player else []

    who = _audiences(keys.game(game_id), keys.tokens(game_id), sent, f"game '{game_id}'", powers_of)
    return stream("game", game_id, who)


@bp.get("/v1/resolutions/<resolution_id>/events")
def resolution_events(resolution_id):
    sent = _needs_token()
    who = _audiences(keys.resolution(resolution_id), keys.resolution_tokens(resolution_id), sent,
                     f"resolution '{resolution_id}'")
    return stream("resolution", resolution_id, who)
