"""The 1630 voting resolver (spec §5) against the §8 test vectors, driven step by step."""
import pytest

from adjudicator.game1630 import VOTE
from adjudicator.procedure import (Dice, IllegalDecision, NotYourStep, Outcome, Sealed, answer,
                                   check_answer, next_step)

from tests.game1630.helpers import card, drive, label, named_pile, outcome, pile


def vote_state(players, caller, displays, hands=None, countries=None, config=None):
    state = {"players": players, "caller": caller, "displays": displays, "hands": hands or {},
             "countries": countries or {}}
    if config is not None:
        state["config"] = config
    return state


def script(state, country, agenda, ballots, placements=None, losses=None, dice=(), caller_placement=()):
    """The full list of (step, answer) for one vote, in the engine's order (caller first, then clockwise)."""
    players, caller = state["players"], state["caller"]
    seat = players.index(caller)
    clockwise = players[seat:] + players[:seat]
    placements = placements or {}
    steps = [(f"{caller}:country", country), (f"{caller}:placement", list(caller_placement)),
             (f"{caller}:agenda", agenda)]
    if clockwise[1:]:
        steps.append(("sealed:placement", {p: placements.get(p, []) for p in clockwise[1:]}))
    steps.append(("sealed:ballot", dict(ballots)))
    steps += [(f"{p}:loss_choice", (losses or {})[p]) for p in clockwise if p in (losses or {})]
    steps += [(f"dice:{purpose}", roll) for purpose, roll in zip(("attacker", "defender"), dice)]
    return steps


def run(state, country, agenda, ballots, **kwargs) -> Outcome:
    return outcome(VOTE, state, script(state, country, agenda, ballots, **kwargs))


def refusal(state, log, value) -> str:
    """The reason ``value`` is refused at the step after ``log``; the log must stay as it was."""
    before = list(log)
    with pytest.raises(IllegalDecision) as error:
        answer(VOTE, state, log, value)
    assert log == before
    return str(error.value)


def part_refusal(state, log, participant, value) -> str:
    """The reason ``participant``'s part ``value`` of the sealed step after ``log`` is refused,
    both as the participant's own part and inside the whole answer (the others taking their defaults)."""
    step = next_step(VOTE, state, log)
    assert isinstance(step, Sealed)
    with pytest.raises(IllegalDecision) as own:
        check_answer(step, value, participant)
    whole = refusal(state, log, {**step.default, participant: value})
    assert whole == f"{participant}: {own.value}"
    return str(own.value)


def answers_until(state, steps, stop_label):
    """The answers of ``steps`` up to (not including) the first step labelled ``stop_label``."""
    labels = [name for name, _ in steps]
    return [value for _, value in steps[:labels.index(stop_label)]]


WAR_ON_FRANCE = {"agenda": "WAR", "target": "FRANCE"}


# --- §8.1 source vectors ------------------------------------------------------------

def tv06_state(simon_state="DOMINANT"):
    return vote_state(
        ["Tim", "Martin", "Simon"], "Tim",
        {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3, 2, 2])},
         "Martin": {"ENGLAND": named_pile("Martin", "ENGLAND", [5])},
         "Simon": {"ENGLAND": pile(simon_state, card("England 1", "ENGLAND", 1), card("Simon-E5", "ENGLAND", 5)),
                   "FRANCE": named_pile("Simon", "FRANCE", [2]), "SWEDEN": named_pile("Simon", "SWEDEN", [3])}},
        countries={"ENGLAND": {"side": "RED", "army_size": 1, "military_ability": 1, "leader": True},
                   "FRANCE": {"side": "BLUE", "prestige": 3}})


TV06_BALLOTS = {"Tim": "RED", "Martin": "RED", "Simon": "BLUE"}


def test_TV_06_tims_england_war_vote():
    state = tv06_state()
    steps = script(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS)
    log, step = drive(VOTE, state, steps)
    assert isinstance(step, Dice) and step.purpose == "attacker" and step.count == 2  # the war is fought at once
    assert (step.details["country"], step.details["against"]) == ("ENGLAND", "FRANCE")
    final = run(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS, dice=([3, 2], [2, 6]))
    result, after = final.result, final.state
    assert (result["red"], result["blue"], result["winner"]) == (12, 6, "RED")
    assert result["participants"] == [{"player": "Tim", "weight": 7}, {"player": "Martin", "weight": 5},
                                      {"player": "Simon", "weight": 6}]
    assert result["losers"] == [{"player": "Simon", "effect": "TURN_DECLINING"}]
    simon = after["displays"]["Simon"]["ENGLAND"]
    assert simon["state"] == "DECLINING" and sum(c["value"] for c in simon["cards"]) == 6
    assert after["displays"]["Tim"] == state["displays"]["Tim"]
    assert after["displays"]["Martin"] == state["displays"]["Martin"]
    assert result["war"]["attacker"] == "ENGLAND" and result["war"]["defender"] == "FRANCE"


