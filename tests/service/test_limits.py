"""Abuse and housekeeping: per-client rate limits (429 problem+json), and games
that expire once finished or abandoned while forming, exportable before."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.service.gamekit import POWERS
from tests.service.svc_stack import wait_for

from workers.core import keys
from workers.core.settings import Settings


# ---------------------------------------------------------------- rate limits
@pytest.fixture()
def limited_app(redis_url):
    """An application of its own (in this process, on the session's Redis) with low limits."""
    from service.app import create_app

    config = Settings.from_env({"RATE_LIMITS": "on", "RATE_LIMIT_CREATE_GAME": "3 per minute",
                                "RATE_LIMIT_JOIN": "2 per minute", "RATE_LIMIT_STRATEGY": "moving-window"})
    return create_app(redis_url, config)  # each test is its own client (address), so counts never mix


def _client(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_game_creation_is_limited_per_client(limited_app):
    first, second = _client(limited_app, "192.0.2.1"), _client(limited_app, "192.0.2.2")
    for _ in range(3):
        assert first.post("/v1/games", json={}).status_code == 201
    over = first.post("/v1/games", json={})
    assert over.status_code == 429 and over.headers["Content-Type"] == "application/problem+json"
    problem = over.get_json()
    assert problem["status"] == 429 and "3 per 1 minute" in problem["detail"]
    assert 0 < int(over.headers["Retry-After"]) <= 60
    assert over.headers["X-RateLimit-Remaining"] == "0"
    # another client is not held back, and the limit of one endpoint is not another's
    assert second.post("/v1/games", json={}).status_code == 201
    assert first.get("/v1/variants").status_code == 200


def test_joins_have_their_own_limit(limited_app):
    client = _client(limited_app, "192.0.2.3")
    gid = client.post("/v1/games", json={"assignment": "chosen"}).get_json()["game"]["id"]
    for power in POWERS[:2]:
        assert client.post(f"/v1/games/{gid}/players", json={"name": power, "power": power}).status_code == 201
    over = client.post(f"/v1/games/{gid}/players", json={"name": "x", "power": POWERS[2]})
    assert over.status_code == 429 and "2 per 1 minute" in over.get_json()["detail"]
    assert len(client.get(f"/v1/games/{gid}").get_json()["players"]) == 2  # the refused join took no seat


def test_limits_can_be_turned_off(redis_url):
    from service.app import create_app

    config = Settings.from_env({"RATE_LIMITS": "off", "RATE_LIMIT_CREATE_GAME": "1 per minute"})
    client = _client(create_app(redis_url, config), "192.0.2.4")
    assert [client.post("/v1/games", json={}).status_code for _ in range(3)] == [201, 201, 201]


# ---------------------------------------------------------------- expiry and export
@pytest.fixture()
def short_lived(redis_url):
    """The service (in this process, on real time: Redis expires the keys) whose finished games live
    4 s and whose forming games 5 s (long enough for a loaded machine to seat seven players)."""
    import time

    from tests.service.inprocess import InProcessApi, InProcessStack

    stack = InProcessStack(redis_url, clock=time.time, GAME_TTL_FINISHED="4", GAME_TTL_FORMING="5")
    yield InProcessApi(stack)
    stack.close()


def _seconds_until(moment: str) -> float:
    return (datetime.fromisoformat(moment) - datetime.now(timezone.utc)).total_seconds()


def test_a_game_abandoned_while_forming_expires(short_lived, redis_client):
    gid = short_lived.post("/v1/games", json={"assignment": "chosen"}).json()["game"]["id"]
    exported = short_lived.get(f"/v1/games/{gid}/export").json()
    assert exported["game"]["status"] == "forming" and 0 < _seconds_until(exported["expires_at"]) <= 5
    wait_for(lambda: short_lived.get(f"/v1/games/{gid}").status_code == 404, 15, "the forming game to expire")
    assert not redis_client.exists(keys.game(gid))


def test_a_joined_seat_keeps_a_forming_game_and_a_finished_game_expires_after_its_export(short_lived,
                                                                                          redis_client):
    created = short_lived.post("/v1/games", json={"assignment": "chosen"}).json()
    gid, director = created["game"]["id"], created["director_token"]
    for power in POWERS:  # the last seat starts the game: it is kept while played
        assert short_lived.post(f"/v1/games/{gid}/players", json={"name": power, "power": power}).status_code == 201
    assert redis_client.ttl(keys.game(gid)) == -1 and redis_client.ttl(keys.players(gid)) == -1
    assert short_lived.get(f"/v1/games/{gid}/export").json()["expires_at"] is None
    ended = short_lived.post(f"/v1/games/{gid}/end", json={"reason": "time"}, token=director)
    assert ended.status_code == 200 and ended.json()["status"] == "finished"
    exported = short_lived.get(f"/v1/games/{gid}/export").json()
    assert exported["game"]["status"] == "finished" and exported["phases"] == []
    assert 0 < _seconds_until(exported["expires_at"]) <= 4
    for key in (keys.game(gid), keys.players(gid), keys.tokens(gid)):
        assert 0 < redis_client.ttl(key) <= 4, key
    wait_for(lambda: short_lived.get(f"/v1/games/{gid}").status_code == 404, 15, "the finished game to expire")
    assert not redis_client.exists(keys.players(gid), keys.tokens(gid))


def test_export_of_a_played_game_has_its_history(api):
    from tests.service.gamekit import new_game

    game = new_game(api)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.all_ready()
    game.wait_phase("F1901M")
    exported = api.get(f"{game.path}/export").json()
    assert exported["expires_at"] is None and exported["game"]["phase"] == "F1901M"
    assert [p["phase"] for p in exported["phases"]] == ["S1901M"]
    assert exported["phases"][0]["orders"]["FRANCE"] == ["A PAR - BUR"]
