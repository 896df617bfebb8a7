"""Maps: the board as a picture (docs/maps.md).

* :func:`render_svg` -- a position with its orders and results, to an SVG document;
* :func:`render_png` -- an SVG document to PNG bytes;
* :func:`render_request` -- an interchange-format request, adjudicated and drawn.

Pictures know the rules' vocabulary (:mod:`adjudicator.diplomacy`); the rules
know nothing of pictures.
"""
from __future__ import annotations

from .render import phase_title, render_svg
from .raster import render_png
from .request import render_request

__all__ = ["render_svg", "render_png", "render_request", "phase_title"]
