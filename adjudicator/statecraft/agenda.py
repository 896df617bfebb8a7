"""Agenda phase (spec §5.2) and the Debate step that opens agenda execution (§5.3.1 step 2).

Each power takes up to 5 tokens from its pool and the spies left on its Spy
space from the previous round; how many it holds is public (§5.2.2).  All
powers then plan at once and in secret behind their screens (§5.2.3): that is
one sealed step, whose parts are revealed together.  Then every Debate token
goes into the diplomatic bag; Influence and Bribe tokens wait for their
activations (``statecraft.influence``, ``statecraft.bribes``) and spies stay.
"""
from __future__ import annotations

import copy

from marshmallow import validates_schema, ValidationError

from adjudicator.procedure import NO_DEFAULT, Decision, Outcome, Procedure, Sealed
from adjudicator.statecraft import bots
from adjudicator.statecraft.state import AGENDA_SPACES, GameSchema, add

DRAW = 5  # tokens taken from the pool each agenda phase (§5.2.1)


class AgendaState(GameSchema):
    """The game state at the start of an agenda phase: the Influence and Bribe spaces are empty."""

    @validates_schema
    def _agenda_ready(self, data, **kwargs):
        errors = {}
        for power_id, power in data.get("powers", {}).items():
            problems = {}
            for space in ("planned_influence", "planned_bribes"):
                if power.get(space, 0):
                    problems[space] = ["must be 0: last round's tokens were spent in their activations"]
            if power.get("is_bot") and not power.get("action_table"):
                problems["action_table"] = ["a bot plans from its bot card's action table (§9.3): give its rows"]
            if problems:
                errors[power_id] = problems
        if errors:
            raise ValidationError({"powers": errors})


def hand(power: dict) -> dict[str, int]:
    """§5.2.1: up to 5 tokens from the pool (fewer if it has fewer) plus last round's spies."""
    drawn = min(DRAW, power["pool"])
    return {"from_pool": drawn, "from_spy": power["spy"], "tokens": drawn + power["spy"]}


def _plan_refusal(answer, tokens: int) -> str | None:
    if not isinstance(answer, dict) or set(answer) != set(AGENDA_SPACES):
        return f"answer an object with the four spaces {list(AGENDA_SPACES)} and a number of tokens for each"
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in answer.values()):
        return "each space takes a whole number of tokens, 0 or more"
    if sum(answer.values()) != tokens:
        return f"the plan places {sum(answer.values())} tokens; you hold {tokens} and must place them all (§5.2.3)"
    return None


def _plan_decision(game: dict, power_id: str, held: dict) -> Decision:
    power = game["powers"][power_id]
    tokens = held["tokens"]
    # A bot's plan is its §9.3 rule.  A human's has no default: the rules leave the split to the player.
    default = bots.agenda_plan(game, power_id, tokens) if power["is_bot"] else NO_DEFAULT
    return Decision(power_id, "agenda_plan", choices=None, default=default, bot=power["is_bot"],
                    check=lambda answer: _plan_refusal(answer, tokens),
                    details={**held, "spaces": list(AGENDA_SPACES),
                             "answer": "an object {debate, influence, bribe, spy: tokens}, summing to tokens"})


def run_agenda(state: dict):
    game = copy.deepcopy(state)
    held = {p: hand(power) for p, power in game["powers"].items()}
    plans = yield Sealed("agenda_plan", tuple(_plan_decision(game, p, held[p]) for p in game["powers"]))
    for power_id, plan in plans.items():
        power = game["powers"][power_id]
        power["pool"] -= held[power_id]["from_pool"]
        power["spy"] = plan["spy"]  # last round's spies were taken into the hand and planned again
        power["planned_influence"] = plan["influence"]
        power["planned_bribes"] = plan["bribe"]
        add(game["bag"], power_id, plan["debate"])  # Debate: they are votes from now on (§5.3.1)
    return Outcome({"tokens": {p: h["tokens"] for p, h in held.items()},
                    "plans": {p: dict(plans[p]) for p in game["powers"]},
                    "debate": {p: plans[p]["debate"] for p in game["powers"]}}, game)


AGENDA = Procedure(
    "statecraft.agenda", AgendaState, run_agenda,
    summary="The agenda phase (spec §5.2): every power secretly and simultaneously splits the tokens it holds "
            "among Debate, Influence, Bribe and Spy; the plans are revealed together and the Debate tokens "
            "go into the diplomatic bag (§5.3.1).",
    participants="The powers in play (EU, USA, CHN, RUS), all answering one sealed step (a bot's plan is "
                 "marked bot and follows §9.3); nothing is rolled.")
