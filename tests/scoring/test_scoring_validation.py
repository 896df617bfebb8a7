"""Invalid game results (spec §2.2) are rejected with an error naming the field."""
from __future__ import annotations

import copy

import marshmallow
import pytest

from adjudicator.scoring import ResultError, ResultSchema, load_result, score

from tests.scoring.helpers import result

# A valid base: G06 of the spec (a draw leaving out AUSTRIA, two eliminated).
G06 = result((2, 8, 0, 9, 3, 12, 0), end="draw", draw=("ENGLAND", "GERMANY", "ITALY", "RUSSIA"),
             elim={"FRANCE": 1905, "TURKEY": 1904}, year=1906)
SOLO = result((0, 4, 0, 18, 0, 5, 7), end="solo", elim={"AUSTRIA": 1904, "FRANCE": 1906, "ITALY": 1906},
              year=1907)


def changed(base, **changes):
    data = copy.deepcopy(base)
    for key, value in changes.items():
        if value is DELETE:
            del data[key]
        else:
            data[key] = value
    return data


def with_centers(base, **counts):
    data = copy.deepcopy(base)
    data["centers"].update(counts)
    return data


DELETE = object()

BAD = {
    # rule 1: the seven powers, whole numbers >= 0, at most 34 in all
    "unknown power": (with_centers(G06, PRUSSIA=1), "centers.PRUSSIA", "unknown power"),
    "lower-case power": (changed(G06, centers={**{k: v for k, v in G06["centers"].items() if k != "ITALY"},
                                                "Italy": 3}), "centers.Italy", "unknown power"),
    "missing power": (changed(G06, centers={k: v for k, v in G06["centers"].items() if k != "TURKEY"}),
                      "centers.TURKEY", "missing"),
    "negative count": (with_centers(G06, AUSTRIA=-1), "centers.AUSTRIA", "at least 0"),
    "count as a string": (with_centers(G06, AUSTRIA="2"), "centers.AUSTRIA", "whole number"),
    "fractional count": (with_centers(G06, AUSTRIA=2.5), "centers.AUSTRIA", "whole number"),
    "boolean count": (with_centers(G06, AUSTRIA=True), "centers.AUSTRIA", "whole number"),
    "more than 34 centres": (with_centers(G06, AUSTRIA=3), "centers", "add up to 35"),
    "centers not an object": (changed(G06, centers=[2, 8, 0, 9, 3, 12, 0]), "centers", "object"),
    "centers null": (changed(G06, centers=None), "centers", "null"),
    "centers missing": (changed(G06, centers=DELETE), "centers", "missing"),
    # rule 2
    "unknown end": (changed(G06, end="resignation"), "end", "solo, draw, timeout, concession"),
    # §2.5 concessions
    "concession without the power": (changed(G06, end="concession", draw_members=[]), "conceded_to", "missing"),
    "concession to an eliminated power": (changed(G06, end="concession", draw_members=[], conceded_to="FRANCE"),
                                          "conceded_to", "eliminated"),
    "concession with draw members": (changed(G06, end="concession", conceded_to="RUSSIA"), "draw_members",
                                     "empty when the game ended in a concession"),
    "conceded_to outside a concession": (changed(G06, conceded_to="RUSSIA"), "conceded_to", "only a concession"),
    "end missing": (changed(G06, end=DELETE), "end", "missing"),
    # rule 3
    "year before 1901": (changed(G06, year=1900, eliminated_year={}), "year", "1901"),
    "year as a string": (changed(G06, year="1906"), "year", "whole number"),
    # rule 4
    "no elimination year for a power with 0": (changed(G06, eliminated_year={"FRANCE": 1905}),
                                               "eliminated_year.TURKEY", "missing"),
    "elimination year for a survivor": (changed(G06, eliminated_year={"FRANCE": 1905, "TURKEY": 1904,
                                                                      "AUSTRIA": 1905}),
                                        "eliminated_year.AUSTRIA", "owns 2 centres"),
    "elimination after the result's year": (changed(G06, eliminated_year={"FRANCE": 1907, "TURKEY": 1904}),
                                            "eliminated_year.FRANCE", "after the year"),
    "elimination before 1901": (changed(G06, eliminated_year={"FRANCE": 1900, "TURKEY": 1904}),
                                "eliminated_year.FRANCE", "at least 1901"),
    "elimination year of an unknown power": (changed(G06, eliminated_year={"FRANCE": 1905, "TURKEY": 1904,
                                                                           "PRUSSIA": 1903}),
                                             "eliminated_year.PRUSSIA", "unknown power"),
    # rule 5
    "solo winner without 18 centres": (with_centers(SOLO, GERMANY=17), "centers", "18 or more"),
    "solo with draw members": (changed(SOLO, draw_members=["GERMANY", "TURKEY"]), "draw_members", "empty"),
    # rule 6
    "draw with a power on 18": (changed(SOLO, end="draw", draw_members=["GERMANY", "TURKEY"]), "end",
                                "GERMANY owns 18"),
    "timeout with a power on 18": (changed(SOLO, end="timeout"), "end", "solo"),
    "timeout with one survivor": (result((0, 0, 0, 17, 0, 0, 0), end="timeout"), "centers",
                                  "at least two surviving"),
    # rule 7
    "eliminated draw member": (changed(G06, draw_members=["ENGLAND", "FRANCE", "GERMANY"]), "draw_members[1]",
                               "FRANCE was eliminated"),
    "repeated draw member": (changed(G06, draw_members=["ENGLAND", "GERMANY", "ENGLAND"]), "draw_members[2]",
                             "more than once"),
    "one-member draw": (changed(G06, draw_members=["RUSSIA"]), "draw_members", "at least two"),
    "unknown draw member": (changed(G06, draw_members=["PRUSSIA", "GERMANY"]), "draw_members[0]",
                            "unknown power"),
    "draw members not a list": (changed(G06, draw_members="ENGLAND GERMANY"), "draw_members", "array of power ids"),
    # rule 8
    "timeout with draw members": (changed(G06, end="timeout"), "draw_members", "empty for a timeout"),
    # other fields
    "misspelt field": (changed(G06, centres=G06["centers"], centers=DELETE), "centers", "missing"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_result_names_its_field(name):
    data, field, words = BAD[name]
    with pytest.raises(ResultError) as caught:
        load_result(data)
    err = caught.value
    assert err.field == field, err.errors
    assert words in err.message
    assert str(err) == f"{field}: {err.message}"
    assert err.message in err.errors[field]


@pytest.mark.parametrize("name", ["solo winner without 18 centres", "eliminated draw member",
                                  "more than 34 centres"])
def test_score_never_scores_an_invalid_result(name):
    with pytest.raises(ResultError):
        score("dss", BAD[name][0])


def test_every_problem_is_listed():
    data = changed(G06, centres={}, year="soon")
    data["centers"]["FRANCE"] = -2
    with pytest.raises(ResultError) as caught:
        load_result(data)
    errors = caught.value.errors
    assert set(errors) == {"centers.FRANCE", "year", "centres"}
    assert caught.value.field == "centers.FRANCE"


@pytest.mark.parametrize("data,kind", [([], "an array"), ("draw", "a string"), (None, "null"), (7, "a number")])
def test_a_result_that_is_not_an_object(data, kind):
    with pytest.raises(ResultError) as caught:
        load_result(data)
    assert caught.value.field is None
    assert caught.value.message == f"a game result must be a JSON object, not {kind}"
    assert caught.value.errors == {"_schema": [caught.value.message]}


def test_the_schema_is_usable_directly():
    assert ResultSchema().load(G06) == load_result(G06)
    with pytest.raises(marshmallow.ValidationError) as caught:
        ResultSchema().load(with_centers(G06, AUSTRIA=3))
    assert "centers" in caught.value.messages


def test_a_loaded_result_loads_again_unchanged():
    loaded = load_result(G06)
    assert loaded == G06
    assert load_result(loaded) == loaded
    assert list(loaded["centers"]) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def test_elimination_in_the_year_of_the_result_is_valid():
    load_result(changed(G06, eliminated_year={"FRANCE": 1906, "TURKEY": 1901}))


def test_a_timeout_with_two_single_centre_survivors_is_valid():
    # §2.2 asks no more: 32 neutral centres are allowed
    load_result(result((1, 1, 0, 0, 0, 0, 0), end="timeout", year=1901,
                       elim={p: 1901 for p in ("FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}))
