"""Statecraft rules engines: the agenda, activations, conflicts, the country grid, governance and final
scoring (spec §5.2, §5.8, §6, §7).

Each procedure follows the shared shape of :mod:`adjudicator.procedure`.
"""
from adjudicator.statecraft.activations import BRIBES, EFFECT, INFLUENCE
from adjudicator.statecraft.agenda import AGENDA
from adjudicator.statecraft.conflict import CONFLICT
from adjudicator.statecraft.final import FINAL_SCORING
from adjudicator.statecraft.governance import (
    GOVERNANCE, INSTITUTION_RESOLUTION, VOTING, bag_faces, drawn_token, face_of,
)
from adjudicator.statecraft.grid import COUNTRY_GRID

__all__ = ["AGENDA", "CONFLICT", "COUNTRY_GRID", "GOVERNANCE", "VOTING", "INSTITUTION_RESOLUTION",
           "INFLUENCE", "BRIBES", "EFFECT", "FINAL_SCORING", "bag_faces", "drawn_token", "face_of"]
