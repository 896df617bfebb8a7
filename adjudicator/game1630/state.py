"""1630 game data and the schemas of the state the engines read (spec §1.3, §2, §9).

Everything the source leaves out (§9: adjacency, numeric rule options) is part
of the input ``config`` and takes the spec's stated default when absent.  A
country missing from ``countries``, or a field missing from one, takes its
§1.3 starting value (the test vectors are written that way).
"""
from __future__ import annotations

import copy

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

COUNTRIES = ("SPAIN", "ENGLAND", "FRANCE", "DENMARK", "NETHERLANDS", "SWEDEN",
             "GERMAN_PRINCES", "HABSBURG", "POLAND")
OPEN = "OPEN"
NEUTRAL, RED, BLUE = "NEUTRAL", "RED", "BLUE"
SIDES = (NEUTRAL, RED, BLUE)
DOMINANT, DECLINING = "DOMINANT", "DECLINING"
INFLUENCE, SPECIAL = "INFLUENCE", "SPECIAL"
SPECIAL_KINDS = ("VOTE", "MILITARY_IMPROVEMENT", "INCREASE_ARMY_SIZE", "INCREASE_STATUS",
                 "MILITARY_LEADER", "ASSASSIN", "UNREST")

# §1.3: (prestige, army_size, military_ability)
INITIAL_COUNTRIES = {
    "SPAIN": (5, 2, 1), "ENGLAND": (1, 1, 0), "FRANCE": (3, 2, 1),
    "DENMARK": (1, 1, 0), "NETHERLANDS": (2, 1, 1), "SWEDEN": (2, 1, 1),
    "GERMAN_PRINCES": (5, 1, 0), "HABSBURG": (5, 3, 1), "POLAND": (2, 1, 0),
}

# §9.2 placeholder adjacency: NOT from the source (G-1); games should inject their own.
PLACEHOLDER_ADJACENCY = (
    ("ENGLAND", "FRANCE"), ("ENGLAND", "NETHERLANDS"), ("ENGLAND", "SPAIN"),
    ("SPAIN", "FRANCE"), ("SPAIN", "NETHERLANDS"), ("SPAIN", "GERMAN_PRINCES"),
    ("FRANCE", "GERMAN_PRINCES"), ("NETHERLANDS", "GERMAN_PRINCES"),
    ("DENMARK", "GERMAN_PRINCES"), ("DENMARK", "SWEDEN"),
    ("SWEDEN", "POLAND"), ("SWEDEN", "GERMAN_PRINCES"),
    ("GERMAN_PRINCES", "HABSBURG"), ("GERMAN_PRINCES", "POLAND"), ("HABSBURG", "POLAND"),
)

_country_id = validate.OneOf(COUNTRIES)


def initial_country(country: str) -> dict:
    prestige, army, ability = INITIAL_COUNTRIES[country]
    return {"side": NEUTRAL, "prestige": prestige, "army_size": army,
            "military_ability": ability, "unrest": False, "leader": False}


class SeaDefence(Schema):
    countries = fields.List(fields.String(validate=_country_id), load_default=lambda: ["ENGLAND", "SWEDEN"])
    prestige_max = fields.Integer(load_default=1)
    bonus = fields.Integer(load_default=1)


class Config(Schema):
    """The §9.3 rule options the war and vote engines use, with their defaults."""

    prestige_min = fields.Integer(load_default=0, validate=validate.Range(min=0))
    prestige_max = fields.Integer(load_default=7, validate=validate.Range(min=0))
    max_army_size = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1))
    max_military_ability = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0))
    leader_bonus = fields.Integer(load_default=2)
    unrest_defence_penalty = fields.Integer(load_default=-1)
    army_zero_penalty = fields.Integer(load_default=-1)
    sea_defence = fields.Nested(SeaDefence, load_default=lambda: SeaDefence().load({}))
    adjacency_only_prestige_max = fields.Integer(load_default=2)
    adjacency = fields.List(
        fields.List(fields.String(validate=_country_id), validate=validate.Length(equal=2)),
        load_default=lambda: [list(pair) for pair in PLACEHOLDER_ADJACENCY])
    tie_army_zero_loses_ability = fields.Boolean(load_default=False)
    open_rule_on_all_removals = fields.Boolean(load_default=True)
    # Only the spec's defaults are implemented for these two; other values are refused.
    post_call_placement = fields.String(load_default="simultaneous", validate=validate.OneOf(["simultaneous"]))
    missing_ballot = fields.String(load_default="status_quo", validate=validate.OneOf(["status_quo"]))

    @validates_schema
    def _check(self, data, **kwargs):
        if data.get("prestige_min", 0) > data.get("prestige_max", 7):
            raise ValidationError("must not exceed prestige_max", "prestige_min")
        for index, pair in enumerate(data.get("adjacency", [])):
            if len(pair) == 2 and pair[0] == pair[1]:
                raise ValidationError({index: ["a country is not adjacent to itself"]}, "adjacency")


class Country(Schema):
    """One country's record (§2.1); absent fields take the §1.3 starting value."""

    side = fields.String(validate=validate.OneOf(SIDES))
    prestige = fields.Integer(validate=validate.Range(min=0))
    army_size = fields.Integer(validate=validate.Range(min=0))
    military_ability = fields.Integer(validate=validate.Range(min=0))
    unrest = fields.Boolean()
    leader = fields.Boolean()


