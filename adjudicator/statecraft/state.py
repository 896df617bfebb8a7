"""Statecraft game state: names from the rulebook, the input schema and small helpers.

One state shape serves every Statecraft procedure (spec §3): the powers, the
country grid, the diplomatic bag, the institutions, the resource track, the
current UN card and the rule options (spec §12.3).  Data the source does not
give (country cards, base markets, UN cards, ...) is part of this state, with
the spec's defaults when absent.
"""
from __future__ import annotations

import re

import marshmallow
from marshmallow import fields, validate, validates_schema, ValidationError, post_load

POWERS = ("EU", "USA", "CHN", "RUS")
DEMO = "DEMO"
FACTIONS = POWERS + (DEMO,)
INSTITUTIONS = ("DAVOS", "IMF", "PRESS", "UN")  # board order = resolution order (§2.7)
RESOURCES = ("CROPS", "GOODS", "HYDROCARBONS", "METALS")
SUPPORT_TOP = 9
AGENDA_SPACES = ("debate", "influence", "bribe", "spy")  # the personal agenda (§2.6), in printed order
# Final PP of each support position 1..9 (§5.8.2): the source gives only the range -2..5; placeholder (G-4).
DEFAULT_SUPPORT_FINAL_PP = [-2, -1, 0, 0, 1, 2, 3, 4, 5]

# Resource track as set up (§2.4.2), lowest space first.
INITIAL_TRACK = ["CROPS", "GOODS", "HYDROCARBONS", "METALS"]
# Placeholder base markets (§12.1 G-6).
DEFAULT_BASE_MARKET = {"EU": ["CROPS"], "USA": ["GOODS"], "CHN": ["METALS"], "RUS": ["HYDROCARBONS"]}

SIMPLE_EFFECTS = (
    "PP_METALS", "PP_HYDROCARBONS", "PP_CROPS", "PP_GOODS",
    "PLACE_INFLUENCE", "PLACE_INFLUENCE_ISLAMIC",
    "PLACE_DEMO", "PLACE_DEMO_ISLAMIC", "PLACE_DEMO_OWN_FG",
    "BRIBE", "SPY",
    "COUNT_CROPS", "COUNT_GOODS", "COUNT_HYDROCARBONS", "COUNT_METALS",
    "SWAP_RESOURCES", "SUPPORT_UP", "SUPPORT_DOWN", "VOTE_TO_BAG",
)
PP_DELTA = re.compile(r"^PP_DELTA\((-?\d+)\)$")


def default_extra_dice(ct: int) -> int:
    """D4 as it follows from CT (§2.1.2): CT 2 -> 3, CT 3 -> 2, CT >= 4 -> 1."""
    return {2: 3, 3: 2}.get(ct, 1)


def check_effect(value: str) -> None:
    if value not in SIMPLE_EFFECTS and not PP_DELTA.match(value):
        raise ValidationError(f"unknown effect {value!r}; use a §2.8 id or PP_DELTA(n)")


class Counts(fields.Dict):
    """{faction -> count >= 0}; zero counts are dropped on load."""

    def __init__(self, keys=FACTIONS, **kwargs):
        super().__init__(keys=fields.String(validate=validate.OneOf(keys)),
                         values=fields.Integer(strict=True, validate=validate.Range(min=0)), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return {k: v for k, v in super()._deserialize(value, attr, data, **kwargs).items() if v}


class OptionsSchema(marshmallow.Schema):
    """Configurable readings (spec §12.3); only the keys these resolvers use."""

    resource_values = fields.List(fields.Integer(strict=True), load_default=lambda: [0, 1, 1, 2],
                                  validate=validate.Length(equal=4))
    demo_support_mode = fields.String(load_default="add_successes", validate=validate.OneOf(["add_successes", "off"]))
    demo_support_scope = fields.String(load_default="participants", validate=validate.OneOf(["participants", "global"]))
    spy_passes = fields.String(load_default="repeat_until_all_decline",
                               validate=validate.OneOf(["repeat_until_all_decline", "single_pass"]))
    final_conflict_spies = fields.Boolean(load_default=True)
    winner_vote_carries = fields.String(load_default="counts", validate=validate.OneOf(
        ["counts", "to_bag_before_voting", "to_pool_before_voting"]))
    un_no_majority = fields.String(load_default="no_effect", validate=validate.OneOf(["no_effect", "all_minority"]))
    # TV-29(c): the source says "if the first is impossible, raise the second"; raising metals over
    # hydrocarbons is possible, so the literal reading is the default here (the spec's [DEF] is the option).
    imf_protect_priority = fields.Boolean(load_default=False)
    fallback_order = fields.List(fields.String(validate=validate.OneOf(POWERS)), load_default=lambda: list(POWERS))
    # Final scoring (§5.8.2): the PP of each support position, lowest first (G-4 placeholder), the votes
    # left in the bag per PP (floor, A-42), and what decides a tie on PP and leader value.
    support_final_pp = fields.List(fields.Integer(strict=True), load_default=lambda: list(DEFAULT_SUPPORT_FINAL_PP),
                                   validate=validate.Length(equal=SUPPORT_TOP))
    votes_per_pp = fields.Integer(strict=True, load_default=2, validate=validate.Range(min=1))
    final_tie_fallback = fields.String(load_default="shared", validate=validate.OneOf(["shared", "fallback_order"]))

    @validates_schema
    def _fallback_is_a_permutation(self, data, **kwargs):
        if "fallback_order" in data and sorted(data["fallback_order"]) != sorted(POWERS):
            raise ValidationError("must list EU, USA, CHN and RUS once each", "fallback_order")


class PowerSchema(marshmallow.Schema):
    pp = fields.Integer(strict=True, required=True)
    leader_value = fields.Integer(strict=True, required=True)  # F2 (bots: card field B)
    pool = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    support = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=SUPPORT_TOP))
    spy = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))  # tokens on AGENDA.SPY
    # Tokens on AGENDA.INFLUENCE and AGENDA.BRIBE, spent by the influence and bribe activations.
    planned_influence = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    planned_bribes = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    press_protected = fields.Boolean(load_default=False)
    is_bot = fields.Boolean(load_default=False)
    base_market = fields.List(fields.String(validate=validate.OneOf(RESOURCES)), load_default=None)
    market_priority = fields.List(fields.String(validate=validate.OneOf(RESOURCES)), load_default=list)  # bot card G
    primary_symbols = fields.List(fields.String(), load_default=list)  # bot card C
    secondary_symbols = fields.List(fields.String(), load_default=list)  # bot card D
    # Bot card E: rows of agenda-space icons, row 1 for the primary symbols, row 2 for the secondary (§9.3).
    action_table = fields.List(fields.List(fields.String(validate=validate.OneOf(AGENDA_SPACES))), load_default=list)


