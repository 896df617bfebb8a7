"""The Versailles 1919 game state as the engine reads it, and the game data the
source does not print (spec §11), with the spec's placeholder defaults.

Everything is plain JSON-shaped data: the schemas validate it, fill in the
defaults and give precise field errors.  Column numbers may be given as
strings ("6") or integers; after loading they are integers.
"""
from __future__ import annotations

import copy

import marshmallow
from marshmallow import ValidationError, fields, validate, validates_schema

NATIONS = ("UK", "FRANCE", "USA", "ITALY", "JAPAN")
PLAYER_NATIONS = ("UK", "FRANCE", "USA", "ITALY")
# §1.2: which nations the players hold, by player count (solo is not covered).
SEATINGS = {
    2: {"UK", "FRANCE"},                       # the USA is a faction run by the player on turn
    3: {"UK", "FRANCE", "USA"},
    4: {"UK", "FRANCE", "USA", "ITALY"},
}
COUNTER_TYPES = ("SELF_DETERMINATION", "GERMAN_CONTAINMENT", "GERMAN_REPARATIONS", "NAVAL_SQUADRON",
                 "EMPIRE", "INDUSTRIAL_GROWTH", "BOLSHEVIK_CONTAINMENT")
FLAGGED_COUNTERS = ("NAVAL_SQUADRON", "EMPIRE")   # the only types that carry a national flag (§5.5)
CUBES_PER_PLAYER = 15
UNITS_PER_PLAYER = 3
MAX_KEG = 3
TRACK_COLUMNS = range(1, 9)
DEPLOY_COLUMNS = range(5, 9)

# G-4 placeholder: board order, top to bottom (Europe is known to be the top row).
DEFAULT_REGIONS = ("EUROPE", "BALKANS", "MIDDLE_EAST", "AFRICA", "PACIFIC")
# G-5 placeholder: uprising level per column, "X" meaning no uprising is possible.
DEFAULT_UPRISING_LEVELS = {1: "X", 2: "X", 3: "X", 4: 5, 5: 4, 6: 3, 7: 2, 8: 1}
# G-6 placeholder: the most mobilized units a nation may keep, per happiness zone.
DEFAULT_HAPPINESS_ZONES = ({"min": 11, "max": 30, "units": 3},
                           {"min": 5, "max": 10, "units": 2},
                           {"min": 0, "max": 4, "units": 1})
DEFAULT_HAPPINESS = 20   # §2.1.4, standard variant
SIGNING_HAPPINESS = 15   # §8.3.6: Japan / Italy sign the treaty at 15 or more
# G-3 readings: columns whose units may announce a modifier, and
# columns whose units count double when bid (every deploy column).
DEFAULT_MODIFIER_COLUMNS = (5, 6, 7)
DEFAULT_DOUBLE_BID_COLUMNS = (5, 6, 7, 8)

DEFAULT_RULES = {
    # "reset_unrest" always runs step 5 when nobody controls an issue in the
    # region; "end_check" skips it except on the game's first uprising.
    "uprising_without_controlled_issue": "reset_unrest",
    # the winner loses 1 happiness per physical unit, or per point of strength.
    "bid_happiness_loss": "per_unit",
    # Happiness x2 also doubles the -5 of the zero box.
    "double_happiness_includes_zero_penalty": True,
}
HAPPINESS_VP = {2: (6, 0), 3: (6, 3, 0), 4: (6, 4, 2, 0)}
ZERO_BOX_PENALTY = -5


def _positive_column(value) -> None:
    if value not in TRACK_COLUMNS:
        raise ValidationError("must be a column from 1 to 8")


