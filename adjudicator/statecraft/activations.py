"""One power's activation outside the grid phase: influence (§6.4), bribes (§6.5), an effect (§6.6).

These are the activations that put countries into conflict and move friendly
governments before the grid phase resolves them; the state names the acting
power in ``actor``.
"""
from __future__ import annotations

import copy

from marshmallow import fields, validate, validates_schema, ValidationError

from adjudicator.procedure import NO_DEFAULT, Decision, Outcome, Procedure
from adjudicator.statecraft import bots
from adjudicator.statecraft.effects import activation, end_of_activation
from adjudicator.statecraft.rules import bribe, bribe_choices
from adjudicator.statecraft.state import POWERS, GameSchema, add, check_effect


class ActivationState(GameSchema):
    actor = fields.String(required=True, validate=validate.OneOf(POWERS))
    effects = fields.List(fields.String(validate=check_effect), load_default=list)  # EFFECT only: the symbols

    @validates_schema
    def _actor_in_play(self, data, **kwargs):
        if "actor" in data and data["actor"] not in data.get("powers", {}):
            raise ValidationError(f"{data['actor']} not in play", "actor")


def room(game: dict, power: str) -> dict[str, int]:
    """Tokens ``power`` may still add per country: no marker, own count capped by CT (§6.1, §6.4.2)."""
    return {c["name"]: c["ct"] - c["influence"].get(power, 0) for c in game["grid"]
            if not c["conflict"] and c["ct"] > c["influence"].get(power, 0)}


def run_influence(state: dict):
    """§6.4: the actor places every token of its Influence space in one activation."""
    game = copy.deepcopy(state)
    actor = game.pop("actor")
    game.pop("effects")
    me = game["powers"][actor]
    tokens = me["planned_influence"]
    space = room(game, actor)
    must_place = min(tokens, sum(space.values()))
    plan: dict = {}
    if must_place:  # with no legal place at all there is nothing to decide
        if me["is_bot"]:  # §9.4.4: the bot's passes; what they cannot place goes back to the pool
            default = bots.influence_plan(game, actor, tokens)
            must_place = sum(default.values())
        elif len(space) == 1 or tokens >= sum(space.values()):
            default = {name: min(free, tokens) for name, free in space.items()}  # the only legal plan
        else:
            default = NO_DEFAULT  # the rules say all tokens are placed, not where: the actor must choose
        plan = yield Decision(actor, "place_influence_plan", choices=None, default=default, bot=me["is_bot"],
                              check=lambda answer: _plan_refusal(answer, space, tokens, must_place),
                              details={"tokens": tokens, "room": space, "must_place": must_place,
                                       "answer": "an object {country: number of tokens}"})
    events: list = []
    for name, n in plan.items():
        add(next(c for c in game["grid"] if c["name"] == name)["influence"], actor, n)
    me["planned_influence"] = 0
    me["pool"] += tokens - sum(plan.values())  # tokens with no legal place go back
    end_of_activation(game, list(plan), events)
    return Outcome({"placed": plan, "returned": tokens - sum(plan.values()), "events": events}, game)


def _plan_refusal(answer, space, tokens, must_place):
    if not isinstance(answer, dict):
        return "answer an object {country: number of tokens}"
    for name, n in answer.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            return f"{name}: place a whole number of tokens, at least 1"
        if name not in space:
            return f"{name}: not a country without a conflict marker where you are below CT"
        if n > space[name]:
            return f"{name}: at most {space[name]} more (the CT caps each faction, §6.1)"
    placed = sum(answer.values())
    if placed > tokens:
        return f"only {tokens} tokens are on your Influence space"
    if placed < must_place:
        return f"place all {must_place} tokens that can legally be placed (§6.4.3)"
    return None


def run_bribes(state: dict):
    """§6.5: one bribe action per token of the actor's Bribe space; the actor may stop at any time."""
    game = copy.deepcopy(state)
    actor = game.pop("actor")
    game.pop("effects")
    me = game["powers"][actor]
    actions, events = [], []
    # A human may stop at any time: its default is null.  A bot follows §9.4.5, planned for the
    # whole activation (pass 3 keeps bribing in one country after a majority) and re-planned only if
    # an answer departs from the plan.
    planned = bots.bribe_plan(game, actor, me["planned_bribes"]) if me["is_bot"] else []
    while me["planned_bribes"]:
        choices = bribe_choices(game, actor, from_pool=False)
        if not choices:
            break
        default = (planned[0] if planned else None) if me["is_bot"] else None
        action = yield Decision(actor, "bribe", choices=[None, *choices], default=default, bot=me["is_bot"],
                                details={"bribes_left": me["planned_bribes"]})
        if me["is_bot"]:
            planned = planned[1:] if planned and action == planned[0] else None
        if action is None:
            break
        if action["kind"] == "DEMO_TO_OWN":
            bribe(game, actor, action, events, token_from="planned_bribes")  # the token becomes influence
        else:
            bribe(game, actor, action, events)
            me["planned_bribes"] -= 1
            me["pool"] += 1  # a spent bribe token goes back to the pool
        actions.append(action)
        if me["is_bot"] and planned is None:
            planned = bots.bribe_plan(game, actor, me["planned_bribes"])
    returned = me["planned_bribes"]
    me["pool"] += returned  # unused bribe tokens go back to the pool (§6.5.4)
    me["planned_bribes"] = 0
    return Outcome({"actions": actions, "returned": returned, "events": events}, game)


def run_effect(state: dict):
    """§6.6: the actor executes ``effects`` as one effect activation."""
    game = copy.deepcopy(state)
    actor = game.pop("actor")
    effects = game.pop("effects")
    events = yield from activation(game, actor, effects, source="effect")
    return Outcome({"events": events}, game)


INFLUENCE = Procedure(
    "statecraft.influence", ActivationState, run_influence, version="2",
    summary="One power's influence activation (spec §6.4): it places the tokens of its Influence space "
            "under the CT cap, then conflict markers and friendly governments are updated.",
    participants="The acting power named in actor (EU, USA, CHN or RUS), who chooses where its tokens go "
                 "(a bot's plan is marked bot); nothing is rolled.")
BRIBES = Procedure(
    "statecraft.bribes", ActivationState, run_bribes, version="2",
    summary="One power's bribe activation (spec §6.5): one bribe action per token of its Bribe space, each "
            "followed by the friendly-government update; the power may stop early.",
    participants="The acting power named in actor (EU, USA, CHN or RUS), who chooses each bribe action "
                 "(a bot's are marked bot); nothing is rolled.")
EFFECT = Procedure(
    "statecraft.effect", ActivationState, run_effect, version="2",
    summary="One effect activation (spec §2.8, §6.6), such as a support-track or leader effect: the actor "
            "executes the listed effect symbols, then conflict markers and governments are updated.",
    participants="The acting power named in actor (EU, USA, CHN or RUS), who chooses the countries, bribes "
                 "and swaps its effects ask for (a bot's are marked bot); nothing is rolled.")
