"""The RQ internals that workers.runtime overrides or calls, as it calls them.

pyproject pins RQ to the major version these signatures belong to; a new RQ
that changes one fails here, not in a worker at its first job."""
from __future__ import annotations

import inspect

import rq
from rq import Queue, SimpleWorker
from rq.scheduler import RQScheduler
from rq.scripts import acquire_or_refresh_lock, release_lock

from workers.runtime.scheduler import Scheduler
from workers.runtime.worker import AdjudicationQueue, AdjudicationWorker


def parameters(function) -> list[str]:
    return [name for name in inspect.signature(function).parameters if name != "self"]


def test_rq_is_the_major_version_pinned():
    assert rq.__version__.split(".")[0] == "3"


def test_the_worker_hooks_keep_their_signatures():
    assert parameters(SimpleWorker.execute_job) == ["job", "queue"]
    assert parameters(SimpleWorker.prepare_execution) == ["job"]
    assert parameters(SimpleWorker.perform_job) == ["job", "queue", "execution"]
    assert parameters(SimpleWorker.maintain_heartbeats) == ["job", "execution"]
    assert parameters(SimpleWorker.get_heartbeat_ttl) == ["job", "working_time"]
    assert isinstance(inspect.getattr_static(SimpleWorker, "dequeue_timeout"), property)
    assert hasattr(SimpleWorker, "max_connection_wait_time")
    assert parameters(Queue.acquire_maintenance_lock) == []
    # ours override exactly these
    assert parameters(AdjudicationWorker.execute_job) == ["job", "queue"]
    assert parameters(AdjudicationWorker.get_heartbeat_ttl) == ["job", "working_time"]
    assert issubclass(AdjudicationQueue, Queue) and issubclass(AdjudicationWorker, SimpleWorker)


def test_the_scheduler_calls_keep_their_signatures():
    assert parameters(acquire_or_refresh_lock) == ["connection", "lock_key", "owner_token", "ttl"]
    assert parameters(release_lock) == ["connection", "lock_key", "owner_token"]
    assert parameters(RQScheduler.prepare_registries) == ["queue_names"]
    assert parameters(RQScheduler.enqueue_scheduled_jobs) == []
    assert parameters(RQScheduler.get_locking_key) == ["name"]
    assert callable(Scheduler.tick)