class UprisingLevel(fields.Field):
    """A printed uprising level: "X" (no uprising) or a die threshold 1..6."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "X":
            return "X"
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise ValidationError('must be "X" or an integer from 1 to 6')
        return value


def _levels_field(**kwargs) -> fields.Dict:
    return fields.Dict(keys=fields.Integer(validate=_positive_column), values=UprisingLevel(), **kwargs)


class EffectSchema(marshmallow.Schema):
    """One icon group of an issue option (§2.4, §5)."""

    type = fields.String(required=True, validate=validate.OneOf(["happiness", "unrest", "counter", "counter_choice"]))
    nation = fields.String(validate=validate.OneOf(NATIONS))
    region = fields.String()
    delta = fields.Integer()
    counter = fields.String(validate=validate.OneOf(COUNTER_TYPES))
    flag = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(NATIONS))
    flags = fields.List(fields.String(validate=validate.OneOf(NATIONS)), validate=validate.Length(min=1))
    count = fields.Integer(load_default=1, validate=validate.Range(min=1))

    @validates_schema
    def _needs(self, data, **kwargs):
        needed = {"happiness": ("nation", "delta"), "unrest": ("region", "delta"),
                  "counter": ("counter",), "counter_choice": ("counter", "flags")}.get(data.get("type"), ())
        missing = {name: ["required for this effect type"] for name in needed if data.get(name) is None}
        if missing:
            raise ValidationError(missing)


class OptionSchema(marshmallow.Schema):
    name = fields.String(required=True)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)


class CounterSchema(marshmallow.Schema):
    type = fields.String(required=True, validate=validate.OneOf(COUNTER_TYPES))
    flag = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(NATIONS))


class IssueSchema(marshmallow.Schema):
    """An issue card (§2.4) with where it lies: ``controller`` is the nation whose
    play area holds it (a settled issue), ``option`` the option chosen for it."""

    id = fields.String(required=True)
    name = fields.String(load_default=None, allow_none=True)
    region = fields.String(load_default=None, allow_none=True)       # principle issues have none
    stars = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0))
    no_military = fields.Boolean(load_default=False)
    is_rush_to_the_finish = fields.Boolean(load_default=False)
    options = fields.List(fields.Nested(OptionSchema), load_default=list)
    controller = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(NATIONS))
    option = fields.String(load_default=None, allow_none=True)
    counters = fields.List(fields.Nested(CounterSchema), load_default=list)

    @validates_schema
    def _stars(self, data, **kwargs):
        if data.get("stars") is None and not data.get("is_rush_to_the_finish"):
            raise ValidationError("required unless the issue is RUSH TO THE FINISH (7 stars)", "stars")
        names = [option["name"] for option in data.get("options", [])]
        if len(set(names)) != len(names):
            raise ValidationError("option names must be unique", "options")
        if data.get("option") is not None and data["option"] not in names:
            raise ValidationError(f"not one of the issue's options {names}", "option")

    @marshmallow.post_load
    def _rttf_stars(self, data, **kwargs):
        if data["stars"] is None:
            data["stars"] = 7   # §8.1.2
        return data


class TrackSchema(marshmallow.Schema):
    """One region row (§2.7.5): powder keg column, unrest column, units by column."""

    keg = fields.Integer(load_default=0, validate=validate.Range(0, MAX_KEG))
    unrest = fields.Integer(load_default=1, validate=_positive_column)
    units = fields.Dict(keys=fields.Integer(validate=validate.OneOf(list(DEPLOY_COLUMNS),
                                                                     error="units stand in columns 5 to 8")),
                        values=fields.String(validate=validate.OneOf(PLAYER_NATIONS)), load_default=dict)

    @validates_schema
    def _invariants(self, data, **kwargs):
        keg, unrest, units = data.get("keg", 0), data.get("unrest", 1), data.get("units", {})
        if unrest <= keg:
            raise ValidationError("the unrest counter must lie right of the powder keg", "unrest")
        if units and unrest >= min(units):
            raise ValidationError("the unrest counter must lie left of every unit", "unrest")
        owners = list(units.values())
        if len(set(owners)) != len(owners):
            raise ValidationError("a player may have at most one unit per region", "units")


class PlayerSchema(marshmallow.Schema):
    """A player's pools.  Deployed units are read from the tracks; ``units_available``
    defaults to whatever remains of the nation's units."""

    cubes_available = fields.Integer(load_default=CUBES_PER_PLAYER, validate=validate.Range(0, CUBES_PER_PLAYER))
    cubes_exhausted = fields.Integer(load_default=0, validate=validate.Range(0, CUBES_PER_PLAYER))
    units_available = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(0, UNITS_PER_PLAYER))
    units_exhausted = fields.Integer(load_default=0, validate=validate.Range(0, UNITS_PER_PLAYER))
    units_demobilized = fields.Integer(load_default=0, validate=validate.Range(0, UNITS_PER_PLAYER))

    @validates_schema
    def _cubes(self, data, **kwargs):
        if data.get("cubes_available", 0) + data.get("cubes_exhausted", 0) > CUBES_PER_PLAYER:
            raise ValidationError(f"available + exhausted cubes exceed {CUBES_PER_PLAYER}", "cubes_exhausted")


class ZoneSchema(marshmallow.Schema):
    min = fields.Integer(required=True, validate=validate.Range(0, 30))
    max = fields.Integer(required=True, validate=validate.Range(0, 30))
    units = fields.Integer(required=True, validate=validate.Range(0, UNITS_PER_PLAYER))


