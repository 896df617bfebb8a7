"""Legal orders and map data over HTTP (docs/clients.md, "Options" and "Map data"): the variant's
board, a game's options for its players and director, the stateless options, and a forming game's
board."""
from __future__ import annotations

import adjudicator.diplomacy as engine
from adjudicator.diplomacy.board import BOARD
from tests.service.gamekit import LONG, RETREAT_AHEAD, created_game, new_game


def test_a_variants_board_is_the_one_the_engine_uses(api):
    resp = api.get("/v1/variants/standard")
    assert resp.status_code == 200 and resp.headers["ETag"]
    assert "max-age" in resp.headers["Cache-Control"]
    board = resp.json()
    assert board["powers"] == engine.variant_info("standard")["powers"]
    by_id = {p["id"]: p for p in board["provinces"]}
    assert set(by_id) == set(BOARD.provinces)
    assert by_id["STP"]["coasts"] == ["NC", "SC"] and by_id["PAR"]["centre"] and by_id["PAR"]["home"] == "FRANCE"
    assert by_id["NTH"]["type"] == "sea" and by_id["BUR"]["type"] == "land" and by_id["BRE"]["type"] == "coast"
    assert {p: set(n) for p, n in board["adjacency"]["army"].items()} == \
        {p: set(n) for p, n in BOARD.army_adj.items() if not BOARD.is_sea(p)}
    assert {p: set(n) for p, n in board["adjacency"]["fleet"].items()} == \
        {p: set(n) for p, n in BOARD.fleet_adj.items()}
    again = api.get("/v1/variants/standard", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304
    italy = {p["id"]: p for p in api.get("/v1/variants/two_player_1914").json()["provinces"]}
    assert italy["ROM"]["type"] == "impassable"
    assert api.get("/v1/variants/nowhere").status_code == 404


def test_a_players_options_are_its_own_powers_and_the_directors_every_power(api):
    game = new_game(api)
    mine = api.get(f"{game.path}/options", token=game.tokens["FRANCE"])
    assert mine.status_code == 200, mine.text
    body = mine.json()
    assert body["phase"] == "S1901M" and list(body["powers"]) == ["FRANCE"]
    assert "A PAR - BUR" in body["powers"]["FRANCE"]["A PAR"]
    everyone = api.get(f"{game.path}/options", token=game.director).json()
    assert sorted(everyone["powers"]) == sorted(game.state()["to_order"])
    assert api.get(f"{game.path}/options").status_code == 401
    assert api.get(f"{game.path}/options", token="made-up").status_code == 401
    # every option, submitted, is stored as valid
    for unit, orders in body["powers"]["FRANCE"].items():
        stored = game.submit("FRANCE", [orders[-1]])
        assert stored.status_code == 200 and stored.json()["orders"][0]["valid"], (unit, stored.text)
    assert api.post(f"{game.path}/end", token=game.director, json={}).status_code == 200
    assert api.get(f"{game.path}/options", token=game.tokens["FRANCE"]).status_code == 409


def test_options_of_a_retreat_and_an_adjustment(api):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "start": RETREAT_AHEAD}).json()
    game = created_game(api, created)
    game.submit("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN", "F BRE H"])
    game.director_action("adjudicate")
    game.wait_phase("F1901R")
    retreat = api.get(f"{game.path}/options", token=game.tokens["GERMANY"]).json()["powers"]["GERMANY"]
    assert list(retreat) == ["A MUN"] and retreat["A MUN"][0] == "A MUN D" and len(retreat["A MUN"]) > 1
    assert all(o.startswith("A MUN") for o in retreat["A MUN"])


def test_stateless_options(api):
    position = engine.initial_position("standard")
    resp = api.post("/v1/options/diplomacy", json={**position, "powers": ["ENGLAND"]})
    assert resp.status_code == 200, resp.text
    assert list(resp.json()["powers"]) == ["ENGLAND"] and "F LON - NTH" in resp.json()["powers"]["ENGLAND"]["F LON"]
    bad = api.post("/v1/options/diplomacy", json={**position, "powers": ["NARNIA"]})
    assert bad.status_code == 422 and "powers" in bad.json()["detail"]


def test_a_forming_game_shows_the_board_it_will_start_at(api):
    created = api.post("/v1/games", json={"assignment": "chosen", "start": RETREAT_AHEAD}).json()
    state = created["game"]
    assert state["status"] == "forming" and state["phase"] == "F1901M"
    assert state["position"]["units"]["FRANCE"] == ["A BUR", "A RUH", "F BRE"]
    plain = api.post("/v1/games", json={}).json()["game"]
    assert plain["phase"] == "S1901M" and sorted(plain["position"]["centers"]["FRANCE"]) == ["BRE", "MAR", "PAR"]
