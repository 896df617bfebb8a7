"""The maps (docs/maps.md): a game's board as SVG or PNG, phase by phase, and the
stateless render of an interchange-format request."""
from __future__ import annotations

from flask import Blueprint, Response, request
from marshmallow import Schema, ValidationError, fields, validate

from maps import render_request
from maps.raster import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH
from workers.tables.games import engine

from . import boards, schemas
from .http import load, problem

bp = Blueprint("maps", __name__)
SVG, PNG = "image/svg+xml", "image/png"
#: an SVG opened on its own is a document: it may run nothing and load nothing (defence in depth:
#: what players typed is already escaped in it)
SVG_HEADERS = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
               "X-Content-Type-Options": "nosniff"}


def svg_response(svg: str) -> Response:
    return Response(svg, mimetype=SVG, headers=SVG_HEADERS)


class MapQuerySchema(Schema):
    phase = schemas._Upper(validate=schemas.PHASE)
    width = fields.Integer(strict=False, load_default=DEFAULT_WIDTH,
                           validate=validate.Range(MIN_WIDTH, MAX_WIDTH))


class RenderQuerySchema(MapQuerySchema):
    format = fields.String(load_default="svg", validate=validate.OneOf(["svg", "png"]))


def _query(schema: Schema) -> dict:
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")


@bp.get("/v1/games/<game_id>/map.svg")
def game_map_svg(game_id):
    query = _query(MapQuerySchema(exclude=["width"]))
    state, board = boards.board(game_id, query.get("phase"))
    return svg_response(boards.svg(state, board))


@bp.get("/v1/games/<game_id>/map.png")
def game_map_png(game_id):
    query = _query(MapQuerySchema())
    state, board = boards.board(game_id, query.get("phase"))
    return Response(boards.png(state, board, query["width"]), mimetype=PNG)


@bp.post("/v1/render/diplomacy")
def render():
    query = _query(RenderQuerySchema(exclude=["phase"]))
    body = load(schemas.AdjudicateRequestSchema())
    if body["variant"] not in engine().VARIANTS:
        raise ValidationError({"variant": [f"unknown variant; one of {list(engine().VARIANTS)}"]})
    try:
        svg = render_request(body)
    except engine().RequestError as e:
        field = getattr(e, "field", None)
        return problem(422, "Invalid position", f"{f'body.{field}' if field else 'body'}: {e}")
    if query["format"] == "png":
        return Response(boards.png_of(svg, query["width"]), mimetype=PNG)
    return svg_response(svg)
