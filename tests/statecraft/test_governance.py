"""Governance (spec §7): TV-06..TV-10, TV-17, TV-24..TV-29."""
import pytest

from adjudicator.statecraft import GOVERNANCE, INSTITUTION_RESOLUTION, VOTING, drawn_token, face_of
from adjudicator.statecraft.bots import vote_choice, vote_difference

from tests.statecraft.helpers import SANCTIONS, Driver, power


def empty(**votes):
    institutions = {"DAVOS": {}, "IMF": {}, "PRESS": {}, "UN": {}}
    institutions.update(votes)
    return institutions


def test_bag_faces_map_to_tokens_in_a_fixed_order():
    bag = {"RUS": 2, "EU": 3, "DEMO": 3, "CHN": 2}  # laid out EU, USA, CHN, RUS, DEMO
    assert [drawn_token(bag, f) for f in range(1, 11)] == ["EU"] * 3 + ["CHN"] * 2 + ["RUS"] * 2 + ["DEMO"] * 3
    assert [face_of(bag, t) for t in ("EU", "CHN", "RUS", "DEMO")] == [1, 4, 6, 8]


TV06 = {"powers": {"EU": power(pp=10, leader_value=3), "RUS": power(pp=10, leader_value=2),
                   "CHN": power(pp=10, leader_value=1)},
        "bag": {"EU": 3, "RUS": 2, "CHN": 2, "DEMO": 3}, "un_card": SANCTIONS}


def tv06_voting():
    d = Driver(GOVERNANCE, TV06)
    d.draw("RUS").decide("RUS", "place_vote", "PRESS")
    d.draw("EU").decide("EU", "place_vote", "DAVOS")
    d.draw("DEMO")
    d.draw("CHN").decide("CHN", "place_vote", "UN")
    d.draw("DEMO")
    d.draw("EU").decide("EU", "place_vote", "PRESS")
    d.draw("DEMO")  # the 3rd neutral ends the voting: no further draw
    return d


def test_TV_06_voting_ends_on_the_third_neutral():
    d = Driver(VOTING, TV06)
    for token, place in [("RUS", "PRESS"), ("EU", "DAVOS"), ("DEMO", None), ("CHN", "UN"), ("DEMO", None),
                         ("EU", "PRESS"), ("DEMO", None)]:
        d.draw(token)
        if place:
            d.decide(token, "place_vote", place)
    state = d.outcome.state
    assert state["institutions"] == empty(DAVOS={"EU": 1}, PRESS={"RUS": 1, "EU": 1}, UN={"CHN": 1})
    assert state["set_aside_demo"] == 3
    assert state["bag"] == {"EU": 1, "RUS": 1, "CHN": 1}


def test_TV_06_resolution_with_the_davos_removal():
    d = tv06_voting()
    d.decide("EU", "davos_remove", {"institution": "PRESS", "power": "RUS"})
    d.decide("CHN", "swap_resources", None)  # the UN's E2; IMF had no votes, so no IMF step
    out = d.outcome
    state = out.state
    assert state["institutions"] == empty(DAVOS={"EU": 1}, PRESS={"EU": 1}, UN={"CHN": 1})
    assert state["controller"] == {"DAVOS": "EU", "IMF": None, "PRESS": "EU", "UN": "CHN"}
    assert state["powers"]["RUS"]["pool"] == 11  # the removed vote goes to its owner's pool
    assert state["powers"]["EU"]["support"] == 5 and state["powers"]["EU"]["press_protected"]
    assert {p: v["pp"] for p, v in state["powers"].items()} == {"EU": 8, "RUS": 8, "CHN": 10}
    assert state["bag"] == {"EU": 1, "RUS": 1, "CHN": 1}


def test_TV_06_variant_no_removal_leaves_press_tied():
    d = tv06_voting()
    d.decide("EU", "davos_remove", None)
    d.decide("CHN", "swap_resources", None)
    state = d.outcome.state
    assert state["institutions"]["PRESS"] == {} and state["controller"]["PRESS"] is None
    assert state["bag"] == {"EU": 2, "RUS": 2, "CHN": 1}
    assert state["powers"]["EU"]["support"] == 4 and not state["powers"]["EU"]["press_protected"]


