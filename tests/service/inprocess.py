"""The service in this process, on a real Redis, with a clock of its own.

``InProcessStack`` is what the launcher's three processes are, in the test's
process: the Flask application (``service.app.create_app``) on a store whose
time is a :class:`FakeClock`, the RQ jobs run here by an RQ ``SimpleWorker``
(``workers.runtime.jobs.install`` makes them use the same store), and the
scheduler's two duties done on demand for the fake time: the due deadlines
moved to the queue (``Store.dispatch_deadlines``) and RQ's scheduled jobs
(reminders, retries after an interval) released as RQ's scheduler releases
them.  Redis is real (a redis-server of the tests' own); so are the webhook
receivers, the SMTP relay and, for the mail tests, the service's own SMTP
listener (``service.mail.listener``), run here on a free port.

Nothing runs by itself.  The stack *settles* (:meth:`InProcessStack.settle`:
dispatch what is due by the fake clock, run every queued job, again until
nothing is left) after every request its client (:class:`InProcessApi`)
makes, and time passes only when a test says so: :meth:`InProcessStack.advance`
moves the fake clock and settles.  While a test runs, its stack *drives* the
time (:meth:`InProcessStack.driving`): ``svc_stack.wait_for`` then advances the
fake clock between polls instead of sleeping, so waiting for a 3-second
deadline takes milliseconds.

For a client in another process (curl in a shell), :func:`serving` puts the stack's application
on a real HTTP server on a free port, in a thread; it too lets the stack settle after each request.

RQ's scheduled jobs are kept by RQ in real time (a retry ``interval`` seconds
after a failure is scheduled at the real time of the failure plus that), and
released here when the fake clock reaches that time.  So that such a retry is
not far off for a clock lagging behind real time, the fake clock catches up
with the real one when a test starts driving it (it never goes back).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from json import dumps
from unittest import mock

from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest
from rq import SimpleWorker
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.timeouts import TimerDeathPenalty

from tests.service.svc_stack import ENVIRONMENT_LOCK, TEST_ENV, Verbs, driven_by, environment, openapi
from workers.core import keys, settings
from workers.core.settings import Settings
from workers.core.store import Store
from workers.runtime import jobs


class FakeClock:
    """Epoch seconds that move when told: starts at the real time; ``advance(seconds)``.

    Like a real clock, no two readings are the same: each moves it on by ``tick`` (a microsecond),
    so what the service orders by time (players by when they joined, ...) keeps the order of the
    requests, as it does with real time, where there is always some time between two requests."""

    def __init__(self, start: float | None = None, tick: float = 1e-6):
        self._now = time.time() if start is None else float(start)
        self.tick = tick
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            self._now += self.tick
            return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._now += seconds
            return self._now

    def catch_up(self) -> float:
        """Move on to the real time if it is behind it (never back)."""
        with self._lock:
            self._now = max(self._now, time.time())
            return self._now


class _Worker(SimpleWorker):
    """RQ's SimpleWorker, as a guest in the test process: the process's Ctrl-C stays pytest's, no
    pub/sub thread for commands nobody sends, and a job timeout that works from any thread."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        pass

    def subscribe(self):
        pass

    def unsubscribe(self):
        pass


