"""Quotas by credential (docs/clients.md, "Quotas"): an
app's account creating more games than one address may; a made-up token spends nobody's quota and
escapes none; a player's quota is the player's; 429 names the quota and when it resets."""
from __future__ import annotations

from datetime import datetime

import pytest

from tests.service.gamekit import POWERS
from workers.core.settings import Settings


@pytest.fixture()
def app(redis_url):
    """An application of its own with low limits (3 games a minute per address, 6 per credential)."""
    from service.app import create_app

    config = Settings.from_env({"RATE_LIMITS": "on", "RATE_LIMIT_CREATE_GAME": "3 per minute",
                                "RATE_LIMIT_CREATE_GAME_CREDENTIAL": "6 per minute",
                                "RATE_LIMIT_SUBMIT": "2 per minute", "RATE_LIMIT_SUBMIT_CREDENTIAL": "4 per minute"})
    return create_app(redis_url, config)


def _client(app, address: str, token: str | None = None):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    if token:
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def _account(app, address: str) -> str:
    made = _client(app, address).post("/v1/accounts", json={"name": "Discord bot"})
    assert made.status_code == 201, made.get_data(as_text=True)
    return made.get_json()["token"]


def test_an_apps_account_creates_more_games_than_an_address_may(app):
    address = "198.51.100.1"
    token = _account(app, address)
    anonymous, bot = _client(app, address), _client(app, address, token)
    for _ in range(3):
        assert anonymous.post("/v1/games", json={}).status_code == 201
    spent = anonymous.post("/v1/games", json={})
    assert spent.status_code == 429
    problem = spent.get_json()
    assert problem["quota"] == "RATE_LIMIT_CREATE_GAME" and problem["credential"] == "address"
    resets = datetime.fromisoformat(problem["resets_at"].replace("Z", "+00:00"))
    assert 0 < int(spent.headers["Retry-After"]) <= 60 and resets.year >= 2026
    assert "3 per 1 minute" in problem["detail"] and problem["resets_at"] in problem["detail"]
    # the same address, with the app's account token: the account's quota, not the address's
    for _ in range(6):
        assert bot.post("/v1/games", json={}).status_code == 201
    over = bot.post("/v1/games", json={})
    assert over.status_code == 429
    assert over.get_json()["quota"] == "RATE_LIMIT_CREATE_GAME_CREDENTIAL"
    assert over.get_json()["credential"] == "account"


def test_a_made_up_token_spends_the_address_quota(app):
    address = "198.51.100.2"
    for i in range(3):
        assert _client(app, address, f"made-up-{i}").post("/v1/games", json={}).status_code == 201
    refused = _client(app, address, "made-up-again").post("/v1/games", json={})
    assert refused.status_code == 429 and refused.get_json()["credential"] == "address"
    # ... and another's real token is untouched by it
    token = _account(app, "198.51.100.3")
    assert _client(app, "198.51.100.3", token).post("/v1/games", json={}).status_code == 201


def test_a_players_submissions_count_against_the_player(app):
    address = "198.51.100.4"
    director_client = _client(app, "198.51.100.5")
    created = director_client.post("/v1/games", json={"assignment": "chosen"}).get_json()
    gid = created["game"]["id"]
    tokens = {}
    for power in POWERS:
        joined = _client(app, f"198.51.100.{10 + POWERS.index(power)}").post(
            f"/v1/games/{gid}/players", json={"name": power, "power": power})
        tokens[power] = joined.get_json()["token"]
    france, england = _client(app, address, tokens["FRANCE"]), _client(app, address, tokens["ENGLAND"])
    for _ in range(4):
        assert france.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": ["A PAR H"]}).status_code == 200
    over = france.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": ["A PAR H"]})
    assert over.status_code == 429 and over.get_json()["credential"] == "player"
    # another player from the same address has a quota of its own
    assert england.put(f"/v1/games/{gid}/orders/ENGLAND", json={"orders": ["F LON H"]}).status_code == 200
    # a player's token on another game is nobody there: its address counts
    other = director_client.post("/v1/games", json={}).get_json()["game"]["id"]
    stray = _client(app, "198.51.100.6", tokens["FRANCE"]).put(f"/v1/games/{other}/orders/FRANCE",
                                                                  json={"orders": ["A PAR H"]})
    assert stray.status_code in (401, 409)


def test_rate_limits_off(redis_url):
    from service.app import create_app

    off = create_app(redis_url, Settings.from_env({"RATE_LIMITS": "off", "RATE_LIMIT_CREATE_GAME": "1 per minute"}))
    client = _client(off, "198.51.100.7", "made-up")
    assert all(client.post("/v1/games", json={}).status_code == 201 for _ in range(4))
