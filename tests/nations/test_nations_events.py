"""Spec §4.3 ties and selectors, §4.8 events, §4.12 five players: TV-28 to TV-34 (§5.6)."""
import pytest

from adjudicator.nations import EVENT
from adjudicator.procedure import NO_DEFAULT, IllegalDecision, answer, next_step

from tests.nations.helpers import DEFAULT, drive, event_card, game, nation, part, resources, vp

NAMES = "ABCDE"


def run_event(values, metric, selector, polarity, effect, five_player_first_tie="both"):
    """One single-part event over nations A, B, ... whose ``metric`` takes ``values``; returns (targets, outcome)."""
    nations = {NAMES[i]: nation(**{metric: v}, gold=5, food=5, vp=5) for i, v in enumerate(values)}
    state = game(nations, current_event=event_card({"name": "E*", "parts": [part(selector, polarity, effect)]}),
                 options={"five_player_first_tie": five_player_first_tie})
    out = drive(EVENT, state)
    return out.result["events"][0]["parts"][0]["targets"], out


@pytest.mark.parametrize("values, metric, selector, polarity, effect, hit", [
    ([9, 9, 4, 2], "strength", {"best": "strength"}, "good", {"gain": {"gold": 3}}, []),
    ([9, 7, 3, 3], "strength", {"worst": "strength"}, "bad", {"lose": {"food": 2}}, ["C", "D"]),
    ([4, 2, -1, -5], "stability", {"worst": "stability"}, "bad", {"vp": -1}, ["C", "D"]),
    ([4, 0, 1, 2], "stability", {"worst": "stability"}, "bad", {"vp": -1}, ["B"]),
    ([-1, -3], "stability", {"best": "stability"}, "good", {"vp": 1}, []),
    ([-1, -3], "stability", {"worst": "stability"}, "bad", {"vp": -1}, ["A", "B"]),
], ids=["TV-28-strongest-tie", "TV-28-weakest-tie", "TV-28-revolt-tie", "TV-28-zero-is-not-revolt",
        "TV-28-2p-most-stable", "TV-28-2p-least-stable"])
def test_TV_28_tie_rules_with_2_to_4_players(values, metric, selector, polarity, effect, hit):
    targets, out = run_event(values, metric, selector, polarity, effect)
    assert targets == hit
    for nid in out.state["player_order"]:
        before = {"gold": 5, "food": 5, "vp": 5}
        after = {"gold": resources(out, nid)["gold"], "food": resources(out, nid)["food"], "vp": vp(out, nid)}
        if nid not in hit:
            assert after == before
    if "lose" in effect:  # the full effect for each, never split
        assert all(resources(out, nid)["food"] == 3 for nid in hit)


# --- TV-29: pay 2 food or go to the back ------------------------------------

PAY_OR_BACK = {"name": "pay or back*", "parts": [part("all", "bad", choice={"options": [
    {"name": "pay", "effects": [{"pay": {"food": 2}}]},
    {"name": "back", "effects": [{"order": "last"}]}]})]}


def tv29():
    return game({"China": nation(food=3), "Persia": nation(food=3), "Rome": nation(food=3)},
                current_event=event_card(PAY_OR_BACK))


@pytest.mark.parametrize("rome, persia, china, order", [
    ("pay", "back", "back", ["Rome", "China", "Persia"]),
    ("back", "back", "back", ["China", "Persia", "Rome"]),
    ("pay", "back", "pay", ["China", "Rome", "Persia"]),
], ids=["TV-29", "TV-29-variant-nobody-pays", "TV-29-variant-china-and-rome-pay"])
def test_TV_29_an_event_that_changes_player_order(rome, persia, china, order):
    # Choices in reverse player order, then everything at once.
    out = drive(EVENT, tv29(), [("Rome", "event_choice", rome), ("Persia", "event_choice", persia),
                                ("China", "event_choice", china)])
    assert out.state["player_order"] == order == out.result["player_order"]
    for nid, chose in (("Rome", rome), ("Persia", persia), ("China", china)):
        assert resources(out, nid)["food"] == (1 if chose == "pay" else 3)


