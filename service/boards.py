"""A game's boards, phase by phase, as the maps and the pages show them: what is public only.

An adjudicated phase is its recorded position with the orders and their
results; the phase now open is its position alone (its orders are secret
until adjudication).  Drawn maps of adjudicated phases are cached: a record
never changes (a rollback writes a new one), so the cache is keyed by the
record's content.  PNGs are cached by the SVG they draw (rasterising is the
slow part: about a second at 1200 pixels on a busy machine).  Every map is drawn in
a child process (service/drawing.py).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import NamedTuple

from flask import current_app, g, has_request_context

from adjudicator.diplomacy import initial_position
from workers.core.errors import NotFound
from workers.core.records import HistoryEntry

from . import drawing

PHASE = re.compile(r"^(?:[SF][0-9]{4}[MR]|W[0-9]{4}A)\Z")


class Board(NamedTuple):
    phase: str
    position: dict  # the interchange request shape: variant, phase, units, centers, dislodged...
    results: list[dict]  # [] for the phase now open
    adjudicated: bool
    seq: int | None
    bots: tuple = ()  # the powers whose orders the bot gave


def games():
    return current_app.extensions["games"]


def live_history(gid: str) -> list[HistoryEntry]:
    """The adjudicated phases that count (a rollback's superseded ones left out), oldest first."""
    return [h for h in games().views.history(gid) if not h.superseded]


def boards(state: dict, history: list[HistoryEntry]) -> list[Board]:
    """Every board of a game: each adjudicated phase, then the one now open, or the final position of
    a finished game."""
    out = [Board(h.phase, {"variant": state["variant"], **h.position, "phase": h.phase}, h.results, True, h.seq,
                 tuple(h.bots or ())) for h in history]
    latest = state.get("position") and state.get("phase")
    if latest and (state["status"] != "finished" or not history or history[-1].phase != state["phase"]):
        # the phase now open; or a finished game's final position (no orders: none were adjudicated there)
        out.append(Board(state["phase"], {"variant": state["variant"], **state["position"],
                                          "phase": state["phase"]}, [], False, state.get("seq")))
    if not out:  # still forming: the variant's starting position
        start = initial_position(state["variant"])
        out.append(Board(start["phase"], start, [], False, None))
    return out


def board(gid: str, phase: str | None) -> tuple[dict, Board]:
    """The game's public state and the board of ``phase`` (None: the latest one)."""
    state = games().views.public_state(gid)
    found = boards(state, live_history(gid))
    if phase is None:
        return state, found[-1]
    for b in reversed(found):
        if b.phase == phase:
            return state, b
    raise NotFound(f"query.phase: game '{gid}' has no phase {phase}; its phases are "
                   f"{', '.join(b.phase for b in found)}")


def title(state: dict) -> str:
    return state.get("name") or f"Game {state['id']}"


def _drawing(kind: str) -> None:
    """A map (``kind`` svg or png) is drawn now, not found in a cache: the request spends its render
    quota (service/limits.py)."""
    if has_request_context():
        g.drawn = {*g.get("drawn", ()), kind}


def svg(state: dict, b: Board) -> str:
    if b.adjudicated:
        return _cached_svg(_key(state, b))
    _drawing("svg")
    return drawing.svg(b.position, [], title(state))


def png(state: dict, b: Board, width: int) -> bytes:
    return png_of(svg(state, b), width)


def _key(state: dict, b: Board) -> str:
    return json.dumps({"position": b.position, "results": b.results, "title": title(state)}, sort_keys=True)


@lru_cache(maxsize=256)
def _cached_svg(key: str) -> str:
    data = json.loads(key)
    _drawing("svg")
    return drawing.svg(data["position"], data["results"], data["title"])


@lru_cache(maxsize=48)  # about 300 KB each at 1200 pixels
def png_of(svg_text: str, width: int) -> bytes:
    """The PNG of an SVG document: the same document draws the same picture, whatever phase it is."""
    _drawing("png")
    return drawing.png(svg_text, width)