def test_TV_07_loser_whose_pile_was_already_declining():
    state = tv06_state("DECLINING")
    final = run(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS, losses={"Simon": "England 1"}, dice=([3, 2], [2, 6]))
    result, after = final.result, final.state
    assert (result["red"], result["blue"], result["winner"]) == (12, 6, "RED")
    assert result["losers"] == [{"player": "Simon", "effect": "REMOVE_ONE_CARD", "removed": ["England 1"]}]
    simon = after["displays"]["Simon"]["ENGLAND"]
    assert simon["state"] == "DECLINING" and sum(c["value"] for c in simon["cards"]) == 5
    assert [c["id"] for c in after["discard"]] == ["England 1"]
    assert result["war"] is not None


def test_TV_07_loss_choice_lists_the_owners_legal_cards_and_the_deadline_default():
    state = tv06_state("DECLINING")
    steps = script(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS)
    step = next_step(VOTE, state, [value for _, value in steps])
    assert label(step) == "Simon:loss_choice"
    assert step.choices == ["England 1", "Simon-E5"]
    assert step.default == "England 1"  # G-10: the lowest value


def test_TV_11_war_resolved_inside_the_vote_continuing_TV_06():
    final = run(tv06_state(), "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS, dice=([3, 2], [2, 6]))
    war = final.result["war"]
    assert war["totals"] == {"attacker": 4, "defender": 5} and war["winner"] == "DEFENDER"
    england, france = final.state["countries"]["ENGLAND"], final.state["countries"]["FRANCE"]
    assert (england["prestige"], england["army_size"], england["military_ability"]) == (0, 0, 1)
    assert (france["prestige"], france["army_size"]) == (4, 2)


def test_TV_04_open_card_placed_after_the_call():
    state = vote_state(["Tim", "Simon"], "Tim",
                       {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3])},
                        "Simon": {"ENGLAND": pile("DOMINANT", card("England 2", "ENGLAND", 2))}},
                       hands={"Simon": [card("Open 1", "OPEN", 1)]}, countries={"ENGLAND": {"side": "BLUE"}})
    final = run(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "BLUE", "Simon": "BLUE"},
                placements={"Simon": ["Open 1"]})
    simon = final.state["displays"]["Simon"]["ENGLAND"]
    assert [c["id"] for c in simon["cards"]] == ["England 2", "Open 1"] and simon["state"] == "DOMINANT"
    assert {"player": "Simon", "weight": 3} in final.result["participants"]
    assert final.state["hands"]["Simon"] == []


def test_TV_04_open_card_placed_by_the_caller_before_calling():
    state = vote_state(["Simon", "Tim"], "Simon",
                       {"Simon": {"ENGLAND": pile("DOMINANT", card("England 2", "ENGLAND", 2))}},
                       hands={"Simon": [card("Open 1", "OPEN", 1)]})
    final = run(state, "ENGLAND", {"agenda": "JOIN_SIDE"}, {"Simon": "RED"}, caller_placement=["Open 1"])
    assert final.result["participants"] == [{"player": "Simon", "weight": 3}]
    assert final.state["countries"]["ENGLAND"]["side"] == "RED"


def tv05_state():
    return vote_state(
        ["Tim", "Martin", "Simon", "P4", "P5"], "Tim",
        {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3, 2])},
         "Simon": {"ENGLAND": named_pile("Simon", "ENGLAND", [6])}},
        hands={"Tim": [card("Tim-E2", "ENGLAND", 2), card("Tim-F1", "FRANCE", 1)],
               "Martin": [card("Martin-E5", "ENGLAND", 5)],
               "P4": [card("P4-E3", "ENGLAND", 3)]},
        countries={"ENGLAND": {"side": "RED"}})


def test_TV_05_participants_are_exactly_the_players_with_a_pile():
    state = tv05_state()
    steps = script(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "RED", "Martin": "RED", "Simon": "BLUE"},
                   caller_placement=["Tim-E2"], placements={"Martin": ["Martin-E5"]})
    log, final = drive(VOTE, state, steps)
    assert [p["player"] for p in final.result["participants"]] == ["Tim", "Martin", "Simon"]
    assert set(final.result["ballots"]) == {"Tim", "Martin", "Simon"}  # P4 and P5 were never asked
    assert [c["id"] for c in final.state["hands"]["P4"]] == ["P4-E3"]  # P4 kept his ENGLAND card


