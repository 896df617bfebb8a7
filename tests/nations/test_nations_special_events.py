"""Spec §4.14 5-player event rulings: Olympic Games, Glorious Revolution, Fourth Crusade.

The spec gives these rulings without numbered vectors and without the cards'
texts ([G-2], [A-15]): the effects below are fixtures ('*'); what is tested is
the ruling itself, against the generic rules (§4.3, §4.8.4) it replaces.
"""
import json

import pytest

from adjudicator.nations import EVENT
from adjudicator.procedure import NO_DEFAULT, InvalidState, next_step

from tests.nations.helpers import drive, event_card, game, nation, part, resources, vp

FIVE = ["China", "Persia", "Greece", "Rome", "Egypt"]


def table(metric, values, *events, players=5, **extra):
    names = FIVE[:players]
    nations = {nid: nation(**{metric: v}, gold=4, food=4, vp=5, **extra.get(nid, {})) for nid, v in zip(names, values)}
    return game(nations, current_event=event_card(*events))


# --- Olympic Games -------------------------------------------------------------

def olympic(hook=True):
    return {"name": "Olympic Games", "parts": [part({"best": "stability"}, "good", {"order": "first"},
                                                    **({"hook": "Olympic Games"} if hook else {}))]}


@pytest.mark.parametrize("stability, order", [
    ([2, 4, 1, 9, 0], ["Rome", "Persia", "China", "Greece", "Egypt"]),
    ([2, 4, 1, 9, 9], ["Rome", "Egypt", "China", "Persia", "Greece"]),
    ([2, 4, 4, 9, 0], ["Rome", "Persia", "China", "Greece", "Egypt"]),
    ([-1, -2, 3, -4, 1], ["Greece", "Egypt", "China", "Persia", "Rome"]),
], ids=["5p-most-and-second", "5p-tie-for-first-by-player-order", "5p-tie-for-second-by-player-order",
        "5p-revolts-rank-below"])
def test_4_14_olympic_games_5_players_most_stable_first_second_most_stable_second(stability, order):
    out = drive(EVENT, table("stability", stability, olympic()))
    assert out.state["player_order"] == order
    assert out.result["events"][0]["parts"][0]["hook"] == "Olympic Games"


def test_4_14_olympic_games_without_the_ruling_the_movers_would_keep_their_old_order():
    # The generic "move to first" (§4.8.4) keeps Persia ahead of Rome: the ruling is what changes it.
    out = drive(EVENT, table("stability", [2, 4, 1, 9, 0], olympic(hook=False)))
    assert out.state["player_order"] == ["Persia", "Rome", "China", "Greece", "Egypt"]


def test_4_14_olympic_games_versailles_counts_as_revolt():
    state = table("stability", [2, 4, 1, 9, 0], olympic(), Rome={"specials": ["Versailles"]})
    assert drive(EVENT, state).state["player_order"] == ["Persia", "China", "Greece", "Rome", "Egypt"]


@pytest.mark.parametrize("stability, order", [
    ([2, 4, 1, 9], ["Rome", "China", "Persia", "Greece"]),
    ([2, 9, 1, 9], ["China", "Persia", "Greece", "Rome"]),
], ids=["4p-sole-leader", "4p-tie-nobody"])
def test_4_14_olympic_games_fewer_than_5_players_follow_the_general_rules(stability, order):
    out = drive(EVENT, table("stability", stability, olympic(), players=4))
    assert out.state["player_order"] == order
    assert out.result["events"][0]["parts"][0]["hook"] is None


# --- Glorious Revolution ---------------------------------------------------------

GLORIOUS = {"name": "Glorious Revolution", "parts": [part({"best": "stability"}, "good", hook="Glorious Revolution",
                                                          choice={"options": [
                                                              {"name": "crown", "effects": [{"gain": {"gold": 3}},
                                                                                            {"order": "last"}]},
                                                              {"name": "parliament", "effects": [{"vp": 1}]}]})]}


def glorious(players=5):
    # Persia is the most stable, China the second most stable, though China is ahead in player order.
    return table("stability", [7, 8, 1, 2, 0][:players], GLORIOUS, players=players)


def test_4_14_glorious_revolution_5_players_the_second_most_stable_chooses_first():
    first = next_step(EVENT, glorious(), [])
    assert first.participant == "China" and first.default is NO_DEFAULT
    assert first.details["hook"] == "Glorious Revolution" and first.details["targets"] == ["China", "Persia"]
    json.dumps(first.to_dict())
    second = next_step(EVENT, glorious(), ["crown"])
    assert second.participant == "Persia" and second.details["chosen"] == {"China": "crown"}


def test_4_14_glorious_revolution_5_players_second_most_stable_last_most_stable_second_to_last():
    out = drive(EVENT, glorious(), [("China", "event_choice", "crown"), ("Persia", "event_choice", "crown")])
    assert out.state["player_order"] == ["Greece", "Rome", "Egypt", "Persia", "China"]
    assert resources(out, "China")["gold"] == resources(out, "Persia")["gold"] == 7


@pytest.mark.parametrize("china, persia, order", [
    ("parliament", "crown", ["China", "Greece", "Rome", "Egypt", "Persia"]),
    ("crown", "parliament", ["Persia", "Greece", "Rome", "Egypt", "China"]),
    ("parliament", "parliament", FIVE),
], ids=["5p-only-the-most-stable-moves", "5p-only-the-second-moves", "5p-nobody-moves"])
def test_4_14_glorious_revolution_5_players_a_lone_mover_goes_last(china, persia, order):
    out = drive(EVENT, glorious(), [("China", "event_choice", china), ("Persia", "event_choice", persia)])
    assert out.state["player_order"] == order
    assert vp(out, "China") == (6 if china == "parliament" else 5)


