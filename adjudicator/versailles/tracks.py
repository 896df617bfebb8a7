"""Region-track primitives (spec §5.2, §5.3, §6.5) on a loaded state's ``tracks``.

Each keeps the track invariants of §2.7.6: the powder keg lies left of the
unrest counter, and the unrest counter lies left of every unit.
"""
from __future__ import annotations

from .state import MAX_KEG


def ceiling(track: dict) -> int:
    """The furthest column the unrest counter may reach: left of the leftmost unit."""
    return min(track["units"]) - 1 if track["units"] else 8


def change_unrest(track: dict, delta: int) -> None:
    """Move the unrest counter; movement into the keg, a unit or off the track is ignored (§5.2.2)."""
    if delta >= 0:
        track["unrest"] = max(track["unrest"], min(track["unrest"] + delta, ceiling(track)))
    else:
        track["unrest"] = min(track["unrest"], max(track["unrest"] + delta, track["keg"] + 1))


def reset_unrest(track: dict) -> None:
    """Step 5: the keg goes one column right (never past 3) and unrest restarts just right of it.

    Because the keg is at most 3, ``keg + 1`` never reaches a unit (columns 5-8).
    """
    track["keg"] = min(track["keg"] + 1, MAX_KEG)
    track["unrest"] = track["keg"] + 1


def leftmost_unit_owner(track: dict) -> str | None:
    """The owner of the unit in the lowest column, if any (§6.3.2 [A-11])."""
    return track["units"][min(track["units"])] if track["units"] else None


def unit_column(track: dict, nation: str) -> int | None:
    for column, owner in track["units"].items():
        if owner == nation:
            return column
    return None
