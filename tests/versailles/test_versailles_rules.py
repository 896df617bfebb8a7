"""Uprising rules beyond the vectors: announcement order, the 2-player USA, configurable
readings, flag choices, mutinies, refusals of illegal answers and bad input states."""
from __future__ import annotations

import json

import pytest

from adjudicator.procedure import IllegalDecision, InvalidState, Outcome, answer, next_step
from adjudicator.versailles import FINAL_SCORING, UPRISING, final_scoring

from tests.versailles.helpers import SMYRNA, drive, issue, label, tv10_state

PASS = "pass"


def test_announcements_go_clockwise_from_left_of_the_active_player_who_announces_last():
    state = {"seat_order": ["UK", "FRANCE", "USA", "ITALY"], "active_player": "FRANCE", "first_uprising_done": True,
             "region": "EUROPE",
             "tracks": {"EUROPE": {"unrest": 4, "units": {"5": "FRANCE", "6": "UK", "7": "ITALY", "8": "USA"}}}}
    log, step = drive(UPRISING, state, [("ITALY modifier", 1), ("UK modifier", -1), ("FRANCE modifier", 1)])
    # USA's unit is in column 8: it gives no modifier.  Announcements are public to later announcers.
    assert step == next_step(UPRISING, state, log) and label(step) == "dice uprising_check:EUROPE"
    log, step = answer(UPRISING, state, log, [4])
    assert step.result["checks"][0]["modified"] == 5 and step.result["checks"][0]["uprising"] is True


def test_modifier_details_show_earlier_announcements():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "first_uprising_done": True,
             "region": "EUROPE", "tracks": {"EUROPE": {"unrest": 4, "units": {"5": "FRANCE", "6": "UK"}}}}
    log, step = drive(UPRISING, state, [("FRANCE modifier", -1)])
    assert step.details["announced"] == {"FRANCE": -1}


def test_an_x_column_means_no_roll_and_no_announcements():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "first_uprising_done": True,
             "tracks": {"EUROPE": {"unrest": 3}}}
    step = next_step(UPRISING, state, [])
    assert isinstance(step, Outcome)
    assert step.result["checks"] == [{"region": "EUROPE", "column": 3, "level": "X", "modifiers": {}, "roll": None,
                                      "modified": None, "uprising": False}]


def test_per_region_uprising_levels_override_the_column_levels():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "first_uprising_done": True,
             "tracks": {"EUROPE": {"unrest": 3}}, "region_uprising_levels": {"EUROPE": {"3": 6}}}
    assert label(next_step(UPRISING, state, [])) == "dice uprising_check:EUROPE"


def test_the_modified_roll_is_not_clamped():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "first_uprising_done": True,
             "region": "EUROPE", "uprising_levels": {"5": 6},
             "tracks": {"EUROPE": {"unrest": 5, "units": {"6": "UK", "7": "FRANCE"}}}}
    log, step = drive(UPRISING, state, [("FRANCE modifier", 1), ("UK modifier", 1), ("dice uprising_check:EUROPE", [6])])
    assert step.result["checks"][0]["modified"] == 8 and step.result["checks"][0]["uprising"] is True


def two_player_state():
    return {"seat_order": ["UK", "FRANCE"], "usa_faction": True, "active_player": "FRANCE",
            "strategy_offer": ["S1", "S2", "S3"], "region": "PACIFIC", "tracks": {"PACIFIC": {"unrest": 5}},
            "issues": [issue("KOREA", "PACIFIC", 4, "USA"), issue("NEW_GUINEA", "PACIFIC", 4, "USA"),
                       issue("SAMOA", "PACIFIC", 2, "UK")]}


