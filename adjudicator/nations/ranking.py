"""Ranking, ties and selectors (spec §4.3, §4.12).

Good effects go to a sole leader only; bad effects hit everyone tied at the
bottom; in 5-player games both reach the second place too (k = 2).  Selecting
the *top* of a metric for a bad effect, or the *bottom* for a good one, uses
the same two rules on the reversed metric.
"""
from __future__ import annotations

from .state import compared_stability, strength, widening


def metric_values(state: dict, metric: str) -> dict[str, float]:
    """Current value of ``metric`` for every nation, higher meaning "better" (§4.3.5-4.3.6)."""
    nations = state["nations"]
    if metric == "strength":  # Elizabeth's +8 counts only in war (§4.14)
        return {nid: strength(n) for nid, n in nations.items()}
    if metric == "stability":
        return {nid: compared_stability(n) for nid, n in nations.items()}
    if metric == "pass":
        # Earlier passing ranks higher; a nation that has not passed ranks after all that have.
        order = state["pass_order"]
        return {nid: -(order.index(nid) if nid in order else len(order)) for nid in nations}
    if metric == "vp":
        return {nid: n["vp"] for nid, n in nations.items()}
    return {nid: n["resources"][metric] for nid, n in nations.items()}


def good_set(values: dict[str, float], k: int, shared_first: str = "both") -> list[str]:
    """Nations with fewer than k others at least as good (§4.3.4).

    With ``shared_first="none"`` a nation that shares its value with another
    gets nothing even when k = 2 would admit it [A-12].
    """
    chosen = []
    for x, vx in values.items():
        rivals = [y for y, vy in values.items() if y != x and vy >= vx]
        if len(rivals) < k and not (shared_first == "none" and any(values[y] == vx for y in rivals)):
            chosen.append(x)
    return chosen


def bad_set(values: dict[str, float], k: int) -> list[str]:
    """Nations with fewer than k others strictly worse (§4.3.4): every tie is included."""
    return [x for x, vx in values.items() if sum(1 for y, vy in values.items() if y != x and vy < vx) < k]


def select(state: dict, selector, polarity: str) -> list[str]:
    """The nations an effect reaches, in player order.

    ``selector`` is ``"all"``, ``{"best": metric}``, ``{"worst": metric}`` or
    ``{"except_best": [metric, ...]}`` (everyone outside the good set of any
    listed metric, e.g. Bronze Age Collapse).
    """
    order = state["player_order"]
    k = widening(state)
    shared_first = state["options"]["five_player_first_tie"]
    if selector == "all":
        chosen = set(order)
    elif "except_best" in selector:
        protected = set()
        for metric in selector["except_best"]:
            protected |= set(good_set(metric_values(state, metric), k, shared_first))
        chosen = set(order) - protected
    else:
        # Turn the selector into "the top of `values`": a sole top for a good
        # effect, everyone tied at the top for a bad one.
        direction = "best" if "best" in selector else "worst"
        values = metric_values(state, selector[direction])
        if direction == "worst":
            values = {nid: -v for nid, v in values.items()}
        chosen = set(good_set(values, k, shared_first) if polarity == "good"
                     else bad_set({nid: -v for nid, v in values.items()}, k))
    return [nid for nid in order if nid in chosen]


def ranked(state: dict, nations: list[str], selector) -> list[str]:
    """``nations`` best first by the selector's metric, ties broken by player order.

    A selector without a metric (``"all"``, ``except_best``) ranks by player order alone.
    """
    order = state["player_order"]
    if not isinstance(selector, dict) or not ({"best", "worst"} & set(selector)):
        return sorted(nations, key=order.index)
    direction = "best" if "best" in selector else "worst"
    values = metric_values(state, selector[direction])
    sign = -1 if direction == "best" else 1
    return sorted(nations, key=lambda nid: (sign * values[nid], order.index(nid)))


def leader(state: dict, nations: list[str], selector) -> str:
    """The one nation that decides for a group: the best by the selector's metric, ties by player order."""
    return ranked(state, nations, selector)[0]
