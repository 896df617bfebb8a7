"""The spec's test vectors for uprisings (§6.12), the scoring vectors (§8) and the
vectors those sections cite (mutiny TV-05, blocked unrest TV-08), each driven
step by step through the engine with ``answer(...)``.

Fixture values the spec marks with * (or leaves open) are chosen here and noted.
"""
from __future__ import annotations


import pytest

from adjudicator.procedure import IllegalDecision, Outcome, answer, next_step
from adjudicator.versailles import FINAL_SCORING, UPRISING, final_scoring

from tests.versailles.helpers import drive, issue, label, tv10_state, tv22_state

PASS = "pass"
TV10_OPENING = [("dice uprising_check:EUROPE", [2]), ("UK modifier", -1), ("dice uprising_check:MIDDLE_EAST", [5])]
VECTORS: dict = {}


def vector(vector_id):
    def register(function):
        VECTORS[vector_id] = function
        return function
    return register


def refused(state, log, value, match=None):
    """The answer is refused with a reason and the log is left as it was."""
    before = list(log)
    with pytest.raises(IllegalDecision, match=match) as error:
        answer(UPRISING, state, log, value)
    assert log == before and str(error.value)
    return str(error.value)


def me_issues(state, nation):
    return sorted(i["id"] for i in state["issues"] if i["controller"] == nation and i["region"] == "MIDDLE_EAST")


# --- §6.12 ---------------------------------------------------------------------------------------