def test_two_player_usa_is_affected_its_choices_go_to_the_active_player_and_it_never_bids():
    state = two_player_state()
    log, step = drive(UPRISING, state, [
        ("dice uprising_check:PACIFIC", [6]),
        ("FRANCE choose_issue", "NEW_GUINEA"),      # the player on turn decides for the USA
        ("FRANCE bid", {"influence": 1}),            # bidding starts with the active player
        ("UK bid", PASS),
        ("FRANCE choose_option", "Second"),
        ("UK choose_strategy_card", "S1"),           # only UK and France choose; UK 2 stars, France 4
        ("FRANCE choose_strategy_card", "S3")])
    assert isinstance(step, Outcome)
    uprising = step.result["uprisings"][0]
    assert (uprising["affected"], uprising["issue"], uprising["winner"]) == ("USA", "NEW_GUINEA", "FRANCE")
    assert step.result["strategy"]["removed"] == ["S2"]
    assert "USA" not in step.state["strategy_choice"]


def test_two_player_usa_happiness_changes_are_ignored():
    state = two_player_state()
    state["issues"][0]["options"][1]["effects"] = [{"type": "happiness", "nation": "USA", "delta": -5}]
    state["first_uprising_done"] = True
    log, step = drive(UPRISING, state, [("dice uprising_check:PACIFIC", [6]), ("FRANCE choose_issue", "KOREA"),
                                        ("FRANCE bid", PASS), ("UK bid", {"influence": 1}),
                                        ("UK choose_option", "Second")])
    assert step.state["happiness"]["USA"] == 20


def no_issue_state(first_done):
    return {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "first_uprising_done": first_done,
            "strategy_offer": [] if first_done else ["A", "B", "C", "D"],
            "rules": {"uprising_without_controlled_issue": "end_check"},
            "tracks": {"AFRICA": {"keg": 1, "unrest": 6}}}


def test_end_check_reading_skips_the_reset_when_nobody_controls_an_issue():
    log, step = drive(UPRISING, no_issue_state(True), [("dice uprising_check:AFRICA", [5])])
    assert (step.state["tracks"]["AFRICA"]["keg"], step.state["tracks"]["AFRICA"]["unrest"]) == (1, 6)


def test_end_check_reading_still_resets_and_selects_cards_on_the_first_uprising():
    log, step = drive(UPRISING, no_issue_state(False), [
        ("dice uprising_check:AFRICA", [5]), ("UK choose_strategy_card", "A"),
        ("FRANCE choose_strategy_card", "B"), ("USA choose_strategy_card", "C")])
    assert (step.state["tracks"]["AFRICA"]["keg"], step.state["tracks"]["AFRICA"]["unrest"]) == (2, 3)
    assert step.state["first_uprising_done"] is True


def test_equal_star_issues_are_chosen_by_the_affected_player():
    state = tv10_state()
    state["issues"][1]["stars"] = 6            # ARABIA now ties CONSTANTINOPLE
    log, step = drive(UPRISING, state, [("dice uprising_check:EUROPE", [1]), ("UK modifier", 0),
                                        ("dice uprising_check:MIDDLE_EAST", [6])])
    assert label(step) == "UK choose_issue" and step.choices == ["CONSTANTINOPLE", "ARABIA"]
    log, step = answer(UPRISING, state, log, "ARABIA")
    assert step.details["issue"] == "ARABIA"


def test_a_naval_choice_icon_asks_the_winner_for_the_flag():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "FRANCE", "first_uprising_done": True,
             "region": "MIDDLE_EAST", "tracks": {"MIDDLE_EAST": {"unrest": 5}}, "issues": [dict(SMYRNA)]}
    log, step = drive(UPRISING, state, [("dice uprising_check:MIDDLE_EAST", [4]), ("FRANCE bid", PASS),
                                        ("USA bid", {"influence": 2}), ("UK bid", PASS),
                                        ("USA choose_option", "Award to Greece")])
    assert label(step) == "USA choose_flag" and step.choices == ["UK", "USA"]
    log, step = answer(UPRISING, state, log, "USA")
    smyrna = step.state["issues"][0]
    assert smyrna["counters"] == [{"type": "NAVAL_SQUADRON", "flag": "USA"}]   # the old UK counter was discarded
    assert step.state["happiness"]["UK"] == 19
    assert step.state["tracks"]["MIDDLE_EAST"]["unrest"] == 4    # reset to 2 by step 5, then +2 by step 6


