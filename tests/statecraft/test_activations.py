"""Activations that feed the conflict resolver (spec §6.1-§6.6): TV-02a/b, TV-03..05, TV-18, TV-19, TV-39."""
import pytest

from adjudicator.procedure import NO_DEFAULT, IllegalDecision, Outcome, answer, next_step
from adjudicator.statecraft import BRIBES, EFFECT, INFLUENCE

from tests.statecraft.helpers import Driver, land, power


def influence(country, actor, tokens, plan, **powers):
    """Run one influence activation of ``tokens`` planned tokens placing ``plan``; returns the country."""
    everyone = {p: power(leader_value=i) for i, p in enumerate(powers.get("others", []))}
    everyone[actor] = power(planned_influence=tokens)
    state = {"powers": everyone, "grid": [country], "actor": actor}
    d = Driver(INFLUENCE, state).decide(actor, "place_influence_plan", plan)
    return d.outcome.state["grid"][0], d.outcome


def refused(country, actor, tokens, plan, others=()):
    everyone = {p: power(leader_value=i) for i, p in enumerate(others)}
    everyone[actor] = power(planned_influence=tokens)
    state = {"powers": everyone, "grid": [country], "actor": actor}
    with pytest.raises(IllegalDecision) as error:
        answer(INFLUENCE, state, [], plan)
    return str(error.value)


MEXICO = land("Mexico", 5, {"EU": 3, "USA": 2}, fg="EU")


def test_TV_02a_mexico_usa_plus_3_causes_a_conflict():
    mexico, _ = influence(MEXICO, "USA", 3, {"Mexico": 3}, others=["EU"])
    assert (mexico["influence"], mexico["conflict"], mexico["fg"]) == ({"EU": 3, "USA": 5}, True, "EU")


def test_TV_02b_mexico_usa_plus_4_is_rejected():
    assert "at most 3 more" in refused(MEXICO, "USA", 4, {"Mexico": 4}, others=["EU"])


NORTH_KOREA = land("North Korea", 6, {"EU": 3, "RUS": 1}, fg="EU")


@pytest.mark.parametrize("n, conflict", [pytest.param(2, False, id="TV-03a"), pytest.param(3, True, id="TV-03b")])
def test_TV_03_north_korea(n, conflict):
    nk, _ = influence(NORTH_KOREA, "RUS", n, {"North Korea": n}, others=["EU"])
    assert (nk["conflict"], nk["fg"]) == (conflict, "EU")


def test_TV_03c_plus_6_is_rejected_and_5_is_the_most():
    assert "at most 5 more" in refused(NORTH_KOREA, "RUS", 6, {"North Korea": 6}, others=["EU"])
    nk, out = influence(NORTH_KOREA, "RUS", 6, {"North Korea": 5}, others=["EU"])
    assert nk["influence"]["RUS"] == 6 and out.result["returned"] == 1  # no legal place for the 6th
    assert out.state["powers"]["RUS"]["pool"] == 11


def test_TV_04_ct4_usa_takes_the_fg_then_russia_causes_a_conflict():
    x = land("X", 4, {"CHN": 1}, fg="CHN")
    after_usa, _ = influence(x, "USA", 2, {"X": 2}, others=["CHN"])
    assert (after_usa["influence"], after_usa["fg"]) == ({"CHN": 1, "USA": 2}, "USA")
    tie, _ = influence(x, "USA", 1, {"X": 1}, others=["CHN"])  # step 1': a tie keeps the FG
    assert tie["fg"] == "CHN"
    after_rus, _ = influence(after_usa, "RUS", 4, {"X": 4}, others=["CHN", "USA"])
    assert (after_rus["conflict"], after_rus["fg"]) == (True, "USA")
    # Step 3: X is blocked; nothing may be placed there until the grid phase resolves it.
    state = {"powers": {"CHN": power(planned_influence=1), "USA": power(), "RUS": power()}, "actor": "CHN",
             "grid": [after_rus, land("Elsewhere", 4, {}, col=2)]}
    with pytest.raises(IllegalDecision, match="not a country without a conflict marker"):
        answer(INFLUENCE, state, [], {"X": 1})


Y = land("Y", 4, {"CHN": 2, "DEMO": 1, "USA": 1}, fg="CHN")


