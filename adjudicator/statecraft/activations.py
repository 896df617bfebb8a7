"""One power's activation outside the grid phase: influence (§6.4), bribes (§6.5), an effect (§6.6).

These are the activations that put countries into conflict and move friendly
governments before the grid phase resolves them; the state names the acting
power in ``actor``.
"""
from __future__ import annotations

import copy

from marshmallow import fields, validate, validates_schema, ValidationError

from adjudicator.procedure import Decision, Outcome, Procedure
from adjudicator.statecraft.effects import activation, bribe, bribe_choices, end_of_activation
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
        plan = yield Decision(actor, "place_influence_plan", choices=None, default=_greedy(space, must_place),
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


def _greedy(space: dict, n: int) -> dict:
    plan = {}
    for name, free in space.items():  # reading order
        if n == 0:
            break
        plan[name] = min(free, n)
        n -= plan[name]
    return plan


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
    while me["planned_bribes"]:
        choices = bribe_choices(game, actor, from_pool=False)
        if not choices:
            break
        action = yield Decision(actor, "bribe", choices=[None, *choices], default=None,
                                details={"bribes_left": me["planned_bribes"]})
        if action is None:
            break
        if action["kind"] == "DEMO_TO_OWN":
            bribe(game, actor, action, events, token_from="planned_bribes")  # the token becomes influence
        else:
            bribe(game, actor, action, events)
            me["planned_bribes"] -= 1
            me["pool"] += 1  # a spent bribe token goes back to the pool
        actions.append(action)
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


INFLUENCE = Procedure("statecraft.influence", ActivationState, run_influence)
BRIBES = Procedure("statecraft.bribes", ActivationState, run_bribes)
EFFECT = Procedure("statecraft.effect", ActivationState, run_effect)
