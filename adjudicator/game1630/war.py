"""The conflict resolver (spec §6): one roll-off between attacker and defender.

Each side rolls two dice and takes their *difference*, adds its modifiers,
and the higher total wins.  War legality (W-1..W-5) belongs to the vote that
declares the war (see ``vote.py``); this engine resolves whatever war it is
given, as §6.5's contract says.
"""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from adjudicator.procedure import Dice, Outcome, Procedure

from .state import COUNTRIES, CountriesMixin, load_copy

ATTACKER, DEFENDER, TIE = "ATTACKER", "DEFENDER", "TIE"


class WarState(CountriesMixin):
    attacker = fields.String(required=True, validate=validate.OneOf(COUNTRIES))
    defender = fields.String(required=True, validate=validate.OneOf(COUNTRIES))

    @validates_schema
    def _two_countries(self, data, **kwargs):
        if data.get("attacker") == data.get("defender"):
            raise ValidationError("a country cannot attack itself", "defender")


def modifiers(country_id: str, country: dict, role: str, config: dict) -> dict:
    """§6.2 per-side modifier breakdown; the total is the sum of the values."""
    found = {"military_ability": country["military_ability"]}
    if country["leader"]:
        found["leader"] = config["leader_bonus"]
    if country["army_size"] == 0:
        found["army_size_zero"] = config["army_zero_penalty"]
    if country["unrest"]:
        # The source gives -1 "when attacked"; an attacker in unrest cannot declare war (W-4).
        found["unrest"] = config["unrest_defence_penalty"]
    sea = config["sea_defence"]
    if role == DEFENDER and country_id in sea["countries"] and country["prestige"] <= sea["prestige_max"]:
        found["sea_defence"] = sea["bonus"]
    return found


def run_war(state: dict):
    """Yield the two rolls, then return the outcome with the countries changed (§6.4)."""
    state = load_copy(state)
    config, countries = state["config"], state["countries"]
    names = {ATTACKER: state["attacker"], DEFENDER: state["defender"]}
    before = {role: dict(countries[name]) for role, name in names.items()}
    breakdown = {role: modifiers(names[role], before[role], role, config) for role in names}
    dice = {}
    for role, other in ((ATTACKER, DEFENDER), (DEFENDER, ATTACKER)):
        # The roll names its country (and the modifiers it will add) so that whoever rolls or
        # watches knows what it is for.
        dice[role] = yield Dice(role.lower(), count=2, sides=6, details={
            "country": names[role], "role": role, "against": names[other],
            "modifiers": breakdown[role], "rule": "§6.3: the difference of the two dice, plus the modifiers"})
    difference = {role: abs(dice[role][0] - dice[role][1]) for role in names}
    totals = {role: difference[role] + sum(breakdown[role].values()) for role in names}

    if totals[ATTACKER] == totals[DEFENDER]:
        winner = TIE
        for role in names:
            _lose_army(countries[names[role]], config, ability_too=config["tie_army_zero_loses_ability"])
    else:
        winner = ATTACKER if totals[ATTACKER] > totals[DEFENDER] else DEFENDER
        loser = DEFENDER if winner == ATTACKER else ATTACKER
        win, lose = countries[names[winner]], countries[names[loser]]
        # §6.4.2: a loser at the floor has nothing to give; a winner at the cap gains nothing
        # but the loser still loses the point (it leaves the game).
        if lose["prestige"] > config["prestige_min"]:
            lose["prestige"] -= 1
            win["prestige"] = min(config["prestige_max"], win["prestige"] + 1)
        _lose_army(lose, config, ability_too=True)

    result = {
        "attacker": names[ATTACKER], "defender": names[DEFENDER],
        "dice": {role.lower(): list(dice[role]) for role in names},
        "difference": {role.lower(): difference[role] for role in names},
        "modifiers": {role.lower(): breakdown[role] for role in names},
        "totals": {role.lower(): totals[role] for role in names},
        "winner": winner,
        "changes": _changes(names, before, countries),
    }
    return Outcome(result, state)


def _lose_army(country: dict, config: dict, ability_too: bool) -> None:
    """§6.4.3 (A-13): lose one army size; a side *already* at 0 loses one ability instead."""
    if country["army_size"] > 0:
        country["army_size"] -= 1
    elif ability_too:
        country["military_ability"] = max(0, country["military_ability"] - 1)


def _changes(names: dict, before: dict, countries: dict) -> dict:
    changes = {}
    for role, name in names.items():
        delta = {key: [before[role][key], countries[name][key]]
                 for key in ("prestige", "army_size", "military_ability") if before[role][key] != countries[name][key]}
        if delta:
            changes[name] = delta
    return changes


WAR = Procedure(
    "1630.war", WarState, run_war, version="2",
    summary="One war between an attacker and a defender (§6): two dice per side, their difference plus "
            "modifiers, and the prestige, army and ability outcome.",
    participants="no player answers: the service rolls two dice for the attacker, then two for the defender")