@pytest.mark.parametrize("n, total", [pytest.param(3, 7, id="TV-05-plus-3"), pytest.param(1, 5, id="TV-05-plus-1")])
def test_TV_05_influence_cap_and_conflict_at_the_end(n, total):
    y, _ = influence(Y, "USA", n, {"Y": n}, others=["CHN"])
    assert sum(y["influence"].values()) == total and y["conflict"] and y["fg"] == "CHN"


def test_TV_05_plus_4_is_rejected():
    assert "at most 3 more" in refused(Y, "USA", 4, {"Y": 4}, others=["CHN"])


def test_influence_must_all_be_placed_where_legal():
    two = {"powers": {"USA": power(planned_influence=2)}, "actor": "USA",
           "grid": [land("A", 4, {}), land("B", 4, {}, col=2)]}
    with pytest.raises(IllegalDecision, match="place all 2"):
        answer(INFLUENCE, two, [], {"A": 1})
    step = next_step(INFLUENCE, two, [])
    assert step.details["room"] == {"A": 4, "B": 4}
    # The rules say every token is placed, not where: with a real choice there is no default.
    assert step.default is NO_DEFAULT and not step.has_default and not step.bot


@pytest.mark.parametrize("grid, tokens, plan", [
    pytest.param([land("A", 4, {}), land("B", 2, {"USA": 1}, col=2)], 6, {"A": 4, "B": 1}, id="room-for-fewer"),
    pytest.param([land("A", 4, {"USA": 1}), land("B", 2, {"USA": 2}, col=2)], 2, {"A": 2}, id="one-country"),
])
def test_an_influence_plan_the_rules_force_is_the_default(grid, tokens, plan):
    state = {"powers": {"USA": power(planned_influence=tokens)}, "actor": "USA", "grid": grid}
    step = next_step(INFLUENCE, state, [])
    assert step.default == plan and step.details["must_place"] == sum(plan.values())
    assert answer(INFLUENCE, state, [], plan)[1].result["placed"] == plan


# TV-18: X (CT 4): RUS 2*, CHN 1; CHN has 3 bribe tokens.
TV18 = {"powers": {"RUS": power(leader_value=2), "CHN": power(leader_value=1, planned_bribes=3)},
        "grid": [land("X", 4, {"RUS": 2, "CHN": 1}, fg="RUS")], "actor": "CHN"}


def test_TV_18_bribe_sequence():
    d = Driver(BRIBES, TV18)
    d.decide("CHN", "bribe", {"kind": "RIVAL_TO_DEMO", "country": "X", "target": "RUS"})
    d.decide("CHN", "bribe", {"kind": "DEMO_TO_OWN", "country": "X"})
    d.decide("CHN", "bribe", {"kind": "RIVAL_TO_DEMO", "country": "X", "target": "RUS"})
    out = d.outcome
    x = out.state["grid"][0]
    assert (x["influence"], x["fg"], x["conflict"]) == ({"CHN": 2, "DEMO": 1}, "CHN", False)
    assert out.state["powers"]["RUS"]["pool"] == 12
    assert out.state["powers"]["CHN"]["pool"] == 12 and out.state["powers"]["CHN"]["planned_bribes"] == 0
    fg_changes = [e for e in out.result["events"] if e["event"] == "FG_CHANGED"]
    assert fg_changes == [{"event": "FG_CHANGED", "country": "X", "from": "RUS", "to": "CHN"}]


def test_TV_18_after_the_first_bribe_the_three_way_tie_keeps_the_fg():
    d = Driver(BRIBES, TV18).decide("CHN", "bribe", {"kind": "RIVAL_TO_DEMO", "country": "X", "target": "RUS"})
    d.decide("CHN", "bribe", None)  # stop early: the 2 unused tokens go back to the pool
    out = d.outcome
    assert out.state["grid"][0]["fg"] == "RUS" and out.state["grid"][0]["influence"] == {"RUS": 1, "CHN": 1, "DEMO": 1}
    assert out.result["returned"] == 2 and out.state["powers"]["CHN"]["pool"] == 13


