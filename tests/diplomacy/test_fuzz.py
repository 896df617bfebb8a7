"""Rule 7.8 / contract: bad orders never raise and are never dropped."""
import random

from hypothesis import given, settings, strategies as st

from tests.budget import examples

from adjudicator.diplomacy import adjudicate, check_orders, initial_position
from adjudicator.diplomacy.board import BOARD

WORDS = (["A", "F", "-", "->", "S", "C", "H", "VIA", "R", "D", "B", "WAIVE", "to", "Supports",
          "Convoys", "/NC", "(sc)", "EC", "England:", "Russian", "xx", "", "  ", "!", "Build",
          "Remove", "Retreats", "St.", "North", "Sea"]
         + sorted(BOARD.provinces) + [p.name for p in BOARD.provinces.values()])

order_text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=8).map(" ".join)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(order_text, max_size=6), st.sampled_from(["S1901M", "S1901R", "W1901A"]),
       st.sampled_from(sorted(BOARD.powers)))
def test_random_order_text_never_raises(orders, phase, power):
    r = initial_position()
    r["phase"] = phase
    if phase.endswith("R"):
        r["dislodged"] = {"FRANCE": [{"unit": "A PIC", "attacked_from": "BEL"}]}
    r["orders"] = {power: orders}
    resp = adjudicate(r)
    mine = [x for x in resp["results"] if x["power"] == power]
    assert all(x["outcome"] in ("succeeds", "fails", "dislodged", "invalid") for x in mine)
    checked = check_orders(r, power, orders)
    assert len(checked) == len(orders)


def test_every_order_comes_back_once_repeats_included():
    rng = random.Random(5)
    start = initial_position()
    for _ in range(200):
        orders = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))) for _ in range(5)]
        orders.append(rng.choice(orders))  # an identical repeat is answered too
        r = dict(start, orders={"ENGLAND": orders})
        resp = adjudicate(r)
        # one result per order, in order, then a hold for each unit left unordered
        assert [x["power"] for x in resp["results"][:6]] == ["ENGLAND"] * 6
        eng = [x for x in resp["results"] if x["power"] == "ENGLAND"]
        assert 6 <= len(eng) <= 6 + 3
        units = {x.get("unit") for x in eng}
        assert {"F LON", "F EDI", "A LVP"} <= units
