"""The security probes run on the service tests' in-process stack (tests/service/conftest.py):
the Flask app on a real Redis with a fake clock, RQ jobs run by a burst worker."""
from tests.service.conftest import _inprocess_time, api, inproc  # noqa: F401  (fixtures)
