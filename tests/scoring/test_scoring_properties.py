"""Properties the spec states, on random valid results (Hypothesis).

Only what the spec guarantees: the totals of the table at its top and of each
system's "Total" line, the solo column, §2.4 (only dss and ppsc read the draw
set), §4 (seven non-negative rationals) and the OpenTribute check of §5.7.
"""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples

from adjudicator.scoring import SYSTEMS, as_numbers, load_result, score

from tests.scoring.helpers import POWERS

SETTINGS = settings(max_examples=examples(150), deadline=None)
SOLO_WINNER_POINTS = {"dss": 100, "sum_of_squares": 100, "carnage": 28034, "cdiplo100": 100, "tribute": 100,
                      "opentribute": 340, "world_classic": 420, "bangkok": 41}
WINNER_TAKES_ALL = ("dss", "sum_of_squares", "carnage", "cdiplo100", "tribute", "opentribute")
READ_THE_DRAW = ("dss", "ppsc")


@st.composite
def results(draw, ends=("solo", "draw", "timeout")):
    """Any result valid under §2.2 (not only those a real game can reach)."""
    end = draw(st.sampled_from(ends))
    year = draw(st.integers(1901, 1940))
    order = draw(st.permutations(POWERS))
    counts = {}
    if end == "solo":
        counts[order[0]] = draw(st.integers(18, 34))
        budget = draw(st.integers(0, 34 - counts[order[0]]))
        for power in order[1:]:
            counts[power] = draw(st.integers(0, budget))
            budget -= counts[power]
    else:
        budget = draw(st.integers(2, 34))
        for i, power in enumerate(order):
            low = 1 if i < 2 else 0                   # at least two survivors
            high = min(17, budget - (1 if i == 0 else 0))
            counts[power] = draw(st.integers(low, max(low, high)))
            budget -= counts[power]
    survivors = [p for p in POWERS if counts[p] > 0]
    members = []
    if end == "draw":
        members = draw(st.lists(st.sampled_from(survivors), min_size=2, max_size=len(survivors), unique=True))
    eliminated = {p: draw(st.integers(1901, year)) for p in POWERS if counts[p] == 0}
    return {"centers": {p: counts[p] for p in POWERS}, "end": end, "draw_members": members,
            "eliminated_year": eliminated, "year": year}


def owned(result):
    return sum(result["centers"].values())


@SETTINGS
@given(results())
def test_every_system_scores_every_valid_result(result):
    assert load_result(result) == result
    for system in SYSTEMS:
        scores = score(system, result)
        assert list(scores) == list(POWERS)
        assert all(isinstance(v, Fraction) and v >= 0 for v in scores.values())
        numbers = as_numbers(scores)
        assert all(abs(Fraction(numbers[p]) - scores[p]) <= Fraction(1, 10 ** 9) for p in POWERS)


@SETTINGS
@given(results())
def test_game_totals_of_the_table(result):
    solo = result["end"] == "solo"
    neutral = 34 - owned(result)
    totals = {system: sum(score(system, result).values()) for system in SYSTEMS}
    assert totals["dss"] == totals["sum_of_squares"] == totals["ppsc"] == 100
    assert totals["carnage"] == (28034 if solo else 28000 + owned(result))
    assert totals["cdiplo100"] == totals["tribute"] == (100 if solo else 100 - neutral)


@SETTINGS
@given(results(ends=("solo",)))
def test_solo_column_of_the_table(result):
    winner = next(p for p in POWERS if result["centers"][p] >= 18)
    for system, points in SOLO_WINNER_POINTS.items():
        scores = score(system, result)
        assert scores[winner] == points, system
        if system in WINNER_TAKES_ALL:
            assert all(v == 0 for p, v in scores.items() if p != winner), system
    # ppsc: shared pro rata, the winner counted as 18 (§5.3)
    ppsc = score("ppsc", result)
    divisor = owned(result) - (result["centers"][winner] - 18)
    assert ppsc[winner] == Fraction(1800, divisor)
    assert all(ppsc[p] == Fraction(100 * result["centers"][p], divisor) for p in POWERS if p != winner)


@SETTINGS
@given(results(ends=("draw", "timeout")), st.data())
def test_only_dss_and_ppsc_read_the_draw_set(result, data):
    survivors = [p for p in POWERS if result["centers"][p] > 0]
    other = dict(result, end="draw",
                 draw_members=data.draw(st.lists(st.sampled_from(survivors), min_size=2,
                                                 max_size=len(survivors), unique=True)))
    timeout = dict(result, end="timeout", draw_members=[])
    for system in SYSTEMS:
        if system not in READ_THE_DRAW:
            assert score(system, result) == score(system, other) == score(system, timeout), system
    for system in READ_THE_DRAW:
        for r in (result, other, timeout):
            d = set(r["draw_members"]) if r["end"] == "draw" else set(survivors)
            assert score(system, r) == {p: Fraction(100, len(d)) if p in d else 0 for p in POWERS}


@SETTINGS
@given(results(ends=("draw", "timeout")))
def test_opentribute_check_on_a_fully_owned_board(result):
    counts = result["centers"]
    top = max(counts.values())
    toppers = [p for p in POWERS if counts[p] == top]
    scores = score("opentribute", result)
    if owned(result) == 34 and len(toppers) == 1:
        assert scores[toppers[0]] == 10 * top
    for p in POWERS:
        if counts[p] == 0:
            assert scores[p] == 0
        elif counts[p] != top:
            assert scores[p] == 34 + 4 * counts[p] - top


@SETTINGS
@given(results(), st.permutations(POWERS))
def test_scores_belong_to_powers_not_to_names(result, relabel):
    """Renaming the powers renames the scores: ties are treated alike (§3.1)."""
    to = dict(zip(POWERS, relabel))
    renamed = {"centers": {to[p]: c for p, c in result["centers"].items()}, "end": result["end"],
               "draw_members": [to[p] for p in result["draw_members"]],
               "eliminated_year": {to[p]: y for p, y in result["eliminated_year"].items()},
               "year": result["year"]}
    for system in SYSTEMS:
        scores, moved = score(system, result), score(system, renamed)
        assert all(moved[to[p]] == scores[p] for p in POWERS), system
