"""Nations game state: the input schemas, derived values and the §2.8 invariants.

The engines take the whole game state (spec §2) as plain JSON-like data.  Data
the source does not give (card lists, war card values, board layouts; spec §6)
is part of the input; where it is absent the documented defaults apply.

Strength and stability are never stored: they are derived from the cards and
the population track (§2.3), so a worker moved by an event changes them the
way the rulebook says.
"""
from __future__ import annotations

import copy

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

RESOURCES = ("gold", "stone", "food", "knowledge")
MATERIALS = ("gold", "stone", "food")  # the types a knowledge shortage can spill into (§4.1.2)
SECTION_LIMIT = 3  # no population section ever holds more than 3 workers (§1.7.1)
REVOLT = float("-inf")  # every revolting nation ranks equal and below all others (§4.3.3)

# Special cards with a ruling in §4.14 that these engines apply.
ELIZABETH, GREAT_WALL, VERSAILLES, ANNA_KOMNENE = "Elizabeth", "Great Wall", "Versailles", "Anna Komnene"
# Events with a 5-player ruling in §4.14 beyond the §4.8.8 primitives: named hooks on an event part.
OLYMPIC_GAMES, GLORIOUS_REVOLUTION, FOURTH_CRUSADE = "Olympic Games", "Glorious Revolution", "Fourth Crusade"
HOOKS = (OLYMPIC_GAMES, GLORIOUS_REVOLUTION, FOURTH_CRUSADE)

NonNegative = validate.Range(min=0)


def _zeroes():
    return {t: 0 for t in RESOURCES}


def _unflagged():
    return {t: False for t in RESOURCES}


def _default_population():
    # [DEF, G-5] Board layouts are not in the source: one full food section and
    # one full stability section, capacity 3 and cost 3 each (§2.2.2).
    return [{"kind": "food", "capacity": 3, "cost": 3, "present": 3},
            {"kind": "stability", "capacity": 3, "cost": 3, "present": 3}]


class ResourcesSchema(Schema):
    gold = fields.Integer(load_default=0, validate=NonNegative, strict=True)
    stone = fields.Integer(load_default=0, validate=NonNegative, strict=True)
    food = fields.Integer(load_default=0, validate=NonNegative, strict=True)
    knowledge = fields.Integer(load_default=0, validate=NonNegative, strict=True)


class ShortageFlagsSchema(Schema):
    gold = fields.Boolean(load_default=False)
    stone = fields.Boolean(load_default=False)
    food = fields.Boolean(load_default=False)
    knowledge = fields.Boolean(load_default=False)


class SectionSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["food", "stability"]))
    capacity = fields.Integer(load_default=3, strict=True, validate=validate.Range(min=0, max=SECTION_LIMIT))
    cost = fields.Integer(load_default=3, strict=True, validate=NonNegative)
    present = fields.Integer(required=True, strict=True, validate=NonNegative)

    @validates_schema
    def _fits(self, data, **kwargs):
        if data.get("present", 0) > data.get("capacity", 3):
            raise ValidationError("more workers than the section's capacity", "present")


class PerWorkerSchema(Schema):
    strength = fields.Integer(load_default=0, strict=True)
    stability = fields.Integer(load_default=0, strict=True)


class SlotCardSchema(Schema):
    id = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["building", "military"]))
    per_worker = fields.Nested(PerWorkerSchema, load_default=lambda: {"strength": 0, "stability": 0})
    # Per worker, for production (§2.3.3): what a building yields, what a military costs.
    production = fields.Nested(ResourcesSchema, load_default=_zeroes)
    upkeep = fields.Nested(ResourcesSchema, load_default=_zeroes)
    # VP for the 1st, 2nd, ... worker at final scoring (§4.11 D); workers beyond the list score nothing.
    worker_vp = fields.List(fields.Integer(strict=True, validate=NonNegative), load_default=list)


class SlotSchema(Schema):
    card = fields.Nested(SlotCardSchema, required=True, allow_none=True)
    workers = fields.Integer(load_default=0, strict=True, validate=NonNegative)

    @validates_schema
    def _manned_card(self, data, **kwargs):
        if data.get("card") is None and data.get("workers", 0):
            raise ValidationError("an empty slot cannot hold workers", "workers")


class ProductionItemSchema(Schema):
    """A flat per-round production (+) or consumption (-) from a colony, wonder, advisor or other card."""

    resource = fields.String(required=True, validate=validate.OneOf(RESOURCES))
    amount = fields.Integer(required=True, strict=True)
    source = fields.String(load_default=None, allow_none=True)