def test_TV_07_un_majority_and_minority():
    state = {"powers": {p: power(pp=10, leader_value=i) for i, p in enumerate(["EU", "USA", "CHN", "RUS"])},
             "institutions": empty(UN={"CHN": 3, "EU": 2, "USA": 1}), "un_card": SANCTIONS}
    d = Driver(INSTITUTION_RESOLUTION, state).decide("CHN", "swap_resources", [3, 4])
    out = d.outcome.state
    assert out["institutions"]["UN"] == {"CHN": 1}
    assert out["powers"]["CHN"]["pool"] == 12
    assert out["bag"] == {"EU": 2, "USA": 1}
    assert out["resource_track"] == ["CROPS", "GOODS", "METALS", "HYDROCARBONS"]
    assert {p: v["pp"] for p, v in out["powers"].items()} == {"EU": 8, "USA": 8, "CHN": 10, "RUS": 8}


@pytest.mark.parametrize("votes, bag", [
    pytest.param({"DAVOS": {"USA": 3, "CHN": 3, "EU": 1}}, {"USA": 3, "CHN": 3, "EU": 1}, id="TV-08a"),
    pytest.param({"UN": {"CHN": 2, "EU": 2}}, {"CHN": 2, "EU": 2}, id="TV-08b"),
    pytest.param({}, {}, id="TV-08c"),
])
def test_TV_08_no_sole_majority(votes, bag):
    state = {"powers": {p: power(leader_value=i) for i, p in enumerate(["EU", "USA", "CHN"])},
             "institutions": empty(**votes), "un_card": SANCTIONS}
    out = Driver(INSTITUTION_RESOLUTION, state).outcome  # no decision at all: no effect anywhere
    assert out.state["institutions"] == empty()
    assert out.state["bag"] == bag
    assert set(out.state["controller"].values()) == {None}
    assert all(v["pp"] == 10 for v in out.state["powers"].values())  # no E2, no E3


def test_TV_08b_all_minority_option():
    state = {"powers": {p: power(leader_value=i) for i, p in enumerate(["EU", "CHN"])},
             "institutions": empty(UN={"CHN": 2, "EU": 2}), "un_card": SANCTIONS,
             "options": {"un_no_majority": "all_minority"}}
    out = Driver(INSTITUTION_RESOLUTION, state).outcome
    assert {p: v["pp"] for p, v in out.state["powers"].items()} == {"EU": 8, "CHN": 8}


@pytest.mark.parametrize("remove", [True, False], ids=["TV-09", "TV-09-without-removal"])
def test_TV_09_davos_removal_changes_press(remove):
    state = {"powers": {p: power(leader_value=i) for i, p in enumerate(["EU", "USA", "CHN"])},
             "institutions": empty(DAVOS={"USA": 2, "CHN": 1}, PRESS={"CHN": 2, "EU": 1})}
    d = Driver(INSTITUTION_RESOLUTION, state)
    d.decide("USA", "davos_remove", {"institution": "PRESS", "power": "CHN"} if remove else None)
    out = d.outcome.state
    assert out["institutions"]["DAVOS"] == {"USA": 1}
    assert out["powers"]["USA"]["pool"] == 11
    if remove:
        assert out["powers"]["CHN"]["pool"] == 11
        assert out["institutions"]["PRESS"] == {} and out["controller"]["PRESS"] is None
        assert out["bag"] == {"CHN": 2, "EU": 1}
    else:
        assert out["controller"]["PRESS"] == "CHN" and out["institutions"]["PRESS"] == {"CHN": 1}
        assert out["bag"] == {"CHN": 1, "EU": 1}


