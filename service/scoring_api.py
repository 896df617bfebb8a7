"""Tournament scoring over HTTP: any finished game's result, under any of the nine systems."""
from __future__ import annotations

import json

from flask import Blueprint, request

from adjudicator import scoring
from workers.core.errors import Invalid, NotFound

from marshmallow import fields

from .contract import body, doc, other_responses, response
from .http import BadRequest, reply
from .schemas import Choice, Described, Reply, ServiceResultSchema, _about

bp = Blueprint("scoring", __name__)


class ScoringResultSchema(ServiceResultSchema):
    """A finished game's result (tournament-scoring.md section 2.1): the body is read by
    ``scoring.score`` itself, which names the field at fault."""

    class Meta:
        component = "GameResult"

    end = Choice(["solo", "draw", "timeout", "concession"], required=True)
    conceded_to = Described(fields.String, "For a concession (section 2.5): the power conceded to.")


class ScoresSchema(Reply):
    system = fields.String(required=True)
    scores = fields.Dict(keys=fields.String(), values=fields.Raw(metadata={"type": "number"}),  # int or float
                         required=True)
    exact = fields.Dict(keys=fields.String(), values=fields.String(),
                        metadata=_about('Each score as an exact fraction ("100/7").'))


@bp.post("/v1/scoring/<system>")
@doc("scoreResult", ["scoring"], "Score one finished game's result under a tournament scoring system",
     "The result is the object of tournament-scoring.md section 2.1. Scores are numbers exact to "
     "1e-9; \"exact\" gives each as an exact fraction. A result that breaks section 2.2 is a 422 "
     "naming the field.")
@body(ScoringResultSchema)
@response(ScoresSchema, 200, "Each power's score.")
@other_responses("Malformed", "NotFound", "TooLarge", "Invalid")
def score(system):
    if system not in scoring.SYSTEMS:
        raise NotFound(f"path system: unknown scoring system '{system}'; the systems are {', '.join(scoring.SYSTEMS)}")
    try:
        result = json.loads(request.get_data(cache=True) or b"null")
    except (ValueError, RecursionError) as e:
        raise BadRequest(f"body: malformed JSON: {e}")
    try:
        scores = scoring.score(system, result)
    except scoring.ResultError as e:
        raise Invalid(f"body.{e.field}: {e.message}" if e.field else f"body: {e.message}", errors=e.errors) from None
    return reply(ScoresSchema(), {"system": system, "scores": scoring.as_numbers(scores),
                                  "exact": scoring.as_exact(scores)})
