"""Unsettling an issue by an event, without an uprising (spec §6.9 [A-16]).

The source gives no procedure; the spec's default runs uprising steps 4 and 6
for the named issue in the issue's own region (units deployed there count
double), with no unrest reset (step 5) and no strategy selection (step 7).
An event that also resets unrest says so and is handled by the caller.
"""
from __future__ import annotations

import copy
from typing import Generator

from marshmallow import ValidationError, fields, validates_schema

from adjudicator.procedure import Outcome, Procedure

from .state import GameState
from .uprising import contest, new_record


class UnsettleState(GameState):
    """The game state plus ``issue``: the id of the settled issue the event unsettles."""

    issue = fields.String(required=True)

    @validates_schema
    def _settled(self, data, **kwargs):
        if not any(issue["id"] == data.get("issue") for issue in data.get("issues", [])):
            raise ValidationError("must be the id of a settled issue in issues", "issue")


def unsettle(state: dict) -> Generator:
    state = copy.deepcopy(state)
    issue_id = state.pop("issue")
    issue = next(issue for issue in state["issues"] if issue["id"] == issue_id)
    former = issue["controller"]
    issue["controller"] = None
    record = {**new_record(issue["region"]), "affected": former, "affected_by": "event", "issue": issue_id}
    yield from contest(state, issue, issue["region"], former, record, reset=False)
    return Outcome(record, state)


UNSETTLE = Procedure(
    "versailles.unsettle", UnsettleState, unsettle, version="2",
    summary="An event unsettles one issue (§6.9): open bidding for it and the winner's option, with no "
            "unrest reset and no strategy-card selection.",
    participants="the seated nations (UK, FRANCE, USA, ITALY as seated; in the 2-player game the player on "
                 "turn answers for the USA faction); no dice")