def test_TV_05_caller_may_not_place_another_countrys_card():
    reason = refusal(tv05_state(), ["ENGLAND"], ["Tim-E2", "Tim-F1"])
    assert "P-14" in reason


def test_TV_05_the_caller_gets_no_placement_step_after_the_call():
    state = tv05_state()
    steps = script(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "RED", "Martin": "RED", "Simon": "BLUE"},
                   caller_placement=["Tim-E2"], placements={"Martin": ["Martin-E5"]})
    after_call = [name for name, _ in steps[3:]]
    assert "Tim:placement" not in after_call
    log, step = drive(VOTE, state, steps[:3])
    assert label(step) == "sealed:placement" and step.participants == ("Martin", "Simon", "P4", "P5")
    with pytest.raises(NotYourStep):
        check_answer(step, ["Tim-F1"], "Tim")


def test_TV_09_voting_scope():
    state = vote_state(["Tim", "Simon"], "Tim",
                       {"Tim": {"SPAIN": named_pile("Tim", "SPAIN", [2]), "FRANCE": named_pile("Tim", "FRANCE", [2])},
                        "Simon": {c: named_pile("Simon", c, [1]) for c in ("ENGLAND", "FRANCE", "SWEDEN")}})
    spain = run(state, "SPAIN", {"agenda": "JOIN_SIDE"}, {"Tim": "RED"})
    assert [p["player"] for p in spain.result["participants"]] == ["Tim"]
    france = run(state, "FRANCE", {"agenda": "JOIN_SIDE"}, {"Tim": "RED", "Simon": "RED"})
    assert [p["player"] for p in france.result["participants"]] == ["Tim", "Simon"]


# --- §8.2 rule vectors --------------------------------------------------------------

@pytest.mark.parametrize("cards, legal", [
    (["England 2", "Open 1"], ["Open 1"]),
    (["England 2", "England 1", "Open 1"], ["England 2", "England 1", "Open 1"]),
    (["England 3", "Open 1", "Open 2"], ["Open 1", "Open 2"]),
    (["England 3"], ["England 3"]),
], ids=["TV-17-a", "TV-17-b", "TV-17-c", "TV-17-d"])
def test_TV_17_open_card_rule_on_a_vote_loss_removal(cards, legal):
    """TV-17 lists P-11's legal choices for phase 1; A-7 applies the same rule to vote losses."""
    values = {"England 2": 2, "England 1": 1, "Open 1": 1, "England 3": 3, "Open 2": 2}
    loser = pile("DECLINING", *(card(i, "OPEN" if i.startswith("Open") else "ENGLAND", values[i]) for i in cards))
    state = vote_state(["A", "B"], "A", {"A": {"ENGLAND": named_pile("A", "ENGLAND", [9])}, "B": {"ENGLAND": loser}},
                       countries={"ENGLAND": {"side": "RED"}})
    steps = script(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"A": "BLUE", "B": "RED"})
    step = next_step(VOTE, state, [value for _, value in steps])
    assert label(step) == "B:loss_choice" and step.choices == legal
    if legal == ["England 3"]:
        final = run(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"A": "BLUE", "B": "RED"}, losses={"B": "England 3"})
        assert "ENGLAND" not in final.state["displays"]["B"]  # the pile ceases to exist (P-12)
    for illegal in set(cards) - set(legal):
        assert "legal choices" in refusal(state, [value for _, value in steps], illegal)


def test_TV_17_option_open_cards_go_with_the_last_named_card():
    loser = pile("DECLINING", card("England 2", "ENGLAND", 2), card("Open 1", "OPEN", 1))
    state = vote_state(["A", "B"], "A", {"A": {"ENGLAND": named_pile("A", "ENGLAND", [9])}, "B": {"ENGLAND": loser}},
                       countries={"ENGLAND": {"side": "RED"}}, config={"open_rule_on_all_removals": False})
    final = run(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"A": "BLUE", "B": "RED"}, losses={"B": "England 2"})
    assert "ENGLAND" not in final.state["displays"]["B"]
    assert [c["id"] for c in final.state["discard"]] == ["England 2", "Open 1"]


def tv16_state(simon_pile=None):
    displays = {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3])}, "Simon": {}}
    if simon_pile is not None:
        displays["Simon"]["ENGLAND"] = simon_pile
    return vote_state(["Tim", "Simon"], "Tim", displays,
                      hands={"Simon": [card("England 1", "ENGLAND", 1), card("Open 1", "OPEN", 1)]},
                      countries={"ENGLAND": {"side": "RED"}})


CALL_CHANGE_SIDE = ["ENGLAND", [], {"agenda": "CHANGE_SIDE"}]