def test_a_winner_may_mutiny_and_demobilize_a_deployed_unit():
    # France at 11 with 3 units bids 2: 11 -> 9 (2-unit zone); it has 3, so one goes to the "1" box -> 10.
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "FRANCE", "first_uprising_done": True,
             "region": "MIDDLE_EAST", "happiness": {"FRANCE": 11},
             "tracks": {"MIDDLE_EAST": {"unrest": 5}, "EUROPE": {"unrest": 1, "units": {"5": "FRANCE"}}},
             "issues": [issue("ME", "MIDDLE_EAST", 3, "UK")]}
    log, step = drive(UPRISING, state, [("dice uprising_check:MIDDLE_EAST", [6]), ("UK bid", PASS),
                                        ("FRANCE bid", {"available_units": 2}), ("USA bid", PASS)])
    assert label(step) == "FRANCE demobilize" and step.choices == ["exhausted", "EUROPE"]
    assert step.default == "exhausted"
    log, step = answer(UPRISING, state, log, "EUROPE")
    log, step = answer(UPRISING, state, log, "First")
    assert step.state["tracks"]["EUROPE"]["units"] == {}
    assert step.state["happiness"]["FRANCE"] == 10
    assert step.state["players"]["FRANCE"]["units_demobilized"] == 1
    assert step.result["uprisings"][0]["mutinies"] == [{"nation": "FRANCE", "demobilized_from": "EUROPE",
                                                        "happiness": 10}]


def test_every_step_is_json_serialisable():
    state = tv10_state()
    log = [[2], -1, [5], {"region_units": 1, "influence": 2}, PASS, PASS, "Award to Turkey"]
    for n in range(len(log) + 1):
        json.dumps(next_step(UPRISING, state, log[:n]).to_dict())


# --- refusals -------------------------------------------------------------------------------------

BAD_ANSWERS = [
    ([], [7], "every die"),                      # Europe's die
    ([], [2, 3], "list of 1"),
    ([[2]], 2, "not one of the legal choices"),  # UK modifier
    ([[2]], "-1", "not one of the legal choices"),
    ([[2], -1, [5]], "PASS", "answer \"pass\" or a bid"),
    ([[2], -1, [5]], 3, "answer \"pass\" or a bid"),
    ([[2], -1, [5]], {"units": 1}, "unknown bid keys"),
    ([[2], -1, [5]], {"influence": True}, "whole number"),
    ([[2], -1, [5]], {"influence": -1}, "whole number"),
    ([[2], -1, [5]], {"influence": 1.5}, "whole number"),
    ([[2], -1, [5], PASS, PASS, {"influence": 1}], "Open City!", "not one of the legal choices"),
]


@pytest.mark.parametrize("log, bad, reason", BAD_ANSWERS)
def test_illegal_answers_are_refused_with_a_reason_and_leave_the_log_unchanged(log, bad, reason):
    state = tv10_state()
    before = list(log)
    expected_step = next_step(UPRISING, state, log)
    with pytest.raises(IllegalDecision, match=reason):
        answer(UPRISING, state, log, bad)
    assert log == before and next_step(UPRISING, state, log) == expected_step


def test_a_taken_strategy_card_is_refused():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "region": "AFRICA",
             "strategy_offer": ["A", "B", "C", "D"], "tracks": {"AFRICA": {"unrest": 8}}}
    log, step = drive(UPRISING, state, [("dice uprising_check:AFRICA", [1]), ("UK choose_strategy_card", "B")])
    with pytest.raises(IllegalDecision, match="not one of the legal choices"):
        answer(UPRISING, state, log, "B")


def test_a_log_with_an_illegal_entry_is_refused_on_replay():
    with pytest.raises(IllegalDecision, match="log entry 1"):
        next_step(UPRISING, tv10_state(), [[2], 5])


def test_the_outcome_accepts_no_more_answers():
    log = [[2], -1, [1]]
    assert isinstance(next_step(UPRISING, tv10_state(), log), Outcome)
    with pytest.raises(IllegalDecision, match="already over"):
        answer(UPRISING, tv10_state(), log, PASS)