class CountrySchema(marshmallow.Schema):
    name = fields.String(required=True, validate=validate.Length(min=1))
    row = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    col = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    ct = fields.Integer(strict=True, required=True, validate=validate.Range(min=2))  # G-1: CT < 2 rejected
    extra_dice = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0))
    islamic = fields.Boolean(load_default=False)
    reward = fields.List(fields.String(validate=check_effect), load_default=list)
    symbols = fields.List(fields.String(), load_default=list)
    resource_symbols = fields.List(fields.String(validate=validate.OneOf(RESOURCES)), load_default=list)
    influence = Counts(load_default=dict)
    fg = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(POWERS))
    conflict = fields.Boolean(load_default=False)

    @validates_schema
    def _invariants(self, data, **kwargs):
        influence, ct = data.get("influence", {}), data.get("ct")
        if ct is None:
            return
        over = [f for f, n in influence.items() if n > ct]
        if over:  # CT invariant §3.5.2
            raise ValidationError(f"{', '.join(over)} above the conflict threshold {ct}", "influence")
        fg = data.get("fg")
        if fg is not None and influence.get(fg, 0) < 1:  # §3.3.1
            raise ValidationError(f"the FG holder {fg} has no influence token here", "fg")
        total = sum(influence.values())
        if data.get("conflict", False) != (total > ct):  # conflict invariant §3.5.3
            raise ValidationError(f"a conflict marker is present if and only if the total influence ({total}) "
                                  f"is above CT {ct}", "conflict")

    @post_load
    def _printed_extra_dice(self, data, **kwargs):
        if data["extra_dice"] is None:
            data["extra_dice"] = default_extra_dice(data["ct"])
        return data


class CellSchema(marshmallow.Schema):
    row = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    col = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))


class SoloAgendaCardSchema(marshmallow.Schema):
    """A solo agenda card (§9.1): its icons put tokens on agenda spaces (G); its bar colours (H)."""

    actions = fields.List(fields.String(validate=validate.OneOf(AGENDA_SPACES)), load_default=list)
    left = fields.String(load_default="")
    right = fields.String(load_default="")


class UNCardSchema(marshmallow.Schema):
    name = fields.String(load_default="")
    majority = fields.List(fields.String(validate=check_effect), load_default=list)  # E2
    minority = fields.List(fields.String(validate=check_effect), load_default=list)  # E3


def _institutions_default():
    return {i: {} for i in INSTITUTIONS}


