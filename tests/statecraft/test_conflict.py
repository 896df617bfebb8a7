"""Conflict resolution (spec §6.8): TV-02(c), TV-12, TV-13, TV-14, TV-15, TV-30..32 and §6.8.7."""
import pytest

from adjudicator.procedure import Dice, Outcome, play
from adjudicator.statecraft import CONFLICT
from adjudicator.statecraft.bots import spy_decision

from tests.statecraft.helpers import Driver, land, power


def conflict_state(powers, country, **more):
    return {"powers": powers, "grid": [country], "country": country["name"], **more}


def dice_counts(state):
    """Roll all ones until the first non-dice step; return {roller: count} in rolling order."""
    counts, log = {}, []
    _, step = play(CONFLICT, state, log)
    while isinstance(step, Dice):
        counts[step.roller] = step.count
        log.append([1] * step.count)
        _, step = play(CONFLICT, state, log)
    return counts


def test_TV_02c_mexico_dice_after_the_usa_conflict():
    state = conflict_state({"EU": power(), "USA": power()}, land("Mexico", 5, {"EU": 3, "USA": 5}, fg="EU"))
    assert dice_counts(state) == {"EU": 5, "USA": 6}


# TV-12: Nigeria (CT 3, extra 2): CHN 2*, DEMO 1, USA 2 after the USA's +2; CHN 12 PP > USA 10 PP.
NIGERIA = conflict_state(
    {"CHN": power(pp=12, spy=2, pool=5), "USA": power(pp=10, spy=1, pool=5)},
    land("Nigeria", 3, {"CHN": 2, "DEMO": 1, "USA": 2}, fg="CHN"), demo_supply=20)


def test_TV_12_nigeria_conflict_with_chinas_spy():
    d = Driver(CONFLICT, NIGERIA)
    d.roll("CHN", [1, 2, 2, 5, 5]).roll("USA", [4, 5, 5, 6]).roll("DEMO", [5, 4, 4])
    assert d.step.participant == "CHN" and d.step.details["successes"] == {"CHN": 2, "USA": 3, "DEMO": 1}
    d.reroll("CHN", [0, 1, 2], [1, 5, 6])  # pass 1: the dice showing 1, 2, 2
    d.decline("CHN", "USA")                # CHN stops; the USA keeps its spy
    d.decline("CHN", "USA")                # pass 2: both decline, the spy phase ends
    out = d.outcome
    assert out.result["dice"]["CHN"] == [1, 5, 6, 5, 5]
    assert out.result["successes"] == {"CHN": 4, "USA": 3, "DEMO": 1}
    assert out.result["winner"] == "CHN"
    nigeria = out.state["grid"][0]
    assert (nigeria["influence"], nigeria["fg"], nigeria["conflict"]) == ({"CHN": 1}, "CHN", False)
    chn, usa = out.state["powers"]["CHN"], out.state["powers"]["USA"]
    assert (chn["spy"], chn["pool"]) == (1, 5 + 1 + 1)  # spent spy + the non-FG token
    assert (usa["spy"], usa["pool"]) == (1, 5 + 2)
    assert out.state["demo_supply"] == 21


def test_TV_12_variant_without_the_spy_the_usa_wins():
    d = Driver(CONFLICT, NIGERIA)
    d.roll("CHN", [1, 2, 2, 5, 5]).roll("USA", [4, 5, 5, 6]).roll("DEMO", [5, 4, 4])
    d.decline("CHN", "USA")
    out = d.outcome
    assert out.result["winner"] == "USA"
    assert (out.state["grid"][0]["influence"], out.state["grid"][0]["fg"]) == ({"USA": 1}, "USA")
    assert out.state["powers"]["CHN"]["pool"] == 5 + 2 and out.state["demo_supply"] == 21


# TV-13: Z (CT 3, extra 2) in conflict; initiative RUS > USA > CHN.
RANKED = {"RUS": power(pp=30), "USA": power(pp=20), "CHN": power(pp=10)}
TV13 = [
    ("a", {"CHN": 2, "USA": 2}, "CHN", {"USA": [5, 5, 1, 1], "CHN": [5, 5, 1, 1, 1]}, "CHN"),
    ("b", {"CHN": 1, "USA": 2, "RUS": 2}, "CHN",
     {"RUS": [6, 6, 5, 1], "USA": [5, 5, 5, 1], "CHN": [5, 1, 1, 1]}, "RUS"),
    ("c", {"DEMO": 2, "USA": 2}, None, {"USA": [5, 5, 1, 1], "DEMO": [5, 5, 1, 1]}, "USA"),
    ("d", {"DEMO": 2, "USA": 2}, None, {"USA": [5, 1, 1, 1], "DEMO": [5, 5, 5, 1]}, "DEMO"),
    ("e", {"CHN": 2, "DEMO": 2}, "CHN", {"CHN": [5, 5, 1, 1, 1], "DEMO": [5, 5, 1, 1]}, "CHN"),
    ("f", {"CHN": 2, "USA": 2, "DEMO": 1}, "CHN",
     {"USA": [1, 1, 1, 1], "CHN": [1, 1, 1, 1, 1], "DEMO": [1, 1, 1]}, "CHN"),
]


