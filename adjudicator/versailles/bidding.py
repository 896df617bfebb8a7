"""Uprising step 4: bidding for control of the unsettled issue (spec §6.4).

A bid is the answer ``{"region_units": 0|1, "available_units": n, "influence": n}``
(missing keys count 0) or the answer ``"pass"``.  ``region_units`` is the
bidder's unit deployed in the uprising region (a player has at most one there,
§3.8.1); it counts 2 towards strength when it stands in one of the
``double_bid_columns`` (every deploy column by default [A-8]), otherwise 1; an
Available unit counts 1.
"""
from __future__ import annotations

from typing import Generator

from adjudicator.procedure import Decision

from .happiness import change_happiness
from .tracks import unit_column

PASS = "pass"
BID_KEYS = ("region_units", "available_units", "influence")


def clockwise(seats: list[str], start: str) -> list[str]:
    i = seats.index(start)
    return seats[i:] + seats[:i]


def weigh(answer: dict, region_unit_strength: int) -> dict:
    """The bid with missing keys as 0 and its strength."""
    bid = {key: answer.get(key, 0) for key in BID_KEYS}
    bid["strength"] = region_unit_strength * bid["region_units"] + bid["available_units"]
    return bid


def rank(bid: dict | None) -> tuple[int, int]:
    """Bids compare by strength, then influence (§6.4.5); no bid ranks (0, 0)."""
    return (0, 0) if bid is None else (bid["strength"], bid["influence"])


def region_unit_strength(state: dict, player: str, region: str | None) -> int:
    column = None if region is None else unit_column(state["tracks"][region], player)
    return 2 if column in state["double_bid_columns"] else 1


def limits(state: dict, player: str, region: str, issue: dict) -> dict:
    """The most of each resource ``player`` may put in a bid (§6.4.4)."""
    military = not issue["no_military"]
    deployed = region is not None and unit_column(state["tracks"][region], player) is not None
    return {"region_units": int(military and deployed),
            "available_units": state["players"][player]["units_available"] if military else 0,
            "influence": state["players"][player]["cubes_available"]}


def refusal(answer, most: dict, high: dict | None, unit_strength: int = 2) -> str | None:
    if answer == PASS:
        return None
    if not isinstance(answer, dict):
        return f'answer "pass" or a bid {{"region_units", "available_units", "influence"}}, not {answer!r}'
    unknown = sorted(set(answer) - set(BID_KEYS))
    if unknown:
        return f"unknown bid keys {unknown}; a bid has {list(BID_KEYS)}"
    bid = {key: answer.get(key, 0) for key in BID_KEYS}
    for key in BID_KEYS:
        value = bid[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return f"{key} must be a whole number of at least 0"
        if value > most[key]:
            why = {"region_units": "units deployed in this region (exhausted units and units in other regions cannot bid)",
                   "available_units": "units in the Available pool",
                   "influence": "Available cubes"}[key]
            if key != "influence" and most.get("no_military"):
                why = "units: the issue has the no-military symbol"
            return f"{key} {value} exceeds the bidder's {most[key]} {why}"
    bid = weigh(bid, unit_strength)
    if rank(bid) <= rank(high):
        if high is None:
            return "a bid needs strength or influence of at least 1"
        return (f"bid (strength {bid['strength']}, influence {bid['influence']}) does not beat the high bid "
                f"(strength {high['strength']}, influence {high['influence']})")
    return None


def run_bidding(state: dict, issue: dict, region: str, start: str, record: list) -> Generator:
    """Ask the bidders in turn from ``start`` clockwise; return ``(winner, bid)`` or ``(None, None)``.

    A pass is final.  Bidding ends when everyone but the high bidder has
    passed, or when everyone has passed without a bid (§6.4.6).  Nothing
    moves until it ends.
    """
    seats = clockwise(state["seat_order"], start)
    passed: list[str] = []
    high_player, high = None, None
    turn = 0
    while True:
        waiting = [seat for seat in seats if seat not in passed]
        if not waiting or waiting == [high_player]:
            return high_player, high
        player = seats[turn % len(seats)]
        turn += 1
        if player in passed:
            continue
        most = limits(state, player, region, issue)
        unit_strength = region_unit_strength(state, player, region)
        # Bids are declared in turn and in the open (§6.4.2-6.4.5): the step shows every bid
        # and pass so far, the high bid to beat, and what this bidder may put in.
        answer = yield Decision(
            player, "bid", None, default=PASS,
            details={"issue": issue["id"], "stars": issue["stars"], "region": region,
                     "no_military": issue["no_military"], "order": list(seats),
                     "bids": [dict(entry) for entry in record], "passed": list(passed),
                     "high_bid": None if high is None else {"player": high_player, **high},
                     "max": most, "region_unit_strength": unit_strength, "pass": PASS},
            check=lambda answer, most={**most, "no_military": issue["no_military"]}, high=high, unit=unit_strength:
                refusal(answer, most, high, unit))
        if answer == PASS:
            passed.append(player)
            record.append({"player": player, "action": PASS})
        else:
            high_player, high = player, weigh(answer, unit_strength)
            record.append({"player": player, "action": "bid", **high})


def pay(state: dict, winner: str, bid: dict, region: str, log: list) -> Generator:
    """The winner's bid goes to Exhausted; then 1 happiness per unit bid is lost (§6.4.8 [A-13])."""
    player = state["players"][winner]
    if bid["region_units"]:
        # The unit leaves the track; the unrest counter does not move (§5.4).  (An issue with
        # no region, unsettled by an event, has no region units to bid.)
        units = state["tracks"][region]["units"]
        del units[unit_column(state["tracks"][region], winner)]
    player["units_available"] -= bid["available_units"]
    player["units_exhausted"] += bid["region_units"] + bid["available_units"]
    player["cubes_available"] -= bid["influence"]
    player["cubes_exhausted"] += bid["influence"]
    loss = (bid["region_units"] + bid["available_units"] if state["rules"]["bid_happiness_loss"] == "per_unit"
            else bid["strength"])
    if loss:
        yield from change_happiness(state, winner, -loss, log)
