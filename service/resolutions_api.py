"""The resolutions routes (contracts/resolutions.md): kinds, create, view, answers, director."""
from __future__ import annotations

from flask import Blueprint, current_app

from . import resolution_schemas as rs
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


@bp.get("/v1/resolutions/<rid>")
def view(rid):
    return reply(rs.ResolutionSchema(), resolutions().view(rid, resolutions().viewer(rid, token())))


@bp.post("/v1/resolutions/<rid>/answers")
def answer(rid):
    who = token()
    resolutions().viewer(rid, who)  # 404 and 401 before the body is read
    body = load(rs.AnswerSchema())
    return reply(rs.ResolutionSchema(),
                 resolutions().answer(rid, who, body["step"], body["answer"], body.get("participant")))


@bp.post("/v1/resolutions/<rid>/extend")
def extend(rid):
    body = load(rs.ExtendResolutionSchema())
    resolutions().extend(rid, token(), body["seconds"])
    return reply(rs.ResolutionSchema(), resolutions().view(rid, "director"))


@bp.post("/v1/resolutions/<rid>/pause")
def pause(rid):
    resolutions().pause(rid, token())
    return reply(rs.ResolutionSchema(), resolutions().view(rid, "director"))


@bp.post("/v1/resolutions/<rid>/resume")
def resume(rid):
    resolutions().resume(rid, token())
    return reply(rs.ResolutionSchema(), resolutions().view(rid, "director"))


@bp.post("/v1/resolutions/<rid>/cancel")
def cancel(rid):
    return reply(rs.ResolutionSchema(), resolutions().cancel(rid, token()))
