"""Marshmallow schemas of the resolutions API (docs/resolutions.md), and the
JSON Schema of each kind's starting state, generated from the engine's own
marshmallow schema by apispec's marshmallow plugin."""
from __future__ import annotations

import functools

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import fields, validate

from adjudicator.kinds import KINDS, game_of

from .schemas import Bool, Choice, Described, Name, Reply, Schema, Strings, Timestamp, _about

DAY = 24 * 3600
PARTICIPANT = validate.Regexp(r"^[A-Za-z0-9_.-]{1,40}\Z", error="a participant id such as USA, RED or Ann")


# ---------------------------------------------------------------- requests
class ParticipantSchema(Schema):
    name = Name()
    bot = Bool(load_default=False)


class CreateResolutionSchema(Schema):
    kind = fields.String(required=True)
    state = fields.Dict(required=True, metadata=_about("The starting state, as the kind's state_schema says."))
    participants = fields.Dict(keys=fields.String(validate=PARTICIPANT), values=fields.Nested(ParticipantSchema),
                               load_default=dict, metadata=_about(
        "Participant id -> {name, bot}. Each gets a token. A bot's decisions take the rules' bot answer (the "
        "default) at once. A participant not listed is answered by the director."))
    deadlines = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=60)),
                            values=fields.Integer(strict=True, validate=validate.Range(1, 30 * DAY)),
                            load_default=dict, metadata=_about(
        'Seconds a step stays open, by the step\'s question; "default" for the rest. Absent, no deadline.'))
    dice = fields.String(load_default="server", validate=validate.OneOf(["server", "director"]))


class AnswerSchema(Schema):
    step = fields.Integer(strict=True, required=True, validate=validate.Range(min=0),
                          metadata=_about("The open step's index (step.index of the view)."))
    answer = fields.Raw(required=True, allow_none=True,
                        metadata=_about("The answer, as the step's choices or details say."))
    participant = fields.String(validate=PARTICIPANT,
                                metadata=_about("Director only: whose step (or sealed part) this answers."))


class ExtendResolutionSchema(Schema):
    seconds = fields.Integer(strict=True, required=True, validate=validate.Range(1, 30 * DAY))


# ---------------------------------------------------------------- responses
STEP_TYPES = ["decision", "sealed", "dice"]


class StepSchema(Reply):
    class Meta:
        component = "ResolutionStep"

    index = fields.Integer(required=True)
    type = Choice(STEP_TYPES, required=True)
    participants = Strings(required=True)
    answered = Strings("Sealed step: who has answered (not what).", required=True)
    question = fields.String(required=True, allow_none=True)
    choices = fields.Raw(required=True, allow_none=True,
                         metadata=_about("The legal answers when they can be listed, else null."))
    details = fields.Raw(required=True, metadata=_about(
        "What the participant needs to decide (hidden from others when private)."))
    details_hidden = fields.Boolean()
    default = fields.Raw(required=True, allow_none=True,
                         metadata=_about("What the deadline answers (null when has_default is false)."))
    has_default = Described(fields.Boolean, "false: the step waits for its participant or the director.")
    bot = fields.Boolean()
    deadline = Timestamp(required=True, allow_none=True)
    remaining_seconds = fields.Float(allow_none=True)
    waiting_for = fields.String()
    your_answer = fields.Raw(allow_none=True,
                             metadata=_about("Sealed step: your own answer so far (only in your view)."))
    decisions = fields.List(fields.Dict(), metadata=_about(
        "Sealed step, director's view: every participant's decision."))
    purpose = fields.String()
    count = fields.Integer()
    sides = fields.Integer()
    roller = fields.String(allow_none=True)
    faces = fields.Raw(allow_none=True, metadata=_about("A bag draw: the tokens the die's values count, in order."))


class LogEntrySchema(Reply):
    index = fields.Integer(required=True)
    type = Choice(STEP_TYPES, required=True)
    participant = fields.String(allow_none=True)
    participants = Strings()
    question = fields.String()
    purpose = fields.String()
    sides = fields.Integer()
    value = fields.Raw(required=True, allow_none=True)
    by = Choice(["participant", "director", "bot", "default", "server"], required=True)
    sources = Described(fields.Dict, "Sealed step: who gave each part (participant, director, default).")
    at = Timestamp()


class DiceInfoSchema(Reply):
    source = Choice(["server", "director"], required=True)
    commitment = Described(fields.String, "SHA-256 of the seed, lowercase hex.", required=True)
    seed = Described(fields.String, "Shown once the resolution has ended.", required=True, allow_none=True)


class OutcomeSchema(Reply):
    result = fields.Dict(required=True)
    state = fields.Dict(required=True)


class ResolutionParticipantSchema(Reply):
    id = fields.String()
    name = fields.String(allow_none=True)
    bot = fields.Boolean()


class ResolutionSchema(Reply):
    id = fields.String(required=True)
    kind = fields.String(required=True)
    game = fields.String()
    status = Choice(["waiting", "resolved", "cancelled", "halted"], required=True)
    paused = fields.Boolean()
    message = Described(fields.String, "Why a halted resolution stopped.", allow_none=True)
    step = fields.Nested(StepSchema, required=True, allow_none=True)
    log = fields.List(fields.Nested(LogEntrySchema), required=True)
    dice = fields.Nested(DiceInfoSchema, required=True)
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True)
    you = Described(fields.String, "Who the view is for: a participant id, director, or null.", allow_none=True)
    role = Choice(["director", "participant"],
                  "What the token is: the director's (the whole state), a participant's (what the rules show it), or "
                  'none (a spectator). A participant may be called "director"; only this says who holds the director '
                  "token.", allow_none=True)
    participants = fields.List(fields.Nested(ResolutionParticipantSchema))
    deadlines = fields.Dict(keys=fields.String(), values=fields.Integer())
    engine_version = fields.String()
    created_at = Timestamp()
    state = Described(fields.Dict, "The starting state as the caller may see it.")


class CreatedResolutionSchema(Reply):
    resolution = fields.Nested(ResolutionSchema, required=True)
    director_token = fields.String(required=True)
    tokens = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class KindSchema(Reply):
    class Meta:
        component = "ResolutionKind"

    kind = Described(fields.String, "<game>.<procedure>, e.g. statecraft.conflict", required=True)
    game = Choice(sorted({game_of(name) for name in KINDS}), required=True)
    summary = fields.String(required=True)
    participants = Described(fields.String, "Who the participant ids are and what the service rolls.",
                             required=True)
    state_schema = Described(fields.Dict, "JSON Schema (2020-12) of the starting state, from the engine's "
                                          "marshmallow schema.", required=True)


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