@vector("TV-10")
def tv10():
    """The comprehensive example (§6.12): BELA KUN's check, the Middle East uprising and the
    CONSTANTINOPLE bidding, driven one answer at a time with the source's dice (Europe 2, Middle East 5)."""
    state = tv10_state()
    # Each check die names its region, the column, the level and the announced modifiers.
    europe_die = next_step(UPRISING, state, [])
    assert europe_die.details == {"region": "EUROPE", "column": 5, "level": 4, "modifiers": {},
                                  "uprising_if": "roll + 0 >= 4"}
    log, step = drive(UPRISING, state, TV10_OPENING[:2])
    assert label(step) == "dice uprising_check:MIDDLE_EAST"
    assert (step.details["region"], step.details["modifiers"], step.details["level"]) == ("MIDDLE_EAST", {"UK": -1}, 4)
    log, step = drive(UPRISING, state, TV10_OPENING + [
        ("UK bid", {"region_units": 1, "influence": 2}),            # ME unit counts 2
        ("FRANCE bid", {"available_units": 2, "influence": 4}),
        ("USA bid", {"available_units": 2, "influence": 6}),
    ])
    # Bids are open: UK's second turn shows every bid so far and the high bid to beat.
    assert label(step) == "UK bid" and step.details["issue"] == "CONSTANTINOPLE"
    assert [(b["player"], b["strength"], b["influence"]) for b in step.details["bids"]] == [
        ("UK", 2, 2), ("FRANCE", 2, 4), ("USA", 2, 6)]
    assert step.details["high_bid"] == {"player": "USA", "region_units": 0, "available_units": 2,
                                        "influence": 6, "strength": 2}
    assert step.details["passed"] == [] and step.details["order"] == ["UK", "FRANCE", "USA"]
    # UK cannot make (2, 7) with 6 cubes; its Pacific and exhausted units are ineligible.
    refused(state, log, {"region_units": 1, "influence": 7}, "influence 7 exceeds")
    refused(state, log, {"region_units": 1, "available_units": 1, "influence": 6}, "available_units 1 exceeds")
    log, step = answer(UPRISING, state, log, PASS)
    assert label(step) == "FRANCE bid" and step.details["passed"] == ["UK"]
    log, step = answer(UPRISING, state, log, {"available_units": 2, "influence": 7})
    assert label(step) == "USA bid" and step.details["high_bid"]["player"] == "FRANCE"
    refused(state, log, {"available_units": 2, "influence": 8}, "influence 8 exceeds")
    assert step.refusal({"available_units": 3}) is None        # (3, 0) would be legal and winning
    log, step = answer(UPRISING, state, log, PASS)
    assert label(step) == "FRANCE choose_option"
    assert [o["name"] for o in step.details["options"]] == ["Open City", "Award to Turkey"]
    log, step = answer(UPRISING, state, log, "Award to Turkey")

    assert isinstance(step, Outcome)
    result, after = step.result, step.state
    assert result["regions_checked"] == ["EUROPE", "MIDDLE_EAST"]
    europe, middle_east = result["checks"]
    assert (europe["roll"], europe["modifiers"], europe["uprising"]) == (2, {}, False)
    assert (middle_east["roll"], middle_east["modifiers"], middle_east["modified"], middle_east["uprising"]) == \
        (5, {"UK": -1}, 4, True)
    (uprising,) = result["uprisings"]
    assert (uprising["affected"], uprising["issue"], uprising["winner"]) == ("UK", "CONSTANTINOPLE", "FRANCE")
    assert [(b["player"], b["action"], b.get("strength"), b.get("influence")) for b in uprising["bids"]] == [
        ("UK", "bid", 2, 2), ("FRANCE", "bid", 2, 4), ("USA", "bid", 2, 6),
        ("UK", "pass", None, None), ("FRANCE", "bid", 2, 7), ("USA", "pass", None, None)]
    # Payment: France's 2 units and 7 cubes to Exhausted, 20 -> 18; UK and USA untouched.
    assert after["players"]["FRANCE"] == {"cubes_available": 3, "cubes_exhausted": 7, "units_available": 0,
                                         "units_exhausted": 3, "units_demobilized": 0}
    assert after["happiness"]["FRANCE"] == 18 and uprising["mutinies"] == []
    assert after["players"]["UK"] == state_players(state)["UK"]
    assert after["players"]["USA"] == state_players(state)["USA"]
    assert after["tracks"]["MIDDLE_EAST"]["units"] == {6: "UK"}
    # Step 5: keg 1 -> 2, unrest -> 3.  Step 6: counter gone, Balkans +1.
    assert (after["tracks"]["MIDDLE_EAST"]["keg"], after["tracks"]["MIDDLE_EAST"]["unrest"]) == (2, 3)
    constantinople = next(i for i in after["issues"] if i["id"] == "CONSTANTINOPLE")
    assert (constantinople["controller"], constantinople["option"], constantinople["counters"]) == \
        ("FRANCE", "Award to Turkey", [])
    assert after["tracks"]["BALKANS"]["unrest"] == 4
    assert (len(me_issues(after, "UK")), len(me_issues(after, "FRANCE"))) == (1, 2)
    assert result["strategy"] is None          # step 7 skipped


def state_players(state):
    return UPRISING.load(state)["players"]


@vector("TV-11a")
def tv11a():
    for roll in (1, 2, 3, 4):               # with -1, anything up to 4 stays below level 4
        state = tv10_state()
        log, step = drive(UPRISING, state, TV10_OPENING[:2] + [("dice uprising_check:MIDDLE_EAST", [roll])])
        assert isinstance(step, Outcome)
        assert step.result["checks"][1]["uprising"] is False and step.result["uprisings"] == []
        assert step.state["tracks"]["MIDDLE_EAST"]["keg"] == 1           # no keg movement
        assert step.state["issues"] == UPRISING.load(state)["issues"]


def tie_state():
    """TV-11(b): UK and France each control 2 Middle East issues."""
    state = tv10_state()
    state["issues"].append(issue("ME_FRANCE_2", "MIDDLE_EAST", 2, "FRANCE"))
    return state