@pytest.mark.parametrize("case, influence, fg, rolls, winner", TV13, ids=[f"TV-13{c[0]}" for c in TV13])
def test_TV_13_tie_breaks(case, influence, fg, rolls, winner):
    powers = {p: RANKED[p] for p in influence if p != "DEMO"}
    d = Driver(CONFLICT, conflict_state(powers, land("Z", 3, influence, fg=fg)))
    for roller, faces in rolls.items():  # powers in initiative order, then DEMO
        d.roll(roller, faces)
    out = d.outcome
    assert out.result["winner"] == winner
    z = out.state["grid"][0]
    assert z["influence"] == {winner: 1}
    assert z["fg"] == (None if winner == "DEMO" else winner)


TV14 = [
    ("CT2-power-with-FG", land("A", 2, {"CHN": 1, "USA": 2}, fg="CHN"), "CHN", 5),
    ("CT2-demonstrators", land("A", 2, {"CHN": 1, "DEMO": 2}, fg="CHN"), "DEMO", 5),
    ("CT3-power-without-FG", land("A", 3, {"USA": 2, "CHN": 2}, fg="CHN"), "USA", 4),
    ("CT4-power-with-FG", land("A", 4, {"CHN": 3, "USA": 2}, fg="CHN"), "CHN", 5),
    ("CT6-power-without-FG", land("A", 6, {"USA": 4, "CHN": 3}, fg="CHN"), "USA", 5),
]


@pytest.mark.parametrize("case, country, faction, dice", TV14, ids=[f"TV-14-{c[0]}" for c in TV14])
def test_TV_14_dice_counts(case, country, faction, dice):
    state = conflict_state({"CHN": power(pp=2), "USA": power(pp=1)}, country)
    assert dice_counts(state)[faction] == dice


def test_TV_14_printed_extra_dice_win_over_the_ct_table():
    state = conflict_state({"CHN": power(pp=2), "USA": power(pp=1)},
                           land("A", 3, {"USA": 2, "CHN": 2}, fg="CHN", extra_dice=4))
    assert dice_counts(state) == {"CHN": 7, "USA": 6}


def test_TV_15_spy_passes():
    state = conflict_state({"CHN": power(pp=20, spy=2), "USA": power(pp=10, spy=1)},
                           land("Z", 3, {"CHN": 2, "USA": 2}))
    d = Driver(CONFLICT, state).roll("CHN", [1, 1, 5, 5]).roll("USA", [5, 5, 6, 1])
    d.reroll("CHN", [0, 1], [5, 2])   # pass 1: 3 successes
    d.decline("CHN")                  # a tie would go to CHN on initiative
    d.reroll("USA", [3], [6])         # 4 successes; the USA has no spy left
    d.reroll("CHN", [1], [5])         # pass 2: 4 successes; no spy left anywhere
    out = d.outcome
    assert out.result["successes"] == {"CHN": 4, "USA": 4}
    assert out.result["winner"] == "CHN"
    assert out.result["spies_used"] == {"CHN": 2, "USA": 1}


def test_single_pass_option_stops_after_one_pass():
    state = conflict_state({"CHN": power(pp=20, spy=2), "USA": power(pp=10, spy=1)},
                           land("Z", 3, {"CHN": 2, "USA": 2}), options={"spy_passes": "single_pass"})
    d = Driver(CONFLICT, state).roll("CHN", [1, 1, 5, 5]).roll("USA", [5, 5, 6, 1])
    d.reroll("CHN", [0, 1], [5, 2]).decline("CHN").reroll("USA", [3], [6])
    assert d.outcome.result["winner"] == "USA"


def test_a_power_that_declined_may_act_in_a_later_pass():
    state = conflict_state({"CHN": power(pp=20, spy=1), "USA": power(pp=10, spy=2)},
                           land("Z", 3, {"CHN": 2, "USA": 2}))
    d = Driver(CONFLICT, state).roll("CHN", [5, 5, 1, 1]).roll("USA", [5, 1, 1, 1])
    d.decline("CHN").reroll("USA", [1, 2, 3], [5, 5, 1]).decline("USA")
    d.reroll("CHN", [2, 3], [6, 6]).decline("USA")  # pass 2: CHN is back; the USA declines
    d.decline("USA")  # pass 3 (a spy was used in pass 2): only the USA has a spy left
    assert d.outcome.result["winner"] == "CHN"


def test_no_spy_step_when_no_participant_has_a_spy():
    state = conflict_state({"CHN": power(pp=20), "USA": power(pp=10, spy=3), "RUS": power(spy=2)},
                           land("Z", 3, {"CHN": 2, "DEMO": 2}))
    d = Driver(CONFLICT, state).roll("CHN", [1, 1, 1, 1]).roll("DEMO", [5, 1, 1, 1])
    assert d.outcome.result["winner"] == "DEMO"
    assert d.outcome.state["powers"]["USA"]["spy"] == 3  # a non-participant never spends