def test_TV_16_a_open_card_alone_is_refused():
    assert "P-10" in part_refusal(tv16_state(), CALL_CHANGE_SIDE, "Simon", ["Open 1"])


def test_TV_16_b_named_and_open_card_in_one_step_start_a_pile():
    final = run(tv16_state(), "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "RED", "Simon": "RED"},
                placements={"Simon": ["Open 1", "England 1"]})
    simon = final.state["displays"]["Simon"]["ENGLAND"]
    assert simon["state"] == "DOMINANT" and sum(c["value"] for c in simon["cards"]) == 2


@pytest.mark.parametrize("placement", [["England 1"], ["Open 1"], ["England 1", "Open 1"]])
def test_TV_16_c_no_card_onto_a_declining_pile(placement):
    state = tv16_state(named_pile("Simon", "ENGLAND", [2], state="DECLINING"))
    assert "P-5/P-6" in part_refusal(state, CALL_CHANGE_SIDE, "Simon", placement)


def test_TV_18_declining_pile_blocks_new_cards_but_still_votes():
    state = vote_state(["Tim", "Simon"], "Tim",
                       {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3])},
                        "Simon": {"ENGLAND": pile("DECLINING", card("England 2", "ENGLAND", 2))}},
                       hands={"Simon": [card("England 3", "ENGLAND", 3)]}, countries={"ENGLAND": {"side": "RED"}})
    step = next_step(VOTE, state, CALL_CHANGE_SIDE)
    assert label(step) == "sealed:placement" and step.decision_for("Simon").details["placeable"] == []
    assert "P-5/P-6" in part_refusal(state, CALL_CHANGE_SIDE, "Simon", ["England 3"])
    final = run(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "RED", "Simon": "RED"})
    assert {"player": "Simon", "weight": 2} in final.result["participants"]


def test_TV_18_once_the_pile_is_gone_a_new_dominant_pile_may_start():
    state = vote_state(["Tim", "Simon"], "Tim", {"Tim": {"ENGLAND": named_pile("Tim", "ENGLAND", [3])}},
                       hands={"Simon": [card("England 3", "ENGLAND", 3)]}, countries={"ENGLAND": {"side": "RED"}})
    final = run(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "RED", "Simon": "RED"},
                placements={"Simon": ["England 3"]})
    assert final.state["displays"]["Simon"]["ENGLAND"]["state"] == "DOMINANT"
    assert {"player": "Simon", "weight": 3} in final.result["participants"]


def test_TV_24_a_country_in_unrest_cannot_declare_war():
    state = vote_state(["A", "B"], "A", {"A": {"POLAND": named_pile("A", "POLAND", [5])}},
                       countries={"POLAND": {"side": "RED", "unrest": True}, "SWEDEN": {"side": "BLUE"}},
                       config={"adjacency": [["POLAND", "SWEDEN"]]})
    assert "W-4" in refusal(state, ["POLAND", []], {"agenda": "WAR", "target": "SWEDEN"})


def three_players(country, weights, side="NEUTRAL", states=None, **records):
    states = states or {}
    displays = {p: {country: named_pile(p, country, [w], state=states.get(p, "DOMINANT"))}
                for p, w in weights.items()}
    return vote_state(list(weights), list(weights)[0], displays,
                      countries={country: {"side": side, **records}})


def pile_states(final, country):
    return {p: piles[country]["state"] for p, piles in final.state["displays"].items() if country in piles}


def test_TV_25_a_neutral_country_joins_blue():
    state = three_players("DENMARK", {"A": 4, "B": 3, "C": 2})
    final = run(state, "DENMARK", {"agenda": "JOIN_SIDE"}, {"A": "RED", "B": "BLUE", "C": "BLUE"})
    assert (final.result["red"], final.result["blue"], final.result["winner"]) == (4, 5, "BLUE")
    assert final.state["countries"]["DENMARK"]["side"] == "BLUE"
    assert pile_states(final, "DENMARK") == {"A": "DECLINING", "B": "DOMINANT", "C": "DOMINANT"}


def test_TV_25_b_tie_stays_neutral_and_nobody_is_harmed():
    state = three_players("DENMARK", {"A": 4, "B": 3, "C": 1})
    final = run(state, "DENMARK", {"agenda": "JOIN_SIDE"}, {"A": "RED", "B": "BLUE", "C": "BLUE"})
    assert (final.result["red"], final.result["blue"], final.result["winner"]) == (4, 4, "TIE")
    assert final.state["countries"]["DENMARK"]["side"] == "NEUTRAL"
    assert set(pile_states(final, "DENMARK").values()) == {"DOMINANT"} and final.result["losers"] == []


