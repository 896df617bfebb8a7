"""Exporting a game: its public state and whole history as one JSON document,
with the time it expires (a finished game, or one abandoned while forming, is
kept for a configurable time: ``GAME_TTL_FINISHED``, ``GAME_TTL_FORMING``)."""
from __future__ import annotations

from flask import Blueprint, current_app

from . import schemas
from .http import reply

bp = Blueprint("export", __name__)


@bp.get("/v1/games/<game_id>/export")
def export_game(game_id):
    return reply(schemas.GameExportSchema(), current_app.extensions["games"].export(game_id))