def test_TV_29_each_chooser_sees_the_choices_already_made():
    step = next_step(EVENT, tv29(), ["pay", "back"])
    assert step.participant == "China" and step.details["chosen"] == {"Rome": "pay", "Persia": "back"}
    # [DEF §4.15] no default: the service waits for the nation or the director.
    assert step.default is NO_DEFAULT and not step.has_default and step.to_dict()["has_default"] is False
    assert step.details["options"] == {"pay": [{"pay": {"food": 2}, "to": "self"}],
                                       "back": [{"order": "last", "to": "self"}]}
    assert step.details["targets"] == ["China", "Persia", "Rome"] and step.details["deciding_for"] == ["China"]
    assert step.details["resources"] == {"China": {"gold": 0, "stone": 0, "food": 3, "knowledge": 0}}


def test_a_payment_a_nation_cannot_afford_is_not_offered():
    state = tv29()
    state["nations"]["Persia"]["resources"]["food"] = 1
    out = drive(EVENT, state, [("Rome", "event_choice", "pay"), ("China", "event_choice", "pay")])
    assert out.result["events"][0]["parts"][0]["choices"]["Persia"] == "back"
    assert out.state["player_order"] == ["China", "Rome", "Persia"]


def test_an_unaffordable_payment_is_refused_with_a_reason_and_the_log_is_unchanged():
    state = tv29()
    state["nations"]["Rome"]["resources"]["food"] = 1
    state["nations"]["Persia"]["resources"]["food"] = 3
    log = []
    step = next_step(EVENT, state, log)
    assert step.participant == "Persia"  # Rome could only go back: not asked
    with pytest.raises(IllegalDecision, match="not one of the legal choices"):
        answer(EVENT, state, log, "maybe")
    assert log == []


# --- five players (§4.12) ----------------------------------------------------

FIVE = ["China", "Persia", "Greece", "Rome", "Egypt"]


def five(metric, values, selector, polarity, **options):
    nations = {nid: nation(**{metric: v}, vp=5) for nid, v in zip(FIVE, values)}
    state = game(nations, current_event=event_card({"parts": [part(selector, polarity, {"vp": 1 if polarity == "good" else -1})]}),
                 **({"options": options} if options else {}))
    return drive(EVENT, state).result["events"][0]["parts"][0]["targets"]


def test_TV_30_five_players_strongest_and_weakest():
    values = [23, 22, 22, 5, 4]
    assert five("strength", values, {"best": "strength"}, "good") == ["China"]
    assert five("strength", values, {"worst": "strength"}, "bad") == ["Rome", "Egypt"]


def test_TV_31_five_players_most_and_least_stable():
    values = [8, 7, 5, 5, 4]
    assert five("stability", values, {"best": "stability"}, "good") == ["China", "Persia"]
    # The original's rule ("all nations tied for second-to-last") includes Greece;
    # its example names only Rome and Egypt.  See docs/nations.md.
    assert five("stability", values, {"worst": "stability"}, "bad") == ["Greece", "Rome", "Egypt"]


@pytest.mark.parametrize("players, tie_option, strongest, weakest", [
    (5, "both", ["A", "B"], ["D", "E"]),
    (4, "both", [], ["D"]),
    (5, "none", [], ["D", "E"]),
], ids=["TV-32", "TV-32-4-players", "TV-32-option-none"])
def test_TV_32_two_nations_tied_for_first(players, tie_option, strongest, weakest):
    values = [20, 20, 15, 10, 5][:players]
    assert run_event(values, "strength", {"best": "strength"}, "good", {"vp": 1}, tie_option)[0] == strongest
    assert run_event(values, "strength", {"worst": "strength"}, "bad", {"vp": -1}, tie_option)[0] == weakest


def test_TV_33_versailles_counts_as_revolt_in_stability_comparisons():
    nations = {"A": nation(stability=9, specials=["Versailles"]), "B": nation(stability=5),
               "C": nation(stability=3), "D": nation(stability=-1)}
    card = event_card({"parts": [part({"worst": "stability"}, "bad", {"vp": -1}),
                                 part({"best": "stability"}, "good", {"vp": 1})]})
    out = drive(EVENT, game(nations, current_event=card))
    least, most = out.result["events"][0]["parts"]
    assert (least["targets"], most["targets"]) == (["A", "D"], ["B"])