class InProcessStack:
    """The service in this process on ``redis_url``, with settings ``TEST_ENV`` (rate limits off,
    webhooks to loopback) plus ``env``, and a :class:`FakeClock` (``clock``; ``time.time`` for a
    stack on real time, which cannot ``advance`` or drive a test, for what only real time does,
    such as Redis expiring keys)."""

    MAX_ROUNDS = 1000  # settle() rounds before it gives up on a service that never goes quiet

    def __init__(self, redis_url: str, clock: FakeClock | None = None, **env: str):
        from service.app import create_app

        self.redis_url = redis_url
        self.data = tempfile.TemporaryDirectory(prefix="inprocess-service-")  # its data dir (the mail outbox)
        self.env = {**TEST_ENV, "RATE_LIMITS": "off", "WEBHOOK_HOSTS": "loopback", "DATA_DIR": self.data.name,
                    "MAIL_OUTBOX": os.path.join(self.data.name, "outbox"), **env, "REDIS_URL": redis_url}
        # its settings: a worker's started with this environment (the tests' process's, and ``env``)
        self.settings: Settings = Settings.from_env({**environment(), **self.env})
        self.clock = clock or FakeClock()
        self.store = Store(redis_url, self.settings, now=self.clock)
        self.app = create_app(store=self.store)
        self.queue = self.store.queue
        self.scheduled = ScheduledJobRegistry(queue=self.queue)
        self.worker = _Worker([self.queue], connection=self.queue.connection)
        self.lock = threading.RLock()
        self.held = 0
        self.jobs_run = 0

    # ------------------------------------------------------------ time
    @contextmanager
    def driving(self):
        """While the block runs, this stack is the service: its store is the one the jobs of this
        process use, the process's own settings (``settings.current()``, read by code with no store
        at hand: the webhook host policy, the mail sender) are this stack's, as a worker started with
        its environment would have them, and its fake clock (caught up with the real time) is the
        time of ``svc_stack.wait_for``, ``now`` and ``pass_time``."""
        with ExitStack() as stack:
            self._use_settings()
            stack.callback(settings.current.cache_clear)  # the process's own, read again when next asked
            self._install()
            if hasattr(self.clock, "catch_up"):
                self.clock.catch_up()
            stack.enter_context(driven_by(self))
            self.settle()
            yield self

    @contextmanager
    def retiring(self):
        """When the block ends, every deadline and timer of what had none scheduled when it began (the
        games, resolutions and tournaments it made) is taken off the schedule.  A session's stack
        serves many tests: without this, each game a test leaves running would reach its deadlines
        again whenever a later test moves the fake clock on, and every later test would pay for it."""
        before = {Store.owner(entry) for entry in self.store.r.zrange(keys.deadlines(), 0, -1)}
        try:
            yield self
        finally:
            left = [e for e in self.store.r.zrange(keys.deadlines(), 0, -1) if Store.owner(e) not in before]
            if left:
                self.store.r.zrem(keys.deadlines(), *left)

    def _use_settings(self) -> None:
        """Make ``settings.current()`` (read from the environment, then cached) this stack's: read it
        with this stack's environment, which is the process's only while it is read, so that no
        process the tests start meanwhile (from another thread) inherits it."""
        with ENVIRONMENT_LOCK, mock.patch.dict(os.environ, self.env):
            settings.current.cache_clear()
            assert settings.current() == self.settings

    def advance(self, seconds: float) -> int:
        """Let ``seconds`` pass on the fake clock, then settle; returns how many jobs ran."""
        self.clock.advance(seconds)
        return self.settle()

    tick = advance

    @contextmanager
    def holding(self):
        """No job runs while the block runs (as if the worker were stopped): requests and
        ``advance`` queue them; they run at the next settle after the block."""
        with self.lock:
            self.held += 1
        try:
            yield self
        finally:
            with self.lock:
                self.held -= 1

    def settle(self) -> int:
        """Do what is due by the fake clock until nothing is: move the due deadlines to the queue,
        release RQ's scheduled jobs that are due, run every queued job (which may queue more, or
        schedule them); returns how many jobs ran.  Nothing at all while :meth:`holding`."""
        with self.lock:
            if self.held or not self._anything_to_do():
                return 0
            self._install()
            ran = 0
            for _ in range(self.MAX_ROUNDS):
                moved = self.store.dispatch_deadlines(self.clock()) + self.release_scheduled()
                done = self.run_jobs()
                ran += done
                if not moved and not done:
                    return ran
            raise AssertionError(f"the service was still busy after {self.MAX_ROUNDS} rounds of jobs")

    def _anything_to_do(self) -> bool:
        """Whether a deadline or a scheduled job is due, or a job queued (one round trip)."""
        now = self.clock()
        with self.store.r.pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(keys.deadlines(), "-inf", now, start=0, num=1)
            pipe.zrangebyscore(self.scheduled.key, 0, int(now), start=0, num=1)
            pipe.llen(self.queue.key)
            due, scheduled, queued = pipe.execute()
        return bool(due or scheduled or queued)

    def _install(self) -> None:
        """Make this stack's store the one the jobs of this process use, if it is not already."""
        installed = jobs._runtime  # noqa: SLF001 - which store is installed; runtime() would make one
        if installed is None or installed.store is not self.store:
            jobs.install(self.store)

    def release_scheduled(self) -> int:
        """Queue RQ's scheduled jobs due by the fake clock, as ``rq.scheduler.RQScheduler.
        enqueue_scheduled_jobs`` does for the real time; returns how many."""
        job_ids = self.scheduled.get_jobs_to_schedule(int(self.clock()))
        if not job_ids:
            return 0
        found = Job.fetch_many(job_ids, connection=self.queue.connection, serializer=self.queue.serializer)
        with self.queue.connection.pipeline() as pipeline:
            for job_id, job in zip(job_ids, found):
                if job is not None:
                    if job.has_rate_limit:
                        self.queue._enqueue_rate_limited_job(job, pipeline=pipeline,
                                                             at_front=job.should_enqueue_at_front())
                    else:
                        self.queue._enqueue_job(job, pipeline=pipeline, at_front=job.should_enqueue_at_front())
                self.scheduled.remove(job_id, pipeline=pipeline)
            pipeline.execute()
        return len(job_ids)

    def run_jobs(self) -> int:
        """Run the queued jobs here (an RQ SimpleWorker in burst mode) until the queue is empty."""
        if not self.queue.count:
            return 0
        before = self.worker.successful_job_count + self.worker.failed_job_count
        self.worker.work(burst=True, logging_level="WARNING")
        ran = self.worker.successful_job_count + self.worker.failed_job_count - before
        self.jobs_run += ran
        return max(ran, 1)

    def close(self) -> None:
        self.data.cleanup()