def test_4_14_glorious_revolution_5_players_a_move_that_is_not_chosen_is_placed_the_same_way():
    # Read literally, the original moves both nations once both have chosen, whatever they chose:
    # card data then gives the move as a fixed effect of the part, and the ruling places it alike.
    fixed = {"name": "Glorious Revolution", "parts": [part({"best": "stability"}, "good", {"order": "last"},
                                                           hook="Glorious Revolution", choice=GLORIOUS["parts"][0]["choice"])]}
    state = table("stability", [7, 8, 1, 2, 0], fixed)
    out = drive(EVENT, state, [("China", "event_choice", "parliament"), ("Persia", "event_choice", "parliament")])
    assert out.state["player_order"] == ["Greece", "Rome", "Egypt", "Persia", "China"]


def test_4_14_glorious_revolution_5_players_others_sent_back_move_as_usual_before_the_ranked_pair():
    sent_back = {"name": "Glorious Revolution", "parts": [part({"best": "stability"}, "good", {"order": "last"},
                                                               {"order": "last", "to": "others"},
                                                               hook="Glorious Revolution")]}
    out = drive(EVENT, table("stability", [7, 8, 1, 2, 0], sent_back))
    # Everyone moves back: the others keep their order, then the most stable, then the second most stable.
    assert out.state["player_order"] == ["Greece", "Rome", "Egypt", "Persia", "China"]


def test_4_14_glorious_revolution_4_players_the_sole_most_stable_chooses_alone():
    out = drive(EVENT, glorious(players=4), [("Persia", "event_choice", "crown")])
    assert out.state["player_order"] == ["China", "Greece", "Rome", "Persia"]


# --- Fourth Crusade --------------------------------------------------------------

def crusade(paying=False):
    bonus = [{"pay": {"gold": 4}}, {"vp": 3}] if paying else [{"gain": {"gold": 3}}]
    return {"name": "Fourth Crusade", "parts": [
        part({"best": "strength"}, "good", hook="Fourth Crusade",
             choice={"options": [{"name": "plunder", "effects": bonus}, {"name": "glory", "effects": [{"vp": 1}]}]}),
        part({"worst": "strength"}, "bad", {"lose": {"food": 2}})]}


def test_4_14_fourth_crusade_5_players_the_first_of_the_tied_strongest_decides_for_all_of_them():
    state = table("strength", [10, 12, 12, 3, 1], crusade())
    step = next_step(EVENT, state, [])
    assert step.participant == "Persia"  # tied with Greece, ahead in player order
    assert step.details["deciding_for"] == ["Persia", "Greece"]
    out = drive(EVENT, state, [("Persia", "event_choice", "plunder")])
    assert [resources(out, n)["gold"] for n in FIVE] == [4, 7, 7, 4, 4]
    # The negative part hits the bottom two as usual.
    assert [resources(out, n)["food"] for n in FIVE] == [4, 4, 4, 2, 2]
    assert out.result["events"][0]["parts"][0]["choices"] == {"Persia": "plunder"}


def test_4_14_fourth_crusade_5_players_three_tied_still_get_the_bonus():
    # The general 5-player rule gives nothing to three nations tied for first; the ruling rewards ties.
    out = drive(EVENT, table("strength", [12, 12, 12, 3, 1], crusade()), [("China", "event_choice", "glory")])
    assert [vp(out, n) for n in FIVE] == [6, 6, 6, 5, 5]


def test_4_14_fourth_crusade_5_players_an_unshared_second_gets_no_bonus():
    out = drive(EVENT, table("strength", [15, 12, 10, 3, 1], crusade()), [("China", "event_choice", "plunder")])
    assert out.result["events"][0]["parts"][0]["targets"] == ["China"]
    assert [resources(out, n)["gold"] for n in FIVE] == [7, 4, 4, 4, 4]


def test_4_14_fourth_crusade_a_payment_is_offered_only_if_every_tied_nation_can_pay():
    state = table("strength", [10, 12, 12, 3, 1], crusade(paying=True))
    state["nations"]["Greece"]["resources"]["gold"] = 3
    out = drive(EVENT, state)  # only "glory" is payable by both, so nobody is asked
    assert out.result["events"][0]["parts"][0]["choices"] == {"Persia": "glory"}
    assert [resources(out, n)["gold"] for n in ("Persia", "Greece")] == [4, 3]


@pytest.mark.parametrize("strength, asked", [([10, 12, 11, 3], "Persia"), ([12, 12, 11, 3], None)],
                         ids=["4p-sole-strongest-chooses", "4p-tie-nobody"])
def test_4_14_fourth_crusade_fewer_than_5_players_follow_the_general_rules(strength, asked):
    state = table("strength", strength, crusade(), players=4)
    step = next_step(EVENT, state, [])
    assert getattr(step, "participant", None) == asked


# --- the hook in the event data ----------------------------------------------------

@pytest.mark.parametrize("hooked_part, field_error", [
    (part("all", "good", hook="Olympic Games"), "selector"),
    (part({"worst": "strength"}, "bad", hook="Glorious Revolution"), "selector"),
    (part({"best": "strength"}, "bad", hook="Fourth Crusade"), "good effect"),
    (part({"best": "strength"}, "good", hook="Sinking of the Vasa"), "Must be one of"),
])
def test_a_hook_needs_a_ranking_selector_and_a_known_name(hooked_part, field_error):
    state = table("strength", [1, 2], {"parts": [hooked_part]}, players=2)
    with pytest.raises(InvalidState) as raised:
        next_step(EVENT, state, [])
    assert field_error in json.dumps(raised.value.errors)
