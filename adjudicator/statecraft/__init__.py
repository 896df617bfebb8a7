"""Statecraft rules engines: conflicts, the country grid and governance (spec §6, §7).

Each procedure follows the shared shape of :mod:`adjudicator.procedure`.
"""
from adjudicator.statecraft.activations import BRIBES, EFFECT, INFLUENCE
from adjudicator.statecraft.conflict import CONFLICT
from adjudicator.statecraft.governance import GOVERNANCE, INSTITUTION_RESOLUTION, VOTING, drawn_token, face_of
from adjudicator.statecraft.grid import COUNTRY_GRID

__all__ = ["CONFLICT", "COUNTRY_GRID", "GOVERNANCE", "VOTING", "INSTITUTION_RESOLUTION",
           "INFLUENCE", "BRIBES", "EFFECT", "drawn_token", "face_of"]
