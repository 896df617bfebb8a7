"""Prometheus metrics at ``/metrics``: what every process of the service
counted (prometheus_client's multiprocess mode, see ``workers.runtime.observe``) and,
read from Redis at each scrape, the queue, the workers and the scheduler.

Counted by the API: requests by endpoint (the route's template), method and
status, with a latency histogram; submissions (orders, answers) by status.
Counted by the workers (``workers.runtime.observe.job``): jobs, their duration and
retries; adjudications (steps taken) and their duration; the deadline lag.
"""
from __future__ import annotations

import time

from flask import Response, g, request

from workers.runtime.observe import queue_state  # observe first: it sets PROMETHEUS_MULTIPROC_DIR

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,  # noqa: E402
                               generate_latest, multiprocess)
from prometheus_client.core import GaugeMetricFamily  # noqa: E402

REQUESTS = Counter("adjudication_http_requests", "HTTP requests by endpoint, method and status",
                   ["endpoint", "method", "status"])
LATENCY = Histogram("adjudication_http_request_duration_seconds", "Time to answer an HTTP request",
                    ["endpoint", "method"],
                    buckets=(.001, .0025, .005, .01, .025, .05, .075, .1, .25, .5, 1, 2.5, 5, 10))
SUBMISSIONS = Counter("adjudication_submissions", "Submissions (orders, answers) by table and status",
                      ["table", "status"])
# endpoint -> the table whose submissions it takes
SUBMISSION_ENDPOINTS = {"games.submit_orders": "game", "resolutions.answer": "resolution"}
# not counted at all: how much press is sent is the players' business (a public counter would show
# when private press was sent, docs/security.md)
UNCOUNTED = {"press.send"}


class QueueCollector:
    """Gauges read from Redis at each scrape (so every API process reports the same values)."""

    def __init__(self, store):
        self.store = store

    def collect(self):
        state = queue_state(self.store)
        q = state["queue"]
        for name, doc, value in (
                ("adjudication_queue_depth", "Jobs waiting in the queue", q["waiting"]),
                ("adjudication_scheduled_jobs", "Deadline jobs on the schedule", q["scheduled"]),
                ("adjudication_due_jobs", "Scheduled jobs past their time, not yet queued", q["due"]),
                ("adjudication_started_jobs", "Jobs being run", q["started"]),
                ("adjudication_oldest_waiting_job_seconds", "How long the oldest waiting job has waited",
                 q["oldest_waiting"]["seconds"] if q["oldest_waiting"] else 0),
                ("adjudication_workers", "Workers registered on the queue", len(state["workers"])),
                ("adjudication_scheduler_running", "1 if a scheduler holds the queue's lock",
                 int(state["scheduler"]["running"]))):
            yield GaugeMetricFamily(name, doc, value=value)


def init_app(app, store) -> None:
    """Count every request (after ``service.logs``, which starts the clock)."""
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(QueueCollector(store))
    app.extensions["metrics_registry"] = registry

    @app.after_request
    def _count(response):
        if request.endpoint in UNCOUNTED:
            return response
        endpoint = request.url_rule.rule if request.url_rule is not None else "unmatched"
        REQUESTS.labels(endpoint, request.method, str(response.status_code)).inc()
        LATENCY.labels(endpoint, request.method).observe(time.perf_counter() - g.get("started", time.perf_counter()))
        table = SUBMISSION_ENDPOINTS.get(request.endpoint or "")
        if table:
            SUBMISSIONS.labels(table, str(response.status_code)).inc()
        return response


def render(app) -> Response:
    return Response(generate_latest(app.extensions["metrics_registry"]), content_type=CONTENT_TYPE_LATEST)
