"""Country-grid resolution (spec §6.7, §5.8.1): TV-11, TV-12, TV-13d, TV-19, TV-21, TV-39 and reward effects."""
import pytest

from adjudicator.statecraft import COUNTRY_GRID

from tests.statecraft.helpers import Driver, land, power


def test_TV_11_country_reward_plus_base_market():
    state = {"powers": {"EU": power(pp=0, base_market=["CROPS"])},
             "resource_track": ["GOODS", "CROPS", "METALS", "HYDROCARBONS"],
             "grid": [land("Nigeria", 3, {"EU": 1}, fg="EU", reward=["PP_HYDROCARBONS"])]}
    out = Driver(COUNTRY_GRID, state).outcome
    assert out.state["powers"]["EU"]["pp"] == 3
    assert out.result["countries"][0]["case"] == 1 and out.result["countries"][0]["reward_to"] == "EU"
    assert out.result["base_market"] == {"EU": 1}


NIGERIA_GRID = {"powers": {"CHN": power(pp=12, spy=2, base_market=[]), "USA": power(pp=10, spy=1, base_market=[])},
                "grid": [land("Nigeria", 3, {"CHN": 2, "DEMO": 1, "USA": 2}, fg="CHN", reward=["PP_HYDROCARBONS"])]}


def test_TV_12_nigeria_in_the_grid_phase_pays_the_winner():
    d = Driver(COUNTRY_GRID, NIGERIA_GRID)
    d.roll("CHN", [1, 2, 2, 5, 5]).roll("USA", [4, 5, 5, 6]).roll("DEMO", [5, 4, 4])
    d.reroll("CHN", [0, 1, 2], [1, 5, 6]).decline("CHN", "USA").decline("CHN", "USA")
    out = d.outcome
    visit = out.result["countries"][0]
    assert (visit["case"], visit["conflict"]["winner"], visit["reward_to"]) == (3, "CHN", "CHN")
    assert out.state["grid"][0]["influence"] == {"CHN": 1}
    assert out.state["powers"]["CHN"]["pp"] == 12 + 1  # hydrocarbons are worth 1 on the initial track


def test_TV_12_variant_usa_wins_and_takes_the_reward():
    d = Driver(COUNTRY_GRID, NIGERIA_GRID)
    d.roll("CHN", [1, 2, 2, 5, 5]).roll("USA", [4, 5, 5, 6]).roll("DEMO", [5, 4, 4]).decline("CHN", "USA")
    out = d.outcome
    assert out.result["countries"][0]["reward_to"] == "USA"
    assert out.state["grid"][0]["fg"] == "USA" and out.state["powers"]["USA"]["pp"] == 11


def test_TV_13d_demonstrators_win_no_reward():
    state = {"powers": {"USA": power(pp=5, base_market=[])},
             "grid": [land("Z", 3, {"DEMO": 2, "USA": 2}, reward=["PP_DELTA(4)"])]}
    d = Driver(COUNTRY_GRID, state).roll("USA", [5, 1, 1, 1]).roll("DEMO", [5, 5, 5, 1])
    out = d.outcome
    assert "reward_to" not in out.result["countries"][0]
    assert out.state["grid"][0]["influence"] == {"DEMO": 1} and out.state["grid"][0]["fg"] is None
    assert out.state["powers"]["USA"]["pp"] == 5


def test_TV_19_step_2_demonstrators_never_govern():
    state = {"powers": {"CHN": power(pp=5, base_market=[])},
             "grid": [land("Y", 6, {"CHN": 2, "DEMO": 3}, reward=["PP_DELTA(4)"])]}
    out = Driver(COUNTRY_GRID, state).outcome
    assert out.result["countries"] == [{"country": "Y", "case": 2}]
    assert out.state["powers"]["CHN"]["pp"] == 5


@pytest.mark.parametrize("rus, demo, winner", [
    pytest.param([5, 5, 1, 1, 1], [5, 1, 1, 1], "RUS", id="TV-21-rus-wins"),
    pytest.param([1, 1, 1, 1, 1], [5, 1, 1, 1], "DEMO", id="TV-21-demo-wins"),
])
def test_TV_21_game_end_conflict_without_reward(rus, demo, winner):
    state = {"game_end": True, "powers": {"RUS": power(pp=7), "EU": power(pp=3)},
             "grid": [land("Z", 3, {"RUS": 2, "DEMO": 2}, fg="RUS", reward=["PP_DELTA(4)"]),
                      land("Calm", 4, {"EU": 1}, fg="EU", col=2, reward=["PP_DELTA(4)"])]}
    out = Driver(COUNTRY_GRID, state).roll("RUS", rus).roll("DEMO", demo).outcome
    z = out.state["grid"][0]
    assert z["influence"] == {winner: 1} and z["fg"] == (None if winner == "DEMO" else winner)
    assert {p: v["pp"] for p, v in out.state["powers"].items()} == {"RUS": 7, "EU": 3}  # no reward, no market
    assert [v["country"] for v in out.result["countries"]] == ["Z"]


