"""The adjudication worker process: ``python -m workers.worker``.

An RQ ``SimpleWorker`` (jobs run in the worker process itself: an
adjudication takes milliseconds, a fork per job would cost more than the
job).  If the process dies mid-job, the job stays in RQ's StartedJobRegistry
until its heartbeat expires; the next worker's maintenance pass then retries
it (every job is enqueued with ``Retry``) and the per-phase state transition
in ``workers.store`` makes the re-run take the step exactly once.
"""
from __future__ import annotations

import argparse
import os

import redis
from rq import Queue, SimpleWorker

from . import keys
from .store import JOB_TIMEOUT


class AdjudicationWorker(SimpleWorker):
    # RQ keeps a started job for job_timeout + 60 s before calling it abandoned;
    # the grace after the job timeout is configurable here.
    heartbeat_grace = int(os.environ.get("WORKER_HEARTBEAT_GRACE", "30"))

    def get_heartbeat_ttl(self, job, working_time: float = 0.0) -> int:
        return int(job.timeout if job.timeout and job.timeout > 0 else JOB_TIMEOUT) + self.heartbeat_grace


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run one adjudication worker.")
    parser.add_argument("--with-scheduler", action="store_true",
                        help="also run RQ's scheduler (normally its own process: python -m workers.scheduler)")
    parser.add_argument("--burst", action="store_true", help="quit when the queue is empty")
    args = parser.parse_args(argv)
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    worker = AdjudicationWorker(
        [Queue(keys.QUEUE, connection=connection)], connection=connection,
        worker_ttl=int(os.environ.get("WORKER_TTL", "45")),  # idle wake-up every WORKER_TTL - 15 s
        maintenance_interval=int(os.environ.get("WORKER_MAINTENANCE_INTERVAL", "30")))
    worker.work(with_scheduler=args.with_scheduler, burst=args.burst,
                logging_level=os.environ.get("LOG_LEVEL", "INFO"))


if __name__ == "__main__":
    main()
