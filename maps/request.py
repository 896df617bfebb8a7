"""An interchange-format request (docs/interchange.md), adjudicated and drawn."""
from __future__ import annotations

from adjudicator.diplomacy import adjudicate

from .render import render_svg


def render_request(request: dict, *, title: str | None = None) -> str:
    """Adjudicate ``request`` and draw its phase with the orders and their outcomes.

    Raises :class:`adjudicator.diplomacy.RequestError` for a malformed request."""
    response = adjudicate(request)
    return render_svg(request, response.get("results", []), title=title)
