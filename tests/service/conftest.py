"""The service tests' fixtures: most tests run the service in this process, on a real Redis, with a
fake clock (tests/service/inprocess.py); those that need real processes (SIGKILL, gunicorn's own
answers, the launcher, multiprocess metrics) use the real stack.

* ``api``: the in-process service's client (``InProcessApi``, the interface of ``svc_stack.Api``),
  on the session's Redis (``redis_url``, which ``redis_client`` reads); it overrides the ``api`` of
  tests/conftest.py.  A test that uses it runs with the in-process stack driving the time
  (``_inprocess_time`` below): ``wait_for`` advances the fake clock instead of sleeping.
* ``inproc``: that stack (``advance``/``tick`` the fake clock, ``clock()``, ``holding()``).
* ``stack`` and ``live_redis_url`` (tests/conftest.py: one per test process, shared with the docs'
  tests), ``live_api``, ``live_redis_client``: the service as the launcher runs it (gunicorn, an RQ
  worker, RQ's scheduler) on a Redis of its own, so that its worker and scheduler never take the
  in-process service's jobs and deadlines.
* ``@pytest.mark.background``: a test of real processes that mostly waits on them (the launcher's,
  the recovery tests, the schemathesis run) runs in a background thread from the start of the
  session, while the others use the CPU (tests/service/background.py).
"""
from __future__ import annotations

import pytest
import redis

from tests.service import background
from tests.service.inprocess import InProcessApi, InProcessStack
from tests.service.svc_stack import Api


# ---------------------------------------------------------------- in this process (the default)
@pytest.fixture(scope="session")
def inproc(redis_url):
    s = InProcessStack(redis_url)
    yield s
    s.close()


@pytest.fixture(scope="session")
def api(inproc):
    return InProcessApi(inproc)


@pytest.fixture(autouse=True)
def _inprocess_time(request):
    """Every test that uses the in-process stack (``api`` or ``inproc``) runs with it driving the
    time; the others (real processes) keep the real clock."""
    if "inproc" not in request.fixturenames:
        yield None
        return
    stack = request.getfixturevalue("inproc")
    with stack.driving(), stack.retiring():  # the test's games stop with it
        yield stack


# ---------------------------------------------------------------- real processes
@pytest.fixture(scope="session")
def live_redis_client(live_redis_url):
    return redis.Redis.from_url(live_redis_url, decode_responses=True)


@pytest.fixture(scope="session")
def live_api(stack):
    return Api(stack.base)


# ---------------------------------------------------------------- real processes in the background
_RUNNER = pytest.StashKey["background.Runner | None"]()


def pytest_configure(config):
    config.addinivalue_line("markers", background.DESCRIPTION)


def pytest_collection_finish(session):
    session.config.stash[_RUNNER] = background.start(session)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """A background test's turn: its outcome is that of its run in the background."""
    runner = pyfuncitem.config.stash.get(_RUNNER, None)
    if runner is not None and pyfuncitem in runner:
        runner.outcome(pyfuncitem)
        return True
    return None


def pytest_sessionfinish(session):
    runner = session.config.stash.get(_RUNNER, None)
    if isinstance(runner, background.Runner):
        # under xdist another worker may still wait for a run: finish them, unless stopping early
        finish = runner.shared is not None and not (session.shouldfail or session.shouldstop)
        runner.stop(finish)
