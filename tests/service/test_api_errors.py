"""Whatever a client sends gets a clear 4xx problem+json, never a 500."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples

from tests.service.gamekit import new_game


def test_malformed_json_says_where(api):
    resp = api.post("/v1/games", data='{"variant": "standard",', headers={"Content-Type": "application/json"})
    assert resp.status_code == 400
    assert resp.json()["detail"].startswith("body: malformed JSON at line 1, column")
    assert api.post("/v1/games", json=[1, 2]).json()["detail"] == "body: expected a JSON object, got list"
    resp = api.post("/v1/games", data=b"\xff\xfe", headers={"Content-Type": "application/json"})
    assert resp.status_code == 400


def test_invalid_fields_are_named(api):
    resp = api.post("/v1/games", json={"deadlines": {"movement": 0, "retreat": "5"}, "variant": "huge",
                                       "colour": "red"})
    assert resp.status_code == 422
    detail = resp.json()["detail"]
    for where in ("body.deadlines.movement", "body.deadlines.retreat", "body.variant", "body.colour"):
        assert where in detail, detail
    assert set(resp.json()["errors"]) == {"deadlines", "variant", "colour"}


def test_unknown_games_and_routes(api):
    for method, path in (("GET", "/v1/games/nope"), ("GET", "/v1/games/nope/history"),
                         ("POST", "/v1/games/nope/players"), ("PUT", "/v1/games/nope/orders/FRANCE"),
                         ("POST", "/v1/games/nope/pause")):
        body = {"name": "x"} if path.endswith("players") else {"orders": []} if "orders" in path else None
        resp = api.call(method, path, json=body, token="t")
        assert resp.status_code == 404 and "there is no game 'nope'" in resp.json()["detail"], (method, path)
    assert api.get("/v2/anything", check=False).status_code == 404
    assert api.call("PATCH", "/v1/games", check=False).status_code == 405


def test_bad_authorization_header(api):
    game = new_game(api)
    resp = api.get(f"{game.path}/orders", headers={"Authorization": "Basic abc"})
    assert resp.status_code == 400 and "header Authorization" in resp.json()["detail"]
    resp = api.post(f"{game.path}/pause", token="wrong")
    assert resp.status_code == 401  # a token the game does not know (docs/service.md)


def test_joining_wrongly(api):
    created = api.post("/v1/games", json={"assignment": "chosen"}).json()
    gid = created["game"]["id"]
    assert api.post(f"/v1/games/{gid}/players", json={"name": "x"}).status_code == 422
    resp = api.post(f"/v1/games/{gid}/players", json={"name": "x", "power": "ATLANTIS"})
    assert resp.status_code == 422 and "'ATLANTIS' is not a power" in resp.json()["detail"]
    random_game = api.post("/v1/games", json={}).json()["game"]["id"]
    resp = api.post(f"/v1/games/{random_game}/players", json={"name": "x", "power": "FRANCE"})
    assert resp.status_code == 422 and "drawn at random" in resp.json()["detail"]
    assert api.post(f"/v1/games/{random_game}/players", json={"name": ""}).status_code == 422


@pytest.fixture(scope="module")
def fuzz_game(api):
    return new_game(api)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(st.text(max_size=10), children, max_size=4), max_leaves=12)
BODY = st.one_of(JSON, st.fixed_dictionaries({"orders": JSON}), st.fixed_dictionaries({"orders": st.lists(
    st.text(max_size=40), max_size=5)}), st.fixed_dictionaries({"phase": JSON, "units": JSON, "orders": JSON}))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODY, target=st.sampled_from(["orders", "ready", "extend", "players", "adjudicate", "games"]))
def test_no_body_makes_a_500(api, fuzz_game, body, target):
    game = fuzz_game
    paths = {"orders": ("PUT", f"{game.path}/orders/FRANCE", game.tokens["FRANCE"]),
             "ready": ("PUT", f"{game.path}/ready", game.tokens["FRANCE"]),
             "extend": ("POST", f"{game.path}/extend", game.director),
             "players": ("POST", f"{game.path}/players", None),
             "adjudicate": ("POST", "/v1/adjudicate/diplomacy", None),
             "games": ("POST", "/v1/games", None)}
    method, path, token = paths[target]
    resp = api.call(method, path, data=json.dumps(body), token=token, headers={"Content-Type": "application/json"})
    assert resp.status_code < 500  # Api.call also checks problem+json and the spec



def test_oversized_and_deeply_nested_bodies(api):
    resp = api.post("/v1/games", data="[" * 100_000, headers={"Content-Type": "application/json"})
    assert resp.status_code == 400 and "nested too deeply" in resp.json()["detail"]
    huge = {"orders": ["A PAR - BUR"] * 50_000}
    resp = api.post("/v1/adjudicate/diplomacy", json=huge)
    assert resp.status_code == 413 and resp.json()["detail"].startswith("body: larger than")