@pytest.mark.parametrize("usa_votes, controller, bag", [
    pytest.param(1, None, {"EU": 1, "USA": 1}, id="TV-10a"),
    pytest.param(2, "USA", {"EU": 1}, id="TV-10b"),
])
def test_TV_10_carried_over_winning_vote(usa_votes, controller, bag):
    # Round r: EU won PRESS and its vote stayed. Round r+1: the voting adds USA votes.
    state = {"powers": {"EU": power(leader_value=2), "USA": power(leader_value=1)},
             "institutions": empty(PRESS={"EU": 1}), "bag": {"USA": usa_votes, "DEMO": 3}}
    d = Driver(GOVERNANCE, state)
    for _ in range(usa_votes):
        d.draw("USA").decide("USA", "place_vote", "PRESS")
    d.draw("DEMO").draw("DEMO").draw("DEMO")
    out = d.outcome.state
    assert out["controller"]["PRESS"] == controller
    assert out["bag"] == bag
    if controller:
        assert out["institutions"]["PRESS"] == {"USA": 1} and out["powers"]["USA"]["pool"] == 11


def test_TV_10_alternative_carried_votes_to_the_bag_first():
    state = {"powers": {"EU": power(leader_value=2), "USA": power(leader_value=1)},
             "institutions": empty(PRESS={"EU": 1}), "bag": {"DEMO": 3},
             "options": {"winner_vote_carries": "to_bag_before_voting"}}
    d = Driver(GOVERNANCE, state)
    d.bag = {"EU": 1, "DEMO": 3}
    d.draw("DEMO").draw("DEMO").draw("DEMO")
    assert d.outcome.state["bag"] == {"EU": 1} and d.outcome.state["institutions"]["PRESS"] == {}


def test_TV_17_press_at_the_top_gives_2_pp():
    state = {"powers": {"USA": power(pp=20, support=9)}, "institutions": empty(PRESS={"USA": 1})}
    out = Driver(INSTITUTION_RESOLUTION, state).outcome.state["powers"]["USA"]
    assert (out["support"], out["pp"], out["press_protected"]) == (9, 22, True)


def test_press_protection_blocks_a_later_support_down_effect():
    card = {"name": "fixture", "majority": [], "minority": ["SUPPORT_DOWN"]}
    state = {"powers": {"USA": power(support=5), "EU": power(support=5, leader_value=2)},
             "institutions": empty(PRESS={"USA": 1}, UN={"EU": 1}), "un_card": card}
    out = Driver(INSTITUTION_RESOLUTION, state).outcome.state["powers"]["USA"]
    assert out["support"] == 6  # up by Press, then the E3 drop is ignored


# --- bot governance (§9.5): the default of a bot's decision is its rule ---------------

def test_TV_24_vote_difference():
    assert vote_difference({"USA": 3, "CHN": 3, "EU": 1}, "EU") == 2


def bot_draw_state(bot, institutions):
    state = {"powers": {p: power(leader_value=i, is_bot=(p == bot)) for i, p in enumerate(["EU", "USA", "CHN", "RUS"])},
             "institutions": institutions, "bag": {bot: 1}}
    return state


@pytest.mark.parametrize("bot, institutions, expected", [
    pytest.param("CHN", empty(DAVOS={"EU": 1, "USA": 1}, IMF={"RUS": 2}, PRESS={"CHN": 1, "USA": 1}), "PRESS",
                 id="TV-25"),
    pytest.param("RUS", empty(DAVOS={"CHN": 2}, IMF={"USA": 3}, PRESS={"CHN": 1}, UN={"CHN": 1, "EU": 1}), "PRESS",
                 id="TV-26"),
    pytest.param("RUS", empty(DAVOS={"CHN": 2}, IMF={"RUS": 1}, PRESS={"CHN": 1}, UN={"CHN": 1, "EU": 1}), "PRESS",
                 id="TV-26-variant"),
])
def test_bot_vote_placement(bot, institutions, expected):
    d = Driver(VOTING, bot_draw_state(bot, institutions)).draw(bot)
    assert d.expect_decision(bot, "place_vote").default == expected
    d.default(bot, "place_vote")
    assert d.outcome.state["institutions"][expected][bot] == institutions[expected].get(bot, 0) + 1