@pytest.mark.parametrize("agenda, rule", [({"agenda": "WAR", "target": "SWEDEN"}, "W-1"),
                                          ({"agenda": "REARM"}, "5.3.1"), ({"agenda": "CHANGE_SIDE"}, "5.3.1")],
                         ids=["TV-25-c-war", "TV-25-c-rearm", "TV-25-c-change-side"])
def test_TV_25_c_only_join_side_for_a_neutral_country(agenda, rule):
    state = three_players("DENMARK", {"A": 4, "B": 3, "C": 2}, army_size=0)
    assert rule in refusal(state, ["DENMARK", []], agenda)
    assert next_step(VOTE, state, ["DENMARK", []]).details["legal"] == [{"agenda": "JOIN_SIDE"}]


@pytest.mark.parametrize("weights, ballots, side, declining", [
    ({"A": 5, "B": 3}, {"A": "RED", "B": "BLUE"}, "RED", {"B"}),
    ({"A": 3, "B": 3}, {"A": "RED", "B": "BLUE"}, "BLUE", set()),
    ({"A": 3, "B": 4}, {"A": "RED", "B": "BLUE"}, "BLUE", {"A"}),
], ids=["TV-26-a", "TV-26-b", "TV-26-c"])
def test_TV_26_change_side(weights, ballots, side, declining):
    state = three_players("NETHERLANDS", weights, side="BLUE")
    final = run(state, "NETHERLANDS", {"agenda": "CHANGE_SIDE"}, ballots)
    assert final.state["countries"]["NETHERLANDS"]["side"] == side
    assert {p for p, s in pile_states(final, "NETHERLANDS").items() if s == "DECLINING"} == declining


@pytest.mark.parametrize("weights, army, declining", [
    ({"A": 4, "B": 2}, 1, {"B"}),
    ({"A": 2, "B": 2}, 0, set()),
], ids=["TV-27-a", "TV-27-b"])
def test_TV_27_rearm(weights, army, declining):
    state = three_players("ENGLAND", weights, side="RED", army_size=0)
    final = run(state, "ENGLAND", {"agenda": "REARM"}, {"A": "RED", "B": "BLUE"})
    assert final.state["countries"]["ENGLAND"]["army_size"] == army
    assert {p for p, s in pile_states(final, "ENGLAND").items() if s == "DECLINING"} == declining


def test_TV_27_c_rearm_needs_army_zero():
    state = three_players("ENGLAND", {"A": 4, "B": 2}, side="RED", army_size=1)
    assert "5.5" in refusal(state, ["ENGLAND", []], {"agenda": "REARM"})


def test_TV_27_d_no_war_from_army_zero():
    state = three_players("ENGLAND", {"A": 4, "B": 2}, side="RED", army_size=0)
    state["countries"]["FRANCE"] = {"side": "BLUE"}
    assert "W-3" in refusal(state, ["ENGLAND", []], WAR_ON_FRANCE)
    assert next_step(VOTE, state, ["ENGLAND", []]).details["legal"] == [{"agenda": "REARM"}, {"agenda": "CHANGE_SIDE"}]


TV28_COUNTRIES = {"SPAIN": {"side": "RED", "army_size": 2}, "ENGLAND": {"side": "RED"},
                  "FRANCE": {"side": "BLUE", "prestige": 3}, "DENMARK": {"side": "BLUE", "prestige": 1},
                  "SWEDEN": {"side": "BLUE", "prestige": 2}, "POLAND": {"side": "RED", "army_size": 1},
                  "GERMAN_PRINCES": {"side": "NEUTRAL"}}


@pytest.mark.parametrize("attacker, target, unrest, rule", [
    ("SPAIN", "FRANCE", False, None),
    ("SPAIN", "DENMARK", False, "W-5: target prestige 1, SPAIN not adjacent to DENMARK"),
    ("POLAND", "SWEDEN", False, None),
    ("SPAIN", "ENGLAND", False, "W-2"),
    ("SPAIN", "GERMAN_PRINCES", False, "W-2"),
    ("GERMAN_PRINCES", "FRANCE", False, "W-1"),
    ("SPAIN", "FRANCE", True, "W-4"),
], ids=["TV-28-spain-france", "TV-28-spain-denmark", "TV-28-poland-sweden", "TV-28-spain-england",
        "TV-28-spain-german-princes", "TV-28-german-princes-france", "TV-28-spain-unrest"])
