"""The resolutions routes (docs/resolutions.md): kinds, create, view, answers, director."""
from __future__ import annotations

from flask import Blueprint, current_app

from workers.core import versions
from workers.tables.resolutions import DIRECTOR

from . import resolution_schemas as rs
from .contract import arguments, authenticate, bearer, body, doc, links, other_responses, response
from .etags import conditional
from .http import load, reply, token

bp = Blueprint("resolutions", __name__)
NEW = {"resolution_id": "$response.body#/resolution/id"}  # the links of a new resolution


def resolutions():
    return current_app.extensions["resolutions"]


@bp.get("/v1/resolution-kinds")
@doc("listResolutionKinds", ["resolutions"],
     "Every procedure of the other games, with its starting state's JSON Schema")
@response(rs.KindSchema, 200, "One entry per kind.", many=True)
def kinds():
    return reply(rs.KindSchema(many=True), rs.kinds())


@bp.post("/v1/resolutions")
@doc("createResolution", ["resolutions"], "Start a resolution of a kind from a starting state",
     "Tokens (the director's and one per listed participant) are shown once. An unknown kind, or "
     "a state its schema refuses, is a 422 naming each bad field by its path "
     "(state.powers.RUS.pp); nothing is stored.")
@body(rs.CreateResolutionSchema)
@response(rs.CreatedResolutionSchema, 201, "Created.",
          links=links(NEW, GetResolution='getResolution')
                | links(NEW | bearer("$response.body#/director_token"),
                        AnswerAsDirector='answerResolutionStep', ExtendResolution='extendResolution',
                        PauseResolution='pauseResolution', ResumeResolution='resumeResolution',
                        CancelResolution='cancelResolution'))
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Invalid")
def create():
    view, director_token, tokens = resolutions().create(load(rs.CreateResolutionSchema()))
    return reply(rs.CreatedResolutionSchema(), {"resolution": view, "director_token": director_token,
                                                "tokens": tokens}, 201)


@bp.get("/v1/resolutions/<resolution_id>")
@doc("getResolution", ["resolutions"], "The resolution as the caller may see it",
     "Filtered for the token sent (none: a spectator). Another participant's hand, a sealed "
     "answer before its step closes, and the private details of another's decision are in no view"
     " but their own and the director's.")
@arguments(None, "IfNoneMatch")
@response('ResolutionView', 200)
@other_responses("NotModified", "Unavailable", "Malformed", "Unauthorized", "NotFound")
def view(resolution_id):
    return conditional("resolution", resolution_id, versions.VIEW, lambda: reply(
        rs.ResolutionSchema(), resolutions().view(resolution_id, resolutions().viewer(resolution_id, token()))))


@bp.post("/v1/resolutions/<resolution_id>/answers")
@doc("answerResolutionStep", ["resolutions"],
     "Answer the open step (participant), or any step and director dice (director)",
     "409 if \"step\" is not the open step's index, unless this exact answer was already accepted "
     "for it (a retry: 200). 422 with the engine's reason if the rules refuse the answer. In a "
     "sealed step a participant may replace its answer until the step closes.")
@authenticate("participantToken", "directorToken")
@body(rs.AnswerSchema)
@response('ResolutionView', 200)
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Unauthorized", "Forbidden", "NotFound",
                 "Conflict", "Invalid")
def answer(resolution_id):
    who = resolutions().answerer(resolution_id, token())  # 404 and 401 before the body is read
    body = load(rs.AnswerSchema())
    return reply(rs.ResolutionSchema(),
                 resolutions().answer(resolution_id, who, body["step"], body["answer"], body.get("participant")))


@bp.post("/v1/resolutions/<resolution_id>/extend")
@doc("extendResolution", ["resolutions"], "Move the open step's deadline later (director)")
@authenticate("directorToken")
@body(rs.ExtendResolutionSchema)
@response('ResolutionView', 200)
@other_responses("Unavailable", "Malformed", "TooLarge", "Unauthorized", "Forbidden", "NotFound", "Conflict",
                 "Invalid")
def extend(resolution_id):
    body = load(rs.ExtendResolutionSchema())
    resolutions().extend(resolution_id, token(), body["seconds"])
    return reply(rs.ResolutionSchema(), resolutions().view(resolution_id, DIRECTOR))


@bp.post("/v1/resolutions/<resolution_id>/pause")
@doc("pauseResolution", ["resolutions"], "Stop the clock of the open step (director)")
@authenticate("directorToken")
@response('ResolutionView', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def pause(resolution_id):
    resolutions().pause(resolution_id, token())
    return reply(rs.ResolutionSchema(), resolutions().view(resolution_id, DIRECTOR))


@bp.post("/v1/resolutions/<resolution_id>/resume")
@doc("resumeResolution", ["resolutions"], "Restart the clock with the time that was left (director)")
@authenticate("directorToken")
@response('ResolutionView', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def resume(resolution_id):
    resolutions().resume(resolution_id, token())
    return reply(rs.ResolutionSchema(), resolutions().view(resolution_id, DIRECTOR))


@bp.post("/v1/resolutions/<resolution_id>/cancel")
@doc("cancelResolution", ["resolutions"], "End the resolution without an outcome; the dice seed is shown (director)")
@authenticate("directorToken")
@response('ResolutionView', 200)
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound", "Conflict")
def cancel(resolution_id):
    return reply(rs.ResolutionSchema(), resolutions().cancel(resolution_id, token()))