@pytest.mark.parametrize("players, affected", [(5, ["B", "D", "E"]), (4, ["B", "D"])],
                         ids=["TV-34", "TV-34-4-players"])
def test_TV_34_bronze_age_collapse(players, affected):
    strength, stability = [20, 15, 15, 3, 2], [1, 2, 9, 8, 8]
    nations = {NAMES[i]: nation(strength=strength[i], stability=stability[i], food=4) for i in range(players)}
    collapse = {"name": "Bronze Age Collapse", "parts": [
        part({"except_best": ["strength", "stability"]}, "bad", {"lose": {"food": 2}})]}
    out = drive(EVENT, game(nations, current_event=event_card(collapse)))
    assert out.result["events"][0]["parts"][0]["targets"] == affected
    assert [nid for nid in nations if resources(out, nid)["food"] == 2] == affected


# --- event order, choices and the other primitives ----------------------------

def test_event_2_is_selected_on_the_state_event_1_left():
    # Event 1 makes A (weakest) stronger; event 2 then hits B, now the weakest.
    card = event_card({"parts": [part({"worst": "strength"}, "bad", {"strength": 5})]},
                      {"parts": [part({"worst": "strength"}, "bad", {"lose": {"gold": 1}})]})
    out = drive(EVENT, game({"A": nation(strength=1, gold=2), "B": nation(strength=3, gold=2)}, current_event=card))
    assert [e["parts"][0]["targets"] for e in out.result["events"]] == [["A"], ["B"]]
    assert resources(out, "B")["gold"] == 1


def test_sinking_of_the_vasa_never_takes_strength_below_0():
    card = event_card({"parts": [part("all", "bad", {"strength": -4})]})
    out = drive(EVENT, game({"A": nation(strength=2), "B": nation(strength=9)}, current_event=card))
    from adjudicator.nations.state import strength
    assert [strength(out.state["nations"][n]) for n in "AB"] == [0, 5]


def zoroastrian(players, single):
    stabilities = [9, 8, 1, 1, 0][:players]
    nations = {NAMES[i]: nation(stability=s, food=4, stone=0) for i, s in enumerate(stabilities)}
    revival = {"name": "Zoroastrian Revival", "parts": [part({"best": "stability"}, "good", choice={
        "options": [{"name": "stone", "effects": [{"gain": {"stone": 4}}]},
                    {"name": "famine", "effects": [{"lose": {"food": 3}, "to": "others"}]}],
        "single_chooser": single})]}
    return game(nations, current_event=event_card(revival))


def test_zoroastrian_revival_the_sole_leader_chooses_and_others_lose_food():
    out = drive(EVENT, zoroastrian(4, False), [("A", "event_choice", "famine")])
    assert [resources(out, n)["food"] for n in "ABCD"] == [4, 1, 1, 1]


def test_zoroastrian_revival_in_5_players_one_choice_by_the_most_stable_for_both():
    out = drive(EVENT, zoroastrian(5, True), [("A", "event_choice", "stone")])
    assert [resources(out, n)["stone"] for n in NAMES] == [4, 4, 0, 0, 0]
    out = drive(EVENT, zoroastrian(5, True), [("A", "event_choice", "famine")])
    assert [resources(out, n)["food"] for n in NAMES] == [4, 4, 1, 1, 1]


def test_all_or_nothing_package():
    han = {"name": "Han Dynasty", "parts": [part({"best": "strength"}, "good", all_or_nothing=[
        {"gain": {"gold": 3}}, {"workers": -1}])]}
    state = game({"A": nation(strength=5, idle_workers=1), "B": nation()}, current_event=event_card(han))
    assert next_step(EVENT, state, []).choices == ["take", "refuse"]
    taken = drive(EVENT, state, [("A", "event_choice", "take")])
    assert resources(taken, "A")["gold"] == 3 and taken.state["nations"]["A"]["idle_workers"] == 0
    refused = drive(EVENT, state, [("A", "event_choice", "refuse")])
    assert resources(refused, "A")["gold"] == 0 and refused.state["nations"]["A"]["idle_workers"] == 1


