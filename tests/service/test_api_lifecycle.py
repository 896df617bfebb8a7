"""A game played through the API against the service in this process (its jobs run as a worker would,
its deadlines pass on a fake clock: tests/service/inprocess.py), on a real Redis."""
from __future__ import annotations


from tests.service.svc_stack import wait_for
from tests.service.gamekit import LONG, POWERS, new_game


def test_random_draw_gives_every_player_one_power_and_starts_when_full(api):
    created = api.post("/v1/games", json={"deadlines": LONG}).json()
    gid = created["game"]["id"]
    assert created["game"]["status"] == "forming" and created["game"]["seat_count"] == 7
    for i in range(7):
        joined = api.post(f"/v1/games/{gid}/players", json={"name": f"player {i}"})
        assert joined.status_code == 201
        # drawn when the last seat is taken, which starts the game
        assert len(joined.json()["player"]["powers"]) == (1 if i == 6 else 0)
    state = api.get(f"/v1/games/{gid}").json()
    assert state["status"] == "open" and state["phase"] == "S1901M" and state["seq"] == 1
    drawn = sorted(p for player in state["players"] for p in player["powers"])
    assert drawn == POWERS and all(len(player["powers"]) == 1 for player in state["players"])
    assert sorted(state["to_order"]) == POWERS
    assert state["deadline"] is not None
    late = api.post(f"/v1/games/{gid}/players", json={"name": "eighth"})
    assert late.status_code == 409 and "started" in late.json()["detail"]


def test_phase_ended_by_its_deadline_with_what_was_submitted(api):
    game = new_game(api, deadlines={"first_movement": 3, "movement": 3600, "retreat": 3600, "adjustment": 3600})
    ok = game.submit("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    assert ok.status_code == 200 and [o["order"] for o in ok.json()["orders"]] == ["A PAR - BUR", "F BRE - MAO"]
    assert game.submit("GERMANY", ["A MUN - BUR"]).status_code == 200
    state = game.wait_phase("F1901M", timeout=15)
    assert state["seq"] == 2 and state["submitted"] == [] and state["ready"] == []
    [record] = game.history()
    assert record["phase"] == "S1901M" and record["closed_by"] == "deadline"
    assert record["orders"] == {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]}
    outcomes = {r["order"]: r["outcome"] for r in record["results"]}
    assert outcomes["A PAR - BUR"] == "fails" and outcomes["A MUN - BUR"] == "fails"  # standoff
    assert outcomes["F BRE - MAO"] == "succeeds"
    assert "F MAO" in state["position"]["units"]["FRANCE"]


def test_phase_ended_early_when_every_power_is_ready(api):
    game = new_game(api)
    assert game.submit("ENGLAND", ["F LON - NTH"]).status_code == 200
    powers = game.state()["to_order"]
    for power in powers[:-1]:
        assert game.ready(power).json()["ready"] == sorted(powers[: powers.index(power) + 1])
    assert game.state()["phase"] == "S1901M"  # one power is not ready yet
    # un-ready and ready again: the last ready mark closes the phase
    assert game.ready(powers[0], False).status_code == 200
    assert game.ready(powers[-1]).status_code == 200
    assert game.state()["phase"] == "S1901M"
    assert game.ready(powers[0]).status_code == 200
    state = game.wait_phase("F1901M", timeout=10)
    assert "F NTH" in state["position"]["units"]["ENGLAND"]
    assert game.history()[0]["closed_by"] == "every power was ready"


def test_retreat_and_adjustment_phases(api):
    game = new_game(api)
    assert game.submit("AUSTRIA", ["A VIE - TYR"]).status_code == 200
    game.all_ready()
    game.wait_phase("F1901M")
    assert game.submit("AUSTRIA", ["A TYR - VEN", "F TRI S A TYR - VEN"]).status_code == 200
    assert game.submit("ITALY", ["A VEN H"]).status_code == 200
    game.all_ready()
    state = game.wait_phase("F1901R")
    assert state["to_order"] == ["ITALY"]
    assert state["position"]["dislodged"]["ITALY"] == [{"unit": "A VEN", "attacked_from": "TYR"}]
    assert "PIE" in state["position"]["retreat_options"]["A VEN"]
    # a power with nothing to retreat cannot submit
    assert game.submit("FRANCE", []).status_code == 409
    assert game.submit("ITALY", ["A VEN R PIE"]).json()["orders"][0]["order"] == "A VEN R PIE"
    game.ready("ITALY")
    state = game.wait_phase("W1901A")
    assert state["position"]["adjustments"] == {"AUSTRIA": 1, "ITALY": -1}
    assert sorted(state["to_order"]) == ["AUSTRIA", "ITALY"]
    assert "VEN" in state["position"]["centers"]["AUSTRIA"]
    assert game.submit("AUSTRIA", ["A VIE B"]).status_code == 200
    assert game.submit("ITALY", ["A PIE D"]).status_code == 200
    game.all_ready()
    state = game.wait_phase("S1902M")
    assert "A VIE" in state["position"]["units"]["AUSTRIA"]
    assert "A PIE" not in state["position"]["units"]["ITALY"]
    phases = [h["phase"] for h in game.history()]
    assert phases == ["S1901M", "F1901M", "F1901R", "W1901A"]
    outcomes = {r["order"]: r["outcome"] for r in game.history()[1]["results"]}
    assert outcomes["A VEN H"] == "dislodged" and outcomes["A TYR - VEN"] == "succeeds"


