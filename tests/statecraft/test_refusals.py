"""Illegal answers are refused with a reason and change nothing; bad states name the field."""
import pytest

from adjudicator.procedure import IllegalDecision, InvalidState, answer, next_step
from adjudicator.statecraft import CONFLICT, COUNTRY_GRID, GOVERNANCE, INSTITUTION_RESOLUTION

from tests.statecraft.helpers import SANCTIONS, Driver, land, power

CONFLICT_STATE = {"powers": {"CHN": power(pp=12, spy=2), "USA": power(pp=10, spy=1)},
                  "grid": [land("Nigeria", 3, {"CHN": 2, "DEMO": 1, "USA": 2}, fg="CHN")], "country": "Nigeria"}
AT_REROLL = [[1, 2, 2, 5, 5], [4, 5, 5, 6], [5, 4, 4]]


@pytest.mark.parametrize("bad, reason", [
    ([], "non-empty list"),
    ("all", "non-empty list"),
    ([5], "from 0 to 4"),
    ([-1], "from 0 to 4"),
    ([True], "from 0 to 4"),
    ([1, 1], "once"),
])
def test_an_illegal_reroll_is_refused(bad, reason):
    log = list(AT_REROLL)
    with pytest.raises(IllegalDecision, match=reason):
        answer(CONFLICT, CONFLICT_STATE, log, bad)
    assert log == AT_REROLL
    assert next_step(CONFLICT, CONFLICT_STATE, log).question == "reroll"


@pytest.mark.parametrize("bad", [[1, 2, 3, 4], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7]])
def test_wrong_dice_are_refused(bad):
    with pytest.raises(IllegalDecision, match="dice|every die"):
        answer(CONFLICT, CONFLICT_STATE, [], bad)


def test_a_power_without_a_spy_is_never_asked():
    state = {**CONFLICT_STATE, "powers": {"CHN": power(pp=12), "USA": power(pp=10)}}
    step = next_step(CONFLICT, state, AT_REROLL)
    assert step.result["winner"] == "USA"
    with pytest.raises(IllegalDecision, match="already over"):
        answer(CONFLICT, state, AT_REROLL, None)


def test_a_tampered_log_is_refused_at_its_entry():
    with pytest.raises(IllegalDecision, match="log entry 3"):
        next_step(CONFLICT, CONFLICT_STATE, AT_REROLL + [[9]])


GOV = {"powers": {"EU": power(leader_value=2), "CHN": power(leader_value=1)}, "bag": {"EU": 1, "DEMO": 3},
       "institutions": {"DAVOS": {"CHN": 2}, "PRESS": {"EU": 1}}, "un_card": SANCTIONS}


@pytest.mark.parametrize("log, bad, reason", [
    pytest.param([], [0], "from 1 to 4", id="draw-face-0"),
    pytest.param([], [5], "from 1 to 4", id="draw-face-beyond-the-bag"),
    pytest.param([[1]], "WTO", "not one of the legal choices", id="unknown-institution"),
    pytest.param([[1], "UN", [1], [1], [1]], {"institution": "IMF", "power": "EU"}, "not one of the legal",
                 id="davos-removes-a-missing-vote"),
    pytest.param([[1], "UN", [1], [1], [1]], {"institution": "DAVOS", "power": "CHN"}, "not one of the legal",
                 id="davos-removes-from-davos"),
])
def test_illegal_governance_answers_are_refused(log, bad, reason):
    before = list(log)
    with pytest.raises(IllegalDecision, match=reason):
        answer(GOVERNANCE, GOV, log, bad)
    assert log == before


def test_an_illegal_swap_is_refused():
    state = {"powers": {"EU": power()}, "institutions": {"IMF": {"EU": 1}}}
    with pytest.raises(IllegalDecision, match="not one of the legal choices"):
        answer(INSTITUTION_RESOLUTION, state, [], [2, 4])