class TermSchema(marshmallow.Schema):
    """One scoring term of a strategy card (G-8): ``vp`` per occurrence of ``condition``."""

    condition = fields.String(required=True, validate=validate.OneOf(
        ["counter", "region_unrest_low", "region_unrest_high", "military", "happiness_x2", "signs", "refuses"]))
    vp = fields.Integer(load_default=1)
    counter = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(COUNTER_TYPES))
    flag = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(NATIONS))
    nation = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["JAPAN", "ITALY"]))

    @validates_schema
    def _needs(self, data, **kwargs):
        if data.get("condition") == "counter" and data.get("counter") is None:
            raise ValidationError("required for a counter term", "counter")
        if data.get("condition") in ("signs", "refuses") and data.get("nation") is None:
            raise ValidationError("required for a signing term", "nation")


class StrategyCardSchema(marshmallow.Schema):
    name = fields.String(load_default=None, allow_none=True)
    terms = fields.List(fields.Nested(TermSchema), load_default=list)


class RulesSchema(marshmallow.Schema):
    uprising_without_controlled_issue = fields.String(
        load_default=DEFAULT_RULES["uprising_without_controlled_issue"],
        validate=validate.OneOf(["reset_unrest", "end_check"]))
    bid_happiness_loss = fields.String(load_default=DEFAULT_RULES["bid_happiness_loss"],
                                       validate=validate.OneOf(["per_unit", "per_strength"]))
    double_happiness_includes_zero_penalty = fields.Boolean(
        load_default=DEFAULT_RULES["double_happiness_includes_zero_penalty"])


