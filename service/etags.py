"""ETags and ``If-None-Match`` on the views clients poll (contracts/clients.md, "Cheap polling").

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

from workers.core.store import Store, hash_token

from .http import token


def _matches(tag: str) -> bool:
    sent = request.headers.get("If-None-Match")
    if not sent:
        return False
    if sent.strip() == "*":
        return True
    bare = tag.removeprefix("W/")
    return any(t.strip().removeprefix("W/") == bare for t in sent.split(","))


def conditional(record_key: str, version: str, render: Callable[[], Response],
                tokens_key: str | None = None) -> Response:
    """``render()``'s response with an ``ETag``, or a bodiless 304 when ``If-None-Match`` holds the tag.

    ``record_key``: the table's record (with ``version`` and the ``director`` hash);
    ``tokens_key``: the hash of the table's tokens (hash -> holder id), if it has any."""
    sent = token()
    with current_app.extensions["games"].r.pipeline(transaction=False) as pipe:
        pipe.hmget(record_key, [version, "director"])
        if sent and tokens_key:
            pipe.hget(tokens_key, hash_token(sent))
        found = pipe.execute()
    (rev, director), holder = found[0], (found[1] if len(found) > 1 else None)
    if director is None:  # no such table: the view says so
        return render()
    if not sent:
        viewer = "anyone"
    elif Store.is_director(director, sent):
        viewer = "director"
    elif holder:  # a kind of its own: a participant may be called "director" or "anyone", or hold a '"'
        viewer = "p" + hashlib.sha256(holder.encode()).hexdigest()[:16]
    else:
        return render()
    tag = f'W/"{rev or 0}-{viewer}"'
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