def test_a_demonstrator_cannot_go_into_a_country_at_its_cap():
    state = {"powers": {"EU": power()},
             "grid": [land("Home", 4, {"EU": 1}, fg="EU", reward=["PLACE_DEMO"]),
                      land("Full", 2, {"DEMO": 2}, col=2)]}
    d = Driver(COUNTRY_GRID, state)
    assert d.expect_decision("EU", "place_demo").choices == ["Home"]
    with pytest.raises(IllegalDecision):
        answer(COUNTRY_GRID, state, [], "Full")


# --- bad input states ------------------------------------------------------------------

def errors_of(procedure, state):
    with pytest.raises(InvalidState) as error:
        next_step(procedure, state, [])
    return error.value.errors


def test_missing_and_mistyped_fields():
    errors = errors_of(CONFLICT, {"powers": {"JPN": power(), "EU": {"pp": "ten"}}})
    assert set(errors) == {"powers", "country"}
    assert errors["powers"]["JPN"]["key"] == ["Must be one of: EU, USA, CHN, RUS."]
    assert set(errors["powers"]["EU"]["value"]) == {"pp", "leader_value", "pool", "support"}


@pytest.mark.parametrize("country, field, message", [
    pytest.param(land("A", 3, {"EU": 4}, conflict=True), "influence", "above the conflict threshold", id="over-ct"),
    pytest.param(land("A", 3, {"DEMO": 1}, fg="EU"), "fg", "no influence token", id="fg-without-token"),
    pytest.param(land("A", 3, {"EU": 2}, conflict=True), "conflict", "if and only if", id="marker-without-excess"),
    pytest.param(land("A", 3, {"EU": 2, "DEMO": 2}, conflict=False), "conflict", "if and only if",
                 id="excess-without-marker"),
    pytest.param(land("A", 1, {"EU": 1}), "ct", "greater than or equal to 2", id="ct-1"),
    pytest.param(land("A", 4, {"EU": 1}, reward=["PP_OIL"]), "reward", "unknown effect", id="unknown-effect"),
    pytest.param(land("A", 4, {"RUS": 1}), "influence", "not in play", id="power-not-in-play"),
])
def test_bad_country_names_its_field(country, field, message):
    errors = errors_of(COUNTRY_GRID, {"powers": {"EU": power()}, "grid": [land("B", 4, {}), country]})
    assert list(errors) == ["grid"] and list(errors["grid"]) == [1]
    assert field in errors["grid"][1]
    assert message in str(errors["grid"][1][field])


def test_duplicate_countries():
    errors = errors_of(COUNTRY_GRID, {"powers": {"EU": power()}, "grid": [land("A", 4, {}), land("A", 4, {})]})
    assert set(errors["grid"][1]) == {"name", "col"}


def test_conflict_needs_a_grid_country_with_a_marker():
    state = {"powers": {"EU": power()}, "grid": [land("A", 4, {"EU": 1})]}
    assert "no conflict marker" in errors_of(CONFLICT, {**state, "country": "A"})["country"][0]
    assert "no country" in errors_of(CONFLICT, {**state, "country": "B"})["country"][0]


@pytest.mark.parametrize("extra, field", [
    pytest.param({"bag": {"USA": 1}}, "bag", id="bag-power-not-in-play"),
    pytest.param({"bag": {"EU": -1}}, "bag", id="negative-bag"),
    pytest.param({"institutions": {"WTO": {}}}, "institutions", id="unknown-institution"),
    pytest.param({"institutions": {"UN": {"CHN": 1}}}, "institutions", id="votes-of-a-power-not-in-play"),
    pytest.param({"resource_track": ["CROPS", "CROPS", "GOODS", "METALS"]}, "resource_track", id="track"),
    pytest.param({"options": {"spy_passes": "forever"}}, "options", id="option-value"),
    pytest.param({"un_card": {"majority": ["TAKE_OVER"]}}, "un_card", id="un-effect"),
    pytest.param({"demo_supply": -1}, "demo_supply", id="supply"),
])
def test_bad_game_fields(extra, field):
    errors = errors_of(GOVERNANCE, {"powers": {"EU": power()}, **extra})
    assert list(errors) == [field]
