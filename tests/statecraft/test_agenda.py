"""The agenda phase (spec §5.2) as one sealed step, and the Debate step: TV-22, TV-38."""
import pytest

from adjudicator.procedure import NO_DEFAULT, IllegalDecision, InvalidState, NotYourStep, Sealed, answer, next_step
from adjudicator.statecraft import AGENDA
from adjudicator.statecraft.bots import agenda_plan

from tests.statecraft.helpers import land, power


def plan(debate=0, influence=0, bribe=0, spy=0):
    return {"debate": debate, "influence": influence, "bribe": bribe, "spy": spy}


# TV-38: round 2; the power has 2 unused spies and 10 tokens in its pool.
TV38 = {"powers": {"EU": power(pool=10, spy=2), "USA": power(pool=24, leader_value=2)}, "bag": {"DEMO": 3}}


def test_TV_38_agenda_token_count():
    step = next_step(AGENDA, TV38, [])
    assert isinstance(step, Sealed) and step.question == "agenda_plan" and step.participants == ("EU", "USA")
    eu = step.decision_for("EU")
    assert eu.details["tokens"] == 7 and (eu.details["from_pool"], eu.details["from_spy"]) == (5, 2)
    assert eu.refusal(plan(2, 3, 0, 2)) is None
    assert "8 tokens" in eu.refusal(plan(5, 3, 0, 0))
    short = {**TV38, "powers": {**TV38["powers"], "EU": power(pool=3, spy=2)}}
    assert next_step(AGENDA, short, []).decision_for("EU").details["tokens"] == 3 + 2


def test_TV_38_the_plan_is_applied_and_debate_goes_into_the_bag():
    _, out = answer(AGENDA, TV38, [], {"EU": plan(2, 3, 0, 2), "USA": plan(1, 2, 2, 0)})
    eu, usa = out.state["powers"]["EU"], out.state["powers"]["USA"]
    assert (eu["pool"], eu["spy"], eu["planned_influence"], eu["planned_bribes"]) == (5, 2, 3, 0)
    assert (usa["pool"], usa["spy"], usa["planned_influence"], usa["planned_bribes"]) == (19, 0, 2, 2)
    assert out.state["bag"] == {"EU": 2, "USA": 1, "DEMO": 3}
    assert out.result["tokens"] == {"EU": 7, "USA": 5} and out.result["debate"] == {"EU": 2, "USA": 1}


def test_the_plans_are_one_sealed_step_each_power_answering_its_own_part():
    step = next_step(AGENDA, TV38, [])
    assert not step.has_default and step.default is NO_DEFAULT  # the rules leave each split to its player
    assert all(not d.private for d in step.decisions)  # how many tokens each holds is public (§5.2.2)
    with pytest.raises(NotYourStep):
        answer(AGENDA, TV38, [], {"EU": plan(2, 3, 0, 2), "USA": plan(5)}, participant="EU")
    with pytest.raises(IllegalDecision, match="maps each of"):
        answer(AGENDA, TV38, [], {"EU": plan(2, 3, 0, 2)})
    with pytest.raises(IllegalDecision, match="USA"):
        answer(AGENDA, TV38, [], {"EU": plan(2, 3, 0, 2), "USA": plan(4)})


@pytest.mark.parametrize("bad, reason", [
    ({"debate": 5}, "four spaces"),
    ({**plan(5), "veto": 0}, "four spaces"),
    (plan(6, -1), "0 or more"),
    (plan(4.5, 0.5), "whole number"),
    ([5, 0, 0, 0], "four spaces"),
])
def test_an_ill_formed_plan_is_refused(bad, reason):
    decision = next_step(AGENDA, TV38, []).decision_for("USA")
    assert reason in decision.refusal(bad)


def test_an_agenda_with_planned_tokens_left_is_an_invalid_state():
    with pytest.raises(InvalidState) as error:
        next_step(AGENDA, {"powers": {"EU": power(planned_bribes=1)}}, [])
    assert "planned_bribes" in error.value.errors["powers"]["EU"]


# TV-22: the bot has T = 5; agenda row [Spy], [Bribe]; action table row 1 [Influence, Bribe],
# row 2 [Bribe, Debate, Influence]; its primary symbol on DR Congo (bot FG), Zambia (bot FG), Switzerland.
def tv22(controls_switzerland):
    bot = power(pool=5, leader_value=1, is_bot=True, primary_symbols=["P"],
                action_table=[["influence", "bribe"], ["bribe", "debate", "influence"]])
    return {"powers": {"CHN": bot, "EU": power(pool=20, leader_value=2)},
            "solo_agenda_row": [{"actions": ["spy"], "left": "blue", "right": "green"},
                                {"actions": ["bribe"], "left": "green", "right": "red"}],
            "grid": [land("DR Congo", 4, {"CHN": 1}, fg="CHN", col=1, symbols=["P"]),
                     land("Zambia", 4, {"CHN": 1}, fg="CHN", col=2, symbols=["P"]),
                     land("Switzerland", 4, {"CHN" if controls_switzerland else "EU": 1},
                          fg="CHN" if controls_switzerland else "EU", col=3, symbols=["P"])]}


def test_TV_22_bot_agenda_planning():
    bot = next_step(AGENDA, tv22(False), []).decision_for("CHN")
    assert bot.bot and bot.default == plan(debate=0, influence=1, bribe=3, spy=1)
    assert not next_step(AGENDA, tv22(False), []).decision_for("EU").bot


def test_TV_22_variant_controlling_every_primary_country_starts_at_row_2():
    bot = next_step(AGENDA, tv22(True), []).decision_for("CHN")
    assert bot.default == plan(debate=1, influence=1, bribe=2, spy=1)


def test_the_bot_table_cycles_from_its_starting_row_when_it_runs_out():
    state = tv22(False)
    state["powers"]["CHN"]["spy"] = 4  # T = 9: cards 2, then row 1, row 2, row 1 again... from row 1
    assert agenda_plan(AGENDA.load(state), "CHN", 9) == plan(debate=1, influence=3, bribe=4, spy=1)


def test_a_bot_needs_its_action_table():
    with pytest.raises(InvalidState) as error:
        next_step(AGENDA, {"powers": {"RUS": power(is_bot=True)}}, [])
    assert "action_table" in error.value.errors["powers"]["RUS"]
