"""What a service needs from each step: who answers, what a roll or draw is for, bots, defaults, descriptions."""
import json

import pytest

from adjudicator import statecraft
from adjudicator.procedure import NO_DEFAULT, Decision, Dice, NotYourStep, Procedure, answer, next_step

from tests.statecraft.helpers import SANCTIONS, Driver, land, power
from tests.statecraft.test_conflict import NIGERIA
from tests.statecraft.test_governance import TV06, empty

PROCEDURES = [getattr(statecraft, name) for name in statecraft.__all__
              if isinstance(getattr(statecraft, name), Procedure)]


@pytest.mark.parametrize("procedure", PROCEDURES, ids=[p.name for p in PROCEDURES])
def test_every_procedure_says_what_it_resolves_and_who_takes_part(procedure):
    assert procedure.name.startswith("statecraft.")
    assert procedure.summary.endswith(".") and len(procedure.summary) > 40
    assert "service" in procedure.participants or "nothing is rolled" in procedure.participants
    assert procedure.private_fields == ()  # nothing in a Statecraft state is one power's secret


# --- conflicts: the dice name their country and faction; a reroll shows the dice so far ---

def test_conflict_dice_name_their_country_and_power():
    step = next_step(statecraft.CONFLICT, NIGERIA, [])
    assert isinstance(step, Dice) and step.roller == "CHN"
    assert step.details == {"country": "Nigeria", "power": "CHN", "faction": "CHN",
                            "participants": ["CHN", "USA", "DEMO"], "tokens": 2, "extra_dice": 2, "fg_die": 1,
                            "fg": "CHN"}
    assert step.count == 2 + 2 + 1
    demo = next_step(statecraft.CONFLICT, NIGERIA, [[1] * 5, [1] * 4])
    assert demo.roller == "DEMO" and demo.details["country"] == "Nigeria"
    assert demo.details["power"] is None and demo.details["faction"] == "DEMO"  # rolled by the service
    with pytest.raises(NotYourStep):
        answer(statecraft.CONFLICT, NIGERIA, [], [1] * 5, participant="CHN")  # dice are the service's


def test_a_reroll_decision_shows_the_dice_so_far_and_the_reroll_names_its_dice():
    log = [[1, 2, 2, 5, 5], [4, 5, 5, 6], [5, 4, 4]]
    step = next_step(statecraft.CONFLICT, NIGERIA, log)
    assert (step.participant, step.question, step.bot, step.default) == ("CHN", "reroll", False, None)
    assert step.details["country"] == "Nigeria" and step.details["power"] == "CHN"
    assert step.details["dice"] == {"CHN": [1, 2, 2, 5, 5], "USA": [4, 5, 5, 6], "DEMO": [5, 4, 4]}
    assert step.details["successes"] == {"CHN": 2, "USA": 3, "DEMO": 1}
    with pytest.raises(NotYourStep):
        answer(statecraft.CONFLICT, NIGERIA, log, [0], participant="USA")
    log, reroll = answer(statecraft.CONFLICT, NIGERIA, log, [0, 1, 2], participant="CHN")
    assert isinstance(reroll, Dice) and reroll.count == 3
    assert reroll.details == {"country": "Nigeria", "power": "CHN", "indexes": [0, 1, 2],
                              "dice": [1, 2, 2, 5, 5], "spy": 1}
    _, again = answer(statecraft.CONFLICT, NIGERIA, log, [1, 5, 6])
    assert again.details["dice"]["CHN"] == [1, 5, 6, 5, 5] and again.details["spies_left"] == 1


def test_a_bots_reroll_is_marked_bot():
    state = {"powers": {"USA": power(pp=20, spy=1), "CHN": power(pp=10, spy=1, is_bot=True)},
             "grid": [land("Mexico", 5, {"CHN": 1, "USA": 3, "DEMO": 2}, fg="CHN")], "country": "Mexico"}
    d = Driver(statecraft.CONFLICT, state).roll("USA", [5, 6, 1, 1]).roll("CHN", [1, 2, 3]).roll("DEMO", [1, 1, 1])
    assert d.expect_decision("USA", "reroll").bot is False
    d.decline("USA")
    step = d.expect_decision("CHN", "reroll")
    assert step.bot and step.to_dict()["bot"] is True and step.default == [0, 1, 2]


# --- governance: a bag draw shows the bag; a drawn vote has no abstention ------------------

def test_a_bag_draw_shows_the_bag_as_its_faces():
    step = next_step(statecraft.VOTING, TV06, [])
    assert isinstance(step, Dice) and step.purpose == "draw" and step.count == 1
    assert step.faces == ["EU"] * 3 + ["CHN"] * 2 + ["RUS"] * 2 + ["DEMO"] * 3 == statecraft.bag_faces(TV06["bag"])
    assert step.sides == len(step.faces) == 10
    assert step.details["bag"] == {"EU": 3, "CHN": 2, "RUS": 2, "DEMO": 3}
    assert step.details["order"] == ["EU", "USA", "CHN", "RUS", "DEMO"]
    assert (step.details["neutrals_drawn"], step.details["neutrals_to_end"]) == (0, 3)
    assert json.loads(json.dumps(step.to_dict()))["faces"] == step.faces
    # value k draws faces[k-1]: value 6 is a RUS vote, whose owner is asked next
    place = answer(statecraft.VOTING, TV06, [], [6])[1]
    assert (place.participant, place.question) == ("RUS", "place_vote")
    later = next_step(statecraft.VOTING, TV06, [[6], "PRESS", [9]])  # 9 of 9: a DEMO
    assert later.faces == ["EU"] * 3 + ["CHN"] * 2 + ["RUS"] + ["DEMO"] * 2
    assert later.details["neutrals_drawn"] == 1 and later.details["draw"] == 3


