"""The maps (docs/maps.md): a game's board as SVG or PNG, phase by phase, and the
stateless render of an interchange-format request."""
from __future__ import annotations

from flask import Blueprint, Response, g, request
from marshmallow import ValidationError, fields, validate

from maps.raster import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH
from workers.tables.games import engine

from . import boards, drawing, limits, schemas
from .contract import arguments, body, doc, other_responses, response
from .http import load, problem
from .schemas import Schema

bp = Blueprint("maps", __name__)
SVG, PNG = "image/svg+xml", "image/png"
#: an SVG opened on its own is a document: it may run nothing and load nothing (defence in depth:
#: what players typed is already escaped in it)
SVG_HEADERS = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
               "X-Content-Type-Options": "nosniff"}


def svg_response(svg: str) -> Response:
    return Response(svg, mimetype=SVG, headers=SVG_HEADERS)


def drawn(draw) -> Response:
    """``draw()``'s response, drawn in its turn of the render queue (service/limits.py: a 503 with
    Retry-After when the queue is full) by a child process (service/drawing.py)."""
    with limits.RENDERS.turn():
        return draw()


class MapQuerySchema(schemas.PhaseQuerySchema):
    width = fields.Integer(strict=False, load_default=DEFAULT_WIDTH, validate=validate.Range(MIN_WIDTH, MAX_WIDTH),
                           metadata={"description": "The PNG's width in pixels (the height follows); "
                                                    f"{DEFAULT_WIDTH} unless asked."})


class RenderQuerySchema(MapQuerySchema):
    format = fields.String(load_default="svg", validate=validate.OneOf(["svg", "png"]),
                           metadata={"description": "`svg` (the default) or `png`."})


def _query(schema: Schema) -> dict:
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as e:
        raise ValidationError(e.messages, where="query")


@bp.get("/v1/games/<game_id>/map.svg")
@doc("getGameMapSvg", ["games", "maps"], "The board of a phase as SVG (anyone)",
     "An adjudicated phase shows its position, the orders given and what became of each; the "
     "phase now open shows its position only, never orders (they are secret until adjudication). "
     "Without `phase`, the latest phase: the one open, or the last adjudicated of a finished game"
     " (a game still forming shows the starting position). Maps of adjudicated phases are cached:"
     " they never change.")
@arguments(MapQuerySchema(exclude=["width"]))
@response(None, 200, "The map (contracts/maps.md).",
          content={"image/svg+xml": {"schema": {"description": "An SVG document (contracts/maps.md)."}}})
@other_responses("Invalid", "NotFound", "TooManyRequests", "Unavailable")
def game_map_svg(game_id):
    query = _query(MapQuerySchema(exclude=["width"]))
    state, board = boards.board(game_id, query.get("phase"))
    return drawn(lambda: svg_response(boards.svg(state, board)))


@bp.get("/v1/games/<game_id>/map.png")
@doc("getGameMapPng", ["games", "maps"], "The board of a phase as PNG, 1200 pixels wide unless `width` says (anyone)",
     "The same map as `map.svg`, drawn as a PNG.")
@arguments(MapQuerySchema)
@response(None, 200, "The map.", content={"image/png": {"schema": {"description": "A PNG image."}}})
@other_responses("Invalid", "NotFound", "TooManyRequests", "Unavailable")
def game_map_png(game_id):
    query = _query(MapQuerySchema())
    state, board = boards.board(game_id, query.get("phase"))
    return drawn(lambda: Response(boards.png(state, board, query["width"]), mimetype=PNG))


@bp.post("/v1/render/diplomacy")
@doc("renderPosition", ["stateless", "maps"],
     "Adjudicate one position and draw it, with its orders and their outcomes (stateless)",
     "Takes the same request as `POST /v1/adjudicate/diplomacy` and answers the map of that phase"
     " (contracts/maps.md): every province, supply centre and unit, each order with its mark and "
     "its outcome, readable back through the SVG's data attributes (`data-province`, "
     "`data-supply-center`/`data-owner`, `data-unit`/ `data-power`/`data-dislodged`, "
     "`data-order`/`data-power`/`data-outcome`, and `data-phase`/`data-variant` on the root).")
@arguments(RenderQuerySchema(exclude=["phase"]))
@body(schemas.AdjudicateRequestSchema)
@response(None, 200, "The map.",
          content={SVG: {"schema": {"description": "An SVG document (contracts/maps.md)."}},
                   PNG: {"schema": {"description": "A PNG image."}}})
@other_responses("Malformed", "TooLarge", "Invalid", "TooManyRequests", "Unavailable")
def render():
    query = _query(RenderQuerySchema(exclude=["phase"]))
    body = load(schemas.AdjudicateRequestSchema())
    if body["variant"] not in engine().VARIANTS:
        raise ValidationError({"variant": [f"unknown variant; one of {list(engine().VARIANTS)}"]})
    g.drawn = {"any"}  # a stateless render is drawn every time

    def draw() -> Response:
        try:
            svg = drawing.request_svg(body)
        except drawing.Invalid as e:
            return problem(422, "Invalid position", f"{f'body.{e.field}' if e.field else 'body'}: {e}")
        if query["format"] == "png":
            return Response(boards.png_of(svg, query["width"]), mimetype=PNG)
        return svg_response(svg)

    return drawn(draw)