@vector("TV-11b")
def tv11b():
    state = tie_state()
    log, step = drive(UPRISING, state, TV10_OPENING[:2] + [("dice uprising_check:MIDDLE_EAST", [6])])
    # The UK unit is the leftmost (only) unit in the Middle East: UK chooses among the tied players.
    assert label(step) == "UK choose_affected" and step.choices == ["FRANCE", "UK"]
    log, step = answer(UPRISING, state, log, "FRANCE")
    assert label(step) == "FRANCE bid"                  # bidding starts with the former controller
    for bidder in ("FRANCE", "USA", "UK"):
        assert label(step) == f"{bidder} bid"
        log, step = answer(UPRISING, state, log, PASS)
    assert isinstance(step, Outcome)
    (uprising,) = step.result["uprisings"]
    assert (uprising["affected"], uprising["affected_by"], uprising["issue"]) == ("FRANCE", "leftmost_unit", "SMYRNA")


@vector("TV-11c")
def tv11c():
    state = tie_state()
    state["tracks"]["MIDDLE_EAST"]["units"] = {}
    state["players"]["UK"]["units_available"] = 1       # the ME unit is back in the pool instead
    log, step = drive(UPRISING, state, [
        ("dice uprising_check:EUROPE", [2]), ("dice uprising_check:MIDDLE_EAST", [4]),   # no modifier now
        ("dice roll_off:MIDDLE_EAST:FRANCE", [3]), ("dice roll_off:MIDDLE_EAST:UK", [3]),  # tie: re-roll
        ("dice roll_off:MIDDLE_EAST:FRANCE", [2])])
    # A roll-off die names its region and nation, the contenders and the round's rolls so far.
    assert label(step) == "dice roll_off:MIDDLE_EAST:UK"
    assert {k: step.details[k] for k in ("region", "nation", "contenders", "round", "rolled")} == {
        "region": "MIDDLE_EAST", "nation": "UK", "contenders": ["FRANCE", "UK"], "round": 2, "rolled": {"FRANCE": 2}}
    log, step = answer(UPRISING, state, log, [5])
    for expected in ("UK bid", "FRANCE bid", "USA bid"):
        assert label(step) == expected
        log, step = answer(UPRISING, state, log, PASS)
    (uprising,) = step.result["uprisings"]
    assert (uprising["affected"], uprising["affected_by"], uprising["issue"]) == ("UK", "roll_off", "CONSTANTINOPLE")
    assert uprising["roll_off"] == [{"FRANCE": 3, "UK": 3}, {"FRANCE": 2, "UK": 5}]


def tv10_until(bids):
    state = tv10_state()
    script = TV10_OPENING + bids
    log, step = drive(UPRISING, state, script)
    return state, log, step


@vector("TV-12a")
def tv12a():
    """High bid (2, 4): (2, 4), (1, 9), (0, 0) rejected; (2, 5), (3, 0) accepted."""
    state, log, step = tv10_until([("UK bid", {"region_units": 1, "influence": 2}),
                                   ("FRANCE bid", {"available_units": 2, "influence": 4})])
    assert label(step) == "USA bid"
    refused(state, log, {"available_units": 2, "influence": 4}, "does not beat")
    refused(state, log, {"available_units": 1, "influence": 7}, "does not beat")   # (1, 9) with USA's 7 cubes
    refused(state, log, {}, "does not beat")
    refused(state, log, {"available_units": 0, "influence": 0}, "does not beat")
    for accepted in ({"available_units": 2, "influence": 5}, {"available_units": 3}):
        new_log, _ = answer(UPRISING, state, log, accepted)
        assert new_log == [*log, accepted]


@vector("TV-12b")
def tv12b():
    """No-military issue: bids with units are rejected; over (0, 3), (0, 4) is accepted."""
    state = tv10_state()
    state["issues"][0]["no_military"] = True
    log, step = drive(UPRISING, state, TV10_OPENING)
    assert step.details["max"] == {"region_units": 0, "available_units": 0, "influence": 6}
    refused(state, log, {"region_units": 1}, "no-military")
    log, step = answer(UPRISING, state, log, {"influence": 3})
    refused(state, log, {"available_units": 1, "influence": 5}, "no-military")
    log, step = answer(UPRISING, state, log, {"influence": 4})
    assert label(step) == "USA bid"


