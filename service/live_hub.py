"""One reader of a table's event stream per process, however many clients watch it.

Each table that has open streams in this process has a :class:`Feed`: one
thread (a greenlet under gunicorn's gevent worker) waits on the table's Redis
stream with ``XREAD BLOCK`` and keeps the newest entries; every open stream of
the table waits on the feed's condition and takes its entries from there.  So
an event costs Redis one reply per process, not one per client, and 2,000
streams of one game are 2,000 waiting greenlets and one Redis connection.

A stream whose cursor is older than what the feed keeps (a client resuming
with ``Last-Event-ID``, or one that fell behind) reads the gap from Redis
itself.  A feed whose last stream has gone stops after its current wait.
"""
from __future__ import annotations

import logging
import threading

import redis

from workers.core import live
from workers.core.records import LiveEvent

log = logging.getLogger(__name__)

KEPT = 1000  # entries a feed keeps for its streams
# id, its Server-Sent Events frames with who may see each (None: everyone), type
Prepared = tuple[str, tuple[tuple[frozenset | None, str], ...], str]


def prepare(event: LiveEvent) -> Prepared:
    """An event as the streams use it, made once for all of them: its id, its frames (one per
    audience that sees it its own way) and its type."""
    head = f"id: {event.id}\nevent: {event.type}\ndata: "
    if event.views:
        return event.id, tuple((audiences, f"{head}{data}\n\n") for audiences, data in event.views), event.type
    return event.id, ((event.to, f"{head}{event.data}\n\n"),), event.type


def frame_for(entry: Prepared, seen: frozenset) -> str:
    """What a stream whose viewer is in the audiences ``seen`` sends of ``entry`` ("": nothing)."""
    return next((frame for to, frame in entry[1] if to is None or to & seen), "")


class Feed:
    def __init__(self, hub: "Hub", table: str, tid: str):
        self.hub, self.table, self.tid = hub, table, tid
        self.changed = threading.Condition()
        self.streams = 0
        self.entries: list[Prepared] = []  # the newest, prepared, oldest first
        self.base = live.last_id(hub.r, table, tid)  # every entry after this one is in ``entries``
        self.newest = self.base
        self.stopped = False

    def run(self) -> None:
        try:
            while True:
                found = live.read(self.hub.r, self.table, self.tid, self.newest, block_ms=self.hub.wait_ms)
                with self.changed:
                    if found:
                        self.entries += map(prepare, found)
                        self.newest = found[-1].id
                        if len(self.entries) > KEPT:
                            self.base = self.entries[-KEPT - 1][0]
                            del self.entries[:-KEPT]
                        self.changed.notify_all()
                if self.hub.leave_if_unwatched(self):
                    return
        except redis.RedisError as e:  # its streams read from Redis themselves, and the next join starts a feed
            log.warning("the event feed of %s %s stopped: %s", self.table, self.tid, e)
        finally:
            with self.changed:
                self.stopped = True
                self.changed.notify_all()

    def after(self, cursor: str, timeout: float) -> list[Prepared] | None:
        """The entries after ``cursor``, waiting up to ``timeout`` s for one; None when this feed cannot
        say (the cursor is older than what it keeps, or it stopped): read them from Redis."""
        at = live.order(cursor)
        with self.changed:
            if at < live.order(self.base) or self.stopped:
                return None
            self.changed.wait_for(lambda: live.order(self.newest) > at or self.stopped, timeout)
            if self.stopped:
                return None
            return [e for e in self.entries if live.order(e[0]) > at]


class Hub:
    """The feeds of this process, one per watched table."""

    def __init__(self, client, wait_ms: int):
        self.r, self.wait_ms = client, wait_ms
        self.feeds: dict[tuple[str, str], Feed] = {}
        self.lock = threading.Lock()

    def join(self, table: str, tid: str) -> Feed:
        with self.lock:
            feed = self.feeds.get((table, tid))
            if feed is None or feed.stopped:  # none yet, or its reader failed (Redis went away)
                feed = self.feeds[(table, tid)] = Feed(self, table, tid)
                threading.Thread(target=feed.run, name=f"feed-{table}-{tid}", daemon=True).start()
            feed.streams += 1
            return feed

    def leave(self, feed: Feed) -> None:
        with self.lock:
            feed.streams -= 1

    def leave_if_unwatched(self, feed: Feed) -> bool:
        """Whether ``feed`` (watched by nobody now) is to stop; it is then no longer joined."""
        with self.lock:
            if feed.streams > 0:
                return False
            if self.feeds.get((feed.table, feed.tid)) is feed:
                del self.feeds[(feed.table, feed.tid)]
            return True
