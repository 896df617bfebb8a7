"""The scheduler process: ``python -m workers.runtime.scheduler``.

Every ``SCHEDULER_INTERVAL`` seconds at most (default 0.2), and at each
deadline's second, it

* moves the due deadlines (``workers.core.keys.deadlines``) to the queue as
  batch jobs (:meth:`Store.dispatch_deadlines`).  That needs no lock: the
  transaction that takes an entry off the schedule is the one that queues
  it, so any number of schedulers may run, and a new one starts dispatching
  at once, however its predecessor died;
* moves RQ's own scheduled jobs (retries with a delay, ``enqueue_at``) to the
  queue with RQ's scheduler code, under RQ's per-queue scheduler lock.  RQ
  holds that lock for 61 s and a waiting scheduler tries again only after
  120 s; here it lives ``SCHEDULER_LOCK_TTL`` seconds (default 5), is renewed
  every pass, and a scheduler without it tries to take it every pass.  So with several
  schedulers (``serve --role scheduler`` on several hosts) one is active and the others stand
  by, and one of them takes over within ``SCHEDULER_LOCK_TTL`` + ``SCHEDULER_INTERVAL`` seconds
  of the active one's death; each logs when it becomes active or stands by.

A lost Redis is retried every half second; the process never gives up on it.
"""
from __future__ import annotations

import logging
import signal
import time

import redis
from rq.scheduler import RQScheduler
from rq.scripts import acquire_or_refresh_lock, release_lock

from ..core import connection, keys, settings
from ..core.errors import Conflict
from ..core.store import Store

log = logging.getLogger("workers.runtime.scheduler")


class Scheduler:
    def __init__(self, url: str, config: settings.Settings | None = None):
        self.store = Store(url, config)
        self.rq = RQScheduler([keys.QUEUE], connection=self.store.queue.connection)
        self.lock = RQScheduler.get_locking_key(keys.QUEUE)
        self.stopping = False
        self.active: bool | None = None  # holds RQ's scheduler lock (None: not known yet)

    def tick(self) -> float:
        """One pass; returns how long to sleep before the next."""
        config = self.store.settings
        while self.store.dispatch_deadlines(time.time()):
            pass
        active = acquire_or_refresh_lock(self.store.queue.connection, self.lock, self.rq.name,
                                         config.scheduler_lock_ttl) != "taken"
        if active != self.active:
            log.warning("scheduler %s: %s", self.rq.name, "active" if active else "standing by")
            self.active = active
        if active:
            self.rq.prepare_registries([keys.QUEUE])
            self.rq.enqueue_scheduled_jobs()
        due = self.store.next_deadline()
        interval = config.scheduler_interval
        return interval if due is None else min(interval, max(0.0, due - time.time()))

    def run(self) -> None:
        log.info("scheduler %s started", self.rq.name)
        while not self.stopping:
            try:
                pause = self.tick()
            except (redis.ConnectionError, redis.TimeoutError, Conflict) as e:
                log.warning("scheduler: %r; trying again", e)
                pause = 0.5
            time.sleep(pause)
        try:
            release_lock(self.store.queue.connection, self.lock, self.rq.name)
        except redis.RedisError:
            pass
        log.info("scheduler %s stopped", self.rq.name)

    def stop(self, *_) -> None:
        self.stopping = True


def main() -> None:
    config = settings.current()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(name)s: %(message)s")
    connection.announce(config.redis_url, "scheduler")
    scheduler = Scheduler(config.redis_url, config)
    signal.signal(signal.SIGTERM, scheduler.stop)
    signal.signal(signal.SIGINT, scheduler.stop)
    scheduler.run()


if __name__ == "__main__":
    main()