class Card(Schema):
    """§2.2. ``kind`` defaults to INFLUENCE, the only kind the vote engine places."""

    id = fields.String(required=True, validate=validate.Length(min=1))
    kind = fields.String(load_default=INFLUENCE, validate=validate.OneOf([INFLUENCE, SPECIAL]))
    country = fields.String(validate=validate.OneOf([*COUNTRIES, OPEN]))
    value = fields.Integer(validate=validate.Range(min=1))
    special = fields.String(validate=validate.OneOf(SPECIAL_KINDS))

    @validates_schema
    def _check(self, data, **kwargs):
        errors = {}
        if data.get("kind") == INFLUENCE:
            for name in ("country", "value"):
                if name not in data:
                    errors[name] = ["required for an influence card"]
            if "special" in data:
                errors["special"] = ["only special cards have a special kind"]
        else:
            if "special" not in data:
                errors["special"] = ["required for a special card"]
            for name in ("country", "value"):
                if name in data:
                    errors[name] = ["special cards have no " + name]
        if errors:
            raise ValidationError(errors)


class Pile(Schema):
    state = fields.String(required=True, validate=validate.OneOf([DOMINANT, DECLINING]))
    cards = fields.List(fields.Nested(Card), required=True,
                        validate=validate.Length(min=1, error="a pile has at least one card (P-12)"))


class CountriesMixin(Schema):
    countries = fields.Dict(keys=fields.String(validate=_country_id), values=fields.Nested(Country),
                            load_default=dict)
    config = fields.Nested(Config, load_default=lambda: Config().load({}))

    @validates_schema
    def _check_prestige_range(self, data, **kwargs):
        high = data.get("config", {}).get("prestige_max", 7)
        low = data.get("config", {}).get("prestige_min", 0)
        errors = {}
        for country, record in (data.get("countries") or {}).items():
            if "prestige" in record and not low <= record["prestige"] <= high:
                errors[country] = {"value": {"prestige": [f"must be between {low} and {high}"]}}
        if errors:
            raise ValidationError({"countries": errors})

    @post_load
    def _fill_countries(self, data, **kwargs):
        given = data.get("countries") or {}
        data["countries"] = {c: {**initial_country(c), **given.get(c, {})} for c in COUNTRIES}
        return data


class PlayersMixin(Schema):
    """Seats, public displays (piles by country), secret hands and the discard pile (§2.3–2.5)."""

    players = fields.List(fields.String(validate=validate.Length(min=1)), required=True,
                          validate=validate.Length(min=1))
    displays = fields.Dict(keys=fields.String(),
                           values=fields.Dict(keys=fields.String(validate=_country_id), values=fields.Nested(Pile)),
                           load_default=dict)
    hands = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(Card)), load_default=dict)
    discard = fields.List(fields.Nested(Card), load_default=list)

    @validates_schema
    def _check_players_and_cards(self, data, **kwargs):
        # Error paths follow marshmallow's own nesting (dict -> key/value, list -> index,
        # whole-object -> _schema) so a client reads every field error the same way.
        errors: dict = {}
        players = data.get("players") or []
        if len(set(players)) != len(players):
            errors["players"] = ["seats must be distinct"]
        seen: dict[str, str] = {}

        def duplicate(card, where):
            if card["id"] in seen:
                return {"id": [f"card id {card['id']!r} also appears in {seen[card['id']]}"]}
            seen[card["id"]] = where
            return None

        for player, piles in (data.get("displays") or {}).items():
            if player not in players:
                errors.setdefault("displays", {})[player] = {"key": ["not a player"]}
                continue
            for country, pile in piles.items():
                problems: dict = {}
                for index, card in enumerate(pile["cards"]):
                    if card["kind"] != INFLUENCE:
                        problems[index] = {"kind": ["only influence cards are displayed"]}
                    elif card["country"] not in (country, OPEN):
                        problems[index] = {"country": [f"P-2: a {card['country']} card cannot be in a {country} pile"]}
                    else:
                        problems[index] = duplicate(card, f"displays.{player}.{country}")
                found = {"cards": {i: p for i, p in problems.items() if p}}
                if not found["cards"]:
                    del found["cards"]
                if not any(card.get("country") == country for card in pile["cards"]):
                    found["_schema"] = [f"P-3: a pile needs at least one named {country} card"]
                if found:
                    (errors.setdefault("displays", {}).setdefault(player, {}).setdefault("value", {})
                     [country]) = {"value": found}
        for player, hand in (data.get("hands") or {}).items():
            if player not in players:
                errors.setdefault("hands", {})[player] = {"key": ["not a player"]}
                continue
            found = {i: p for i, card in enumerate(hand) if (p := duplicate(card, f"hands.{player}"))}
            if found:
                errors.setdefault("hands", {})[player] = {"value": found}
        found = {i: p for i, card in enumerate(data.get("discard") or []) if (p := duplicate(card, "discard"))}
        if found:
            errors["discard"] = found
        if errors:
            raise ValidationError(errors)


def load_copy(state: dict) -> dict:
    """The engines never mutate the loaded input (the service replays it)."""
    return copy.deepcopy(state)
