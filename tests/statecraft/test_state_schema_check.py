"""The check of tests/state_schemas.py is on in an engine's scenario tests (tests/conftest.py): a
state the engine takes and its kind's JSON schema refuses fails the test at the load."""
import pytest
from jsonschema import Draft202012Validator

from adjudicator.procedure import play
from adjudicator.statecraft import CONFLICT
from service.resolution_schemas import state_schema
from tests import state_schemas
from tests.statecraft.test_conflict import NIGERIA


def test_a_state_its_schema_refuses_fails_the_scenario_test_that_plays_it(monkeypatch):
    play(CONFLICT, NIGERIA, [])  # two powers: the schema allows one to four

    # a schema that allows one power at most, as if it said less than the engine takes
    schema = state_schema("statecraft.conflict")
    stricter = {**schema, "properties": {**schema["properties"], "powers": {"type": "object", "maxProperties": 1}}}
    monkeypatch.setattr(state_schemas, "validator", lambda kind: Draft202012Validator(stricter))
    monkeypatch.setattr(state_schemas, "VALID", set())  # not skipped as a state already found valid
    with pytest.raises(state_schemas.SchemaRefused, match=r"statecraft\.conflict: powers: .* too many properties"):
        play(CONFLICT, NIGERIA, [])