@vector("TV-12c")
def tv12c():
    """A unit deployed in another region, or an exhausted unit, cannot be bid."""
    state = tv10_state()
    log, step = drive(UPRISING, state, TV10_OPENING)
    # UK: Pacific unit and exhausted unit, none Available.
    refused(state, log, {"available_units": 1}, "exceeds")
    refused(state, log, {"region_units": 2}, "exceeds")
    log, step = answer(UPRISING, state, log, PASS)
    # France has no unit in the Middle East; its third unit is exhausted.
    refused(state, log, {"region_units": 1}, "exceeds")
    refused(state, log, {"available_units": 3}, "exceeds")


@vector("TV-12d")
def tv12d():
    """A player who has passed is never asked again, so it cannot bid again."""
    state = tv10_state()
    log, step = drive(UPRISING, state, TV10_OPENING + [("UK bid", PASS), ("FRANCE bid", {"influence": 1}),
                                                      ("USA bid", {"influence": 2}), ("FRANCE bid", {"influence": 3}),
                                                      ("USA bid", PASS)])
    assert label(step) == "FRANCE choose_option"     # UK, having passed, was skipped every round
    assert step.participant != "UK"


@vector("TV-12e")
def tv12e():
    """Only UK bids (ME unit, 0 cubes): UK keeps the issue, the unit is exhausted, happiness -1."""
    for rule, loss in (("per_unit", 1), ("per_strength", 2)):
        state = tv10_state()
        state["rules"] = {"bid_happiness_loss": rule}
        log, step = drive(UPRISING, state, TV10_OPENING + [
            ("UK bid", {"region_units": 1}), ("FRANCE bid", PASS), ("USA bid", PASS),
            ("UK choose_option", "Open City")])
        after = step.state
        assert step.result["uprisings"][0]["winner"] == "UK"
        assert after["tracks"]["MIDDLE_EAST"]["units"] == {}
        assert after["players"]["UK"]["units_exhausted"] == 2
        assert after["happiness"]["UK"] == 20 - loss
        constantinople = next(i for i in after["issues"] if i["id"] == "CONSTANTINOPLE")
        # The old counter was discarded and the re-chosen option placed a fresh one.
        assert constantinople["controller"] == "UK"
        assert constantinople["counters"] == [{"type": "NAVAL_SQUADRON", "flag": "UK"}]


@vector("TV-12f")
def tv12f():
    """Everyone passes: the issue goes on top of the discard pile without counters; step 5 runs; no step 6."""
    state = tv10_state()
    state["issue_discard"] = [{"id": "OLD", "stars": 1, "region": None}]
    log, step = drive(UPRISING, state, TV10_OPENING + [("UK bid", PASS), ("FRANCE bid", PASS), ("USA bid", PASS)])
    assert isinstance(step, Outcome)
    after = step.state
    assert [i["id"] for i in after["issue_discard"]] == ["CONSTANTINOPLE", "OLD"]
    top = after["issue_discard"][0]
    assert (top["controller"], top["counters"], top["option"]) == (None, [], None)
    assert "CONSTANTINOPLE" not in [i["id"] for i in after["issues"]]
    assert (after["tracks"]["MIDDLE_EAST"]["keg"], after["tracks"]["MIDDLE_EAST"]["unrest"]) == (2, 3)
    assert step.result["uprisings"][0]["discarded"] is True


def first_uprising_state():
    return {
        "seat_order": ["UK", "FRANCE", "USA"], "active_player": "FRANCE",
        "strategy_offer": ["S1", "S2", "S3", "S4"],
        "tracks": {"AFRICA": {"keg": 0, "unrest": 6}, "EUROPE": {"unrest": 3}},
        "issues": [issue("RHEINLAND", "EUROPE", 5, "UK"), issue("BALKAN_ISSUE", "BALKANS", 3, "FRANCE")],
    }


