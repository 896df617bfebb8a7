"""Why an order did not succeed, for programs: every result with a ``reason``
(English, for people) carries one of these as its ``code``.  Code outside the
engine reads the code, never the reason's words."""
from __future__ import annotations

from enum import StrEnum

from .orders import REPEAT, SEVERAL


class Code(StrEnum):
    INVALID = "invalid"  # the order cannot be carried out as written; the reason says why
    SEVERAL_ORDERS = "several_orders"  # different orders for one unit: all invalid (spec 7.8f)
    REPEAT = "repeat"  # an identical repeat of the unit's order, counted once (spec 7.8f)
    DISLODGED = "dislodged"
    BOUNCED = "bounced"  # a move, or a retreat, stood off in its destination
    BEATEN_HEAD_TO_HEAD = "beaten_head_to_head"
    STANDOFF_HEAD_TO_HEAD = "standoff_head_to_head"
    OWN_UNIT = "own_unit"  # a unit of the mover's own power stays in the destination
    NO_CONVOY = "no_convoy"  # a move by convoy that no fleet was ordered to convoy
    CONVOY_BROKEN = "convoy_broken"  # its convoying fleets were dislodged
    CONVOY_PARADOX = "convoy_paradox"  # a move or convoy cancelled by the paradox rule (spec 8.9.3)
    CUT = "cut"
    VOID = "void"  # a support or convoy of an order that was not given
    ALREADY_BUILDING = "already_building"
    TOO_MANY = "too_many"  # more builds or disbands than the power is allowed


def not_carried_out(reason: str) -> Code:
    """The code of an order kept out of the adjudication, from its reason: one
    of the constants of :mod:`.orders`, or an order error's text (invalid)."""
    if reason is REPEAT:
        return Code.REPEAT
    if reason is SEVERAL:
        return Code.SEVERAL_ORDERS
    return Code.INVALID


#: how each reason the engine gives begins, for results stored before they carried a code
_BEGINNINGS = (("bounced", Code.BOUNCED), ("cut", Code.CUT), ("no convoy", Code.NO_CONVOY),
               ("convoy broken", Code.CONVOY_BROKEN), ("convoy cancelled", Code.CONVOY_PARADOX),
               ("cancelled by the convoy", Code.CONVOY_PARADOX), ("void", Code.VOID),
               ("beaten in head-to-head", Code.BEATEN_HEAD_TO_HEAD),
               ("stood off in head-to-head", Code.STANDOFF_HEAD_TO_HEAD), ("own unit", Code.OWN_UNIT),
               ("already building", Code.ALREADY_BUILDING), ("more builds", Code.TOO_MANY),
               ("more disbands", Code.TOO_MANY), (REPEAT, Code.REPEAT))


def code_of(result: dict) -> str | None:
    """The code of one of the engine's results, None when it succeeded.  A result
    stored before results carried a code gets it from its outcome and reason."""
    code = result.get("code")
    if code is not None or result.get("outcome") in ("succeeds", None):
        return code
    outcome, reason = result["outcome"], result.get("reason") or ""
    if outcome == "dislodged":
        return Code.DISLODGED
    if outcome == "invalid":
        return Code.SEVERAL_ORDERS if reason == SEVERAL else Code.INVALID
    return next((c for start, c in _BEGINNINGS if reason.startswith(start)), Code.INVALID)