class ColonySchema(Schema):
    id = fields.String(required=True)
    vp = fields.Integer(load_default=0, strict=True, validate=NonNegative)  # printed VP (§4.11 B)


class WonderSchema(Schema):
    """A completed wonder: its printed VP and the VP its special effect adds at final scoring (§4.11 C)."""

    id = fields.String(required=True)
    vp = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    special_vp = fields.Integer(load_default=0, strict=True, validate=NonNegative)


class NationSchema(Schema):
    resources = fields.Nested(ResourcesSchema, load_default=_zeroes)
    vp = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    shortage_vp_charged = fields.Nested(ShortageFlagsSchema, load_default=_unflagged)
    population = fields.List(fields.Nested(SectionSchema), load_default=_default_population)
    overflow = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    idle_workers = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    bm_slots = fields.List(fields.Nested(SlotSchema), load_default=list)
    # Flat strength / stability from colonies, wonders, advisors and printed
    # board features (§2.3.1-2.3.2): card data the source does not list [G-1].
    strength_bonus = fields.Integer(load_default=0, strict=True)
    stability_bonus = fields.Integer(load_default=0, strict=True)
    production_items = fields.List(fields.Nested(ProductionItemSchema), load_default=list)
    # Names of owned cards whose §4.14 ruling matters here (Elizabeth, Great
    # Wall, a completed Versailles).
    specials = fields.List(fields.String(), load_default=list)
    # Great Exhibition: architects the nation may still hire from the supply
    # without paying stone (§4.14).
    free_architects = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    # Final scoring only (§4.11 B, C); their strength and stability are in the flat bonuses above.
    colonies = fields.List(fields.Nested(ColonySchema), load_default=list, validate=validate.Length(max=2))
    wonders_done = fields.List(fields.Nested(WonderSchema), load_default=list, validate=validate.Length(max=5))


class WarCardSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(load_default=None, allow_none=True)
    # Resources printed at the bottom of the card, in card order (the default
    # order of the stability reduction, §4.15) [G-3].
    loss = fields.Dict(keys=fields.String(validate=validate.OneOf(RESOURCES)),
                       values=fields.Integer(strict=True, validate=NonNegative), required=True)
    # [G-3] The source's text uses 1 VP.
    vp_loss = fields.Integer(load_default=1, strict=True, validate=NonNegative)


class WarSchema(Schema):
    card = fields.Nested(WarCardSchema, required=True)
    marker = fields.Integer(required=True, strict=True, validate=NonNegative)
    buyer = fields.String(load_default=None, allow_none=True)


class OptionsSchema(Schema):
    # [A-12] 5 players, two nations tied for first: "both" get a good effect
    # (the spec's reading) or "none" (the strict reading of the tie rule).
    five_player_first_tie = fields.String(load_default="both", validate=validate.OneOf(["both", "none"]))


# --- event cards (§2.5, effect model §4.8.8) ---------------------------------

METRICS = ("strength", "stability", "pass", "vp", *RESOURCES)
PRIMITIVES = ("gain", "lose", "pay", "vp", "workers", "order", "strength", "architects_free")