def test_TV_39_a_demonstrator_effect_causes_a_conflict_and_freezes_the_fg():
    # TV-39's effect (one DEMO placed in W) arrives here as the USA's reward in a later country.
    state = {"powers": {"CHN": power(pp=5, base_market=[]), "USA": power(pp=4, base_market=[])},
             "grid": [land("W", 3, {"CHN": 1, "DEMO": 1, "USA": 1}, fg="CHN"),
                      land("X", 4, {"USA": 1}, fg="USA", col=2, reward=["PLACE_DEMO"])]}
    d = Driver(COUNTRY_GRID, state)
    step = d.expect_decision("USA", "place_demo")
    assert step.choices == ["W", "X"]
    d.decide("USA", "place_demo", "W")
    w = d.outcome.state["grid"][0]
    assert (w["influence"], w["conflict"], w["fg"]) == ({"CHN": 1, "DEMO": 2, "USA": 1}, True, "CHN")


def test_a_reward_conflict_in_a_later_country_is_resolved_when_it_is_visited():
    state = {"powers": {"CHN": power(pp=5, base_market=[]), "USA": power(pp=4, base_market=[])},
             "grid": [land("X", 4, {"USA": 1}, fg="USA", reward=["PLACE_DEMO"]),
                      land("W", 3, {"CHN": 1, "DEMO": 1, "USA": 1}, fg="CHN", col=2, reward=["PP_DELTA(1)"])]}
    d = Driver(COUNTRY_GRID, state).decide("USA", "place_demo", "W")
    d.roll("CHN", [5, 5, 1, 1]).roll("USA", [1, 1, 1]).roll("DEMO", [5, 1, 1, 1])
    out = d.outcome
    assert out.result["countries"][1]["case"] == 3 and out.state["powers"]["CHN"]["pp"] == 6


def test_rewards_change_initiative_for_later_conflicts():
    # USA starts behind CHN; X's reward puts it ahead before Z's tie is broken.
    state = {"powers": {"CHN": power(pp=5, base_market=[]), "USA": power(pp=4, base_market=[])},
             "grid": [land("X", 4, {"USA": 1}, fg="USA", reward=["PP_DELTA(3)"]),
                      land("Z", 3, {"CHN": 2, "USA": 2}, col=2)]}
    d = Driver(COUNTRY_GRID, state).roll("USA", [5, 1, 1, 1]).roll("CHN", [5, 1, 1, 1])
    assert d.outcome.result["countries"][1]["conflict"]["winner"] == "USA"