# --- bad input states -----------------------------------------------------------------------------

def errors_for(change, procedure=UPRISING):
    state = tv10_state()
    change(state)
    with pytest.raises(InvalidState) as error:
        next_step(procedure, state, [])
    return error.value.errors


def test_missing_required_fields_are_named():
    with pytest.raises(InvalidState) as error:
        next_step(UPRISING, {}, [])
    assert set(error.value.errors) == {"seat_order", "active_player"}


@pytest.mark.parametrize("change, path", [
    (lambda s: s.update(seat_order=["UK", "FRANCE"]), ["seat_order"]),
    (lambda s: s.update(seat_order=["UK", "FRANCE", "JAPAN"]), ["seat_order", 2]),
    (lambda s: s.update(active_player="ITALY"), ["active_player"]),
    (lambda s: s.update(region="ATLANTIS"), ["region"]),
    (lambda s: s["happiness"].update(UK=31), ["happiness", "UK", "value"]),
    (lambda s: s["tracks"]["EUROPE"].update(keg=4), ["tracks", "EUROPE", "value", "keg"]),
    (lambda s: s["tracks"]["EUROPE"].update(keg=3, unrest=3), ["tracks", "EUROPE", "value", "unrest"]),
    (lambda s: s["tracks"]["MIDDLE_EAST"].update(unrest=6), ["tracks", "MIDDLE_EAST", "value", "unrest"]),
    (lambda s: s["tracks"]["EUROPE"].update(units={"4": "UK"}), ["tracks", "EUROPE", "value", "units", "4", "key"]),
    (lambda s: s["tracks"]["EUROPE"].update(units={"7": "UK", "8": "UK"}), ["tracks", "EUROPE", "value", "units"]),
    (lambda s: s["tracks"].update(ATLANTIS={}), ["tracks"]),
    (lambda s: s["players"]["UK"].update(units_available=2), ["players", "UK", "units_available"]),
    (lambda s: s["players"]["UK"].update(cubes_available=16), ["players", "UK", "value", "cubes_available"]),
    (lambda s: s["players"]["FRANCE"].update(cubes_exhausted=6), ["players", "FRANCE", "value", "cubes_exhausted"]),
    (lambda s: s["players"].update(ITALY={}), ["players"]),
    (lambda s: s["issues"][0].pop("stars"), ["issues", 0, "stars"]),
    (lambda s: s["issues"][0].update(region="ATLANTIS"), ["issues", 0, "region"]),
    (lambda s: s["issues"][0].update(controller=None), ["issues", 0, "controller"]),
    (lambda s: s["issues"][0].update(option="Nope"), ["issues", 0, "option"]),
    (lambda s: s["issues"][1].update(id="CONSTANTINOPLE"), ["issues", 1, "id"]),
    (lambda s: s["issues"][0]["options"][1]["effects"][0].pop("delta"), ["issues", 0, "options", 1, "effects", 0, "delta"]),
    (lambda s: s["issues"][0]["options"][1]["effects"][0].update(region="MARS"),
     ["issues", 0, "options", 1, "effects", 0, "region"]),
    (lambda s: s["issues"][0]["counters"][0].update(type="DRAGONS"), ["issues", 0, "counters", 0, "type"]),
    (lambda s: s.update(uprising_levels={"5": 7}), ["uprising_levels", "5", "value"]),
    (lambda s: s.update(happiness_zones=[{"min": 0, "max": 10, "units": 2}]), ["happiness_zones"]),
    (lambda s: s.update(first_uprising_done=False), ["strategy_offer"]),
    (lambda s: s.update(rules={"bid_happiness_loss": "sometimes"}), ["rules", "bid_happiness_loss"]),
])
def test_bad_states_give_precise_field_errors(change, path):
    node = errors_for(change)
    for key in path:
        assert key in node, (path, node)
        node = node[key]
    assert node and all(isinstance(message, str) for message in node)


def test_scoring_needs_the_data_of_every_chosen_card():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", "strategy_choice": {"UK": "MYSTERY"}}
    with pytest.raises(InvalidState) as error:
        final_scoring(state)
    assert "strategy_choice" in error.value.errors