class GameState(marshmallow.Schema):
    """The parts of the game state the uprising and the final scoring read."""

    seat_order = fields.List(fields.String(validate=validate.OneOf(PLAYER_NATIONS)), required=True)
    usa_faction = fields.Boolean(load_default=False)       # 2-player game: the USA is a faction (§9)
    active_player = fields.String(required=True)
    happiness = fields.Dict(keys=fields.String(validate=validate.OneOf(NATIONS)),
                            values=fields.Integer(validate=validate.Range(0, 30)), load_default=dict)
    players = fields.Dict(keys=fields.String(validate=validate.OneOf(PLAYER_NATIONS)),
                          values=fields.Nested(PlayerSchema), load_default=dict)
    regions = fields.List(fields.String(), load_default=lambda: list(DEFAULT_REGIONS))
    tracks = fields.Dict(keys=fields.String(), values=fields.Nested(TrackSchema), load_default=dict)
    uprising_levels = _levels_field(load_default=lambda: dict(DEFAULT_UPRISING_LEVELS))
    region_uprising_levels = fields.Dict(keys=fields.String(), values=_levels_field(), load_default=dict)
    modifier_columns = fields.List(fields.Integer(validate=validate.OneOf(list(DEPLOY_COLUMNS))),
                                   load_default=lambda: list(DEFAULT_MODIFIER_COLUMNS))
    double_bid_columns = fields.List(fields.Integer(validate=validate.OneOf(list(DEPLOY_COLUMNS))),
                                     load_default=lambda: list(DEFAULT_DOUBLE_BID_COLUMNS))
    happiness_zones = fields.List(fields.Nested(ZoneSchema), load_default=lambda: copy.deepcopy(list(DEFAULT_HAPPINESS_ZONES)))
    issues = fields.List(fields.Nested(IssueSchema), load_default=list)
    issue_discard = fields.List(fields.Nested(IssueSchema), load_default=list)   # top card first
    first_uprising_done = fields.Boolean(load_default=False)
    strategy_offer = fields.List(fields.String(), load_default=list)
    strategy_choice = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)
    strategy_cards = fields.Dict(keys=fields.String(), values=fields.Nested(StrategyCardSchema), load_default=dict)
    rules = fields.Nested(RulesSchema, load_default=lambda: dict(DEFAULT_RULES))

    @validates_schema
    def _consistent(self, data, **kwargs):
        errors: dict = {}
        seats = data.get("seat_order", [])
        faction = data.get("usa_faction", False)
        expected = SEATINGS.get(len(seats))
        if len(set(seats)) != len(seats):
            errors["seat_order"] = ["a nation may hold only one seat"]
        elif expected is None or set(seats) != expected or (len(seats) == 2) != faction:
            errors["seat_order"] = ["must seat UK, FRANCE and USA (3 players), those and ITALY (4 players), "
                                    "or UK and FRANCE with usa_faction true (2 players)"]
        if "active_player" in data and data["active_player"] not in seats:
            errors["active_player"] = [f"must be one of the seats {seats}"]
        regions = data.get("regions", [])
        if len(set(regions)) != len(regions) or not regions:
            errors["regions"] = ["must list each region once, top to bottom"]
        if data.get("region") is not None and data["region"] not in regions:
            errors["region"] = [f"not one of the regions {regions}"]
        for name in ("tracks", "region_uprising_levels"):
            unknown = sorted(set(data.get(name, {})) - set(regions))
            if unknown:
                errors[name] = [f"unknown regions {unknown}"]
        players = set(seats) | ({"USA"} if faction else set())
        unknown = sorted(set(data.get("players", {})) - players)
        if unknown:
            errors["players"] = [f"not players in this game: {unknown}"]
        errors.update(self._units(data, seats))
        errors.update(self._issues(data, players, regions))
        zones = data.get("happiness_zones", [])
        covered = sorted(h for zone in zones for h in range(zone["min"], zone["max"] + 1))
        if covered != list(range(31)):
            errors["happiness_zones"] = ["the zones must cover 0..30 exactly once"]
        if errors:
            raise ValidationError(errors)

    @staticmethod
    def _units(data, seats) -> dict:
        errors: dict = {}
        for region, track in data.get("tracks", {}).items():
            strangers = sorted(set(track["units"].values()) - set(seats))
            if strangers:
                errors.setdefault("tracks", {})[region] = {"units": [f"units of non-players {strangers}"]}
        faction = ["USA"] if data.get("usa_faction") else []
        for nation in [*seats, *faction]:
            player = data.get("players", {}).get(nation) or PlayerSchema().load({})
            deployed = sum(nation in track["units"].values() for track in data.get("tracks", {}).values())
            owned = 0 if nation not in seats else UNITS_PER_PLAYER      # the 2-player USA has no units
            rest = owned - deployed - player["units_exhausted"] - player["units_demobilized"]
            if player["units_available"] is not None and player["units_available"] != rest:
                errors.setdefault("players", {})[nation] = {"units_available": [
                    f"must be {rest}: a nation has {owned} units and {owned - rest} are deployed, exhausted or demobilized"]}
            elif rest < 0:
                errors.setdefault("players", {})[nation] = {"units_exhausted": [
                    f"deployed + exhausted + demobilized units exceed {owned}"]}
        return errors

    @staticmethod
    def _issues(data, players, regions) -> dict:
        errors: dict = {}
        seen: set = set()
        for where in ("issues", "issue_discard"):
            for index, issue in enumerate(data.get(where, [])):
                problems: dict = {}
                if issue["id"] in seen:
                    problems["id"] = ["issue ids must be unique"]
                seen.add(issue["id"])
                if where == "issues" and issue["controller"] not in players:
                    problems["controller"] = [f"a settled issue needs a controller among {sorted(players)}"]
                if where == "issue_discard" and issue["controller"] is not None:
                    problems["controller"] = ["a discarded issue has no controller"]
                if issue["region"] is not None and issue["region"] not in regions:
                    problems["region"] = [f"unknown region {issue['region']!r}"]
                for o, option in enumerate(issue["options"]):
                    for e, effect in enumerate(option["effects"]):
                        if effect["type"] == "unrest" and effect["region"] not in regions:
                            problems.setdefault("options", {}).setdefault(o, {}).setdefault("effects", {})[e] = {
                                "region": [f"unknown region {effect['region']!r}"]}
                if problems:
                    errors.setdefault(where, {})[index] = problems
        return errors

    @marshmallow.post_load
    def _fill(self, data, **kwargs):
        """Fill the per-nation and per-region defaults the dict fields cannot."""
        data["uprising_levels"] = {**DEFAULT_UPRISING_LEVELS, **data["uprising_levels"]}
        data["happiness"] = {nation: data["happiness"].get(nation, DEFAULT_HAPPINESS) for nation in NATIONS}
        players = [*data["seat_order"], *(["USA"] if data["usa_faction"] else [])]
        for nation in players:
            player = data["players"].setdefault(nation, PlayerSchema().load({}))
            if player["units_available"] is None:
                owned = UNITS_PER_PLAYER if nation in data["seat_order"] else 0
                deployed = sum(nation in track["units"].values() for track in data["tracks"].values())
                player["units_available"] = owned - deployed - player["units_exhausted"] - player["units_demobilized"]
        for region in data["regions"]:
            data["tracks"].setdefault(region, TrackSchema().load({}))
        return data


def level(state: dict, region: str, column: int):
    """The printed uprising level of ``column`` in ``region`` (G-5)."""
    return state["region_uprising_levels"].get(region, {}).get(column, state["uprising_levels"].get(column, "X"))