class TestRewardEffects:
    def resolve(self, reward, answers=(), **more):
        state = {"powers": {"EU": power(pp=0, pool=3, support=5, base_market=[]), "USA": power(pp=0, base_market=[])},
                 "grid": [land("Home", 4, {"EU": 2, "DEMO": 1}, fg="EU", reward=reward, islamic=True,
                               resource_symbols=["METALS", "METALS"]),
                          land("Away", 5, {"USA": 2, "EU": 1, "DEMO": 1}, fg="USA", col=2)], **more}
        d = Driver(COUNTRY_GRID, state)
        for question, value in answers:
            d.decide("EU", question, value)
        return d.outcome.state

    def test_pp_and_counts(self):
        state = self.resolve(["PP_METALS", "COUNT_METALS", "PP_DELTA(-1)"])
        assert state["powers"]["EU"]["pp"] == 2 + 2 - 1

    def test_support_spy_vote(self):
        state = self.resolve(["SUPPORT_UP", "SPY", "VOTE_TO_BAG"])
        eu = state["powers"]["EU"]
        assert (eu["support"], eu["spy"], eu["pool"], state["bag"]) == (6, 1, 1, {"EU": 1})

    def test_place_influence_then_fg_update(self):
        state = self.resolve(["PLACE_INFLUENCE"], [("place_influence", "Away")])
        assert state["grid"][1]["influence"]["EU"] == 2 and state["grid"][1]["fg"] == "USA"  # tie keeps FG

    def test_bribe_rival_to_demo(self):
        state = self.resolve(["BRIBE"], [("bribe", {"kind": "RIVAL_TO_DEMO", "country": "Away", "target": "USA"})])
        away = state["grid"][1]
        assert away["influence"] == {"USA": 1, "EU": 1, "DEMO": 2} and away["fg"] is None  # DEMO sole majority
        assert state["powers"]["USA"]["pool"] == 11

    def test_bribe_may_be_declined(self):
        state = self.resolve(["BRIBE"], [("bribe", None)])
        assert state["grid"][1]["influence"] == {"USA": 2, "EU": 1, "DEMO": 1}

    def test_swap_resources(self):
        state = self.resolve(["SWAP_RESOURCES"], [("swap_resources", [1, 2])])
        assert state["resource_track"][:2] == ["GOODS", "CROPS"]

    def test_islamic_placement_lists_only_islamic_countries(self):
        d = Driver(COUNTRY_GRID, {"powers": {"EU": power(base_market=[])},
                                  "grid": [land("Home", 4, {"EU": 1}, fg="EU", reward=["PLACE_DEMO_ISLAMIC"]),
                                           land("Mosul", 4, {}, col=2, islamic=True)]})
        assert d.expect_decision("EU", "place_demo").choices == ["Mosul"]

    def test_scarcity_skips_an_effect_without_tokens(self):
        d = Driver(COUNTRY_GRID, {"powers": {"EU": power(pool=0, base_market=[])},
                                  "grid": [land("Home", 4, {"EU": 1}, fg="EU", reward=["PLACE_INFLUENCE", "SPY"])]})
        events = d.outcome.result["countries"][0]["events"]
        assert [e.get("skipped") for e in events] == ["no token in the pool", "no token in the pool"]


# --- bot rewards (§9.7): the default of a bot's placement is its rule -------------------

def test_TV_33_bot_demonstrator_in_a_rivals_islamic_country_palestine_to_libya():
    state = {"powers": {"EU": power(pp=5, leader_value=2, base_market=[]),
                        "CHN": power(pp=5, leader_value=1, is_bot=True, base_market=[],
                                     primary_symbols=["P"], secondary_symbols=["S"])},
             "marker_1": {"row": 1, "col": 1},
             "grid": [land("Iraq", 4, {"EU": 2}, fg="EU", col=2, islamic=True),
                      land("Libya", 4, {"EU": 1, "DEMO": 1}, fg="EU", col=4, islamic=True, symbols=["S"]),
                      land("Palestine", 4, {"CHN": 1}, fg="CHN", row=2, col=1, islamic=True,
                           reward=["PLACE_DEMO_ISLAMIC"]),
                      land("Syria", 4, {"EU": 2}, fg="EU", row=2, col=3, islamic=True, symbols=["S"])]}
    d = Driver(COUNTRY_GRID, state)
    step = d.expect_decision("CHN", "place_demo")
    assert step.default == "Libya"  # rules a and b find no Islamic P country; rule c: Iraq lacks S
    d.default("CHN", "place_demo")
    libya = d.outcome.state["grid"][1]
    assert (libya["influence"], libya["fg"], libya["conflict"]) == ({"EU": 1, "DEMO": 2}, None, False)


def test_TV_34_bot_demonstrator_in_its_own_country_cuba_to_hong_kong():
    state = {"powers": {"CHN": power(is_bot=True, base_market=[], primary_symbols=["P"], secondary_symbols=["S"])},
             "marker_1": {"row": 1, "col": 2},
             "grid": [land("Cuba", 4, {"CHN": 1}, fg="CHN", col=1, reward=["PLACE_DEMO_OWN_FG"]),
                      land("A", 4, {"CHN": 2}, fg="CHN", col=2, symbols=["P"]),
                      land("B", 3, {"CHN": 1, "DEMO": 1}, fg="CHN", col=3, symbols=["S"]),
                      land("Hong Kong", 4, {"CHN": 2}, fg="CHN", col=4, symbols=["S"])]}
    d = Driver(COUNTRY_GRID, state)
    step = d.expect_decision("CHN", "place_demo")
    assert step.choices == ["Cuba", "A", "B", "Hong Kong"]
    assert step.default == "Hong Kong"  # rule a skips B (the FG would be lost)
    d.default("CHN", "place_demo")
    assert d.outcome.state["grid"][3]["influence"] == {"CHN": 2, "DEMO": 1}
