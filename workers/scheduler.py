"""RQ's scheduler as its own process: ``python -m workers.scheduler``.

It moves each phase's deadline job (``Queue.enqueue_at``) from RQ's
ScheduledJobRegistry to the queue when its time comes.  Only one scheduler
holds the queue's lock at a time, so running several is safe.
"""
from __future__ import annotations

import logging
import os

import redis
from rq.scheduler import RQScheduler

from . import keys


def main() -> None:
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    scheduler = RQScheduler([keys.QUEUE], connection=connection,
                            interval=int(os.environ.get("SCHEDULER_INTERVAL", "1")),
                            logging_level=getattr(logging, os.environ.get("LOG_LEVEL", "INFO")))
    scheduler.work()


if __name__ == "__main__":
    main()
