"""MILA game records both ways, against MILA itself (the PyPI package ``diplomacy``, a test-only
dependency): MILA loads our export and, replaying its orders, reaches our positions; a game MILA
played imports, and goes on here."""
from __future__ import annotations

import random

from diplomacy.engine import game as mila_game
from diplomacy.utils import export

from tests.service.gamekit import POWERS, created_game, new_game

OPENING = {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "GERMANY": ["A MUN - RUH", "F KIE - DEN"],
           "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"], "RUSSIA": ["A WAR - GAL", "F SEV - BLA"],
           "ITALY": ["A VEN - TYR"], "AUSTRIA": ["A VIE - TRI", "F TRI - ALB"], "TURKEY": ["A CON - BUL"]}
FALL = {"FRANCE": ["A SPA - POR", "A BUR - BEL", "F MAO - SPA/SC"], "GERMANY": ["A RUH - HOL", "F DEN H"],
        "ENGLAND": ["F NTH - NWY", "A YOR - LON"], "RUSSIA": ["A GAL - RUM"], "TURKEY": ["A BUL - GRE"],
        "AUSTRIA": ["A TRI - SER"], "ITALY": ["A TYR - MUN"]}


def _units(state: dict) -> dict:
    return {p: sorted(u for u in units if not u.startswith("*")) for p, units in state["units"].items()}


def _play(game, rounds: list[dict]) -> None:
    for orders in rounds:
        phase = game.state()["phase"]
        for power, lines in orders.items():
            assert game.submit(power, lines).status_code == 200, (phase, power)
        game.director_action("adjudicate")
        wait = game.state()
        assert wait["phase"] != phase, wait


def _force_through(game, until: str) -> None:
    """Adjudicate (all hold, the builds waived) until ``until`` opens."""
    from tests.service.gamekit import force_until
    force_until(game, until)


def test_mila_loads_our_export_and_reaches_our_positions(api):
    game = new_game(api)
    _play(game, [OPENING, FALL])
    _force_through(game, "S1902M")
    record = api.get(f"{game.path}/export?format=mila").json()
    names = [p["name"] for p in record["phases"]]
    assert names[0] == "S1901M" and names[-1] == "S1902M"
    loaded = export.from_saved_game_format(record)  # MILA's own reader
    assert loaded.get_current_phase() == "S1902M"
    # replay every phase's orders in MILA from the first position
    mila = mila_game.Game()
    for phase, nxt in zip(record["phases"], record["phases"][1:]):
        assert mila.get_current_phase() == phase["name"]
        for power, orders in phase["orders"].items():
            mila.set_orders(power, orders or [])
        mila.process()
        state = mila.get_state()
        assert state["name"] == nxt["name"]
        assert _units(state) == _units(nxt["state"]), nxt["name"]
        assert {p: sorted(c) for p, c in state["centers"].items()} == \
            {p: sorted(c) for p, c in nxt["state"]["centers"].items()}, nxt["name"]
    ours = game.state()["position"]
    assert _units(mila.get_state()) == {p: sorted(ours["units"].get(p, [])) for p in POWERS}


def _mila_played(seed: int, phases: int, via: bool = False) -> dict:
    """A game MILA plays itself, every power ordering at random among its possible orders; without
    ``via``, no move ``VIA`` convoy (MILA moves such an army over land when nothing convoys it, a
    known error of MILA's, docs/diplomacy.md)."""
    rng = random.Random(seed)
    game = mila_game.Game()
    for _ in range(phases):
        possible = game.get_all_possible_orders()
        for power in game.powers:
            choices = [sorted(o for o in possible[loc] if via or not o.endswith(" VIA"))
                       for loc in game.get_orderable_locations(power)]
            game.set_orders(power, [rng.choice(c) for c in choices if c])
        game.process()
    return export.to_saved_game_format(game)


def test_a_game_mila_played_imports_and_goes_on(api):
    record = _mila_played(seed=7, phases=12)
    made = api.post("/v1/games/import", json={"format": "mila", "game": record, "assignment": "chosen",
                                              "name": "From MILA"})
    assert made.status_code == 201, made.text
    created = made.json()
    view = created["game"]
    last = record["phases"][-1]
    assert view["status"] == "forming" and view["name"] == "From MILA"
    game = created_game(api, created)  # every seat taken: it starts at the record's last phase
    state = game.state()
    assert state["phase"] == last["name"] and state["status"] == "open"
    assert {p: sorted(u) for p, u in state["position"]["units"].items() if u} == \
        {p: u for p, u in _units(last["state"]).items() if u}
    history = game.history()
    assert [h["phase"] for h in history] == [p["name"] for p in record["phases"][:-1]]
    assert state["seq"] == len(history) + 1
    # and it goes on like any other game
    game.director_action("adjudicate")
    assert len(game.history()) == len(history) + 1


def test_a_record_that_does_not_reproduce_itself_is_refused(api):
    record = _mila_played(seed=7, phases=4)
    tampered = record["phases"][2]["state"]["units"]
    power = next(p for p, units in tampered.items() if units)
    tampered[power] = tampered[power][1:]  # a unit vanished between phases 1 and 2
    refused = api.post("/v1/games/import", json={"format": "mila", "game": record})
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["phase"] == record["phases"][1]["name"]
    assert "body.game.phases[1]" in problem["detail"] and power in problem["detail"]
    assert api.post("/v1/games/import", json={"format": "mila", "game": {"phases": "no"}}).status_code == 422
    assert api.post("/v1/games/import", json={"format": "pbem", "game": record}).status_code == 422


def test_export_format_is_checked(api):
    game = new_game(api)
    assert api.get(f"{game.path}/export?format=jdip").status_code == 422
    six = api.post("/v1/games", json={"variant": "six_player"}).json()["game"]["id"]
    assert api.get(f"/v1/games/{six}/export?format=mila").status_code == 422


def test_a_known_mila_error_is_named(api):
    """Seed 7 with VIA orders: in S1903M MILA moves ``A KIE - HOL VIA``, which nothing convoys, over
    land; here it fails (docs/diplomacy.md, "Convoy to an adjacent province")."""
    record = _mila_played(seed=7, phases=8, via=True)
    refused = api.post("/v1/games/import", json={"format": "mila", "game": record})
    assert refused.status_code == 422
    assert refused.json()["phase"] == "S1903M" and "GERMANY" in refused.json()["detail"]