def test_order_moves_to_first_and_to_a_position():
    card = event_card({"parts": [part({"worst": "strength"}, "good", {"order": "first"})]},
                      {"parts": [part({"best": "strength"}, "bad", {"order": 2})]})
    state = game({"A": nation(strength=9), "B": nation(strength=5), "C": nation(strength=1)}, current_event=card)
    out = drive(EVENT, state)
    assert out.state["player_order"] == ["C", "A", "B"]


def test_great_exhibition_grants_free_architect_hires():
    card = event_card({"parts": [part({"best": "knowledge"}, "good", {"architects_free": 2})]})
    out = drive(EVENT, game({"A": nation(knowledge=3), "B": nation(knowledge=1)}, current_event=card))
    assert out.state["nations"]["A"]["free_architects"] == 2


# --- workers gained and lost (§4.8.5) -------------------------------------------

def worker_event(delta, **a):
    card = event_card({"parts": [part("all", "bad", {"workers": delta})]})
    return game({"A": nation(**a)}, current_event=card)


def test_gaining_a_worker_asks_for_the_section_food_first_by_default():
    state = worker_event(1)
    step = next_step(EVENT, state, [])
    assert (step.question, step.choices, step.default) == ("worker_take_section", [0, 1], 0)
    out = drive(EVENT, state, [("A", "worker_take_section", 1)])
    a = out.state["nations"]["A"]
    assert a["idle_workers"] == 1 and a["population"][1]["present"] == 2
    from adjudicator.nations.state import stability
    assert stability(a) == -3  # a worker away from the stability section


@pytest.mark.parametrize("bad, reason", [(True, "integer index"), (1.0, "integer index"), (2, "legal choices"),
                                         ("food", "legal choices")])
def test_an_illegal_section_is_refused_and_the_log_is_unchanged(bad, reason):
    log = []
    with pytest.raises(IllegalDecision, match=reason):
        answer(EVENT, worker_event(1), log, bad)
    assert log == []


def test_losing_a_deployed_worker_lowers_strength_and_returns_it_to_a_free_section():
    army = {"id": "army*", "type": "military", "per_worker": {"strength": 3}}
    state = worker_event(-1, idle_workers=1, bm_slots=[{"card": army, "workers": 2}],
                         population=[{"kind": "food", "present": 2}, {"kind": "stability", "present": 2}])
    step = next_step(EVENT, state, [])
    assert (step.question, step.choices, step.default) == ("worker_to_lose", ["idle", "slot:0"], "idle")
    out = drive(EVENT, state, [("A", "worker_to_lose", "slot:0"), ("A", "worker_return_section", DEFAULT)])
    a = out.state["nations"]["A"]
    assert a["bm_slots"][0]["workers"] == 1 and a["population"][0]["present"] == 3 and a["idle_workers"] == 1


def test_TV_04_a_lost_worker_goes_to_overflow_and_is_taken_first_at_no_cost():
    lost = drive(EVENT, worker_event(-1, idle_workers=1))  # every section full (the default layout)
    assert lost.state["nations"]["A"]["overflow"] == 1
    regained = drive(EVENT, {**lost.state, "current_event": event_card({"parts": [part("all", "good", {"workers": 1})]})})
    a = regained.state["nations"]["A"]
    assert (a["overflow"], a["idle_workers"], [s["present"] for s in a["population"]]) == (0, 1, [3, 3])


def test_no_worker_to_lose_or_take_changes_nothing():
    out = drive(EVENT, worker_event(-2))
    assert out.state["nations"]["A"]["idle_workers"] == 0
    empty = [{"kind": "food", "present": 0}]
    out = drive(EVENT, worker_event(2, population=empty))
    assert out.state["nations"]["A"]["idle_workers"] == 0


def test_no_event_card_means_no_events():
    out = drive(EVENT, game({"A": nation()}))
    assert out.result["events"] == [] and out.result["card"] is None
