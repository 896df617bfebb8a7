"""The shared procedure shape: replay, refusal of illegal answers, outcome."""
import marshmallow
import pytest

from adjudicator.procedure import Decision, Dice, IllegalDecision, InvalidState, Outcome, Procedure, answer, next_step, play


class DuelState(marshmallow.Schema):
    players = marshmallow.fields.List(marshmallow.fields.String(), required=True)
    bonus = marshmallow.fields.Integer(load_default=0)


def duel(state):
    first, second = state["players"]
    fight = yield Decision(first, "fight?", choices=[True, False], default=False)
    if not fight:
        return Outcome({"winner": None}, state)
    a, b = yield Dice("duel", count=2)
    winner = first if a + state["bonus"] > b else second
    return Outcome({"winner": winner}, {**state, "last_winner": winner})


DUEL = Procedure("duel", DuelState, duel)
STATE = {"players": ["red", "blue"]}


def test_replaying_a_log_reaches_the_same_outcome():
    log, step = play(DUEL, STATE, [True, [5, 2]])
    assert step == Outcome({"winner": "red"}, {"players": ["red", "blue"], "bonus": 0, "last_winner": "red"})
    assert next_step(DUEL, STATE, log) == step


def test_next_step_names_the_participant_choices_and_default():
    step = next_step(DUEL, STATE, [])
    assert step.to_dict() == {"type": "decision", "participant": "red", "question": "fight?",
                              "choices": [True, False], "default": False, "details": {}}
    assert next_step(DUEL, STATE, [True]).to_dict()["type"] == "dice"


@pytest.mark.parametrize("bad", [[7, 1], [1], "six", [True, 2]])
def test_bad_dice_are_refused_and_change_nothing(bad):
    log = [True]
    with pytest.raises(IllegalDecision):
        answer(DUEL, STATE, log, bad)
    assert log == [True]


def test_illegal_choice_is_refused_with_a_reason():
    with pytest.raises(IllegalDecision, match="not one of the legal choices"):
        answer(DUEL, STATE, [], "maybe")


def test_a_log_that_goes_on_after_the_outcome_is_refused():
    with pytest.raises(IllegalDecision, match="already over"):
        next_step(DUEL, STATE, [False, True])
    with pytest.raises(IllegalDecision, match="already over"):
        answer(DUEL, STATE, [False], True)


def test_bad_state_says_which_field():
    with pytest.raises(InvalidState) as error:
        next_step(DUEL, {"players": "red", "bonus": "x"}, [])
    assert set(error.value.errors) == {"players", "bonus"}
