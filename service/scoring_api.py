"""Tournament scoring over HTTP: any finished game's result, under any of the nine systems."""
from __future__ import annotations

import json

from flask import Blueprint, request

from adjudicator import scoring
from workers.core.errors import Invalid, NotFound

from marshmallow import Schema, fields

from .http import BadRequest, reply

bp = Blueprint("scoring", __name__)


class ScoresSchema(Schema):
    system = fields.String()
    scores = fields.Dict(keys=fields.String(), values=fields.Raw())  # int or float, exact to 1e-9
    exact = fields.Dict(keys=fields.String(), values=fields.String())


@bp.post("/v1/scoring/<system>")
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
