"""Spec §4.6 war, vectors TV-23 to TV-27 (§5.5)."""
import pytest

from adjudicator.nations import WAR
from adjudicator.procedure import IllegalDecision, answer, next_step

from tests.nations.helpers import DEFAULT, drive, game, nation, resources, vp

W = {"id": "W*", "loss": {"food": 5}, "vp_loss": 1}


def tv23(c_stability=3, **extra_c):
    return game({
        "A": nation(strength=8, stability=2, food=6, knowledge=5, vp=10),
        "B": nation(strength=10, stability=0, food=6, knowledge=5, vp=10),
        "C": nation(strength=6, stability=c_stability, food=4, knowledge=5, vp=10, **extra_c),
        "D": nation(strength=7, stability=-2, food=3, knowledge=4, vp=10),
    }, war={"card": W, "marker": 8, "buyer": "A"})


def test_TV_23_defeat_stability_reduction_and_unreducible_vp():
    out = drive(WAR, tv23())
    assert out.result["losers"] == ["C", "D"]
    assert (resources(out, "A")["food"], vp(out, "A")) == (6, 10)  # 8 >= 8: safe
    assert (resources(out, "B")["food"], vp(out, "B")) == (6, 10)
    assert (resources(out, "C")["food"], vp(out, "C")) == (2, 9)  # 5 - 3 = 2 food, and 1 VP
    d = out.state["nations"]["D"]
    assert (d["resources"]["food"], d["resources"]["knowledge"], d["vp"]) == (0, 2, 8)  # shortage VP + war VP
    assert out.result["nations"]["D"] == {"lost": {"food": 3, "knowledge": 2}, "gained": {},
                                          "shortage_vp": 1, "vp_lost": 1, "dropped": 0}
    assert out.state["war"] is None and out.state["discard"] == ["W*"]


@pytest.mark.parametrize("c_stability", [5, 9], ids=["TV-23-variant-stability-5", "TV-23-variant-stability-9"])
def test_TV_23_variant_stability_cancels_the_loss_but_not_the_vp(c_stability):
    out = drive(WAR, tv23(c_stability))
    assert (resources(out, "C")["food"], vp(out, "C")) == (4, 9)


def test_TV_24_buyer_below_its_own_marker_loses():
    hoplites = {"id": "military*", "type": "military", "per_worker": {"strength": 3}}
    state = game({
        # A bought at 2 x 3 + 2 = 8, then recalled a worker: 5.
        "A": nation(strength=2, food=5, bm_slots=[{"card": hoplites, "workers": 1}], idle_workers=1),
        # B deployed a second worker and reached 8.
        "B": nation(strength=2, food=5, bm_slots=[{"card": hoplites, "workers": 2}]),
    }, war={"card": W, "marker": 8, "buyer": "A"})
    out = drive(WAR, state)
    assert out.result["losers"] == ["A"] and out.result["marker"] == 8
    assert vp(out, "B") == 0 and resources(out, "B")["food"] == 5


def test_TV_25_zero_strength_war_nobody_loses():
    state = game({"A": nation(strength=0, food=1), "B": nation(strength=0), "C": nation(strength=4)},
                 war={"card": W, "marker": 0, "buyer": "A"})
    out = drive(WAR, state)
    assert out.result["losers"] == []
    assert out.state["nations"]["B"]["resources"]["knowledge"] == 0 and out.state["war"] is None


@pytest.mark.parametrize("marker, b_strength, losers", [(12, 5, ["C"]), (10, 10, [])],
                         ids=["TV-26", "TV-26-variant-marker-10"])
def test_TV_26_elizabeth_adds_8_in_the_war_comparison_only(marker, b_strength, losers):
    # The variant's marker is B's plain strength 10, not 18: placing it is the
    # purchase's job; here B's eff 18 must be safe against it.
    state = game({"B": nation(strength=b_strength, specials=["Elizabeth"], food=9), "C": nation(strength=11, food=9)},
                 war={"card": W, "marker": marker, "buyer": "B"})
    out = drive(WAR, state)
    assert out.result["losers"] == losers


