"""Seeing the service run: structured JSON logs and Prometheus metrics, shared by
the API processes and the workers.

* **Logs**: :func:`configure_logging` makes the ``adjudication`` logger write one
  JSON object a line on stderr (python-json-logger).  The API logs one line per
  request (``service.logs``), a worker one line per job (:func:`job`).
* **Metrics**: prometheus_client in multiprocess mode.  Every process of one
  service (gunicorn's workers, the RQ workers) writes its samples into the
  directory ``PROMETHEUS_MULTIPROC_DIR``; the launcher makes a fresh one per
  run, and without it one per Redis URL under the temporary directory is used,
  so that the processes of one service on one machine share it.  ``/metrics``
  adds them up (``service.metrics``).  The variable must be set before
  prometheus_client is imported, which is why this module sets it first.
"""
from __future__ import annotations

import contextvars
import functools
import hashlib
import logging
import os
import sys
import tempfile
import time
from datetime import timezone

from ..core import keys, settings
from ..core.store import iso


def metrics_dir() -> str:
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not path:
        url = settings.current().redis_url or ""
        path = os.path.join(tempfile.gettempdir(), "adjudication-metrics",
                            hashlib.sha256(url.encode()).hexdigest()[:12])
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    os.makedirs(path, exist_ok=True)
    return path


metrics_dir()

from prometheus_client import Counter, Histogram  # noqa: E402  (after PROMETHEUS_MULTIPROC_DIR is set)

LOGGER = "adjudication"

JOBS = Counter("adjudication_jobs", "Jobs run, by job and outcome (done, noop, failed)", ["job", "outcome"])
JOB_SECONDS = Histogram("adjudication_job_duration_seconds", "Time a job ran", ["job"],
                        buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60))
RETRIES = Counter("adjudication_job_retries", "Job runs that were a retry (of a failed or abandoned run)", ["job"])
ADJUDICATIONS = Counter("adjudication_adjudications", "Steps taken by jobs (a phase adjudicated, a resolution step "
                        "taken)", ["table"])
ADJUDICATION_SECONDS = Histogram("adjudication_adjudication_duration_seconds", "Time a job took to take a step",
                                 ["table"], buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
DEADLINE_LAG = Histogram("adjudication_deadline_lag_seconds", "From a deadline to the next step being open",
                         ["table"], buckets=(.1, .25, .5, .75, 1, 1.5, 2, 3, 5, 10, 30, 60, 120, 300))


def configure_logging() -> logging.Logger:
    """The ``adjudication`` logger, writing JSON lines on stderr (once per process)."""
    from pythonjsonlogger.json import JsonFormatter

    logger = logging.getLogger(LOGGER)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter("{levelname}{name}{message}", style="{", timestamp="time",
                                           rename_fields={"levelname": "level", "name": "logger"}))
        logger.addHandler(handler)
        logger.setLevel(settings.current().log_level.upper())
        logger.propagate = False
    return logger


_in_job: contextvars.ContextVar[bool] = contextvars.ContextVar("in_job", default=False)


def job(fn):
    """Decorate an RQ job function: one JSON log line and the job metrics per run (a ``JobOutcome`` that is not
    ``done`` did nothing).  A decorated job called from inside another (a batch) is not a job of
    its own: it only runs."""

    @functools.wraps(fn)
    def run(*args):
        if _in_job.get():
            return fn(*args)
        from rq import get_current_job

        from ..core.store import JOB_RETRIES  # what every table job is enqueued with: Retry(max=JOB_RETRIES)

        current = get_current_job()
        retries = max(0, JOB_RETRIES - current.retries_left) if current and current.retries_left is not None else 0
        fields = {"job": fn.__name__, "job_id": current.id if current else None, "job_args": list(args)[:8],
                  "retry": retries}
        token, start = _in_job.set(True), time.perf_counter()
        try:
            result = fn(*args)
        except BaseException as e:
            _record_job(fields, "failed", time.perf_counter() - start, error=repr(e)[:500])
            raise
        finally:
            _in_job.reset(token)
        _record_job(fields, "done" if getattr(result, "done", True) else "noop", time.perf_counter() - start,
                    result=str(result)[:200])
        return result

    return run


def _record_job(fields: dict, outcome: str, seconds: float, **extra) -> None:
    """The job's metrics and log line; a failure here is logged, never the job's."""
    try:
        name = fields["job"]
        if fields["retry"]:
            RETRIES.labels(name).inc()
        JOBS.labels(name, outcome).inc()
        JOB_SECONDS.labels(name).observe(seconds)
        level = logging.ERROR if outcome == "failed" else logging.INFO
        configure_logging().log(level, "job", extra={**fields, "outcome": outcome,
                                                     "duration_ms": round(seconds * 1000, 2), **extra})
    except Exception:  # noqa: BLE001
        logging.getLogger(__name__).exception("recording job %s", fields)