# --- scoring details ------------------------------------------------------------------------------

def base_scoring(**extra):
    return {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "UK", **extra}


def test_ties_go_to_happiness_then_to_most_issues_then_are_shared():
    # Same totals and happiness: the player with more controlled issues wins.
    state = base_scoring(happiness={"UK": 20, "FRANCE": 20, "USA": 10},
                         issues=[issue("A", "EUROPE", 3, "UK"), issue("B", "EUROPE", 3, "UK"),
                                 issue("C", "BALKANS", 6, "FRANCE"), issue("D", "AFRICA", 9, "USA")])
    assert final_scoring(state)["winners"] == ["UK"]
    state["issues"] = [issue("A", "EUROPE", 6, "UK"), issue("C", "BALKANS", 6, "FRANCE"), issue("D", "AFRICA", 9, "USA")]
    assert final_scoring(state)["winners"] == ["UK", "FRANCE"]


def test_a_flagged_counter_scores_once_per_category():
    cards = {"NAVY": {"terms": [{"condition": "counter", "counter": "NAVAL_SQUADRON", "vp": 2}]}}
    state = base_scoring(strategy_cards=cards, strategy_choice={"FRANCE": "NAVY"},
                         issues=[issue("A", "EUROPE", 3, "UK", counters=[{"type": "NAVAL_SQUADRON", "flag": "UK"},
                                                                         {"type": "EMPIRE", "flag": "FRANCE"}])])
    scores = final_scoring(state)["scores"]
    assert scores["UK"]["flags"] == 1          # its own flag on its own issue
    assert scores["FRANCE"]["flags"] == 0      # a French flag on a UK issue gives no flag point
    assert scores["FRANCE"]["strategy_card"] == 2   # the card counts counters on every issue


def test_strategy_terms_military_signing_and_unrest():
    cards = {"MIX": {"terms": [{"condition": "military", "vp": 1}, {"condition": "signs", "nation": "JAPAN", "vp": 3},
                               {"condition": "refuses", "nation": "ITALY", "vp": 2},
                               {"condition": "region_unrest_high", "vp": -1}]}}
    state = base_scoring(strategy_cards=cards, strategy_choice={"UK": "MIX"},
                         happiness={"JAPAN": 15, "ITALY": 14},
                         players={"UK": {"units_demobilized": 1}},
                         tracks={"EUROPE": {"unrest": 4}, "AFRICA": {"unrest": 8}})
    assert final_scoring(state)["scores"]["UK"]["strategy_card"] == 2 + 3 + 2 - 2


def test_two_player_usa_scores_nothing_and_its_issues_count_for_no_one():
    state = {"seat_order": ["UK", "FRANCE"], "usa_faction": True, "active_player": "UK",
             "happiness": {"UK": 20, "FRANCE": 20, "USA": 30},
             "issues": [issue("A", "EUROPE", 20, "USA"), issue("B", "EUROPE", 3, "UK")]}
    result = final_scoring(state)
    assert set(result["scores"]) == {"UK", "FRANCE"} and result["winners"] == ["UK"]
    assert result["scores"]["FRANCE"]["happiness"] == 6      # the 2-player table, a tie at the top


def test_rush_to_the_finish_is_worth_seven():
    state = base_scoring(issues=[{"id": "RTTF", "is_rush_to_the_finish": True, "controller": "USA"}])
    assert final_scoring(state)["scores"]["USA"]["issues"] == 7


def test_final_scoring_procedure_has_no_steps():
    step = next_step(FINAL_SCORING, base_scoring(), [])
    assert isinstance(step, Outcome) and step.state["seat_order"] == ["UK", "FRANCE", "USA"]


# --- unsettling by an event (§6.9) ----------------------------------------------------------------