# DEMO_TO_OWN with the actor at CT, or RIVAL_TO_DEMO with DEMO at CT, needs a total above CT:
# under the conflict invariant (§3.5.3) such a country always carries a marker, so it is blocked too.
@pytest.mark.parametrize("country, bad", [
    pytest.param(land("X", 3, {"RUS": 2, "CHN": 2}, fg="RUS"),
                 {"kind": "RIVAL_TO_DEMO", "country": "X", "target": "RUS"}, id="TV-18-conflict-country"),
    pytest.param(land("X", 3, {"CHN": 3, "DEMO": 1}, fg="CHN"), {"kind": "DEMO_TO_OWN", "country": "X"},
                 id="TV-18-own-at-ct"),
    pytest.param(land("X", 2, {"RUS": 1, "DEMO": 2}), {"kind": "RIVAL_TO_DEMO", "country": "X", "target": "RUS"},
                 id="TV-18-demo-at-ct"),
])
def test_TV_18_rejections(country, bad):
    state = {**TV18, "grid": [country, land("Other", 4, {"RUS": 1, "DEMO": 1}, col=2)]}
    step = next_step(BRIBES, state, [])
    assert bad not in step.choices
    with pytest.raises(IllegalDecision, match="not one of the legal choices"):
        answer(BRIBES, state, [], bad)


Y6 = land("Y", 6, {"CHN": 2, "DEMO": 2}, fg="CHN")


def test_TV_19_step_1_a_demonstrator_majority_empties_the_fg():
    state = {"powers": {"USA": power(), "CHN": power()}, "grid": [Y6], "actor": "USA", "effects": ["PLACE_DEMO"]}
    out = Driver(EFFECT, state).decide("USA", "place_demo", "Y").outcome
    y = out.state["grid"][0]
    assert (y["influence"], y["fg"], y["conflict"]) == ({"CHN": 2, "DEMO": 3}, None, False)


@pytest.mark.parametrize("n, conflict", [pytest.param(1, False, id="TV-19-step-3"),
                                         pytest.param(2, True, id="TV-19-step-4")])
def test_TV_19_steps_3_and_4_the_fg_stays_empty(n, conflict):
    y = land("Y", 6, {"CHN": 2, "DEMO": 3})
    after, _ = influence(y, "CHN", n, {"Y": n})
    assert (after["fg"], after["conflict"]) == (None, conflict)


def test_TV_39_a_demonstrator_effect_causes_a_conflict_and_freezes_the_fg():
    state = {"powers": {"USA": power(support=5), "CHN": power()}, "actor": "USA", "effects": ["PLACE_DEMO"],
             "grid": [land("W", 3, {"CHN": 1, "DEMO": 1, "USA": 1}, fg="CHN")]}
    w = Driver(EFFECT, state).decide("USA", "place_demo", "W").outcome.state["grid"][0]
    assert (w["influence"], w["conflict"], w["fg"]) == ({"CHN": 1, "DEMO": 2, "USA": 1}, True, "CHN")


def test_influence_with_no_legal_place_goes_back_to_the_pool_without_a_decision():
    state = {"powers": {"USA": power(planned_influence=2), "EU": power()}, "actor": "USA",
             "grid": [land("Blocked", 3, {"EU": 2, "DEMO": 2}, fg="EU"), land("Full", 2, {"USA": 2}, fg="USA", col=2)]}
    out = next_step(INFLUENCE, state, [])
    assert out.result == {"placed": {}, "returned": 2, "events": []}
    assert out.state["powers"]["USA"]["pool"] == 12 and out.state["powers"]["USA"]["planned_influence"] == 0


# --- the bot's influence and bribes (§9.4.4, §9.4.5): its plan is the default of its decisions ---

def test_TV_36_bot_influence_passes():
    state = {"powers": {"RUS": power(planned_influence=4, is_bot=True, primary_symbols=["P"], leader_value=1),
                        "EU": power(leader_value=3), "USA": power(leader_value=2)},
             "actor": "RUS", "marker_1": {"row": 1, "col": 1},
             "grid": [land("C1", 3, {"EU": 2}, fg="EU", col=1, symbols=["P"]),
                      land("C2", 3, {"RUS": 1}, fg="RUS", col=2, symbols=["P"]),
                      land("C3", 5, {"USA": 1}, fg="USA", col=3),
                      land("C4", 4, {"EU": 3, "DEMO": 1}, fg="EU", col=4, symbols=["P"])]}
    d = Driver(INFLUENCE, state)
    step = d.expect_decision("RUS", "place_influence_plan")
    # Pass 1: C1 k_cf 2, C4 k_cf 1; pass 2: C3 needs 2 for the FG, 5 for a conflict; pass 3: C3 gets the last.
    assert step.bot and step.default == {"C1": 2, "C4": 1, "C3": 1}
    out = d.default("RUS", "place_influence_plan").outcome
    c1, c2, c3, c4 = out.state["grid"]
    assert (c1["conflict"], c4["conflict"], c3["fg"], c3["influence"]) == (True, True, "USA", {"USA": 1, "RUS": 1})
    assert c2["influence"] == {"RUS": 1}


