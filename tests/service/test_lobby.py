"""The lobby (docs/seats.md, "The lobby"): public games only, newest first, filtered by
stage, open seats and variant, paged by cursor over hundreds of games; backed by index sets kept in
the games' own transactions."""
from __future__ import annotations

import uuid

from tests.service.gamekit import LONG, POWERS, created_game


def everything(api, tag: str, **filters) -> list[dict]:
    """Every page of the lobby with ``filters``, the games named with ``tag`` (other tests' games
    share the store), checking that the pages hold no game twice."""
    found, seen, cursor, pages = [], set(), None, 0
    while True:
        params = {**filters, "limit": 37, **({"cursor": cursor} if cursor else {})}
        page = api.get("/v1/games", params=params)
        assert page.status_code == 200, page.text
        body = page.json()
        assert len(body["games"]) <= 37
        for game in body["games"]:
            assert game["id"] not in seen
            seen.add(game["id"])
            if game["name"].startswith(tag):
                found.append(game)
        pages += 1
        cursor = body["next"]
        if cursor is None:
            return found


def test_the_lobby_lists_public_games_newest_first_filtered_and_paged(api, redis_client):
    tag = f"lobby-{uuid.uuid4().hex[:6]}"
    made = []  # (name, variant, public), oldest first
    for i in range(240):
        variant = ("standard", "five_player", "two_player_1914")[i % 3]
        public = i % 10 != 7
        resp = api.post("/v1/games", json={"name": f"{tag} {i:03d}", "variant": variant, "assignment": "chosen",
                                           "visibility": "public" if public else "private", "deadlines": LONG,
                                           **({"min_reliability": 0.8} if i == 3 else {})})
        assert resp.status_code == 201, resp.text
        made.append((resp.json()["game"]["id"], variant, public))
    # two started standard games, one of them with a seat open to take over; one finished
    started = [created_game(api, api.post("/v1/games", json={"name": f"{tag} started {n}", "assignment": "chosen",
                                                              "deadlines": LONG}).json())
               for n in range(3)]
    assert api.post(f"{started[1].path}/seats/TURKEY/open", json={"reason": "gone quiet"},
                    token=started[1].director).status_code == 200
    assert api.post(f"{started[2].path}/end", json={"reason": "over"}, token=started[2].director).status_code == 200

    listed = everything(api, tag)
    public = [gid for gid, _v, pub in made if pub]
    private = {gid for gid, _v, pub in made if not pub}
    assert [g["id"] for g in listed] == [s.id for s in reversed(started)] + public[::-1]  # newest first
    assert not private & {g["id"] for g in listed}  # a private game never appears
    first = next(g for g in listed if g["id"] == made[3][0])
    assert first["min_reliability"] == 0.8 and first["status"] == "forming" and first["phase"] is None
    assert first["seats"] == {"taken": 0, "total": 5 if made[3][1] == "five_player" else 7, "open": []}
    assert first["deadlines"]["movement"] == LONG["movement"] and first["press"] is not None

    forming = everything(api, tag, status="forming")
    assert [g["id"] for g in forming] == public[::-1]
    five = everything(api, tag, variant="five_player", status="forming")
    assert [g["id"] for g in five] == [gid for gid, v, pub in made if pub and v == "five_player"][::-1]
    in_play = everything(api, tag, status="started")
    assert [g["id"] for g in in_play] == [started[1].id, started[0].id]
    assert [g["id"] for g in everything(api, tag, status="finished")] == [started[2].id]
    open_seats = everything(api, tag, seats="open")
    assert [g["id"] for g in open_seats] == [started[1].id]
    assert open_seats[0]["seats"] == {"taken": 6, "total": 7, "open": ["TURKEY"]}
    assert open_seats[0]["status"] == "open" and open_seats[0]["phase"] == "S1901M"
    assert everything(api, tag, seats="open", variant="five_player") == []

    # the seat taken: the game leaves the open-seat index, in the same transaction
    taken = api.post(f"{started[1].path}/players", json={"name": "New", "power": "TURKEY"})
    assert taken.status_code == 201, taken.text
    assert everything(api, tag, seats="open") == []
    assert not redis_client.zscore("dip:lobby:open", started[1].id)

    # bad filters and cursors are 422s naming the query parameter
    for params in ({"status": "open"}, {"seats": "closed"}, {"cursor": "nope"}, {"limit": 0}):
        resp = api.get("/v1/games", params=params)
        assert resp.status_code == 422 and f"query.{next(iter(params))}" in resp.json()["detail"], resp.text


def test_an_expired_game_leaves_the_lobby_when_met(api, redis_client):
    tag = f"expiry-{uuid.uuid4().hex[:6]}"
    gone = api.post("/v1/games", json={"name": f"{tag} gone"}).json()["game"]["id"]
    kept = api.post("/v1/games", json={"name": f"{tag} kept"}).json()["game"]["id"]
    redis_client.delete(f"dip:game:{gone}")  # as its expiry would
    assert [g["id"] for g in everything(api, tag)] == [kept]
    assert redis_client.zscore("dip:lobby:all", gone) is None
    assert redis_client.zscore("dip:lobby:status:forming", gone) is None


def test_the_game_view_lists_every_seat(api):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    assert [s["power"] for s in created["game"]["seats"]] == POWERS
    assert all(s["player"] is None and s["open"] is False for s in created["game"]["seats"])
    game = created_game(api, created)
    seats = {s["power"]: s for s in game.state()["seats"]}
    assert seats["FRANCE"]["player"] == "France" and seats["FRANCE"]["since"] and not seats["FRANCE"]["open"]


def test_a_private_games_fork_stays_out_of_the_lobby(api):
    tag = f"fork-{uuid.uuid4().hex[:6]}"
    created = api.post("/v1/games", json={"name": f"{tag} private", "visibility": "private", "assignment": "chosen",
                                          "deadlines": LONG}).json()
    game = created_game(api, created)
    fork = api.post(f"{game.path}/fork", json={"name": f"{tag} fork"}, token=game.director)
    assert fork.status_code == 201, fork.text
    assert fork.json()["game"]["visibility"] == "private"
    assert everything(api, tag) == []
