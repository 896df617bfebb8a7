"""Spec §4.11 final scoring: TV-37 and TV-38 (§5.7)."""
import json

import pytest

from adjudicator.nations import FINAL_SCORING
from adjudicator.procedure import InvalidState, next_step

from tests.nations.helpers import drive, game, nation

ZIGGURAT = {"id": "Ziggurat", "type": "building", "per_worker": {"stability": 2},
            "production": {"stone": 1}, "worker_vp": [1, 1]}
HOPLITES = {"id": "Hoplites", "type": "military", "per_worker": {"strength": 3}, "worker_vp": [1, 1]}


def scores(state):
    out = drive(FINAL_SCORING, state)  # final scoring asks nobody anything
    json.dumps(out.to_dict())
    return out


def part_e(**fields):
    return scores(game({"A": nation(**fields)})).result["scores"]["A"]


@pytest.mark.parametrize("fields, total, vp", [
    (dict(stone=3, gold=7, food=5, knowledge=6, strength=10, stability=6), 37, 3),
    (dict(stone=3, gold=7, food=5, knowledge=8, strength=10, stability=6), 39, 3),
    (dict(stone=3, gold=7, food=5, knowledge=9, strength=10, stability=6), 40, 4),
    (dict(gold=12, strength=0, stability=-5), 7, 0),
    (dict(gold=2, stability=-9), -7, 0),
], ids=["TV-37", "TV-37-check-39", "TV-37-check-40", "TV-37-negative-stability", "TV-37-negative-total-is-0"])
def test_TV_37_final_scoring_part_e(fields, total, vp):
    e = part_e(**fields)
    assert (e["resources_sum"], e["resources"]) == (total, vp)
    assert e["total"] == vp  # nothing else scores for this nation


def test_TV_37_elizabeth_does_not_count():
    assert part_e(gold=5, strength=4, specials=["Elizabeth"])["resources"] == 0  # 9, not 17


def tv38(y_first):
    x = nation(vp=12, strength=7, stone=3, gold=7, food=5, knowledge=6,
               colonies=[{"id": "colony1*", "vp": 1}, {"id": "colony2*", "vp": 2}],
               wonders_done=[{"id": "wonder*", "vp": 3, "special_vp": 1}],
               bm_slots=[{"card": ZIGGURAT, "workers": 3}, {"card": HOPLITES, "workers": 1}])
    y = nation(vp=25)
    return game({"X": x, "Y": y}, order=["Y", "X"] if y_first else ["X", "Y"])


def test_TV_38_final_total_and_tie_break():
    out = scores(tv38(y_first=True))
    assert out.result["scores"]["X"] == {"vp_tokens": 12, "colonies": 3, "wonders": 4, "buildings_military": 3,
                                         "resources": 3, "resources_sum": 37, "total": 25}
    assert out.result["scores"]["Y"]["total"] == 25
    assert out.result["winner"] == "Y" and out.result["ranking"] == ["Y", "X"]


def test_TV_38_the_tie_goes_to_the_nation_higher_in_the_final_order():
    out = scores(tv38(y_first=False))
    assert out.result["winner"] == "X" and out.result["ranking"] == ["X", "Y"]


@pytest.mark.parametrize("workers, vp", [(0, 0), (1, 1), (2, 2), (3, 2)],
                         ids=["TV-07-no-workers", "TV-07-one-worker", "TV-07-two-workers", "TV-07-third-scores-nothing"])
def test_TV_07_ziggurat_worker_vp(workers, vp):
    out = scores(game({"A": nation(bm_slots=[{"card": ZIGGURAT, "workers": workers}])}))
    assert out.result["scores"]["A"]["buildings_military"] == vp


def test_TV_08_hoplites_three_workers_score_2():
    out = scores(game({"A": nation(bm_slots=[{"card": HOPLITES, "workers": 3}])}))
    assert out.result["scores"]["A"]["buildings_military"] == 2


def test_the_highest_total_wins_and_the_state_is_unchanged():
    state = game({"A": nation(vp=3), "B": nation(vp=9), "C": nation(vp=5)})
    out = scores(state)
    assert out.result["ranking"] == ["B", "C", "A"] and out.result["winner"] == "B"
    assert [out.state["nations"][n]["vp"] for n in "ABC"] == [3, 9, 5]


@pytest.mark.parametrize("field, value, error", [
    ("colonies", [{"id": "c", "vp": 1}] * 3, "Longer than maximum length 2"),
    ("wonders_done", [{"id": "w"}] * 6, "Longer than maximum length 5"),
    ("colonies", [{"id": "c", "vp": -1}], "greater than or equal to 0"),
])
def test_more_than_two_colonies_or_five_wonders_is_an_invalid_state(field, value, error):
    with pytest.raises(InvalidState) as raised:
        next_step(FINAL_SCORING, game({"A": nation(**{field: value})}), [])
    assert error in json.dumps(raised.value.errors["nations"]["A"]["value"][field])