def test_a_humans_drawn_vote_has_no_default_and_no_abstention():
    step = next_step(statecraft.VOTING, TV06, [[6]])
    assert step.choices == ["DAVOS", "IMF", "PRESS", "UN"]  # no abstention in the rules (§7.2.2)
    assert step.default is NO_DEFAULT and step.to_dict()["has_default"] is False and not step.bot
    assert step.details["institutions"] == empty() and step.details["neutrals_drawn"] == 0
    with pytest.raises(NotYourStep):
        answer(statecraft.VOTING, TV06, [[6]], "UN", participant="EU")
    assert answer(statecraft.VOTING, TV06, [[6]], "UN", participant="RUS")[0] == [[6], "UN"]


def test_a_bots_drawn_vote_is_its_rule_and_marked_bot():
    state = {**TV06, "powers": {**TV06["powers"], "RUS": power(pp=10, leader_value=2, is_bot=True)}}
    step = next_step(statecraft.VOTING, state, [[6]])
    assert step.bot and step.default == "DAVOS"


def test_davos_and_imf_decisions_of_a_bot_are_marked_bot():
    state = {"powers": {"RUS": power(is_bot=True, market_priority=["HYDROCARBONS", "METALS"]), "EU": power()},
             "institutions": empty(DAVOS={"RUS": 1}, IMF={"RUS": 1}, PRESS={"EU": 1})}
    d = Driver(statecraft.INSTITUTION_RESOLUTION, state)
    davos = d.expect_decision("RUS", "davos_remove")
    assert davos.bot and davos.default == {"institution": "PRESS", "power": "EU"}
    d.default("RUS", "davos_remove")
    imf = d.expect_decision("RUS", "swap_resources")
    assert imf.bot and imf.default == [3, 4] and imf.details["source"] == "IMF"


def test_a_humans_optional_choices_default_to_declining():
    state = {"powers": {"EU": power(leader_value=2), "CHN": power()}, "un_card": SANCTIONS,
             "institutions": empty(DAVOS={"EU": 1}, IMF={"EU": 1}, UN={"EU": 1}, PRESS={"CHN": 1})}
    d = Driver(statecraft.INSTITUTION_RESOLUTION, state)
    for question in ("davos_remove", "swap_resources", "swap_resources"):  # Davos, IMF, then the UN's E2
        step = d.expect_decision("EU", question)
        assert step.has_default and step.default is None and not step.bot
        d.default("EU", question)


# --- effects: a compulsory placement has no default unless the rules force it -------------

def effect_state(effects, **eu):
    return {"powers": {"EU": power(**eu), "USA": power(leader_value=2)}, "actor": "EU", "effects": effects,
            "grid": [land("A", 4, {"USA": 1}, fg="USA"), land("B", 4, {"USA": 2}, fg="USA", col=2)]}


@pytest.mark.parametrize("effect, question", [("PLACE_DEMO", "place_demo"), ("PLACE_INFLUENCE", "place_influence")])
def test_a_humans_placement_effect_has_no_default(effect, question):
    step = next_step(statecraft.EFFECT, effect_state([effect]), [])
    assert (step.participant, step.question, step.choices) == ("EU", question, ["A", "B"])
    assert step.default is NO_DEFAULT and not step.bot


def test_a_placement_with_one_legal_country_defaults_to_it():
    state = effect_state(["PLACE_DEMO_ISLAMIC"])
    state["grid"][1]["islamic"] = True
    step = next_step(statecraft.EFFECT, state, [])
    assert step.choices == ["B"] and step.default == "B"


def test_a_bots_effects_are_marked_bot_with_its_rules():
    bot = dict(is_bot=True, primary_symbols=["P"])
    state = effect_state(["PLACE_INFLUENCE", "BRIBE"], **bot)
    state["grid"][1]["symbols"] = ["P"]
    d = Driver(statecraft.EFFECT, state)
    step = d.expect_decision("EU", "place_influence")
    # §9.4.4 with one token: B shows the primary symbol but needs 3 for the FG or for a conflict;
    # pass 2: A, where 2 tokens would win the FG and 4 cause a conflict; pass 3 takes A.
    assert step.bot and step.default == "A"
    d.default("EU", "place_influence")
    step = d.expect_decision("EU", "bribe")
    # §9.4.5 with one bribe: no country gives a majority; pass 3: the first country it does not
    # control with a legal bribe (A, now EU 1 = USA 1): the greedy sequence bribes the USA token.
    assert step.bot and step.default == {"kind": "RIVAL_TO_DEMO", "country": "A", "target": "USA"}


def test_decisions_are_json_and_accept_their_json_round_tripped_answers():
    log = [[1, 2, 2, 5, 5], [4, 5, 5, 6], [5, 4, 4]]
    for value in ([0, 1, 2], None):
        stored = json.loads(json.dumps(value))
        assert answer(statecraft.CONFLICT, NIGERIA, log, stored)[0][-1] == value
    davos = {"powers": {"EU": power(), "CHN": power()}, "institutions": empty(DAVOS={"EU": 1}, UN={"CHN": 1})}
    step = next_step(statecraft.INSTITUTION_RESOLUTION, davos, [])
    assert isinstance(step, Decision) and json.loads(json.dumps(step.to_dict()))["choices"] == list(step.choices)
    removal = json.loads(json.dumps({"institution": "UN", "power": "CHN"}))
    assert answer(statecraft.INSTITUTION_RESOLUTION, davos, [], removal)[1].state["institutions"]["UN"] == {}
