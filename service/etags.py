"""ETags and ``If-None-Match`` on the views clients poll (docs/clients.md, "Polling with ETags").

A tag is the version of the view (``workers.core.versions``: a counter in the
table's record, moved in the same transaction as anything the view shows) and
the viewer (the director, a player or participant, or ``anyone``), never a
hash of the body: answering 304 costs one round trip to Redis and builds no
view.  The version is read before the view is built, so a tag never claims a
newer state than its body shows.

A token the table does not know gets the view's own answer (a 401, or the
public view) without a tag.
"""
from __future__ import annotations

import hashlib
from typing import Callable

from flask import Response, current_app, request

from workers.core import versions
from workers.core.errors import NotFound
from workers.tables import viewers
from workers.tables.viewers import Role

from .http import token


def _matches(tag: str) -> bool:
    sent = request.headers.get("If-None-Match")
    if not sent:
        return False
    if sent.strip() == "*":
        return True
    bare = tag.removeprefix("W/")
    return any(t.strip().removeprefix("W/") == bare for t in sent.split(","))


def conditional(table: str, tid: str, version: str, render: Callable[[], Response]) -> Response:
    """``render()``'s response with an ``ETag``, or a bodiless 304 when ``If-None-Match`` holds the tag.

    ``version``: which of the table's views (``workers.core.versions``); the viewer is
    ``workers.tables.viewers.who``'s, read in the same round trip."""
    sent = token()
    with current_app.extensions["games"].r.pipeline(transaction=False) as reads:
        versions.queue(reads, table, tid, version)
        viewers.queue(reads, table, tid, sent)
        rev, *answers = reads.execute()
    try:
        viewer = viewers.decide(table, tid, sent, answers)
    except NotFound:  # no such table: the view says so
        return render()
    if viewer.digest is None:
        tag_of = "anyone"
    elif viewer.is_director:
        tag_of = "director"
    elif viewer.role in (Role.PLAYER, Role.PARTICIPANT):  # a kind of its own: ids may be any text
        tag_of = "p" + hashlib.sha256(viewer.holder.encode()).hexdigest()[:16]
    else:
        return render()
    tag = f'W/"{rev or 0}-{tag_of}"'
    if _matches(tag):
        response = Response(status=304)
    else:
        response = render()
        if response.status_code != 200:
            return response
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Authorization")
    return response
