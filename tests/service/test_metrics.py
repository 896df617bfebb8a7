"""Seeing it run: Prometheus metrics at /metrics (every process of the stack),
structured JSON logs with a request id, and /v1/health's workers, scheduler and
oldest waiting job.

What needs the real processes (the workers and the scheduler /v1/health and the
gauges see, the processes' log files, metrics added up across processes) runs
on the real stack (``live_api``); a job's retries are counted in this process."""
from __future__ import annotations

import json
import re

from tests.service.gamekit import new_game
from tests.service.svc_stack import wait_for

from workers.core import keys


def _metrics(api) -> dict[str, float]:
    resp = api.get("/metrics")
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("text/plain")
    samples = {}
    for line in resp.text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def _sum(samples: dict[str, float], name: str, **labels: str) -> float:
    return sum(v for k, v in samples.items() if k.split("{")[0] == name
               and all(f'{label}="{value}"' in k for label, value in labels.items()))


def test_requests_submissions_and_adjudications_are_counted(live_api):
    api = live_api
    before = _metrics(api)
    game = new_game(api, deadlines={"first_movement": 3, "movement": 3600, "retreat": 3600, "adjustment": 3600})
    assert game.submit("FRANCE", ["A PAR - BUR"]).status_code == 200
    assert game.submit("FRANCE", ["A PAR - NOWHERE"]).status_code == 422
    game.wait_phase("F1901M", timeout=30)  # closed by its 3 s deadline
    after = wait_for(lambda: (m := _metrics(api)) and _sum(m, "adjudication_deadline_lag_seconds_count",
                                                             table="game") > _sum(
        before, "adjudication_deadline_lag_seconds_count", table="game") and m, 20, "the lag to be observed")
    grew = lambda name, **labels: _sum(after, name, **labels) - _sum(before, name, **labels)  # noqa: E731
    assert grew("adjudication_http_requests_total", endpoint="/v1/games/<game_id>/players", status="201") == 7
    assert grew("adjudication_http_request_duration_seconds_count", endpoint="/v1/games") >= 1
    assert grew("adjudication_submissions_total", table="game", status="200") == 1
    assert grew("adjudication_submissions_total", table="game", status="422") == 1
    assert grew("adjudication_adjudications_total", table="game") >= 1
    assert grew("adjudication_adjudication_duration_seconds_count", table="game") >= 1
    assert grew("adjudication_jobs_total", job="on_deadline", outcome="done") + \
        grew("adjudication_jobs_total", job="on_deadlines", outcome="done") >= 1
    lag = (_sum(after, "adjudication_deadline_lag_seconds_sum") - _sum(before, "adjudication_deadline_lag_seconds_sum")) \
        / grew("adjudication_deadline_lag_seconds_count")
    assert 0 <= lag < 15
    for gauge in ("adjudication_queue_depth", "adjudication_scheduled_jobs", "adjudication_workers",
                  "adjudication_scheduler_running", "adjudication_oldest_waiting_job_seconds"):
        assert gauge in after, gauge
    assert after["adjudication_workers"] >= 1 and after["adjudication_scheduler_running"] == 1


def test_a_failing_job_counts_its_retries(api, inproc):
    import redis
    from rq import Queue, Retry

    from workers.core.store import JOB_RETRIES

    before = _metrics(api)
    queue = Queue(keys.QUEUE, connection=redis.Redis.from_url(inproc.redis_url))
    job = queue.enqueue("workers.runtime.jobs.advance", "no-such-table", "0123456789ab", 1, retry=Retry(max=JOB_RETRIES))
    wait_for(lambda: job.get_status(refresh=True) == "failed", 30, "the job to fail for good")
    after = _metrics(api)
    assert _sum(after, "adjudication_job_retries_total", job="advance") - \
        _sum(before, "adjudication_job_retries_total", job="advance") == JOB_RETRIES
    assert _sum(after, "adjudication_jobs_total", job="advance", outcome="failed") - \
        _sum(before, "adjudication_jobs_total", job="advance", outcome="failed") == JOB_RETRIES + 1


def _log_lines(path) -> list[dict]:
    lines = []
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
    return lines


def test_one_json_log_line_per_request_and_per_job_with_the_request_id(live_api, stack):
    api = live_api
    resp = api.get("/v1/variants", headers={"X-Request-Id": "test-req-0001"})
    assert resp.headers["X-Request-Id"] == "test-req-0001"
    generated = api.get("/v1/variants", headers={"X-Request-Id": "not a sane id"}).headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)
    problem = api.get("/v1/games/0123456789ab")
    assert problem.status_code == 404 and re.fullmatch(r"[0-9a-f]{32}", problem.headers["X-Request-Id"])
    line = wait_for(lambda: next((r for r in _log_lines(stack.logs / "api.log")
                                  if r.get("request_id") == "test-req-0001"), None), 10, "the request's log line")
    assert line["message"] == "request" and line["status"] == 200 and line["path"] == "/v1/variants"
    assert line["endpoint"] == "api.variants" and line["duration_ms"] >= 0 and line["level"] == "INFO"
    assert [r["status"] for r in _log_lines(stack.logs / "api.log")
            if r.get("request_id") == problem.headers["X-Request-Id"]] == [404]
    game = new_game(api)
    game.all_ready()
    game.wait_phase("F1901M")
    job = wait_for(lambda: next((r for r in _log_lines(stack.logs / "worker.log") if r.get("message") == "job"
                                 and r.get("job") == "advance" and game.id in r.get("job_args", [])), None),
                   10, "the job's log line")
    assert job["outcome"] == "done" and job["result"] == "committed S1901M" and job["duration_ms"] > 0


def test_health_sees_the_workers_and_the_scheduler(live_api):
    api = live_api
    health = api.get("/v1/health").json()
    assert health["status"] == "ok" and health["redis"] is True
    assert health["workers"] and all(w["name"] and w["last_heartbeat"] for w in health["workers"])
    assert health["scheduler"]["running"] and health["scheduler"]["name"]


def test_health_reports_the_oldest_waiting_job(redis_url):
    """On a Redis database no worker serves: the job waits, and health says which and since when."""
    import time

    import redis
    from rq import Queue

    from service.app import create_app

    url = redis_url.rsplit("/", 1)[0] + "/14"
    redis.Redis.from_url(url).flushdb()
    client = create_app(url).test_client()
    health = client.get("/v1/health").get_json()
    assert health["status"] == "degraded" and health["workers"] == [] and health["queue"]["oldest_waiting"] is None
    job = Queue(keys.QUEUE, connection=redis.Redis.from_url(url)).enqueue("workers.runtime.jobs.advance", "game", "x", 1)
    time.sleep(0.3)  # the job's age is what is measured here
    queue = client.get("/v1/health").get_json()["queue"]
    assert queue["waiting"] == 1 and queue["oldest_waiting"]["id"] == job.id
    assert 0.3 <= queue["oldest_waiting"]["seconds"] < 30
    metrics = client.get("/metrics").get_data(as_text=True)
    assert re.search(r"^adjudication_queue_depth 1\.0$", metrics, re.M)
    redis.Redis.from_url(url).flushdb()