class Response:
    """What :class:`InProcessApi` returns: the parts of a ``requests.Response`` the tests read."""

    def __init__(self, raw, sent: bytes | None = None):
        self.raw, self.sent = raw, sent  # werkzeug's response (with its request), the body sent
        self.status_code: int = raw.status_code
        self.headers = raw.headers
        self.content: bytes = raw.get_data()

    @property
    def text(self) -> str:
        return self.raw.get_data(as_text=True)

    def json(self):
        import json

        return json.loads(self.content)

    def __repr__(self) -> str:
        return f"<Response [{self.status_code}]>"


class _SentRequest(WerkzeugOpenAPIRequest):
    """The request as openapi-core reads it, with the body that was sent (the application has read
    the request's own stream by then)."""

    def __init__(self, request, body: bytes | None):
        super().__init__(request)
        self._body = body

    @property
    def body(self) -> bytes | None:
        return self._body


class InProcessApi(Verbs):
    """``svc_stack.Api`` for an :class:`InProcessStack`: the same calls (``call``/``get``/``post``/
    ``put``/``delete`` with ``token=``, ``json=``, ``data=``, ``headers=``, ``check=``), made with
    Flask's test client, every response checked against openapi.yaml the same way; after each,
    the stack settles (the jobs the request queued have run when it returns)."""

    def __init__(self, stack: InProcessStack, address: str = "127.0.0.1"):
        self.stack = stack
        self.client = stack.app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = address
        self.spec = openapi()
        self.checked = 0
        self.valid: set[tuple] = set()  # responses found valid (see validate)

    def call(self, method: str, path: str, token: str | None = None, json=None, data=None, check: bool = True,
             **kw):
        """One request; ``check=False`` for probes of routes or methods the spec rightly lacks."""
        resp = self.request(method, path, token=token, json=json, data=data, check=False, **kw)
        assert resp.status_code < 500, f"{method} {path} -> {resp.status_code}: {resp.text}"
        if resp.status_code >= 400:
            assert resp.headers["Content-Type"] == "application/problem+json", resp.headers
        if check:
            self.validate(resp)
        self.stack.settle()
        return resp

    def request(self, method: str, path: str, token: str | None = None, json=None, data=None, check: bool = True,
                **kw) -> Response:
        """The request alone, whatever it answers (a 5xx too), checked against the spec if ``check``;
        the stack does not settle after it."""
        headers = dict(kw.pop("headers", {}))
        kw.pop("timeout", None)
        if "params" in kw:
            kw["query_string"] = kw.pop("params")
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if json is not None:  # as requests sends it (the body is kept for the check)
            data = dumps(json, allow_nan=False).encode()
            headers.setdefault("Content-Type", "application/json")
        body = data.encode() if isinstance(data, str) else data
        resp = Response(self.client.open(path, method=method, data=body, headers=headers, **kw), body)
        if check:
            self.validate(resp)
        return resp

    def validate(self, resp: Response) -> None:
        """Check ``resp`` (to the request it answers) against openapi.yaml.  A response the same to
        the byte as one already found valid, to the same request line, is valid: it is not checked
        again (``wait_for`` polls the same state many times)."""
        from openapi_core.contrib.werkzeug import WerkzeugOpenAPIResponse

        request = resp.raw.request
        seen = (request.method, request.full_path, resp.status_code, resp.headers.get("Content-Type"),
                hashlib.sha256(resp.content).digest())
        if seen not in self.valid:
            self.spec.validate_response(_SentRequest(request, resp.sent), WerkzeugOpenAPIResponse(resp.raw))
            self.valid.add(seen)
        self.checked += 1

    def clone(self) -> "InProcessApi":
        """Another client of the same stack (a test client of its own, for another thread)."""
        return InProcessApi(self.stack)


@contextmanager
def serving(stack: InProcessStack, host: str = "127.0.0.1"):
    """The stack's application on a real HTTP server (werkzeug's, one request at a time) on a free
    port, in a thread, for clients in other processes (curl); yields its base URL.  Like
    :class:`InProcessApi`, it lets the stack settle after each request, before the response goes
    out: a client that has its answer finds the jobs the request queued done.  Responses are sent
    whole, so an event stream (which never ends) is not for this server."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    def settling(environ, start_response):
        body = stack.app(environ, start_response)
        try:
            whole = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        stack.settle()
        return [whole]

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass  # no line per request (errors are still logged)

    server = make_server(host, 0, settling, request_handler=Quiet)
    thread = threading.Thread(target=server.serve_forever, name="inprocess-http", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
