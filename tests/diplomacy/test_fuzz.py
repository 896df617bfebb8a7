"""Rule 7.8 / contract: bad orders never raise and are never dropped."""
import random

from hypothesis import given, settings, strategies as st

from adjudicator.diplomacy import adjudicate, check_orders, initial_position
from adjudicator.diplomacy.board import BOARD

WORDS = (["A", "F", "-", "->", "S", "C", "H", "VIA", "R", "D", "B", "WAIVE", "to", "Supports",
          "Convoys", "/NC", "(sc)", "EC", "England:", "Russian", "xx", "", "  ", "!", "Build",
          "Remove", "Retreats", "St.", "North", "Sea"]
         + sorted(BOARD.provinces) + [p.name for p in BOARD.provinces.values()])

order_text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=8).map(" ".join)


@settings(max_examples=300, deadline=None)
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


def test_every_order_comes_back_once_unless_repeated():
    rng = random.Random(5)
    start = initial_position()
    for _ in range(200):
        orders = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))) for _ in range(5)]
        r = dict(start, orders={"ENGLAND": orders})
        resp = adjudicate(r)
        eng = [x for x in resp["results"] if x["power"] == "ENGLAND"]
        # each distinct order text gives at most one result; every unit at least one
        assert len(eng) <= len(set(o.strip() for o in orders)) + 3
        units = {x.get("unit") for x in eng}
        assert {"F LON", "F EDI", "A LVP"} <= units