def test_an_event_unsettles_an_issue_bidding_and_option_without_reset():
    from adjudicator.versailles import UNSETTLE
    state = tv10_state()
    state["issue"] = "CONSTANTINOPLE"
    log, step = drive(UNSETTLE, state, [("UK bid", {"region_units": 1}), ("FRANCE bid", {"available_units": 2, "influence": 1}),
                                        ("USA bid", PASS), ("UK bid", PASS), ("FRANCE choose_option", "Open City")])
    assert isinstance(step, Outcome)
    assert (step.result["winner"], step.result["keg"]) == ("FRANCE", None)
    assert (step.state["tracks"]["MIDDLE_EAST"]["keg"], step.state["tracks"]["MIDDLE_EAST"]["unrest"]) == (1, 5)
    constantinople = step.state["issues"][0]
    assert constantinople["counters"] == [{"type": "NAVAL_SQUADRON", "flag": "UK"}]   # fresh from Open City
    assert step.state["first_uprising_done"] is True


def test_an_issue_with_no_region_is_bid_for_without_region_units():
    from adjudicator.versailles import UNSETTLE
    state = tv10_state()
    state["issues"].append(issue("SUFFRAGE", None, 2, "USA"))
    state["issue"] = "SUFFRAGE"
    step = next_step(UNSETTLE, state, [])
    assert label(step) == "USA bid" and step.details["max"]["region_units"] == 0
    log, step = drive(UNSETTLE, state, [("USA bid", PASS), ("UK bid", PASS), ("FRANCE bid", PASS)])
    assert step.state["issue_discard"][0]["id"] == "SUFFRAGE"


def test_an_issue_with_no_region_can_be_won_and_paid_for():
    """Regression: paying for a region-less issue once looked up the track of region None."""
    from adjudicator.versailles import UNSETTLE
    state = tv10_state()
    state["issues"].append(issue("SUFFRAGE", None, 2, "USA"))
    state["issue"] = "SUFFRAGE"
    log, step = drive(UNSETTLE, state, [("USA bid", {"available_units": 1, "influence": 1}), ("UK bid", PASS),
                                        ("FRANCE bid", PASS), ("USA choose_option", "Second")])
    assert isinstance(step, Outcome) and step.result["winner"] == "USA"
    assert step.state["players"]["USA"]["units_exhausted"] == 1 and step.state["happiness"]["USA"] == 19
    assert step.state["tracks"] == UNSETTLE.load(state)["tracks"]


def test_the_kinds_say_what_they_resolve_and_who_answers_and_keep_nothing_private():
    from adjudicator.versailles import UNSETTLE
    for procedure in (UPRISING, UNSETTLE, FINAL_SCORING):
        assert procedure.summary and procedure.participants and procedure.private_fields == ()
        assert procedure.name.startswith("versailles.")


def test_unsettle_needs_a_settled_issue():
    from adjudicator.versailles import UNSETTLE
    state = tv10_state()
    state["issue"] = "NOPE"
    with pytest.raises(InvalidState) as error:
        next_step(UNSETTLE, state, [])
    assert "issue" in error.value.errors


TV10_OPENING_FOR_RULES = [("dice uprising_check:EUROPE", [2]), ("UK modifier", -1),
                          ("dice uprising_check:MIDDLE_EAST", [6])]


def refused(state, log, value):
    with pytest.raises(IllegalDecision):
        answer(UPRISING, state, log, value)


def test_deploy_column_readings_are_configurable():
    # G-3 / A-8 / A-9: with doubling only in columns 5-7, UK's column-8 unit bids strength 1;
    # with modifiers allowed in column 8, it may announce one.
    state = tv10_state()
    state["tracks"]["MIDDLE_EAST"]["units"] = {"8": "UK"}
    state["double_bid_columns"] = [5, 6, 7]
    state["modifier_columns"] = [5, 6, 7, 8]
    log, step = drive(UPRISING, state, TV10_OPENING_FOR_RULES)
    assert step.details["region_unit_strength"] == 1
    log, step = answer(UPRISING, state, log, {"region_units": 1})
    assert step.details["high_bid"]["strength"] == 1
    refused(state, log, {"influence": 5})                # (0, 5) does not beat (1, 0)
    log, step = answer(UPRISING, state, log, {"available_units": 1, "influence": 1})

