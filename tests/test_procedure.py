"""The shared procedure shape: replay, refusal of illegal answers, outcome."""
import marshmallow
import pytest

from adjudicator.procedure import (NO_DEFAULT, Decision, Dice, IllegalDecision, InvalidState, NotYourStep, Outcome,
                                   Procedure, Sealed, answer, check_answer, next_step, play)


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
                              "choices": [True, False], "default": False, "has_default": True, "details": {},
                              "bot": False, "private": False,
                              "default_only_at_deadline": False}
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


# --- what a service needs: who answers, sealed steps, no default, secrets ---------

class BallotState(marshmallow.Schema):
    players = marshmallow.fields.List(marshmallow.fields.String(), required=True)
    hands = marshmallow.fields.Dict(load_default=dict)


def ballot(state):
    votes = yield Sealed("ballot", tuple(Decision(p, "ballot", ["yes", "no"], default="no") for p in state["players"]))
    motion = yield Decision(state["players"][0], "motion", None, default=NO_DEFAULT,
                            check=lambda a: None if isinstance(a, str) else "a motion is text")
    return Outcome({"votes": dict(votes), "motion": motion}, state)


BALLOT = Procedure("ballot", BallotState, ballot, private_fields=("hands",))
VOTERS = {"players": ["ann", "bo"], "hands": {"ann": [1, 2], "bo": [3]}}


def test_a_decision_is_answered_only_by_its_participant():
    with pytest.raises(NotYourStep, match="for red, not blue"):
        answer(DUEL, STATE, [], True, participant="blue")
    log, _ = answer(DUEL, STATE, [], True, participant="red")
    assert log == [True]
    with pytest.raises(NotYourStep):
        answer(DUEL, STATE, [True], [1, 2], participant="red")  # dice are the service's or the director's
    assert answer(DUEL, STATE, [True], [1, 2])[0] == [True, [1, 2]]


def test_a_sealed_step_takes_each_part_from_its_participant_and_is_recorded_whole():
    step = next_step(BALLOT, VOTERS, [])
    assert isinstance(step, Sealed) and step.participants == ("ann", "bo")
    check_answer(step, "yes", participant="ann")
    with pytest.raises(IllegalDecision):
        check_answer(step, "maybe", participant="bo")
    with pytest.raises(NotYourStep):
        check_answer(step, "yes", participant="cy")
    with pytest.raises(NotYourStep):
        answer(BALLOT, VOTERS, [], {"ann": "yes", "bo": "no"}, participant="ann")
    with pytest.raises(IllegalDecision, match="maps each of"):
        answer(BALLOT, VOTERS, [], {"ann": "yes"})
    assert step.default == {"ann": "no", "bo": "no"}
    log, nxt = answer(BALLOT, VOTERS, [], {"ann": "yes", "bo": "no"})
    assert nxt.question == "motion"


def test_a_step_without_default_says_so():
    step = next_step(BALLOT, VOTERS, [{"ann": "yes", "bo": "yes"}])
    assert not step.has_default and step.to_dict()["has_default"] is False and step.to_dict()["default"] is None
    _, outcome = answer(BALLOT, VOTERS, [{"ann": "yes", "bo": "yes"}], "adjourn")
    assert outcome.result == {"votes": {"ann": "yes", "bo": "yes"}, "motion": "adjourn"}


def test_private_fields_show_each_viewer_only_its_own_entry():
    assert BALLOT.redact(VOTERS, "bo")["hands"] == {"bo": [3]}
    assert BALLOT.redact(VOTERS, None)["hands"] == {}
    assert VOTERS["hands"] == {"ann": [1, 2], "bo": [3]}  # the state itself is untouched


def test_a_default_only_the_deadline_gives_is_refused_from_the_participant():
    def ballot_only(state):
        vote = yield Decision("ann", "ballot", None, default="MISSED", default_only_at_deadline=True,
                              check=lambda a: None if a in ("yes", "no", "MISSED") else "yes or no")
        return Outcome({"vote": vote}, state)

    proc = Procedure("ballot_only", BallotState, ballot_only)
    state = {"players": ["ann"]}
    with pytest.raises(IllegalDecision, match="missed deadline"):
        answer(proc, state, [], "MISSED", participant="ann")
    assert answer(proc, state, [], "MISSED")[1].result == {"vote": "MISSED"}  # the deadline, or a replay
    assert answer(proc, state, [], "no", participant="ann")[1].result == {"vote": "no"}