def test_TV_28_war_legality(attacker, target, unrest, rule):
    countries = {c: dict(r) for c, r in TV28_COUNTRIES.items()}
    countries[attacker]["unrest"] = unrest
    state = vote_state(["A", "B"], "A", {"A": {attacker: named_pile("A", attacker, [3])}}, countries=countries,
                       config={"adjacency": [["POLAND", "SWEDEN"], ["SPAIN", "FRANCE"]]})
    agenda = {"agenda": "WAR", "target": target}
    if rule is None:
        log, step = answer(VOTE, state, [attacker, []], agenda)
        assert label(step) == "sealed:placement" and step.decision_for("B").details["agenda"] == agenda
        assert agenda in next_step(VOTE, state, [attacker, []]).details["legal"]
    else:
        assert rule in refusal(state, [attacker, []], agenda)
        assert agenda not in next_step(VOTE, state, [attacker, []]).details["legal"]


def tv29_state(weights):
    state = three_players("ENGLAND", weights, side="RED")
    state["countries"]["FRANCE"] = {"side": "BLUE", "prestige": 3}
    return state


def test_TV_29_a_war_vote_tie_is_peace():
    final = run(tv29_state({"A": 5, "B": 5}), "ENGLAND", WAR_ON_FRANCE, {"A": "RED", "B": "BLUE"})
    assert final.result["winner"] == "TIE" and final.result["war"] is None and final.result["losers"] == []


def test_TV_29_b_the_caller_can_lose():
    final = run(tv29_state({"Tim": 4, "Martin": 3, "Simon": 2}), "ENGLAND", WAR_ON_FRANCE,
                {"Tim": "RED", "Martin": "BLUE", "Simon": "BLUE"})
    assert (final.result["red"], final.result["blue"], final.result["war"]) == (4, 5, None)
    assert pile_states(final, "ENGLAND") == {"Tim": "DECLINING", "Martin": "DOMINANT", "Simon": "DOMINANT"}


def test_TV_38_a_the_mandatory_vote_cannot_be_passed():
    state = vote_state(["A", "B"], "A", {"A": {"SPAIN": named_pile("A", "SPAIN", [2]),
                                               "FRANCE": named_pile("A", "FRANCE", [2])}},
                       hands={"A": [card("A-D1", "DENMARK", 1), card("A-O1", "OPEN", 1)]})
    step = next_step(VOTE, state, [])
    assert label(step) == "A:country" and step.choices == ["SPAIN", "FRANCE", "DENMARK"]
    for passing in (None, "PASS", "POLAND"):
        assert "not one of the legal choices" in refusal(state, [], passing)
    # calling where they only hold a named card: they must place it (5.1.2)
    assert "5.1.2" in refusal(state, ["DENMARK"], [])
    assert "P-10" in refusal(state, ["DENMARK"], ["A-O1"])
    assert next_step(VOTE, state, ["DENMARK"]).default == ["A-D1"]


def test_TV_38_b_no_pile_and_no_named_card_skips_the_vote():
    state = vote_state(["A", "B"], "A", {"B": {"SPAIN": named_pile("B", "SPAIN", [2])}},
                       hands={"A": [card("A-O1", "OPEN", 1)]})
    step = next_step(VOTE, state, [])
    assert isinstance(step, Outcome) and step.result["called"] is False and "A-28" in step.result["reason"]


def test_TV_38_c_declining_pile_may_call_but_not_place():
    state = vote_state(["A", "B"], "A", {"A": {"HABSBURG": named_pile("A", "HABSBURG", [2], state="DECLINING")}},
                       hands={"A": [card("A-H3", "HABSBURG", 3)]}, countries={"HABSBURG": {"side": "RED"}})
    assert next_step(VOTE, state, []).choices == ["HABSBURG"]
    assert "P-5/P-6" in refusal(state, ["HABSBURG"], ["A-H3"])
    final = run(state, "HABSBURG", {"agenda": "CHANGE_SIDE"}, {"A": "RED"})
    assert final.result["participants"] == [{"player": "A", "weight": 2}]


# --- defaults, secrecy and refusals -------------------------------------------------

def test_missing_join_side_ballot_counts_for_neither_colour_and_is_no_loss():
    state = three_players("DENMARK", {"A": 4, "B": 3, "C": 2})
    steps = script(state, "DENMARK", {"agenda": "JOIN_SIDE"}, {"A": "RED", "B": "BLUE", "C": "BLUE"})
    step = next_step(VOTE, state, answers_until(state, steps, "sealed:ballot")).decision_for("B")
    assert step.choices is None and step.default == "NO_BALLOT" and step.details["choices"] == ["RED", "BLUE"]
    assert step.details["if_missed"] is None
    final = run(state, "DENMARK", {"agenda": "JOIN_SIDE"}, {"A": "RED", "B": step.default, "C": "BLUE"})
    assert (final.result["red"], final.result["blue"], final.result["winner"]) == (4, 2, "RED")
    assert [loser["player"] for loser in final.result["losers"]] == ["C"]
    assert final.result["ballots"] == {"A": "RED", "C": "BLUE"} and final.result["missed"] == ["B"]
    assert final.result["counted"] == {"A": "RED", "B": None, "C": "BLUE"}