def step(fn=None, *, deadline_arg: int | None = None):
    """Decorate a function ``f(table, id, seq, ...)`` that takes a step of a table (a ``JobOutcome`` that is not
    ``done`` took none): counts the steps taken and their duration, and, if the argument at index
    ``deadline_arg`` is the deadline (epoch seconds) that made the step, the lag from it to now (the
    next step being open)."""
    if fn is None:
        return functools.partial(step, deadline_arg=deadline_arg)

    @functools.wraps(fn)
    def run(*args):
        start = time.perf_counter()
        result = fn(*args)
        if getattr(result, "done", True):
            steps_taken(str(args[0]), [args[deadline_arg]] if deadline_arg is not None else [None],
                        time.perf_counter() - start)
        return result

    return run


def steps_taken(table: str, deadlines: list, seconds: float) -> None:
    """Count steps of ``table`` taken together in ``seconds`` (each observed as taking them all), one per
    item of ``deadlines``: the deadline (epoch seconds) that made it, whose lag to now is observed,
    or None."""
    try:
        for deadline in deadlines:
            ADJUDICATIONS.labels(table).inc()
            ADJUDICATION_SECONDS.labels(table).observe(seconds)
            if deadline is not None:
                DEADLINE_LAG.labels(table).observe(time.time() - float(deadline))
    except Exception:  # noqa: BLE001
        logging.getLogger(__name__).exception("recording steps of %s", table)


def queue_state(store) -> dict:
    """What the service's queue looks like now: its workers, its scheduler and the oldest waiting job
    (queued, or due on the schedule but not yet queued).  The counts, the scheduler's lock, the
    workers' keys and the first job's id are read in one round trip to Redis (/v1/health is read
    while the API is busy, and each round trip waits its turn there); then each worker and the
    first job, through RQ.  Jobs abandoned in the started registry are counted until a worker's
    maintenance takes them."""
    from rq import Worker
    from rq.job import Job
    from rq.registry import ScheduledJobRegistry, StartedJobRegistry
    from rq.scheduler import RQScheduler
    from rq.worker_registration import WORKERS_BY_QUEUE_KEY

    conn, queue, now = store.queue.connection, store.queue, time.time()
    lock = RQScheduler.get_locking_key(keys.QUEUE)
    scheduled = ScheduledJobRegistry(keys.QUEUE, connection=conn)
    started = StartedJobRegistry(keys.QUEUE, connection=conn)
    with conn.pipeline(transaction=False) as pipe:
        pipe.smembers(WORKERS_BY_QUEUE_KEY % queue.name).get(lock).ttl(lock)
        pipe.zrangebyscore(scheduled.key, "-inf", now, withscores=True)
        pipe.lindex(queue.key, 0).llen(queue.key).zcard(scheduled.key).zcard(started.key)
        registered, holder, expires_in, due, first, waiting, on_schedule, running = pipe.execute()
    workers = []
    for w in filter(None, (Worker.find_by_key(key.decode(), connection=conn) for key in sorted(registered))):
        beat = w.last_heartbeat
        if beat is not None and beat.tzinfo is None:
            beat = beat.replace(tzinfo=timezone.utc)
        workers.append({"name": w.name, "state": str(w.get_state()), "current_job": w.get_current_job_id(),
                        "last_heartbeat": iso(beat.timestamp()) if beat else None})
    scheduler = {"running": holder is not None, "name": holder.decode() if holder else None,
                 "lock_expires_in": expires_in if holder else None}
    oldest = None
    job = Job.fetch(first.decode(), connection=conn) if first else None
    if job is not None and job.enqueued_at:
        since = job.enqueued_at.replace(tzinfo=timezone.utc).timestamp() if job.enqueued_at.tzinfo is None \
            else job.enqueued_at.timestamp()
        oldest = {"id": job.id, "since": iso(since), "seconds": round(now - since, 3)}
    if due and (oldest is None or due[0][1] < now - oldest["seconds"]):
        oldest = {"id": due[0][0].decode(), "since": iso(due[0][1]), "seconds": round(now - due[0][1], 3)}
    return {"workers": workers, "scheduler": scheduler, "queue": {
        "waiting": waiting, "scheduled": on_schedule, "due": len(due), "started": running, "oldest_waiting": oldest}}
