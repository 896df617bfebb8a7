"""The uprising check and uprising (spec §6), as a step-by-step procedure.

Steps 1-2 (regions, modifier announcements, one die per region) run once for
the whole check, top to bottom; steps 3-7 then run for each region that had an
uprising, top to bottom, each on the state the previous region left (§6.2.5,
[A-30]).
"""
from __future__ import annotations

import copy
from typing import Generator

from marshmallow import ValidationError, fields, validates_schema

from adjudicator.procedure import Decision, Dice, Outcome, Procedure

from .bidding import clockwise, pay, run_bidding
from .options import apply_option
from .state import GameState, level
from .strategy import select_strategy_cards
from .tracks import leftmost_unit_owner, reset_unrest


class UprisingState(GameState):
    """The game state plus the trigger: ``region`` is the region the event text names, if any."""

    region = fields.String(load_default=None, allow_none=True)

    @validates_schema
    def _offer(self, data, **kwargs):
        if data.get("first_uprising_done", False):
            return
        offer, needed = data.get("strategy_offer", []), len(data.get("seat_order", [])) + 1
        if len(offer) != needed or len(set(offer)) != len(offer):
            raise ValidationError(f"before the first uprising the offer must hold {needed} different cards "
                                  "(players + 1, dealt at setup)", "strategy_offer")


def uprising(state: dict) -> Generator:
    state = copy.deepcopy(state)
    trigger = state.pop("region")
    regions = determine_regions(state, trigger)
    checks, hits = [], []
    for region in regions:
        check = yield from check_region(state, region)
        checks.append(check)
        if check["uprising"]:
            hits.append(region)
    result = {"regions_checked": regions, "checks": checks, "uprisings": [], "strategy": None}
    for region in hits:
        record = yield from resolve_uprising(state, region)
        result["uprisings"].append(record)
        if not state["first_uprising_done"]:
            # Step 7 closes the first region that had an uprising, before the next one's step 3 (§6.8.1).
            result["strategy"] = yield from select_strategy_cards(state)
    return Outcome(result, state)


def determine_regions(state: dict, named: str | None) -> list[str]:
    """Step 1: the named region, or every region tied for the rightmost unrest, in board order."""
    if named is not None:
        return [named]
    top = max(state["tracks"][region]["unrest"] for region in state["regions"])
    return [region for region in state["regions"] if state["tracks"][region]["unrest"] == top]


def announcers(state: dict, region: str) -> list[str]:
    """Owners of units in columns 5-7, clockwise from left of the active player, active last [A-15]."""
    units = state["tracks"][region]["units"]
    eligible = {owner for column, owner in units.items() if column in state["modifier_columns"]}
    order = clockwise(state["seat_order"], state["active_player"])
    return [nation for nation in order[1:] + order[:1] if nation in eligible]


def check_region(state: dict, region: str) -> Generator:
    """Step 2 for one region: announcements (public, final), then the die."""
    column = state["tracks"][region]["unrest"]
    threshold = level(state, region, column)
    check = {"region": region, "column": column, "level": threshold, "modifiers": {}, "roll": None,
             "modified": None, "uprising": False}
    if threshold == "X":        # no roll and no announcements
        return check
    order = announcers(state, region)
    for nation in order:
        # Announcements are public and final (§6.2.3): each step shows the ones made so far.
        check["modifiers"][nation] = yield Decision(
            nation, "modifier", [-1, 0, 1], default=0,
            details={"region": region, "column": column, "level": threshold, "order": order,
                     "announced": dict(check["modifiers"])})
    (roll,) = yield Dice(f"uprising_check:{region}", 1, 6, roller=state["active_player"], details={
        "region": region, "column": column, "level": threshold, "modifiers": dict(check["modifiers"]),
        "uprising_if": f"roll + {sum(check['modifiers'].values())} >= {threshold}"})
    check["roll"] = roll
    check["modified"] = roll + sum(check["modifiers"].values())     # not clamped to 1..6
    check["uprising"] = check["modified"] >= threshold
    return check


def controllers(state: dict) -> list[str]:
    """Everyone who can control issues, clockwise from the active player; the 2-player USA faction last."""
    return clockwise(state["seat_order"], state["active_player"]) + (["USA"] if state["usa_faction"] else [])


def decider(state: dict, nation: str) -> str:
    """Who answers for ``nation``: the player on turn decides for the 2-player USA (§9.7.1)."""
    return state["active_player"] if nation not in state["seat_order"] else nation


def new_record(region: str | None) -> dict:
    return {"region": region, "affected": None, "affected_by": None, "roll_off": [], "issue": None,
            "bids": [], "winner": None, "winning_bid": None, "discarded": False, "option": None,
            "mutinies": [], "keg": None, "unrest": None}