def test_a_cast_ballot_and_a_missed_one_for_the_same_colour_are_told_apart():
    """5.4.2: nobody may abstain; 5.7.5: a missed WAR ballot counts as peace (BLUE), but the
    result still says who voted BLUE and who let the deadline pass."""
    final = run(tv06_state(), "ENGLAND", WAR_ON_FRANCE, {"Tim": "RED", "Martin": "NO_BALLOT", "Simon": "BLUE"})
    result = final.result
    assert result["ballots"] == {"Tim": "RED", "Simon": "BLUE"} and result["missed"] == ["Martin"]
    assert result["counted"] == {"Tim": "RED", "Martin": "BLUE", "Simon": "BLUE"}
    assert (result["red"], result["blue"], result["winner"]) == (7, 11, "BLUE")
    # a status-quo ballot is a ballot: the missed player is on the winning side here, and Tim loses
    assert result["losers"] == [{"player": "Tim", "effect": "TURN_DECLINING"}] and result["war"] is None


def test_a_missed_status_quo_ballot_can_lose():
    final = run(tv06_state(), "ENGLAND", WAR_ON_FRANCE, {"Tim": "RED", "Martin": "RED", "Simon": "NO_BALLOT"},
                dice=([3, 2], [2, 6]))
    assert final.result["missed"] == ["Simon"] and final.result["winner"] == "RED"
    assert final.result["losers"] == [{"player": "Simon", "effect": "TURN_DECLINING"}]


@pytest.mark.parametrize("agenda, side, expected", [
    (WAR_ON_FRANCE, "RED", "BLUE"), ({"agenda": "CHANGE_SIDE"}, "RED", "RED"), ({"agenda": "CHANGE_SIDE"}, "BLUE", "BLUE"),
])
def test_missing_ballot_defaults_to_the_status_quo(agenda, side, expected):
    state = tv29_state({"A": 4, "B": 3})
    state["countries"]["ENGLAND"]["side"] = side
    if side == "BLUE":
        state["countries"]["FRANCE"]["side"] = "RED"
    steps = script(state, "ENGLAND", agenda, {"A": "RED", "B": "RED"})
    step = next_step(VOTE, state, answers_until(state, steps, "sealed:ballot"))
    assert step.default == {"A": "NO_BALLOT", "B": "NO_BALLOT"}
    for decision in step.decisions:
        assert decision.details["choices"] == ["RED", "BLUE"] and decision.details["if_missed"] == expected
    final = run(state, "ENGLAND", agenda, step.default)
    assert final.result["counted"] == {"A": expected, "B": expected} and final.result["missed"] == ["A", "B"]
    assert final.result["ballots"] == {} and final.result["losers"] == [] and final.result["change"] is None


def test_the_agenda_default_is_never_a_war():
    state = tv29_state({"A": 4, "B": 3})
    step = next_step(VOTE, state, ["ENGLAND", []])
    assert WAR_ON_FRANCE in step.details["legal"] and step.default == {"agenda": "CHANGE_SIDE"}


def test_the_ballots_are_one_sealed_step_of_exactly_the_participants():
    state = tv06_state()
    step = next_step(VOTE, state, answers_until(state, script(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS),
                                                "sealed:ballot"))
    assert isinstance(step, Sealed) and step.question == "ballot" and step.participants == ("Tim", "Martin", "Simon")
    assert step.to_dict()["type"] == "sealed"
    for decision in step.decisions:  # weights and displays are public (§2.6): nothing private here
        assert not decision.private and decision.details["weights"] == {"Tim": 7, "Martin": 5, "Simon": 6}
        assert decision.details["meaning"] == {"RED": "war", "BLUE": "peace"}
    check_answer(step, "BLUE", "Simon")
    with pytest.raises(NotYourStep):
        check_answer(step, "RED", "P4")
    with pytest.raises(NotYourStep):  # a participant gives only its own part; the service records the whole
        answer(VOTE, state, answers_until(state, script(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS),
                                          "sealed:ballot"), TV06_BALLOTS, participant="Tim")


