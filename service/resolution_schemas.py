"""Marshmallow schemas of the resolutions API (docs/resolutions.md), and the
JSON Schema of each kind's starting state, generated from the engine's own
marshmallow schema by apispec's marshmallow plugin."""
from __future__ import annotations

import functools

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields, validate

from adjudicator.kinds import KINDS, game_of

from .schemas import Bool, Name

DAY = 24 * 3600
PARTICIPANT = validate.Regexp(r"^[A-Za-z0-9_.-]{1,40}\Z", error="a participant id such as USA, RED or Ann")


# ---------------------------------------------------------------- requests
class ParticipantSchema(Schema):
    name = Name()
    bot = Bool(load_default=False)


class CreateResolutionSchema(Schema):
    kind = fields.String(required=True)
    state = fields.Dict(required=True)
    participants = fields.Dict(keys=fields.String(validate=PARTICIPANT), values=fields.Nested(ParticipantSchema),
                               load_default=dict)
    deadlines = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=60)),
                            values=fields.Integer(strict=True, validate=validate.Range(1, 30 * DAY)),
                            load_default=dict)
    dice = fields.String(load_default="server", validate=validate.OneOf(["server", "director"]))


class AnswerSchema(Schema):
    step = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    answer = fields.Raw(required=True, allow_none=True)
    participant = fields.String(validate=PARTICIPANT)


class ExtendResolutionSchema(Schema):
    seconds = fields.Integer(strict=True, required=True, validate=validate.Range(1, 30 * DAY))


# ---------------------------------------------------------------- responses
class StepSchema(Schema):
    index = fields.Integer()
    type = fields.String()
    participants = fields.List(fields.String())
    answered = fields.List(fields.String())
    question = fields.String(allow_none=True)
    choices = fields.Raw(allow_none=True)
    details = fields.Raw()
    details_hidden = fields.Boolean()
    default = fields.Raw(allow_none=True)
    has_default = fields.Boolean()
    bot = fields.Boolean()
    deadline = fields.String(allow_none=True)
    remaining_seconds = fields.Float(allow_none=True)
    waiting_for = fields.String()
    your_answer = fields.Raw(allow_none=True)
    decisions = fields.List(fields.Dict())
    purpose = fields.String()
    count = fields.Integer()
    sides = fields.Integer()
    roller = fields.String(allow_none=True)
    faces = fields.Raw(allow_none=True)


class DiceInfoSchema(Schema):
    source = fields.String()
    commitment = fields.String()
    seed = fields.String(allow_none=True)


class ResolutionParticipantSchema(Schema):
    id = fields.String()
    name = fields.String(allow_none=True)
    bot = fields.Boolean()


class ResolutionSchema(Schema):
    id = fields.String()
    kind = fields.String()
    game = fields.String()
    status = fields.String()
    paused = fields.Boolean()
    message = fields.String(allow_none=True)
    step = fields.Nested(StepSchema, allow_none=True)
    log = fields.List(fields.Dict())
    dice = fields.Nested(DiceInfoSchema)
    outcome = fields.Dict(allow_none=True)
    you = fields.String(allow_none=True)
    role = fields.String(allow_none=True)
    participants = fields.List(fields.Nested(ResolutionParticipantSchema))
    deadlines = fields.Dict(keys=fields.String(), values=fields.Integer())
    engine_version = fields.String()
    created_at = fields.String()
    state = fields.Dict()


class CreatedResolutionSchema(Schema):
    resolution = fields.Nested(ResolutionSchema)
    director_token = fields.String()
    tokens = fields.Dict(keys=fields.String(), values=fields.String())


class KindSchema(Schema):
    kind = fields.String()
    game = fields.String()
    summary = fields.String()
    participants = fields.String()
    state_schema = fields.Dict()


# ---------------------------------------------------------------- kinds
@functools.cache
def state_schema(kind: str) -> dict:
    """The JSON Schema (draft 2020-12) of ``kind``'s starting state, self-contained:
    nested schemas under ``$defs``."""
    spec = APISpec(kind, "1", "3.1.0", plugins=[MarshmallowPlugin()])
    spec.components.schema("State", schema=KINDS[kind].schema)
    components = spec.to_dict()["components"]["schemas"]
    root = _refs(components.pop("State"))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"{kind} starting state",
            **root, "$defs": {name: _refs(value) for name, value in components.items()}}


#: apispec writes a size limit of a marshmallow Dict as a string's; an object's are these
_OBJECT_SIZE = {"minLength": "minProperties", "maxLength": "maxProperties"}


def _refs(node):
    """Point OpenAPI's component references at ``$defs``; an object's size limits by their name."""
    if isinstance(node, dict):
        is_object = node.get("type") == "object"
        return {(_OBJECT_SIZE.get(k, k) if is_object else k):
                (v.replace("#/components/schemas/", "#/$defs/") if k == "$ref" else _refs(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_refs(v) for v in node]
    return node


def kinds() -> list[dict]:
    return [{"kind": name, "game": game_of(name), "summary": p.summary, "participants": p.participants,
             "state_schema": state_schema(name)} for name, p in KINDS.items()]
