"""Each resolution kind's ``state_schema`` (GET /v1/resolution-kinds) says what the
engine accepts: checked with a JSON Schema validator against every example
state in docs/ (and, as they run, against every state the engines' scenario
tests load: tests/state_schemas.py), and read for keywords that mean nothing
where they stand (a ``minLength`` on an object is ignored by every validator:
a referee would not learn the limit)."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from adjudicator.kinds import KINDS
from service.resolution_schemas import state_schema
from tests.state_schemas import errors, validator

from .blocks import blocks

#: the keywords that apply to one JSON type only
ONLY_FOR = {"minLength": "string", "maxLength": "string", "pattern": "string", "minItems": "array",
            "maxItems": "array", "uniqueItems": "array", "minProperties": "object", "maxProperties": "object",
            "minimum": "number", "maximum": "number"}


def misplaced(node, where="") -> list[str]:
    """Keywords on a node whose type they do not apply to."""
    found = []
    if isinstance(node, dict):
        types = node.get("type")
        types = {types} if isinstance(types, str) else set(types or ())
        if "integer" in types:
            types.add("number")
        for key, kind in ONLY_FOR.items():
            if key in node and types and kind not in types:
                found.append(f"{where or '/'}: {key} on {sorted(types)}")
        for key, value in node.items():
            found += misplaced(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += misplaced(value, f"{where}/{i}")
    return found


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_schema_is_a_json_schema(kind):
    Draft202012Validator.check_schema(state_schema(kind))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_keyword_of_the_schema_applies_where_it_stands(kind):
    assert misplaced(state_schema(kind)) == []


EXAMPLES = [(b, b.json()) for b in blocks() if b.lang == "json" and b.text.lstrip().startswith('{"kind"')]


def test_the_docs_have_example_states_of_every_game():
    assert {KINDS[body["kind"]].name.split(".")[0] for _b, body in EXAMPLES} >= {"versailles", "statecraft",
                                                                                 "1630", "nations"}


@pytest.mark.parametrize("block, body", EXAMPLES, ids=[f"{b.file}:{b.line}" for b, _body in EXAMPLES])
def test_every_example_state_in_the_docs_meets_its_schema(block, body):
    KINDS[body["kind"]].load(body["state"])  # the engine takes it
    assert errors(body["kind"], body["state"]) == []


SIZED = sorted(k for k in KINDS if k.split(".")[0] in ("statecraft", "nations"))


@pytest.mark.parametrize("kind", SIZED)
def test_an_empty_set_of_powers_is_refused_by_the_schema_as_by_the_engine(kind):
    """Statecraft's ``powers`` (1 to 4) and Nations' ``nations`` (1 to 5): the engine refuses
    none, and the schema says so where a validator reads it (issue 33: it said ``minLength``)."""
    name = "powers" if kind.startswith("statecraft") else "nations"
    field = state_schema(kind)["properties"][name]
    assert field["minProperties"] == 1 and field["maxProperties"] in (4, 5)
    errors = [e for e in validator(kind).iter_errors({name: {}}) if list(e.absolute_path) == [name]]
    assert errors
    with pytest.raises(Exception, match=name):
        KINDS[kind].load({name: {}})