def test_the_placements_after_the_call_are_one_sealed_private_step():
    """Every other player is asked, even with nothing to place, so the step does not tell the
    table who holds cards for the country; each part lists only its own participant's cards."""
    state = tv05_state()
    step = next_step(VOTE, state, ["ENGLAND", [], {"agenda": "CHANGE_SIDE"}])
    assert isinstance(step, Sealed) and step.participants == ("Martin", "Simon", "P4", "P5")
    assert step.default == {"Martin": [], "Simon": [], "P4": [], "P5": []}
    placeable = {d.participant: d.details["placeable"] for d in step.decisions}
    assert placeable == {"Martin": ["Martin-E5"], "Simon": [], "P4": ["P4-E3"], "P5": []}
    assert all(d.private for d in step.decisions)
    assert step.decisions[0].details["piles"] == {"Tim": {"state": "DOMINANT", "value": 5},
                                                  "Simon": {"state": "DOMINANT", "value": 6}}
    check_answer(step, ["P4-E3"], "P4")
    assert "not in your hand" in part_refusal(state, ["ENGLAND", [], {"agenda": "CHANGE_SIDE"}], "P5", ["P4-E3"])


def test_the_callers_steps_that_show_the_hand_are_private():
    state = tv05_state()
    country = next_step(VOTE, state, [])
    assert country.private and country.details == {"with_pile": ["ENGLAND"], "with_named_card": ["FRANCE"]}
    placement = next_step(VOTE, state, ["ENGLAND"])
    assert placement.private and placement.details["placeable"] == ["Tim-E2"]
    agenda = next_step(VOTE, state, ["ENGLAND", []])
    assert not agenda.private


def test_hands_are_the_private_field():
    state = tv05_state()
    assert VOTE.private_fields == ("hands",)
    assert VOTE.redact(state, "P4")["hands"] == {"P4": state["hands"]["P4"]}
    final = run(state, "ENGLAND", {"agenda": "CHANGE_SIDE"}, {"Tim": "RED", "Simon": "RED"})
    assert set(VOTE.redact(final.state, None)["hands"]) == set()


@pytest.mark.parametrize("log, bad, reason", [
    ([], "ATLANTIS", "legal choices"),
    (["ENGLAND"], "Tim-E2", "list of card ids"),
    (["ENGLAND"], ["Tim-E2", "Tim-E2"], "only once"),
    (["ENGLAND"], ["Martin-E5"], "not in your hand"),
    (["ENGLAND", []], {"agenda": "WAR"}, "target"),
    (["ENGLAND", []], {"agenda": "JOIN_SIDE"}, "5.3.1"),
    (["ENGLAND", []], {"agenda": "CHANGE_SIDE", "target": "FRANCE"}, "only a WAR agenda"),
    (["ENGLAND", []], "CHANGE_SIDE", "an agenda is"),
    (["ENGLAND", [], {"agenda": "CHANGE_SIDE"}, dict.fromkeys(["Martin", "Simon", "P4", "P5"], [])],
     {"Tim": "GREEN", "Simon": "RED"}, "Tim: 'GREEN' is not one of the legal choices"),
    (["ENGLAND", [], {"agenda": "CHANGE_SIDE"}, dict.fromkeys(["Martin", "Simon", "P4", "P5"], [])],
     {"Tim": None, "Simon": "RED"}, "Tim: None is not one of the legal choices"),
    (["ENGLAND", [], {"agenda": "CHANGE_SIDE"}, dict.fromkeys(["Martin", "Simon", "P4", "P5"], [])],
     {"Tim": "RED"}, "maps each of ['Tim', 'Simon']"),
    (["ENGLAND", [], {"agenda": "CHANGE_SIDE"}], {"Martin": ["Martin-E5"]}, "maps each of"),
], ids=["country", "placement-not-a-list", "placement-twice", "placement-not-yours", "agenda-no-target",
        "agenda-join-side-aligned", "agenda-target-on-change-side", "agenda-not-a-dict", "ballot-green", "ballot-none",
        "ballot-part-missing", "placement-part-missing"])
def test_illegal_answers_are_refused_with_a_reason_and_change_nothing(log, bad, reason):
    state = tv05_state()
    assert reason in refusal(state, log, bad)


def test_an_illegal_loss_choice_is_refused():
    state = tv06_state("DECLINING")
    log = [value for _, value in script(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS)]
    assert "legal choices" in refusal(state, log, "Tim-ENGLAND-0")


def test_the_vote_does_not_change_its_input():
    state = tv06_state("DECLINING")
    import copy
    kept = copy.deepcopy(state)
    run(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS, losses={"Simon": "England 1"}, dice=([3, 2], [2, 6]))
    assert state == kept


def test_decisions_are_json_serialisable():
    import json
    state = tv06_state("DECLINING")
    steps = script(state, "ENGLAND", WAR_ON_FRANCE, TV06_BALLOTS, losses={"Simon": "England 1"}, dice=([3, 2], [2, 6]))
    log: list = []
    for _, value in steps:
        step = next_step(VOTE, state, log)
        json.dumps(step.to_dict())
        log.append(value)
    json.dumps(next_step(VOTE, state, log).to_dict())
