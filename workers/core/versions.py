"""The versions of what each view shows, for ETags (docs/clients.md, "Polling with ETags").

A view's version is a counter kept as a field of its table's record hash
(``rev`` for the game, resolution and tournament views, ``rev_history`` for a
game's history, ``rev_standings`` for a tournament's standings), counted up in
the same transaction as every change to a key the view is built from.  So an
ETag is that counter and the viewer (service/etags.py): one Redis read answers
``If-None-Match``, and the tag moves exactly when the view's sources do.

:func:`stamp` finds those changes itself, from the writes a transaction has
queued (``Store.transact`` calls it before EXEC): a table module cannot forget
to count, and a new write to a viewed key is counted without anyone adding a
call.  A change to a game's status also moves its tournament's views
(:func:`board_moved`): a tournament shows each board's status and its
standings each finished board's result.
"""
from __future__ import annotations

import re

from . import keys

VIEW, HISTORY, STANDINGS = "rev", "rev_history", "rev_standings"

# a key a view is built from -> (the record holding its version, which versions move)
_SOURCES = [
    # a phase's orders are not a source: the view shows only who has orders (:func:`submitted_changed`)
    (re.compile(rf"{keys.PREFIX}:game:([0-9a-f]+)(?::(?:players|ready:\d+))?"), keys.game, (VIEW,)),
    (re.compile(rf"{keys.PREFIX}:game:([0-9a-f]+):history"), keys.game, (HISTORY,)),
    (re.compile(rf"{keys.PREFIX}:res:([0-9a-f]+)"), keys.resolution, (VIEW,)),
    (re.compile(rf"{keys.PREFIX}:tour:([0-9a-f]+)(?::(?:players|boards))?"), keys.tournament, (VIEW, STANDINGS)),
]
_WRITES = frozenset({"HSET", "HMSET", "HSETNX", "HDEL", "HINCRBY", "DEL", "UNLINK", "RPUSH", "LPUSH", "LTRIM",
                     "LSET", "LREM", "SADD", "SREM", "RENAME"})
_REVS = frozenset({VIEW, HISTORY, STANDINGS})


def _moved(command: tuple) -> list[tuple[str, tuple[str, ...]]]:
    """The (record key, versions) a queued command changes the sources of."""
    name = str(command[0]).upper()
    if name not in _WRITES or len(command) < 2:
        return []
    if name == "HINCRBY" and command[2] in _REVS:
        return []  # a version itself
    found = []
    for key in (command[1:] if name in ("DEL", "UNLINK") else command[1:2]):
        for pattern, record, revs in _SOURCES:
            if (m := pattern.fullmatch(str(key))):
                found.append((record(m.group(1)), revs))
    return found


def stamp(pipe) -> None:
    """Count up (queued in ``pipe``'s MULTI, before EXEC) the versions of the views whose sources
    the transaction's queued writes change."""
    moved: dict[str, set[str]] = {}
    for args, _options in list(pipe.command_stack):
        for record, revs in _moved(args):
            moved.setdefault(record, set()).update(revs)
    for record, revs in moved.items():
        for rev in sorted(revs):
            pipe.hincrby(record, rev, 1)


def submitted_changed(pipe, gid: str) -> None:
    """Queue (after MULTI): which powers of game ``gid`` have orders changed (a first submission, a
    withdrawal).  A revision of orders already in changes nothing anyone else sees, so no tag moves."""
    pipe.hincrby(keys.game(gid), VIEW, 1)


def board_moved(pipe, tournament: str, finished_before: bool, finished_after: bool) -> None:
    """Queue (after MULTI): a board of ``tournament`` changed its status; the standings move
    too when it finished or stopped being finished (a rollback)."""
    pipe.hincrby(keys.tournament(tournament), VIEW, 1)
    if finished_before or finished_after:
        pipe.hincrby(keys.tournament(tournament), STANDINGS, 1)


_RECORDS = {"game": keys.game, "resolution": keys.resolution, "tournament": keys.tournament}


def queue(reads, table: str, tid: str, version: str) -> None:
    """Queue on the pipeline ``reads`` the read of view ``version`` of a table (None: never counted)."""
    reads.hget(_RECORDS[table](tid), version)
