"""The security probes run on the service tests' in-process stack (tests/service/conftest.py):
the Flask app on a real Redis with a fake clock, RQ jobs run by a burst worker.  A
``@pytest.mark.background`` test (real processes, mostly waiting) runs in the background from the
session's start when tests/service is collected too (tests/service/background.py), and in its
turn otherwise."""
from tests.service.conftest import _inprocess_time, api, inproc  # noqa: F401  (fixtures)
from tests.service.conftest import pytest_configure, pytest_pyfunc_call  # noqa: F401  (the marker; its turn)
