"""The adjudication worker process: ``python -m workers.runtime.worker``.

An RQ ``SimpleWorker`` (jobs run in the worker process itself: a step takes
milliseconds, a fork per job would cost more than the job), with three
changes for recovering in seconds:

* **a short heartbeat**: while a job runs, a thread renews its entry in RQ's
  StartedJobRegistry every ``JOB_HEARTBEAT_TTL / 3`` seconds, for
  ``JOB_HEARTBEAT_TTL`` (default 10 s) at a time.  A worker that dies
  mid-job stops renewing it, so the job counts as abandoned
  ``JOB_HEARTBEAT_TTL`` seconds later (RQ's own SimpleWorker keeps it for
  the job's whole timeout plus 60 s), however long jobs may run;
* **frequent maintenance, with a short lock**: an idle worker wakes every
  ``WORKER_MAINTENANCE_INTERVAL / 2`` s, and the next maintenance pass of any
  worker (every ``WORKER_MAINTENANCE_INTERVAL`` s, default 5) retries the
  abandoned job (every job is enqueued with ``Retry``).  RQ's lock on that
  pass would outlive a worker killed during it by 15 minutes, ours by one
  interval;
* **Redis lost**: a worker waits for Redis when it starts, and retries a
  lost connection every 2 s at most (RQ backs off to 60 s).

The re-run takes the step exactly once: the per-step transitions in
``workers.core.store`` make a second run a no-op, and the attempt is counted
where the work starts.
"""
from __future__ import annotations

import argparse
import logging
import threading
import time

import redis
from rq import Queue, SimpleWorker
from rq.worker import WorkerStatus

from ..core import connection, keys, settings
from ..core.store import Store
from . import jobs

log = logging.getLogger(__name__)


class AdjudicationQueue(Queue):
    def acquire_maintenance_lock(self) -> bool:
        # RQ's lock lives 899 s; ours expires before the next pass is due.
        return bool(self.connection.set(self.registry_cleaning_key, 1, nx=True,
                                        ex=settings.current().maintenance_interval))


class AdjudicationWorker(SimpleWorker):
    max_connection_wait_time = 2.0

    @property
    def dequeue_timeout(self) -> int:
        # an idle worker wakes this often to run its maintenance when it is due
        return max(1, self.maintenance_interval // 2)

    def get_heartbeat_ttl(self, job, working_time: float = 0.0) -> int:
        return settings.current().job_heartbeat_ttl

    def execute_job(self, job, queue):
        execution = self.prepare_execution(job)
        stop = threading.Event()
        beat = threading.Thread(target=self._beat, args=(job, execution, stop), daemon=True)
        beat.start()
        try:
            self.perform_job(job, queue, execution)
        finally:
            stop.set()
            beat.join()
        self.set_state(WorkerStatus.IDLE)

    def _beat(self, job, execution, stop: threading.Event) -> None:
        while not stop.wait(settings.current().job_heartbeat_ttl / 3):
            try:
                self.maintain_heartbeats(job, execution)
            except redis.RedisError as e:
                log.warning("heartbeat of job %s failed: %r", job.id, e)


def wait_for_redis(client: redis.Redis, timeout: float) -> None:
    """Return once Redis answers (a worker started while Redis restarts waits instead of dying)."""
    end = time.monotonic() + timeout
    while True:
        try:
            client.ping()
            return
        except (redis.ConnectionError, redis.TimeoutError):
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run one adjudication worker.")
    parser.add_argument("--burst", action="store_true", help="quit when the queue is empty")
    args = parser.parse_args(argv)
    config = settings.current()
    client = connection.client(config.redis_url)
    wait_for_redis(client, config.redis_wait)
    connection.announce(config.redis_url, "worker")
    jobs.install(Store(config.redis_url, config))
    worker = AdjudicationWorker(
        [AdjudicationQueue(keys.QUEUE, connection=client)], connection=client, queue_class=AdjudicationQueue,
        worker_ttl=config.worker_ttl, maintenance_interval=config.maintenance_interval)
    worker.work(burst=args.burst, logging_level=config.log_level)


if __name__ == "__main__":
    main()