class Selector(fields.Field):
    """``"all"``, ``{"best": metric}``, ``{"worst": metric}`` or ``{"except_best": [metric, ...]}``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "all":
            return value
        if isinstance(value, dict) and len(value) == 1:
            (how, metric), = value.items()
            if how in ("best", "worst") and metric in METRICS:
                return {how: metric}
            if how == "except_best" and isinstance(metric, list) and metric and all(m in METRICS for m in metric):
                return {how: list(metric)}
        raise ValidationError(f'expected "all", {{"best"|"worst": metric}} or {{"except_best": [metric, ...]}}'
                              f" with a metric among {list(METRICS)}")


def _amounts():
    return fields.Dict(keys=fields.String(validate=validate.OneOf(RESOURCES)),
                       values=fields.Integer(strict=True, validate=NonNegative))


class Position(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if value in ("first", "last") or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
            return value
        raise ValidationError('expected "first", "last" or a position from 1')


class EffectSchema(Schema):
    """One primitive of §4.8.8; ``to`` says whether it reaches the chosen nation or every other one."""

    gain = _amounts()
    lose = _amounts()  # a forced loss (§4.1)
    pay = _amounts()  # a voluntary payment: an option with one is legal only if affordable (§4.1.1)
    vp = fields.Integer(strict=True)
    workers = fields.Integer(strict=True)
    order = Position()
    strength = fields.Integer(strict=True)  # strength_delta, never below 0 (Sinking of the Vasa)
    architects_free = fields.Integer(strict=True, validate=NonNegative)  # Great Exhibition
    to = fields.String(load_default="self", validate=validate.OneOf(["self", "others"]))

    @validates_schema
    def _one_primitive(self, data, **kwargs):
        present = [key for key in PRIMITIVES if key in data]
        if len(present) != 1:
            raise ValidationError(f"an effect needs exactly one of {list(PRIMITIVES)}, got {present}", "_schema")


def _payments_are_own(effects: list, field: str) -> None:
    if any("pay" in e and e["to"] != "self" for e in effects or []):
        raise ValidationError("a payment is made by the chooser itself", field)


class OptionSchema(Schema):
    name = fields.String(required=True)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)

    @validates_schema
    def _own_payments(self, data, **kwargs):
        _payments_are_own(data.get("effects"), "effects")


class ChoiceSchema(Schema):
    options = fields.List(fields.Nested(OptionSchema), required=True, validate=validate.Length(min=2))
    # [DEF §4.15] no default: the service waits for the choice.  Card data may name one.
    default = fields.String(load_default=None, allow_none=True)
    # One decision for the whole target set, by its best member (ties by
    # player order): Zoroastrian Revival in 5 players [A-15].
    single_chooser = fields.Boolean(load_default=False)

    @validates_schema
    def _names(self, data, **kwargs):
        names = [o["name"] for o in data.get("options", [])]
        if len(set(names)) != len(names):
            raise ValidationError("option names must be distinct", "options")
        if data.get("default") is not None and data["default"] not in names:
            raise ValidationError("must name one of the options", "default")


class PartSchema(Schema):
    """One part of an event: who it reaches, whether it is good or bad, and what it does."""

    selector = Selector(required=True)
    polarity = fields.String(required=True, validate=validate.OneOf(["good", "bad"]))
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)
    choice = fields.Nested(ChoiceSchema, load_default=None, allow_none=True)
    all_or_nothing = fields.List(fields.Nested(EffectSchema), load_default=None, allow_none=True)
    # A §4.14 5-player ruling that applies to this part (Olympic Games, Glorious Revolution, Fourth Crusade).
    hook = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(HOOKS))

    @validates_schema
    def _well_formed(self, data, **kwargs):
        if data.get("choice") is not None and data.get("all_or_nothing") is not None:
            raise ValidationError("give either a choice or an all_or_nothing package, not both", "all_or_nothing")
        hook, selector = data.get("hook"), data.get("selector")
        if hook is not None and not (isinstance(selector, dict) and "best" in selector):
            raise ValidationError(f"the {hook} ruling ranks nations: its part needs a {{\"best\": metric}} selector",
                                  "hook")
        if hook in (OLYMPIC_GAMES, FOURTH_CRUSADE) and data.get("polarity") != "good":
            raise ValidationError(f"the {hook} ruling is about a good effect", "hook")
        # A payment is voluntary (§4.1.1), so it is only ever one option of a choice.
        if any("pay" in e for e in data.get("effects") or []):
            raise ValidationError("a payment can only be an option of a choice; use lose for a forced loss", "effects")
        _payments_are_own(data.get("all_or_nothing"), "all_or_nothing")


class EventSchema(Schema):
    name = fields.String(load_default=None, allow_none=True)
    parts = fields.List(fields.Nested(PartSchema), required=True, validate=validate.Length(min=1))


class EventCardSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(load_default=None, allow_none=True)
    architects = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    famine = fields.Integer(load_default=0, strict=True, validate=NonNegative)
    event1 = fields.Nested(EventSchema, load_default=None, allow_none=True)
    event2 = fields.Nested(EventSchema, load_default=None, allow_none=True)


def _default_options():
    return {"five_player_first_tie": "both"}


class GameStateSchema(Schema):
    """The state every Nations engine reads (spec §2.1-2.2)."""

    nations = fields.Dict(keys=fields.String(), values=fields.Nested(NationSchema), required=True,
                          validate=validate.Length(min=1, max=5))
    player_order = fields.List(fields.String(), required=True)
    pass_order = fields.List(fields.String(), load_default=list)
    round = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=8))
    war = fields.Nested(WarSchema, load_default=None, allow_none=True)
    war_bought_this_round = fields.Boolean(load_default=False)
    # [DEF, G-10] no event card: 0 architects, 0 famine, no events.
    current_event = fields.Nested(EventCardSchema, load_default=None, allow_none=True)
    discard = fields.List(fields.String(), load_default=list)
    options = fields.Nested(OptionsSchema, load_default=_default_options)

    @validates_schema
    def _consistent(self, data, **kwargs):
        nations = set(data.get("nations") or {})
        order = data.get("player_order")
        if order is not None and nations and (sorted(order) != sorted(nations)):
            raise ValidationError("must list every nation exactly once", "player_order")
        passed = data.get("pass_order") or []
        if len(set(passed)) != len(passed) or not set(passed) <= nations:
            raise ValidationError("must list distinct known nations", "pass_order")
        war = data.get("war")
        if war and war.get("buyer") is not None and war["buyer"] not in nations:
            raise ValidationError({"buyer": ["unknown nation"]}, "war")


# --- derived values (§2.3) --------------------------------------------------

def strength(nation: dict) -> int:
    """Military strength: manned military cards plus flat strength, never below 0."""
    total = nation["strength_bonus"] + sum(
        slot["workers"] * slot["card"]["per_worker"]["strength"]
        for slot in nation["bm_slots"] if slot["card"] is not None)
    return max(0, total)


def stability(nation: dict) -> int:
    """Stability: per-worker card values, flat values, minus each missing stability worker's cost."""
    cards = sum(slot["workers"] * slot["card"]["per_worker"]["stability"]
                for slot in nation["bm_slots"] if slot["card"] is not None)
    missing = sum((s["capacity"] - s["present"]) * s["cost"] for s in nation["population"] if s["kind"] == "stability")
    return nation["stability_bonus"] + cards - missing