@vector("TV-13")
def tv13():
    state = first_uprising_state()
    log, step = drive(UPRISING, state, [
        ("dice uprising_check:AFRICA", [3]),                      # column 6, level 3
        ("USA choose_strategy_card", "S2"),                       # stars: USA 0, France 3, UK 5
        ("FRANCE choose_strategy_card", "S4"),
        ("UK choose_strategy_card", "S1")])
    after, (uprising,) = step.state, step.result["uprisings"]
    assert (uprising["issue"], uprising["bids"], uprising["affected"]) == (None, [], None)
    assert (after["tracks"]["AFRICA"]["keg"], after["tracks"]["AFRICA"]["unrest"]) == (1, 2)
    assert after["first_uprising_done"] is True
    assert after["strategy_choice"] == {"USA": "S2", "FRANCE": "S4", "UK": "S1"}
    assert step.result["strategy"]["removed"] == ["S3"] and after["strategy_offer"] == []


@vector("TV-14")
def tv14():
    state = {
        "seat_order": ["UK", "FRANCE", "USA"], "active_player": "FRANCE",
        "strategy_offer": ["S1", "S2", "S3", "S4"],
        "tracks": {"EUROPE": {"unrest": 5}, "BALKANS": {"unrest": 5}},
        "issues": [issue("RHEINLAND", "EUROPE", 6, "UK"), issue("BALKAN_ISSUE", "BALKANS", 3, "UK")],
    }
    log, step = drive(UPRISING, state, [
        # All rolls first, Europe before the Balkans.
        ("dice uprising_check:EUROPE", [6]), ("dice uprising_check:BALKANS", [5]),
        # Europe steps 3-6.
        ("UK bid", {"available_units": 3}), ("FRANCE bid", PASS), ("USA bid", PASS),
        ("UK choose_option", "Second"),
        # Step 7 now, before the Balkans' step 3: stars UK 9, France 0, USA 0 (France wins the tie).
        ("FRANCE choose_strategy_card", "S1"), ("USA choose_strategy_card", "S2"), ("UK choose_strategy_card", "S3"),
    ])
    assert label(step) == "UK bid" and step.details["region"] == "BALKANS"
    # UK's units were exhausted winning Europe: they cannot bid in the Balkans.
    assert step.details["max"]["available_units"] == 0
    refused(state, log, {"available_units": 1}, "exceeds")
    log, step = answer(UPRISING, state, log, {"influence": 1})
    for expected, value in [("FRANCE bid", PASS), ("USA bid", PASS), ("UK choose_option", "First")]:
        assert label(step) == expected
        log, step = answer(UPRISING, state, log, value)
    result = step.result
    assert [u["region"] for u in result["uprisings"]] == ["EUROPE", "BALKANS"]
    assert result["strategy"]["order"] == ["FRANCE", "USA", "UK"]
    assert step.state["happiness"]["UK"] == 17          # 3 units bid in Europe, none in the Balkans
    assert step.state["tracks"]["BALKANS"]["unrest"] == 2 and step.state["tracks"]["EUROPE"]["unrest"] == 2


@vector("TV-15")
def tv15():
    state = {
        "seat_order": ["UK", "FRANCE", "USA", "ITALY"], "active_player": "FRANCE", "region": "AFRICA",
        "strategy_offer": ["S1", "S2", "S3", "S4", "S5"],
        "tracks": {"AFRICA": {"unrest": 6}},
        "issues": [issue("UK9", "EUROPE", 9, "UK"), issue("FR4", "BALKANS", 4, "FRANCE"),
                   issue("US4", "PACIFIC", 4, "USA"), issue("IT12", None, 12, "ITALY")],
    }
    log, step = drive(UPRISING, state, [
        ("dice uprising_check:AFRICA", [4]),
        ("FRANCE choose_strategy_card", "S1"), ("USA choose_strategy_card", "S2"),
        ("UK choose_strategy_card", "S3")])
    assert label(step) == "ITALY choose_strategy_card" and step.choices == ["S4", "S5"]   # the last 2 of 5
    log, step = answer(UPRISING, state, log, "S5")
    assert step.result["strategy"] == {"order": ["FRANCE", "USA", "UK", "ITALY"],
                                       "choices": {"FRANCE": "S1", "USA": "S2", "UK": "S3", "ITALY": "S5"},
                                       "removed": ["S4"]}


