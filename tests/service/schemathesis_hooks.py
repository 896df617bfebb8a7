"""Schemathesis hooks (``SCHEMATHESIS_HOOKS=tests.service.schemathesis_hooks``) that put the
service in schemathesis's own process: tests/service/test_schemathesis.py runs ``schemathesis run``
with these, so its requests go to the WSGI application of an in-process stack (inprocess.py) on
the Redis at ``REDIS_URL``, through schemathesis's WSGI transport, and the jobs each request
queues run before the next request, as the worker would.  One process, no HTTP, no gunicorn."""
from __future__ import annotations

import os

import schemathesis

from tests.service.inprocess import InProcessStack

STACK = InProcessStack(os.environ["REDIS_URL"])
STACK.driving().__enter__()  # for the whole process: its store, its settings, its clock


def service(environ, start_response):
    """The in-process service; after each request its jobs run (the worker)."""
    try:
        return STACK.app(environ, start_response)
    finally:
        STACK.settle()


@schemathesis.hook
def after_load_schema(context, schema):
    schema.app = service
    # what schemathesis's probe finds out over HTTP, where gunicorn stands in front of the application:
    # a NUL byte in a header never reaches it (the probe cannot reach a WSGI application)
    schema.adapt_to_null_byte_in_header_failure()