@pytest.mark.parametrize("players, pass_order, vp_after", [
    (4, ["C", "A", "B", "D"], 10),
    (4, ["A", "C", "B", "D"], 9),
    (3, ["A", "C", "B"], 9),
    (5, ["A", "C", "B", "D", "E"], 10),
    (5, ["A", "B", "C", "D", "E"], 9),
], ids=["TV-27-first-to-pass", "TV-27-second-to-pass-4p", "TV-27-second-to-pass-3p",
        "TV-27-second-to-pass-5p", "TV-27-third-to-pass-5p"])
def test_TV_27_great_wall(players, pass_order, vp_after):
    state = tv23(specials=["Great Wall"])
    if players == 3:
        del state["nations"]["D"]
        state["player_order"].remove("D")
    if players == 5:
        state["nations"]["E"] = nation(strength=20)
        state["player_order"].append("E")
    state["pass_order"] = pass_order
    out = drive(WAR, state)
    assert resources(out, "C")["food"] == 2  # the resources are always lost
    assert vp(out, "C") == vp_after


def test_no_war_card_changes_nothing():
    state = game({"A": nation(food=1)})
    out = drive(WAR, state)
    assert out.result == {"war": None, "marker": None, "losers": [], "nations": {}} and out.state["nations"]["A"]["resources"]["food"] == 1


# --- the stability reduction over several resources [A-5] -------------------

TWO = {"card": {"id": "W2*", "loss": {"food": 3, "gold": 2}, "vp_loss": 2}, "marker": 5}


def two_resource_war(stability=2):
    return game({"A": nation(strength=1, stability=stability, food=5, gold=5, vp=4)}, war=TWO)


def test_the_loser_splits_the_reduction_over_the_listed_resources():
    step = next_step(WAR, two_resource_war(), [])
    assert step.to_dict() == {"type": "decision", "participant": "A", "question": "war_reduction", "choices": None,
                              "default": {"food": 2, "gold": 0}, "has_default": True, "bot": False, "private": False,
                              "default_only_at_deadline": False,
                              "details": {"war": "W2*", "marker": 5, "strength": 1, "stability": 2,
                                          "loss": {"food": 3, "gold": 2}, "reduction": 2, "vp_loss": 2,
                                          "resources": {"gold": 5, "stone": 0, "food": 5, "knowledge": 0}}}
    out = drive(WAR, two_resource_war(), [("A", "war_reduction", {"gold": 2})])
    assert resources(out, "A")["food"] == 2 and resources(out, "A")["gold"] == 5 and vp(out, "A") == 2


def test_the_default_split_follows_the_card_order():
    out = drive(WAR, two_resource_war(), [("A", "war_reduction", DEFAULT)])
    assert resources(out, "A")["food"] == 4 and resources(out, "A")["gold"] == 3


def test_no_split_is_asked_when_stability_covers_the_whole_loss():
    out = drive(WAR, two_resource_war(stability=7))
    assert resources(out, "A") == {"gold": 5, "stone": 0, "food": 5, "knowledge": 0} and vp(out, "A") == 2


@pytest.mark.parametrize("bad, reason", [
    ({"food": 1}, "add up to"),
    ({"food": 3, "gold": -1}, "from 0 to 2"),
    ({"stone": 2}, "card's resources"),
    ({"gold": 3}, "from 0 to 2"),
    ("food", "expected an object"),
    ({"food": True, "gold": 1}, "integer"),
])
def test_an_illegal_split_is_refused_with_a_reason_and_the_log_is_unchanged(bad, reason):
    log = []
    with pytest.raises(IllegalDecision, match=reason):
        answer(WAR, two_resource_war(), log, bad)
    assert log == []