def resolve_uprising(state: dict, region: str) -> Generator:
    """Steps 3-6 for one region."""
    track = state["tracks"][region]
    record = new_record(region)
    counts = {nation: sum(1 for issue in state["issues"] if issue["controller"] == nation and issue["region"] == region)
              for nation in controllers(state)}
    top = max(counts.values())
    if top == 0:
        # Nobody controls an issue here: no affected player, no issue, no bidding.
        if state["rules"]["uprising_without_controlled_issue"] == "reset_unrest" or not state["first_uprising_done"]:
            reset_unrest(track)
        record.update(keg=track["keg"], unrest=track["unrest"])
        return record

    # Step 3a: the affected player.
    tied = [nation for nation, count in counts.items() if count == top]
    if len(tied) == 1:
        affected, record["affected_by"] = tied[0], "majority"
    elif track["units"]:
        chooser = leftmost_unit_owner(track)
        affected = yield Decision(chooser, "choose_affected", tied, default=tied[0],
                                  details={"region": region, "issues_each": top, "counts": dict(counts),
                                           "reason": "§6.3.2: the owner of the leftmost unit chooses"})
        record["affected_by"] = "leftmost_unit"
    else:
        affected = yield from roll_off(state, region, tied, record["roll_off"])
        record["affected_by"] = "roll_off"
    record["affected"] = affected

    # Step 3b: the affected player's highest-star issue here leaves its control.
    own = [issue for issue in state["issues"] if issue["controller"] == affected and issue["region"] == region]
    best = max(issue["stars"] for issue in own)
    candidates = [issue["id"] for issue in own if issue["stars"] == best]
    chosen = candidates[0]
    if len(candidates) > 1:
        chosen = yield Decision(decider(state, affected), "choose_issue", candidates, default=candidates[0],
                                details={"region": region, "stars": best, "for": affected,
                                         "issues": [_public(issue) for issue in own if issue["id"] in candidates]})
    issue = next(issue for issue in own if issue["id"] == chosen)
    issue["controller"] = None      # unsettled; its counters stay on the card until step 6
    record["issue"] = issue["id"]
    yield from contest(state, issue, region, affected, record, reset=True)
    return record


def contest(state: dict, issue: dict, region: str | None, former: str, record: dict, reset: bool) -> Generator:
    """Steps 4-6 for an unsettled issue: bidding, (step 5 if ``reset``), the winner's option."""
    # Step 4: bidding, from the former controller (or the active player for the 2-player USA ).
    start = former if former in state["seat_order"] else state["active_player"]
    winner, bid = yield from run_bidding(state, issue, region, start, record["bids"])
    if winner is not None:
        record.update(winner=winner, winning_bid=bid)
        yield from pay(state, winner, bid, region, record["mutinies"])

    # Step 5: reset regional unrest (also when nobody bid).
    if reset:
        track = state["tracks"][region]
        reset_unrest(track)
        record.update(keg=track["keg"], unrest=track["unrest"])

    # Step 6: the winner re-chooses an option, after every counter is discarded.
    issue["counters"] = []
    issue["option"] = None
    if winner is None:
        state["issues"].remove(issue)
        state["issue_discard"].insert(0, issue)     # face up on top of the discard pile
        record["discarded"] = True
        return
    issue["controller"] = winner
    names = [option["name"] for option in issue["options"]]
    if names:
        name = yield Decision(winner, "choose_option", names, default=names[0],
                              details={"issue": issue["id"], "region": region, "stars": issue["stars"],
                                       "options": [dict(option) for option in issue["options"]]})
        issue["option"] = record["option"] = name
        option = next(option for option in issue["options"] if option["name"] == name)
        yield from apply_option(state, issue, option, winner, winner, record["mutinies"])


def roll_off(state: dict, region: str, tied: list[str], rounds: list) -> Generator:
    """Each tied player rolls a d6; those tied on the highest roll roll again [DEF]."""
    contenders = list(tied)
    while len(contenders) > 1:
        rolls = {}
        for nation in contenders:
            # The roll names its region and nation, and shows the round's rolls so far.
            (rolls[nation],) = yield Dice(f"roll_off:{region}:{nation}", 1, 6, roller=decider(state, nation), details={
                "region": region, "nation": nation, "contenders": list(contenders), "round": len(rounds) + 1,
                "rolled": dict(rolls), "rule": "§6.3.2: the highest roll is affected; ties on it roll again"})
        rounds.append(rolls)
        high = max(rolls.values())
        contenders = [nation for nation in contenders if rolls[nation] == high]
    return contenders[0]


def _public(issue: dict) -> dict:
    """An issue card as the table sees it (settled issues lie face up)."""
    return {key: issue[key] for key in ("id", "name", "stars", "option", "counters")}


UPRISING = Procedure(
    "versailles.uprising", UprisingState, uprising, version="2",
    summary="One uprising check (§6): the regions, modifier announcements and a die per region, then per "
            "uprising the affected player, the unsettled issue, open bidding, the unrest reset, the winner's "
            "option and, after the game's first uprising, strategy-card selection.",
    participants="the seated nations (UK, FRANCE, USA, ITALY as seated; in the 2-player game the player on "
                 "turn answers for the USA faction); the service rolls the check dice and any roll-off")
