"""Accounts (docs/seats.md, "Accounts"): made, read in public, tied to seats by the
account token, deleted by their own token; tokens kept only as hashes."""
from __future__ import annotations

import hashlib

from tests.service.gamekit import LONG


def new_account(api, name: str = "Ann", **extra) -> tuple[dict, str]:
    resp = api.post("/v1/accounts", json={"name": name, **extra})
    assert resp.status_code == 201, resp.text
    return resp.json()["account"], resp.json()["token"]


def test_an_account_is_made_read_in_public_and_its_token_kept_only_as_a_hash(api, redis_client):
    account, token = new_account(api, "Ann", email="ann@example.org")
    assert account["id"].startswith("u") and account["name"] == "Ann"
    assert account["record"] == {"games": 0, "finished": 0, "phases_due": 0, "phases_on_time": 0, "missed": 0,
                                 "civil_disorder": 0, "left": 0, "replaced": 0, "took_over": 0,
                                 "reliability": None}
    public = api.get(f"/v1/accounts/{account['id']}").json()
    assert public == account and "email" not in public
    # the token is nowhere in Redis; its hash is
    assert redis_client.hget("dip:accounts:tokens", hashlib.sha256(token.encode()).hexdigest()) == account["id"]
    for key in redis_client.scan_iter("dip:account*"):
        kind = redis_client.type(key)
        values = (redis_client.hgetall(key).values() if kind == "hash" else
                  redis_client.smembers(key) if kind == "set" else [])
        assert token not in " ".join(values)
    assert api.post("/v1/accounts", json={}).status_code == 422
    assert api.get("/v1/accounts/u000000000000").status_code == 404


def test_joining_with_the_account_token_ties_the_seat(api, redis_client):
    account, token = new_account(api, "Bea")
    gid = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()["game"]["id"]
    joined = api.post(f"/v1/games/{gid}/players", json={"name": "Bea", "power": "FRANCE"}, token=token)
    assert joined.status_code == 201, joined.text
    assert joined.json()["token"] != token  # the seat has a token of its own
    assert api.get(f"/v1/accounts/{account['id']}").json()["record"]["games"] == 1
    # without an account as before; with a token that is no account's, 401
    assert api.post(f"/v1/games/{gid}/players", json={"name": "Cy", "power": "ITALY"}).status_code == 201
    refused = api.post(f"/v1/games/{gid}/players", json={"name": "Dee", "power": "RUSSIA"}, token="not-a-token")
    assert refused.status_code == 401
    # the seat token is no account token
    assert api.post(f"/v1/games/{gid}/players", json={"name": "Dee", "power": "RUSSIA"},
                    token=joined.json()["token"]).status_code == 401


def test_deleting_an_account_keeps_its_games_and_drops_its_name_and_address(api, redis_client):
    account, token = new_account(api, "Eve", email="eve@example.org")
    other, other_token = new_account(api, "Fay")
    gid = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()["game"]["id"]
    api.post(f"/v1/games/{gid}/players", json={"name": "Eve", "power": "FRANCE", "email": "eve@example.org"},
             token=token)
    path = f"/v1/accounts/{account['id']}"
    assert api.delete(path).status_code == 401
    assert api.delete(path, token=other_token).status_code == 403
    gone = api.delete(path, token=token)
    assert gone.status_code == 200, gone.text
    assert gone.json()["name"] is None and gone.json()["deleted"] is True
    assert gone.json()["record"]["games"] == 1  # the record stays
    assert api.delete(path, token=token).status_code == 401  # the token went with it
    raw = redis_client.hgetall(f"dip:account:{account['id']}")
    assert raw["name"] == "" and raw["email"] == ""
    seat = api.get(f"/v1/games/{gid}").json()["players"][0]
    assert seat["name"] == "deleted account" and seat["powers"] == ["FRANCE"]
    assert "eve@example.org" not in " ".join(redis_client.hvals(f"dip:game:{gid}:players"))