class TestDemonstratorSupport:
    """§6.8.7 [DEF]: the only participating power on position 9 gets DEMO's successes; DEMO cannot win."""

    def state(self, **options):
        return conflict_state({"CHN": power(pp=20, support=9), "USA": power(pp=10)},
                              land("Z", 3, {"CHN": 1, "USA": 2, "DEMO": 1}), options=options)

    def test_successes_are_added(self):
        d = Driver(CONFLICT, self.state()).roll("CHN", [5, 1, 1]).roll("USA", [5, 5, 1, 1]).roll("DEMO", [5, 1, 1])
        assert d.outcome.result["successes"] == {"CHN": 2, "USA": 2}
        assert d.outcome.result["winner"] == "CHN"  # tie, no FG: initiative

    def test_demo_cannot_win(self):
        d = Driver(CONFLICT, self.state()).roll("CHN", [1, 1, 1]).roll("USA", [1, 1, 1, 1]).roll("DEMO", [5, 5, 5])
        assert d.outcome.result["winner"] == "CHN"

    def test_off(self):
        d = Driver(CONFLICT, self.state(demo_support_mode="off"))
        d.roll("CHN", [1, 1, 1]).roll("USA", [1, 1, 1, 1]).roll("DEMO", [5, 5, 5])
        assert d.outcome.result["winner"] == "DEMO"

    def test_two_powers_on_nine_cancel_it(self):
        state = self.state()
        state["powers"]["USA"]["support"] = 9
        d = Driver(CONFLICT, state).roll("CHN", [1, 1, 1]).roll("USA", [1, 1, 1, 1]).roll("DEMO", [5, 5, 5])
        assert d.outcome.result["winner"] == "DEMO"


# --- bot spies (§9.6): the default of a bot's reroll decision is its rule -------------

def test_TV_30_bot_spy_example_1_decision_function():
    # Source numbers (2 dice for an FG holder in Mexico do not fit §6.8.2, A-23): test the rule itself.
    assert spy_decision(holds_fg=True, own_successes=0, best_rival_successes=2, failed=2)


def test_TV_30_bot_spy_example_1_in_the_engine():
    # Reconstructed so the dice counts follow §6.8.2: the bot (CHN 1*) rolls 3 dice, not the source's 2.
    state = conflict_state({"USA": power(pp=20, spy=1), "CHN": power(pp=10, spy=1, is_bot=True)},
                           land("Mexico", 5, {"CHN": 1, "USA": 3, "DEMO": 2}, fg="CHN"))
    d = Driver(CONFLICT, state).roll("USA", [5, 6, 1, 1]).roll("CHN", [1, 2, 3]).roll("DEMO", [1, 1, 1])
    d.decline("USA")
    step = d.expect_decision("CHN", "reroll")
    assert step.default == [0, 1, 2]  # gap 2 <= 2 with the FG, 3 failed dice: reroll them all


def test_TV_31_bot_spy_example_2_no_reroll():
    assert not spy_decision(holds_fg=False, own_successes=1, best_rival_successes=1, failed=1)
    state = conflict_state({"USA": power(pp=20, spy=1), "CHN": power(pp=10, spy=1, is_bot=True)},
                           land("Mexico", 5, {"CHN": 1, "USA": 3, "DEMO": 2}))
    d = Driver(CONFLICT, state).roll("USA", [5, 1, 1, 1]).roll("CHN", [5, 1]).roll("DEMO", [1, 1, 1])
    d.decline("USA")
    assert d.expect_decision("CHN", "reroll").default is None  # only 1 failed die


def test_TV_32_bot_first_to_decide_uses_no_spy():
    assert not spy_decision(holds_fg=False, own_successes=0, best_rival_successes=1, failed=3,
                            first_to_decide=True, spies=2)
    state = conflict_state({"CHN": power(pp=20, spy=2, is_bot=True), "USA": power(pp=10)},
                           land("X", 4, {"CHN": 2, "USA": 3}))
    d = Driver(CONFLICT, state).roll("CHN", [1, 2, 3]).roll("USA", [5, 1, 1, 1])
    assert d.expect_decision("CHN", "reroll").default is None
    d.default("CHN", "reroll")
    assert isinstance(d.step, Outcome) and d.outcome.result["winner"] == "USA"


def test_bot_spy_not_used_when_already_winning():
    state = conflict_state({"USA": power(pp=20, spy=1), "CHN": power(pp=10, spy=1, is_bot=True)},
                           land("X", 4, {"CHN": 2, "USA": 3}, fg="CHN"))
    d = Driver(CONFLICT, state).roll("USA", [5, 1, 1, 1]).roll("CHN", [5, 1, 1, 1])
    d.decline("USA")
    assert d.expect_decision("CHN", "reroll").default is None  # 1-1 tie goes to the FG holder