def test_bot_vote_rule_3_when_it_leads_everywhere():
    assert vote_choice(empty(DAVOS={"RUS": 2}, IMF={"RUS": 1}, PRESS={"RUS": 3, "EU": 1}, UN={"RUS": 1}),
                       "RUS") == "IMF"


def bot_davos_state(institutions):
    return {"powers": {"EU": power(pp=5, leader_value=1), "USA": power(pp=5, leader_value=2),
                       "CHN": power(pp=5, leader_value=3), "RUS": power(pp=5, leader_value=4, is_bot=True)},
            "institutions": institutions}


def test_TV_27_bot_davos_rule_a():
    d = Driver(INSTITUTION_RESOLUTION, bot_davos_state(
        empty(DAVOS={"RUS": 1}, IMF={"USA": 2}, PRESS={"CHN": 1, "RUS": 1}, UN={"EU": 1})))
    assert d.expect_decision("RUS", "davos_remove").default == {"institution": "PRESS", "power": "CHN"}
    d.default("RUS", "davos_remove").decide("USA", "swap_resources", None)
    out = d.outcome.state
    assert out["powers"]["CHN"]["pool"] == 11
    assert out["controller"]["PRESS"] == "RUS"


def test_TV_28_bot_davos_rule_b():
    d = Driver(INSTITUTION_RESOLUTION, bot_davos_state(
        empty(DAVOS={"RUS": 1}, IMF={"RUS": 1}, PRESS={"CHN": 2, "EU": 1, "RUS": 1}, UN={"USA": 3})))
    assert d.expect_decision("RUS", "davos_remove").default == {"institution": "PRESS", "power": "CHN"}
    d.default("RUS", "davos_remove").default("RUS", "swap_resources")
    out = d.outcome.state
    assert out["powers"]["CHN"]["pool"] == 11
    assert out["controller"]["PRESS"] is None and out["institutions"]["PRESS"] == {}
    assert out["bag"] == {"CHN": 1, "EU": 1, "RUS": 1}


def bot_imf(track, **options):
    state = {"powers": {"RUS": power(is_bot=True, market_priority=["HYDROCARBONS", "METALS"])},
             "institutions": empty(IMF={"RUS": 1}), "resource_track": track, "options": options}
    return Driver(INSTITUTION_RESOLUTION, state).default("RUS", "swap_resources").outcome.state["resource_track"]


def test_TV_29a_bot_imf_raises_hydrocarbons():
    assert bot_imf(["CROPS", "GOODS", "HYDROCARBONS", "METALS"]) == ["CROPS", "GOODS", "METALS", "HYDROCARBONS"]


def test_TV_29b_bot_imf_raises_metals_when_hydrocarbons_are_on_top():
    assert bot_imf(["CROPS", "METALS", "GOODS", "HYDROCARBONS"]) == ["CROPS", "GOODS", "METALS", "HYDROCARBONS"]


def test_TV_29c_follows_the_source_raising_metals_is_possible():
    # Spec TV-29(c) expects no change ([DEF], A-29); the source says only "if hydrocarbons cannot go up,
    # raise metals", which is possible here.  The spec's reading is kept as an option.
    assert bot_imf(["CROPS", "GOODS", "METALS", "HYDROCARBONS"]) == ["CROPS", "GOODS", "HYDROCARBONS", "METALS"]


def test_TV_29c_spec_reading_as_an_option():
    assert bot_imf(["CROPS", "GOODS", "METALS", "HYDROCARBONS"], imf_protect_priority=True) == \
        ["CROPS", "GOODS", "METALS", "HYDROCARBONS"]


def test_an_empty_bag_ends_the_voting():
    state = {"powers": {"EU": power()}, "bag": {"EU": 1}}
    d = Driver(VOTING, state).draw("EU").decide("EU", "place_vote", "UN")
    assert d.outcome.state["institutions"]["UN"] == {"EU": 1}
