"""Conflict resolution in one country (spec §6.8).

Dice per faction, spy rerolls in initiative order, the winner and its
tie-breaks, then the token removal that leaves the winner's one token.  The
reward is not paid here: the country-grid resolution (grid.py) does that.
"""
from __future__ import annotations

import copy

from marshmallow import fields, validates_schema, ValidationError

from adjudicator.procedure import Decision, Dice, Outcome, Procedure
from adjudicator.statecraft import bots
from adjudicator.statecraft.rules import pick_winner, successes, tally
from adjudicator.statecraft.state import DEMO, GameSchema, country, demo_to_supply, initiative


def dice_count(c: dict, faction: str) -> int:
    """§6.8.2: tokens (the FG token included) + the card's extra dice + 1 for the FG holder."""
    return c["influence"][faction] + c["extra_dice"] + (1 if faction == c["fg"] else 0)


def resolve_conflict(game: dict, name: str, *, spies: bool = True):
    """Resolve the conflict in ``name``, changing ``game`` in place; returns a summary.

    Yields one ``Dice("conflict", n, roller=faction)`` per participant (powers in
    initiative order, then DEMO), then the spy passes: ``Decision(power,
    "reroll")`` answered by ``None`` (decline) or a non-empty list of the
    power's own die indexes, each reroll followed by ``Dice("reroll", k)``.
    """
    c = country(game, name)
    order = initiative(game)
    powers = [p for p in order if c["influence"].get(p, 0) > 0]
    participants = powers + ([DEMO] if c["influence"].get(DEMO, 0) > 0 else [])
    dice: dict[str, list[int]] = {}
    for faction in participants:
        dice[faction] = list((yield Dice("conflict", dice_count(c, faction), roller=faction,
                                         details=_dice_details(c, faction, participants))))
    rolled = copy.deepcopy(dice)
    used = {p: 0 for p in powers}

    # Spy passes (§6.8.4): one power at a time in initiative order; passes repeat until
    # a full pass in which nobody used a spy, or until no participant has a spy left.
    while spies:
        spent_this_pass = False
        for power in [p for p in initiative(game) if p in powers]:
            while game["powers"][power]["spy"] > 0:
                choice = yield _reroll_decision(game, c, power, dice, used)
                if choice is None:
                    break
                game["powers"][power]["spy"] -= 1
                game["powers"][power]["pool"] += 1  # a spent spy goes back to the pool
                indexes = sorted(choice)
                faces = yield Dice("reroll", len(indexes), roller=power,
                                   details={"country": name, "power": power, "indexes": indexes,
                                            "dice": list(dice[power]), "spy": used[power] + 1})
                for index, value in zip(indexes, faces):
                    dice[power][index] = value
                used[power] += 1
                spent_this_pass = True
        if (not spent_this_pass or game["options"]["spy_passes"] == "single_pass"
                or all(game["powers"][p]["spy"] == 0 for p in powers)):
            break

    counts = tally(game, c, dice)
    winner = pick_winner(game, c, counts)

    # Aftermath (§6.8.6): everyone leaves but one token of the winner, which governs.
    removed = {}
    for faction in participants:
        keep = 1 if faction == winner else 0
        gone = c["influence"][faction] - keep
        removed[faction] = gone
        if faction == DEMO:
            demo_to_supply(game, gone)
        else:
            game["powers"][faction]["pool"] += gone
    c["influence"] = {winner: 1}
    c["fg"] = None if winner == DEMO else winner
    c["conflict"] = False
    return {"country": name, "participants": participants, "rolled": rolled, "dice": dice,
            "successes": counts, "spies_used": {p: n for p, n in used.items() if n},
            "winner": winner, "removed": removed}


def _dice_details(c: dict, faction: str, participants: list[str]) -> dict:
    """What a conflict roll is for: the country, the faction (a power, or DEMO rolled by the service)
    and how its dice add up (§6.8.2)."""
    return {"country": c["name"], "power": None if faction == DEMO else faction, "faction": faction,
            "participants": list(participants), "tokens": c["influence"][faction],
            "extra_dice": c["extra_dice"], "fg_die": 1 if faction == c["fg"] else 0, "fg": c["fg"]}


def _reroll_decision(game, c, power, dice, used):
    size = len(dice[power])

    def check(answer):
        if answer is None:
            return None
        if not isinstance(answer, (list, tuple)) or not answer:
            return "answer null to decline or a non-empty list of your die indexes"
        if any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < size for i in answer):
            return f"die indexes run from 0 to {size - 1}"
        if len(set(answer)) != len(answer):
            return "each die may be named once"
        return None

    is_bot = game["powers"][power]["is_bot"]
    default = bots.spy_choice(game, c, power, dice) if is_bot else None  # None declines: a spy is a "may"
    return Decision(power, "reroll", choices=None, default=default, check=check, bot=is_bot,
                    details={"country": c["name"], "power": power, "fg": c["fg"], "dice": copy.deepcopy(dice),
                             "successes": {f: successes(v) for f, v in dice.items()},
                             "spies_left": game["powers"][power]["spy"], "spies_used": used[power],
                             "indexes": {"min": 0, "max": size - 1},
                             "answer": "null to decline, or a non-empty list of die indexes to reroll"})


class ConflictState(GameSchema):
    """The game state plus ``country``: the name of the grid country whose conflict is resolved."""

    country = fields.String(required=True)

    @validates_schema
    def _country_in_conflict(self, data, **kwargs):
        names = {c["name"]: c for c in data.get("grid", [])}
        if "country" not in data:
            return
        if data["country"] not in names:
            raise ValidationError(f"no country {data['country']!r} in the grid", "country")
        if not names[data["country"]]["conflict"]:
            raise ValidationError(f"{data['country']} has no conflict marker", "country")


def run_conflict(state: dict):
    game = copy.deepcopy(state)
    name = game.pop("country")
    summary = yield from resolve_conflict(game, name)
    return Outcome(summary, game)


CONFLICT = Procedure(
    "statecraft.conflict", ConflictState, run_conflict, version="2",
    summary="Resolves the conflict in one country (spec §6.8): dice per faction, spy rerolls in initiative "
            "order, the winner and its tie-breaks, and the one token the winner keeps as the new government.",
    participants="The powers with tokens in the country (EU, USA, CHN, RUS), who decide their spy rerolls "
                 "(a bot's decision is marked bot); the service rolls every faction's conflict dice, the "
                 "demonstrators' (DEMO) included, and the rerolled dice.")
