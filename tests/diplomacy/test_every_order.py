"""Every order string in a request gets exactly one result, in every phase
(contract: an order is "never silently dropped"; spec 7.8f: an identical
repeat counts once but is still answered).

Results come in the order the orders were given (powers in the order of
``units``, then ``centers``, then ``orders``); after them come only the
results the engine adds on its own: a hold for each unordered unit
(movement), a disband for each unordered dislodged unit (retreats), the
civil-disorder disbands (winter).
"""
import random

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.budget import examples

from adjudicator.diplomacy import adjudicate  # noqa: E402
from adjudicator.diplomacy.board import BOARD  # noqa: E402

POWERS = sorted(BOARD.powers)
PROVINCES = sorted(BOARD.provinces)
CENTRES = sorted(BOARD.supply_centers)
OUTCOMES = {"succeeds", "fails", "dislodged", "invalid"}
GARBAGE = ["", "  ", "xx", "A PAR é", "A PAR - BUR - PIC", "A LON - NTH - BEL", "WAIVE", "Build",
           "A PAR - BUR VIA CONVOY", "F NTH C A LON", "A MUN S", "!!!", "A PAR H AND", "Remove"]


def neighbours(unit):
    utype, loc = unit.split()
    return sorted(BOARD.army_adj[loc[:3]] if utype == "A" else BOARD.fleet_adj.get(loc, ()))


def random_units(rnd):
    units = {}
    for prov in rnd.sample(PROVINCES, rnd.randint(0, 22)):
        kind = BOARD.provinces[prov].kind
        utype = "A" if kind == "inland" else "F" if kind == "sea" else rnd.choice("AF")
        loc = rnd.choice(BOARD.coasts[prov]) if utype == "F" and prov in BOARD.coasts else prov
        units.setdefault(rnd.choice(POWERS), []).append(f"{utype} {loc}")
    return units


def vocabulary(rnd, units, dislodged):
    """Order strings a power might send: its own units' orders of every kind,
    other powers' units, builds, waives and unreadable text."""
    every = [u for us in units.values() for u in us] + [d["unit"] for ds in dislodged.values() for d in ds]
    words = list(GARBAGE)
    for unit in every:
        nbrs = neighbours(unit) or [unit.split()[1]]
        words += [f"{unit} H", f"{unit} - {rnd.choice(nbrs)}", f"{unit} R {rnd.choice(nbrs)}",
                  f"{unit} D", f"{unit} S {rnd.choice(every)}", unit]
    for power in POWERS:
        for home in BOARD.home_centers[power]:
            words.append(f"A {home} B")
    return words


@st.composite
def requests(draw):
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    ptype = rnd.choice("MRA")
    units = random_units(rnd)
    request = {"variant": "standard", "units": units, "centers": {}}
    dislodged = {}
    if ptype == "M":
        request["phase"] = rnd.choice(["S1901M", "F1901M"])
    elif ptype == "R":
        request["phase"] = rnd.choice(["S1901R", "F1901R"])
        occupied = [u for us in units.values() for u in us]
        for unit in rnd.sample(occupied, min(len(occupied), rnd.randint(0, 4))):
            # a dislodged unit shares its province with the unit that dislodged it
            utype, loc = unit.split()
            power = rnd.choice(POWERS)
            nbrs = [n[:3] for n in neighbours(unit)]
            came_from = rnd.choice(nbrs + [None]) if nbrs else None
            dislodged.setdefault(power, []).append({"unit": unit, "attacked_from": came_from})
        request["dislodged"] = dislodged
        request["contested"] = []
    else:
        request["phase"] = "W1901A"
        owner = {}
        for centre in rnd.sample(CENTRES, rnd.randint(0, 22)):
            owner.setdefault(rnd.choice(POWERS), []).append(centre)
        request["centers"] = owner
    words = vocabulary(rnd, units, dislodged)
    orders = {}
    for power in rnd.sample(POWERS, rnd.randint(0, 7)):
        own = units.get(power, []) + [d["unit"] for d in dislodged.get(power, [])]
        mine = [w for w in words if any(w.startswith(u) for u in own)]
        mine += [f"A {h} B" for h in BOARD.home_centers[power]] + ["WAIVE"]
        given = []
        for _ in range(rnd.randint(0, 8)):
            roll = rnd.random()
            if roll < 0.25 and given:
                given.append(rnd.choice(given))  # a repeat
            elif roll < 0.8:
                given.append(rnd.choice(mine))
            else:
                given.append(rnd.choice(words))
        orders[power] = given
    request["orders"] = orders
    return request


def power_order(request):
    return list(dict.fromkeys(list(request["units"]) + list(request["centers"]) + list(request["orders"])))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_every_order_string_gets_exactly_one_result(request):
    response = adjudicate(request)
    results = response["results"]
    assert all(r["outcome"] in OUTCOMES for r in results), results
    assert all("reason" in r for r in results if r["outcome"] != "succeeds"), results
    given_powers = [p for p in power_order(request) for _ in request["orders"].get(p, ())]
    n = len(given_powers)
    assert [r["power"] for r in results[:n]] == given_powers, (request["orders"], results)

    added = results[n:]  # the engine's own results, one per unit, never for an order
    named = {(r["power"], r["unit"]) for r in results[:n] if "unit" in r}
    added_units = [(r["power"], r["unit"]) for r in added]
    assert len(added_units) == len(set(added_units)), added
    ptype = request["phase"][-1]
    if ptype == "M":
        on_board = {(p, u) for p, us in request["units"].items() for u in us}
        assert set(added_units) == on_board - named, (request, results)
        assert all(r["order"] == r["unit"] + " H" for r in added), added
    elif ptype == "R":
        waiting = {(p, d["unit"]) for p, ds in request["dislodged"].items() for d in ds}
        assert set(added_units) == waiting - named, (request, results)
        assert all(r["order"] == r["unit"] + " D" and r["outcome"] == "succeeds" for r in added), added
    else:
        disbanded = {(r["power"], r["unit"]) for r in results[:n]
                     if r["outcome"] == "succeeds" and r["order"].endswith(" D")}
        on_board = {(p, u) for p, us in request["units"].items() for u in us}
        assert set(added_units) <= on_board - disbanded, (request, results)
        assert all(r["order"] == r["unit"] + " D" and r["outcome"] == "succeeds" for r in added), added