def test_phases_with_nothing_to_do_are_skipped(api):
    game = new_game(api)
    game.all_ready()
    game.wait_phase("F1901M")
    game.all_ready()
    # no dislodgement, no centre changed hands: straight to spring 1902
    state = game.wait_phase("S1902M")
    assert [h["phase"] for h in game.history()] == ["S1901M", "F1901M"]
    assert state["seq"] == 3


def test_the_game_ends_on_a_victory(api, redis_client):
    """France, one centre short of 18, takes Belgium: the game is finished and stays so."""
    import json

    from workers.core import keys

    game = new_game(api)
    centres = "BRE MAR PAR SPA POR LON EDI LVP HOL DEN KIE BER MUN NWY SWE TUN NAP".split()
    position = {"phase": "F1901M", "units": {"FRANCE": ["A PIC"], "TURKEY": ["A CON", "A SMY", "F ANK"]},
                "centers": {"FRANCE": centres, "TURKEY": ["ANK", "CON", "SMY"]}, "dislodged": {}, "contested": []}
    # set the scene directly in Redis (reaching it by play would take years)
    redis_client.hset(keys.game(game.id), mapping={"phase": "F1901M", "position": json.dumps(position),
                                                   "to_order": json.dumps(["FRANCE", "TURKEY"])})
    assert game.submit("FRANCE", ["A PIC - BEL"]).status_code == 200
    game.all_ready()
    state = wait_for(lambda: (s := game.state())["status"] == "finished" and s, 10, "the game to finish")
    assert state["winner"] == "FRANCE" and state["deadline"] is None and state["to_order"] == []
    assert "BEL" in state["position"]["centers"]["FRANCE"]
    assert game.submit("FRANCE", ["A BEL H"]).status_code == 409
    assert game.director_action("adjudicate").status_code == 409
    assert [h["phase"] for h in game.history()] == ["F1901M"]


def test_a_seat_with_several_powers(api):
    created = api.post("/v1/games", json={"variant": "four_player", "assignment": "chosen", "deadlines": LONG})
    assert created.status_code == 201 and created.json()["game"]["seat_count"] == 4
    gid = created.json()["game"]["id"]
    tokens = {}
    for name, power in (("Ann", "england"), ("Bob", "FRANCE"), ("Cy", "TURKEY"), ("Di", "ITALY")):
        joined = api.post(f"/v1/games/{gid}/players", json={"name": name, "power": power}).json()
        tokens[name] = joined["token"]
    state = api.get(f"/v1/games/{gid}").json()
    assert {p["name"]: p["powers"] for p in state["players"]}["Bob"] == ["AUSTRIA", "FRANCE"]
    assert state["status"] == "open"
    bob = tokens["Bob"]
    assert api.put(f"/v1/games/{gid}/orders/AUSTRIA", json={"orders": ["A VIE - GAL"]}, token=bob).status_code == 200
    assert api.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": ["A PAR - BUR"]}, token=bob).status_code == 200
    own = api.get(f"/v1/games/{gid}/orders", token=bob).json()["powers"]
    assert own["AUSTRIA"]["orders"] == ["A VIE - GAL"] and own["FRANCE"]["orders"] == ["A PAR - BUR"]
    ready = api.put(f"/v1/games/{gid}/ready", json={"ready": True}, token=bob).json()
    assert ready["powers"] == ["AUSTRIA", "FRANCE"]
    for name in ("Ann", "Cy", "Di"):
        api.put(f"/v1/games/{gid}/ready", json={"ready": True}, token=tokens[name])
    wait_for(lambda: api.get(f"/v1/games/{gid}").json()["phase"] == "F1901M", 10, "F1901M")


def test_two_player_coin_toss_is_drawn_and_hidden(api, redis_client):
    import json

    created = api.post("/v1/games", json={"variant": "two_player_1914", "deadlines": LONG}).json()
    assert "italy_joins" not in created["game"]["rules"]
    stored = json.loads(redis_client.hget(f"dip:game:{created['game']['id']}", "rules"))
    assert stored["italy_joins"] in (1, 2)
    bad = api.post("/v1/games", json={"variant": "standard", "rules": {"convoy_disruption": "1982"}})
    assert bad.status_code == 422 and "body.rules.convoy_disruption" in bad.json()["detail"]