@vector("TV-16")
def tv16():
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "FRANCE", "first_uprising_done": True,
             "region": "EUROPE", "tracks": {"EUROPE": {"keg": 3, "unrest": 4, "units": {"5": "UK"}}}}
    log, step = drive(UPRISING, state, [("UK modifier", 1), ("dice uprising_check:EUROPE", [4])])  # 5 >= level 5
    assert step.result["checks"][0]["uprising"] is True
    assert (step.state["tracks"]["EUROPE"]["keg"], step.state["tracks"]["EUROPE"]["unrest"]) == (3, 4)


# --- cited vectors, reached through step 6 (the winner's option) ---------------------------------

def rechoose_state(effects, **changes):
    """France controls the only Middle East issue; an uprising there lets France re-choose ``effects``."""
    state = {"seat_order": ["UK", "FRANCE", "USA"], "active_player": "FRANCE", "first_uprising_done": True,
             "region": "MIDDLE_EAST", "tracks": {"MIDDLE_EAST": {"unrest": 5}},
             "issues": [{"id": "TEST", "region": "MIDDLE_EAST", "stars": 2, "controller": "FRANCE",
                         "options": [{"name": "Plain", "effects": []}, {"name": "Tested", "effects": effects}]}]}
    for key, value in changes.items():
        state[key] = value
    return state


RECHOOSE = [("dice uprising_check:MIDDLE_EAST", [6]), ("FRANCE bid", {"influence": 1}), ("USA bid", PASS),
            ("UK bid", PASS), ("FRANCE choose_option", "Tested")]


@vector("TV-05a")
def tv05a():
    """UK with 3 units at 11 takes -1 -> 10: it must demobilize one unit into the "1" box -> 11."""
    state = rechoose_state([{"type": "happiness", "nation": "UK", "delta": -1}], happiness={"UK": 11})
    log, step = drive(UPRISING, state, RECHOOSE)
    assert label(step) == "UK demobilize" and step.choices == ["available"]
    log, step = answer(UPRISING, state, log, "available")
    assert step.state["happiness"]["UK"] == 11
    assert step.state["players"]["UK"]["units_demobilized"] == 1
    assert step.state["players"]["UK"]["units_available"] == 2


@vector("TV-05b")
def tv05b():
    """USA with 2 units: 12 -> 10 -> 5 brings no mutiny; 5 -> 4 does -> 5, with 1 unit left."""
    state = rechoose_state([{"type": "happiness", "nation": "USA", "delta": -2},
                            {"type": "happiness", "nation": "USA", "delta": -5},
                            {"type": "happiness", "nation": "USA", "delta": -1}],
                           happiness={"USA": 12}, players={"USA": {"units_demobilized": 1}})
    log, step = drive(UPRISING, state, RECHOOSE)
    assert label(step) == "USA demobilize"
    log, step = answer(UPRISING, state, log, "available")
    assert step.state["happiness"]["USA"] == 5
    assert step.state["players"]["USA"]["units_available"] == 1