def bot_bribes(n, grid, **powers):
    everyone = {"RUS": power(planned_bribes=n, is_bot=True, primary_symbols=["P"], leader_value=1), **powers}
    return {"powers": everyone, "actor": "RUS", "grid": grid}


def take_bot_bribes(state):
    d, actions = Driver(BRIBES, state), []
    while not isinstance(d.step, Outcome):
        step = d.expect_decision("RUS", "bribe")
        assert step.bot
        actions.append(step.default)
        d.default("RUS", "bribe")
    return actions, d.outcome


B1 = land("B1", 4, {"EU": 2, "DEMO": 1}, fg="EU", symbols=["P"])


def test_TV_37a_bot_bribe_greedy_sequence_takes_the_fg():
    actions, out = take_bot_bribes(bot_bribes(3, [B1], EU=power(leader_value=2)))
    assert actions == [{"kind": "DEMO_TO_OWN", "country": "B1"},
                       {"kind": "RIVAL_TO_DEMO", "country": "B1", "target": "EU"},
                       {"kind": "DEMO_TO_OWN", "country": "B1"}]
    b1 = out.state["grid"][0]
    assert (b1["influence"], b1["fg"]) == ({"RUS": 2, "EU": 1}, "RUS")
    assert out.result["returned"] == 0


def test_TV_37b_with_two_bribes_pass_3_bribes_anyway_and_the_tie_keeps_the_fg():
    actions, out = take_bot_bribes(bot_bribes(2, [B1], EU=power(leader_value=2)))
    assert actions == [{"kind": "DEMO_TO_OWN", "country": "B1"},
                       {"kind": "RIVAL_TO_DEMO", "country": "B1", "target": "EU"}]
    b1 = out.state["grid"][0]
    assert (b1["influence"], b1["fg"]) == ({"RUS": 1, "EU": 1, "DEMO": 1}, "EU")


def test_TV_37c_the_rival_with_more_pp_is_bribed_first():
    state = bot_bribes(1, [land("B2", 4, {"EU": 2, "USA": 2}, fg="EU")],
                       EU=power(pp=12, leader_value=3), USA=power(pp=15, leader_value=2))
    assert take_bot_bribes(state)[0] == [{"kind": "RIVAL_TO_DEMO", "country": "B2", "target": "USA"}]


def test_bot_bribes_pass_1_prefers_a_primary_country_and_keeps_the_rest_for_the_next():
    grid = [land("Plain", 4, {"EU": 1, "DEMO": 1}, fg="EU", col=1),
            land("Prime", 4, {"DEMO": 2}, col=2, symbols=["P"])]
    actions, out = take_bot_bribes(bot_bribes(4, grid, EU=power(leader_value=2)))
    # Pass 1: Prime, where 2 DEMO_TO_OWN give RUS 2 > DEMO 0; pass 2: Plain would need 3 bribes
    # (DEMO_TO_OWN, RIVAL_TO_DEMO(EU), DEMO_TO_OWN): skipped; pass 3: Plain with the 2 left.
    assert [a["country"] for a in actions] == ["Prime", "Prime", "Plain", "Plain"]
    assert out.state["grid"][1]["fg"] == "RUS"


def test_a_bot_that_is_overridden_is_replanned():
    state = bot_bribes(3, [B1], EU=power(leader_value=2))
    d = Driver(BRIBES, state).decide("RUS", "bribe", {"kind": "RIVAL_TO_DEMO", "country": "B1", "target": "EU"})
    # after the director's different first bribe the plan starts again from the new state
    assert d.expect_decision("RUS", "bribe").default == {"kind": "DEMO_TO_OWN", "country": "B1"}
