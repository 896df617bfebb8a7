"""A pytest plugin (``-p tests.docs.record_states``): every state a procedure loads
without error is written, as ``[kind, state]``, to the JSON Lines file named by
$RECORD_STATES.  tests/docs/test_state_schemas.py runs the engines' tests with it."""
from __future__ import annotations

import json
import os

from adjudicator.procedure import Procedure

_load = Procedure.load
_out = open(os.environ["RECORD_STATES"], "a", encoding="utf-8")  # noqa: SIM115 - open for the session


def _recording(self, state):
    loaded = _load(self, state)
    try:
        _out.write(json.dumps([self.name, state]) + "\n")
    except TypeError:  # a state built with Python values JSON has no word for
        pass
    return loaded


Procedure.load = _recording  # type: ignore[method-assign]