@vector("TV-08")
def tv08():
    for deltas, expected in (([3], 6), ([3, -5], 3), ([2], 6), ([2, -3], 3)):
        effects = [{"type": "unrest", "region": "EUROPE", "delta": d} for d in deltas]
        state = rechoose_state(effects, tracks={"MIDDLE_EAST": {"unrest": 5},
                                                "EUROPE": {"keg": 2, "unrest": 4, "units": {"7": "UK"}}})
        log, step = drive(UPRISING, state, RECHOOSE)
        assert step.state["tracks"]["EUROPE"]["unrest"] == expected, deltas
    state = rechoose_state([{"type": "unrest", "region": "AFRICA", "delta": 2}],
                           tracks={"MIDDLE_EAST": {"unrest": 5}, "AFRICA": {"unrest": 7}})
    log, step = drive(UPRISING, state, RECHOOSE)
    assert step.state["tracks"]["AFRICA"]["unrest"] == 8


# --- §8 scoring ----------------------------------------------------------------------------------

def scored(state):
    """Score through the procedure shape and the pure function; both must agree."""
    step = next_step(FINAL_SCORING, state, [])
    assert isinstance(step, Outcome)
    assert step.result == final_scoring(state)
    return step.result


def happiness_vp(seats, happiness, **extra):
    result = scored({"seat_order": seats, "active_player": seats[0], "happiness": happiness, **extra})
    return {nation: result["scores"][nation]["happiness"] for nation in seats}


@vector("TV-18")
def tv18():
    assert happiness_vp(["UK", "FRANCE", "USA"], {"UK": 22, "USA": 20, "FRANCE": 18}) == \
        {"UK": 6, "USA": 3, "FRANCE": 0}


@vector("TV-19")
def tv19():
    assert happiness_vp(["UK", "FRANCE", "USA"], {"UK": 22, "USA": 22, "FRANCE": 18}) == \
        {"UK": 6, "USA": 6, "FRANCE": 0}


@vector("TV-20")
def tv20():
    assert happiness_vp(["UK", "FRANCE", "USA"], {"UK": 22, "USA": 18, "FRANCE": 18}) == \
        {"UK": 6, "USA": 3, "FRANCE": 3}


FOUR = ["UK", "FRANCE", "USA", "ITALY"]


@vector("TV-21a")
def tv21a():
    assert happiness_vp(FOUR, {"UK": 25, "FRANCE": 25, "USA": 25, "ITALY": 10}) == \
        {"UK": 6, "FRANCE": 6, "USA": 6, "ITALY": 0}


@vector("TV-21b")
def tv21b():
    assert happiness_vp(FOUR, {"UK": 20, "FRANCE": 12, "USA": 12, "ITALY": 0}) == \
        {"UK": 6, "FRANCE": 4, "USA": 4, "ITALY": -5}


@vector("TV-21c")
def tv21c():
    """Italy at 0 with a Happiness x2 card: -10 [A-18]; -5 under the alternative reading."""
    extra = {"strategy_cards": {"X2": {"terms": [{"condition": "happiness_x2"}]}},
             "strategy_choice": {"ITALY": "X2"}}
    happiness = {"UK": 20, "FRANCE": 12, "USA": 12, "ITALY": 0}
    assert happiness_vp(FOUR, happiness, **extra)["ITALY"] == -10
    assert happiness_vp(FOUR, happiness, rules={"double_happiness_includes_zero_penalty": False},
                        **extra)["ITALY"] == -5


@vector("TV-22")
def tv22():
    state = tv22_state()
    result = scored(state)
    parts = {n: {k: s[k] for k in ("issues", "flags", "strategy_card", "happiness", "total")}
             for n, s in result["scores"].items()}
    assert parts == {"UK": {"issues": 14, "flags": 1, "strategy_card": 0, "happiness": 3, "total": 18},
                     "FRANCE": {"issues": 15, "flags": 0, "strategy_card": 0, "happiness": 6, "total": 21},
                     "USA": {"issues": 18, "flags": 0, "strategy_card": 3, "happiness": 0, "total": 21}}
    assert result["winners"] == ["FRANCE"]          # tied at 21, France is happier (22 > 15)


@pytest.mark.parametrize("vector_id", list(VECTORS), ids=list(VECTORS))
def test_vector(vector_id):
    VECTORS[vector_id]()
