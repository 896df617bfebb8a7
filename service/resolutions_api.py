"""The resolutions routes (docs/resolutions.md): kinds, create, view, answers, director."""
from __future__ import annotations

from flask import Blueprint, current_app

from workers.core import versions
from workers.tables.resolutions import DIRECTOR

from . import resolution_schemas as rs
from .etags import conditional
from .http import load, reply, token

bp = Blueprint("resolutions", __name__)


def resolutions():
    return current_app.extensions["resolutions"]


@bp.get("/v1/resolution-kinds")
def kinds():
    return reply(rs.KindSchema(many=True), rs.kinds())


@bp.post("/v1/resolutions")
def create():
    view, director_token, tokens = resolutions().create(load(rs.CreateResolutionSchema()))
    return reply(rs.CreatedResolutionSchema(), {"resolution": view, "director_token": director_token,
                                                "tokens": tokens}, 201)


@bp.get("/v1/resolutions/<resolution_id>")
def view(resolution_id):
    return conditional("resolution", resolution_id, versions.VIEW, lambda: reply(
        rs.ResolutionSchema(), resolutions().view(resolution_id, resolutions().viewer(resolution_id, token()))))


@bp.post("/v1/resolutions/<resolution_id>/answers")
def answer(resolution_id):
    who = resolutions().answerer(resolution_id, token())  # 404 and 401 before the body is read
    body = load(rs.AnswerSchema())
    return reply(rs.ResolutionSchema(),
                 resolutions().answer(resolution_id, who, body["step"], body["answer"], body.get("participant")))


@bp.post("/v1/resolutions/<resolution_id>/extend")
def extend(resolution_id):
    body = load(rs.ExtendResolutionSchema())
    resolutions().extend(resolution_id, token(), body["seconds"])
    return reply(rs.ResolutionSchema(), resolutions().view(resolution_id, DIRECTOR))


@bp.post("/v1/resolutions/<resolution_id>/pause")
def pause(resolution_id):
    resolutions().pause(resolution_id, token())
    return reply(rs.ResolutionSchema(), resolutions().view(resolution_id, DIRECTOR))


@bp.post("/v1/resolutions/<resolution_id>/resume")
def resume(resolution_id):
    resolutions().resume(resolution_id, token())
    return reply(rs.ResolutionSchema(), resolutions().view(resolution_id, DIRECTOR))


@bp.post("/v1/resolutions/<resolution_id>/cancel")
def cancel(resolution_id):
    return reply(rs.ResolutionSchema(), resolutions().cancel(resolution_id, token()))
