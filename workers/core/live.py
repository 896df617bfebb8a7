"""Live events (docs/clients.md, "Live events"): a Redis stream per table.

A change that clients should hear of at once calls :func:`publish` after
MULTI, so its event is in the stream if and only if the change commits, once:
a job re-run after a crash finds the change made and publishes nothing, a job
killed before EXEC leaves neither.  The stream entry's id (Redis's, time-based)
is the event's ``id`` (always ``<ms>-0``): a client that reconnects with ``Last-Event-ID`` reads
on from there (:func:`read`).  Entries older than :data:`KEEP` seconds are
trimmed as new ones come, and the stream of a table that is quiet that long
expires.

An event is ``type``, ``data`` (JSON) and ``to``: empty for everyone who may
watch the table, else the audiences that may see it (powers, ``director``,
a resolution's participant ids), by which each stream filters
(service/events_api.py).  ``data``
holds only what its audience may see: no order text, no ballot, no sealed
answer.
"""
from __future__ import annotations

from . import keys
from .records import LiveEvent

KEEP = 6 * 3600  # seconds of events kept for Last-Event-ID (the contract asks for at least one hour)
GAME = ("phase", "orders", "press", "vote", "deadline", "end", "seat")
RESOLUTION = ("step", "answered", "resolved", "deadline")
TYPES = {"game": GAME, "resolution": RESOLUTION}

# XADD at Redis's own time, then trim by that time: no clock but the server's decides what is old.
# Every id is "<ms>-0", one millisecond after the last if the clock has not moved on: a sequence
# number would count the events of the same millisecond, those of other audiences included.
_PUBLISH = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last then
  ms = math.max(ms, tonumber(string.match(last[1], '^(%d+)')) + 1)
end
local id = redis.call('XADD', KEYS[1], string.format('%d-0', ms), 'type', ARGV[3], 'data', ARGV[4],
                      'to', ARGV[5], 'views', ARGV[6])
redis.call('XTRIM', KEYS[1], 'MINID', '~', tostring(ms - tonumber(ARGV[1]) * 1000))
redis.call('EXPIRE', KEYS[1], ARGV[2])
return id
"""
_scripts: dict[int, object] = {}


def _script(client):
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts[id(client)] = client.register_script(_PUBLISH)
    return script


def publish(store, pipe, table: str, tid: str, type_: str, data: dict | None, to: list[str] | None = None,
            views: list[tuple[dict, list[str]]] | None = None) -> None:
    """Queue (after MULTI, in ``pipe``'s transaction) event ``type_`` of a table, seen by ``to``
    (None: everyone who may watch the table); or, with ``views``, one event that each audience
    sees as its own ``(data, audiences)`` pair shows it (one entry, one id for all of them)."""
    assert type_ in TYPES[table], type_
    fields = LiveEvent.fields(type_, data, to, views)
    script = _script(store.r)
    if hasattr(type(pipe), "uses"):  # a transaction taken with others (Store.transact_together)
        pipe.uses(script)
    script(keys=[keys.events(table, tid)], client=pipe,
           args=[KEEP, KEEP, fields["type"], fields["data"], fields["to"], fields["views"]])


def last_id(r, table: str, tid: str) -> str:
    """The id of the newest event of a table ("0-0" if none): where a new stream starts."""
    found = r.xrevrange(keys.events(table, tid), count=1)
    return found[0][0] if found else "0-0"


def order(entry_id: str) -> tuple[int, int]:
    """An event id as a sortable pair (ids are "milliseconds-sequence")."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def since(r, table: str, tid: str, after: str, count: int = 1000) -> list[LiveEvent]:
    """The events after id ``after`` that are in the stream now, oldest first (no waiting)."""
    return [LiveEvent.restore(*e) for e in r.xrange(keys.events(table, tid), min=f"({after}", max="+", count=count)]


def read(r, table: str, tid: str, after: str, block_ms: int, count: int = 100) -> list[LiveEvent]:
    """The events after id ``after`` (waiting up to ``block_ms`` for one), oldest first."""
    found = r.xread({keys.events(table, tid): after}, count=count, block=block_ms)
    return [LiveEvent.restore(*e) for e in found[0][1]] if found else []
