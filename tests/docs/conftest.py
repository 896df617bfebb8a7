"""The curl sessions run on the service tests' in-process stack (tests/service/conftest.py): the
Flask app on a real Redis with a fake clock, which drives the time while a test that uses it runs."""
from tests.service.conftest import _inprocess_time, inproc  # noqa: F401  (fixtures)