def net_production(nation: dict) -> dict[str, int]:
    """Net production of one production step, every resource netted (§2.3.3, §4.4.1)."""
    net = {t: 0 for t in RESOURCES}
    for slot in nation["bm_slots"]:
        card = slot["card"]
        if card is None or not slot["workers"]:
            continue
        for t in RESOURCES:
            net[t] += slot["workers"] * card["production"][t]
            # Anna Komnene cancels the resource upkeep of military cards only [A-21].
            if not (card["type"] == "military" and owns(nation, ANNA_KOMNENE)):
                net[t] -= slot["workers"] * card["upkeep"][t]
    for item in nation["production_items"]:
        net[item["resource"]] += item["amount"]
    net["food"] -= sum((s["capacity"] - s["present"]) * s["cost"] for s in nation["population"] if s["kind"] == "food")
    return net


def compared_stability(nation: dict) -> float:
    """Stability as "most/least stable" sees it: revolt and Versailles rank as REVOLT (§4.3.3, §4.14)."""
    value = stability(nation)
    return REVOLT if value < 0 or VERSAILLES in nation["specials"] else value


def owns(nation: dict, card: str) -> bool:
    return card in nation["specials"]


def widening(state: dict) -> int:
    """k of §4.3.4: 5-player games reach the second place too."""
    return 2 if len(state["nations"]) == 5 else 1


def passed_first(state: dict, nation_id: str) -> bool:
    """"Passed first" (first or second in 5 players, §4.12.4)."""
    order = state["pass_order"]
    return nation_id in order and order.index(nation_id) < widening(state)


# --- invariants (§2.8) ------------------------------------------------------

def invariant_violations(state: dict) -> list[str]:
    """Every §2.8 invariant these engines can break, as readable complaints."""
    problems = []
    for nid, nation in state["nations"].items():
        for t in RESOURCES:
            if nation["resources"][t] < 0:
                problems.append(f"{nid}: {t} is negative")
        if nation["vp"] < 0:
            problems.append(f"{nid}: VP is negative")
        if strength(nation) < 0:
            problems.append(f"{nid}: strength is negative")
        for index, section in enumerate(nation["population"]):
            if not 0 <= section["present"] <= min(section["capacity"], SECTION_LIMIT):
                problems.append(f"{nid}: population section {index} holds {section['present']}")
        if nation["overflow"] < 0 or nation["idle_workers"] < 0 or any(s["workers"] < 0 for s in nation["bm_slots"]):
            problems.append(f"{nid}: a negative worker count")
    return problems


def checked(state: dict) -> dict:
    """Return ``state`` after checking the invariants; a violation is an engine bug."""
    problems = invariant_violations(state)
    if problems:
        raise AssertionError("invariants broken: " + "; ".join(problems))
    return state


def working_copy(state: dict) -> dict:
    """Engines never change the caller's (replayed) state."""
    return copy.deepcopy(state)
