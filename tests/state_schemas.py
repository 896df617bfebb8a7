"""Each resolution kind's JSON Schema of its starting state (``state_schema``, served by
GET /v1/resolution-kinds) against the states the engine takes.

While an engine's scenario test runs (tests/conftest.py), ``Procedure.load`` is :func:`checked`:
each state the engine loads without error is validated against its kind's schema too, and one the
schema refuses fails the test there (:class:`SchemaRefused`: the kind, where, and why).  A state
is checked once per process; one with values JSON has no word for is not checked."""
from __future__ import annotations

import functools
import json
from contextlib import contextmanager
from unittest import mock

from jsonschema import Draft202012Validator

from adjudicator.procedure import Procedure
from service.resolution_schemas import state_schema


@functools.cache
def validator(kind: str) -> Draft202012Validator:
    """``kind``'s schema, to validate with (that it is a valid JSON Schema, which takes four times as
    long to check as all the states the engines' tests load: tests/docs/test_state_schemas.py)."""
    return Draft202012Validator(state_schema(kind))


def errors(kind: str, state) -> list[str]:
    """Why ``kind``'s schema refuses ``state`` (a JSON value): ``kind: path: message`` each."""
    return [f"{kind}: {'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(kind).iter_errors(state)]


class SchemaRefused(AssertionError):
    """A state the engine took and its kind's schema refuses."""


#: (kind, the state's canonical JSON) of the states found valid in this process
VALID: set[tuple[str, str]] = set()


def check(kind: str, state) -> None:
    """Raise :class:`SchemaRefused` if ``kind``'s schema refuses ``state``."""
    try:
        text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):  # a state built with Python values JSON has no word for
        return
    if (kind, text) in VALID:
        return
    found = errors(kind, json.loads(text))
    if found:
        raise SchemaRefused("the engine took a state its schema refuses:\n" + "\n".join(found[:20]))
    VALID.add((kind, text))


@contextmanager
def checked():
    """While the block runs, every state ``Procedure.load`` takes is checked against its schema."""
    load = Procedure.load

    def load_and_check(self, state):
        loaded = load(self, state)
        check(self.name, state)
        return loaded

    with mock.patch.object(Procedure, "load", load_and_check):
        yield