class GameSchema(marshmallow.Schema):
    powers = fields.Dict(keys=fields.String(validate=validate.OneOf(POWERS)), values=fields.Nested(PowerSchema),
                         required=True, validate=validate.Length(min=1, max=4))
    grid = fields.List(fields.Nested(CountrySchema), load_default=list)
    bag = Counts(load_default=dict)
    set_aside_demo = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    demo_supply = fields.Integer(strict=True, load_default=None, allow_none=True,
                                 validate=validate.Range(min=0))  # None = unlimited (G-7)
    institutions = fields.Dict(keys=fields.String(validate=validate.OneOf(INSTITUTIONS)),
                               values=Counts(keys=POWERS), load_default=_institutions_default)
    controller = fields.Dict(keys=fields.String(validate=validate.OneOf(INSTITUTIONS)),
                             values=fields.String(allow_none=True, validate=validate.OneOf(POWERS)),
                             load_default=dict)
    resource_track = fields.List(fields.String(validate=validate.OneOf(RESOURCES)),
                                 load_default=lambda: list(INITIAL_TRACK))
    un_card = fields.Nested(UNCardSchema, load_default=None, allow_none=True)
    marker_1 = fields.Nested(CellSchema, load_default=None, allow_none=True)  # the solo [1] token (§9.4.1)
    solo_agenda_row = fields.List(fields.Nested(SoloAgendaCardSchema), load_default=list)  # §9.3, §9.8
    options = fields.Nested(OptionsSchema, load_default=lambda: OptionsSchema().load({}))

    @validates_schema
    def _consistency(self, data, **kwargs):
        errors: dict = {}
        powers = data.get("powers", {})
        track = data.get("resource_track")
        if track is not None and sorted(track) != sorted(RESOURCES):
            errors["resource_track"] = ["must hold each of CROPS, GOODS, HYDROCARBONS, METALS once"]
        seen_names, seen_cells = set(), set()
        for index, country in enumerate(data.get("grid", [])):
            problems = {}
            if country["name"] in seen_names:
                problems["name"] = [f"duplicate country {country['name']!r}"]
            if (country["row"], country["col"]) in seen_cells:
                problems["col"] = [f"two countries at ({country['row']}, {country['col']})"]
            strangers = [f for f in country["influence"] if f != DEMO and f not in powers]
            if strangers:
                problems["influence"] = [f"{', '.join(strangers)} not in play"]
            if country["fg"] is not None and country["fg"] not in powers:
                problems["fg"] = [f"{country['fg']} not in play"]
            seen_names.add(country["name"])
            seen_cells.add((country["row"], country["col"]))
            if problems:
                errors.setdefault("grid", {})[index] = problems
        strangers = [f for f in data.get("bag", {}) if f != DEMO and f not in powers]
        if strangers:
            errors["bag"] = [f"{', '.join(strangers)} not in play"]
        for name, votes in data.get("institutions", {}).items():
            strangers = [p for p in votes if p not in powers]
            if strangers:
                errors.setdefault("institutions", {})[name] = [f"{', '.join(strangers)} not in play"]
        if errors:
            raise ValidationError(errors)

    @post_load
    def _complete(self, data, **kwargs):
        data["institutions"] = {i: dict(data["institutions"].get(i, {})) for i in INSTITUTIONS}
        for power_id, power in data["powers"].items():
            if power["base_market"] is None:
                power["base_market"] = list(DEFAULT_BASE_MARKET[power_id])
        data["grid"] = sorted(data["grid"], key=lambda c: (c["row"], c["col"]))  # reading order
        return data


# --- helpers shared by the resolvers -------------------------------------------------

def initiative(game: dict) -> list[str]:
    """Powers in initiative order (§3.6.1): most PP, then higher leader value, then the fallback order."""
    fallback = game["options"]["fallback_order"]
    return sorted(game["powers"], key=lambda p: (-game["powers"][p]["pp"], -game["powers"][p]["leader_value"],
                                                 fallback.index(p)))


def country(game: dict, name: str) -> dict:
    for c in game["grid"]:
        if c["name"] == name:
            return c
    raise KeyError(name)


def total(c: dict) -> int:
    return sum(c["influence"].values())


def add(counts: dict, key: str, n: int) -> None:
    """Add n (possibly negative) to a count, dropping it at zero."""
    value = counts.get(key, 0) + n
    if value < 0:
        raise AssertionError(f"count of {key} would go negative")
    if value:
        counts[key] = value
    else:
        counts.pop(key, None)


def sole_majority(counts: dict) -> str | None:
    """The key with strictly more than every other, with at least 1 (§3.6.2, A-40)."""
    present = {k: n for k, n in counts.items() if n > 0}
    if not present:
        return None
    best = max(present.values())
    top = [k for k, n in present.items() if n == best]
    return top[0] if len(top) == 1 else None


def update_fg(c: dict) -> None:
    """§6.3.1: the FG changes only on a sole majority; demonstrators empty it, a tie keeps it."""
    if c["fg"] is not None and c["influence"].get(c["fg"], 0) == 0:
        c["fg"] = None
    top = sole_majority(c["influence"])
    if top is not None:
        c["fg"] = None if top == DEMO else top


def demo_from_supply(game: dict) -> bool:
    """Take one demonstrator from the supply; False if the (finite) supply is empty."""
    if game["demo_supply"] is None:
        return True
    if game["demo_supply"] == 0:
        return False
    game["demo_supply"] -= 1
    return True


def demo_to_supply(game: dict, n: int = 1) -> None:
    if game["demo_supply"] is not None:
        game["demo_supply"] += n


def resource_value(game: dict, resource: str) -> int:
    return game["options"]["resource_values"][game["resource_track"].index(resource)]
