"""The maps' tests.  A ``@pytest.mark.background`` test (a build in a process of its own) runs in the
background from the session's start when tests/service is collected too (tests/service/background.py),
and in its turn otherwise."""
from tests.service.conftest import pytest_configure, pytest_pyfunc_call  # noqa: F401  (the marker; its turn)
