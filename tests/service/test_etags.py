"""ETags on the views clients poll (docs/clients.md, "Polling with ETags"): unchanged is a 304
without a body, changed is a 200 with a new tag, and each viewer has a tag of its own."""
from __future__ import annotations

from tests.service.gamekit import new_game
from tests.service.test_resolutions import TV11


def _get(api, path, token=None, tag=None):
    return api.get(path, token=token, headers={"If-None-Match": tag} if tag else {})


def test_game_view_304_until_it_changes(api):
    game = new_game(api)
    first = _get(api, game.path)
    tag = first.headers["ETag"]
    again = _get(api, game.path, tag=tag)
    assert again.status_code == 304 and again.content == b"" and again.headers["ETag"] == tag
    # a submission shows in the view (who has submitted): a new tag
    game.submit("FRANCE", ["A PAR - BUR"])
    changed = _get(api, game.path, tag=tag)
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert changed.json()["submitted"] == ["FRANCE"]
    assert _get(api, game.path, tag=changed.headers["ETag"]).status_code == 304


def test_tags_differ_by_viewer(api):
    game = new_game(api)
    anyone = _get(api, game.path).headers["ETag"]
    player = _get(api, game.path, token=game.tokens["FRANCE"]).headers["ETag"]
    other = _get(api, game.path, token=game.tokens["ENGLAND"]).headers["ETag"]
    director = _get(api, game.path, token=game.director).headers["ETag"]
    assert len({anyone, player, other, director}) == 4
    # one viewer's tag is no good to another
    assert _get(api, game.path, token=game.director, tag=player).status_code == 200
    assert _get(api, game.path, token=game.tokens["FRANCE"], tag=player).status_code == 304


def test_history_tag_moves_with_the_history_alone(api):
    game = new_game(api)
    tag = _get(api, f"{game.path}/history").headers["ETag"]
    game.submit("FRANCE", ["A PAR - BUR"])  # the game view changes, the history does not
    assert _get(api, f"{game.path}/history", tag=tag).status_code == 304
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    changed = _get(api, f"{game.path}/history", tag=tag)
    assert changed.status_code == 200 and [h["phase"] for h in changed.json()["phases"]] == ["S1901M"]


def test_unknown_token_and_unknown_game(api):
    game = new_game(api)
    made_up = _get(api, game.path, token="not-a-token-of-this-game")
    assert made_up.status_code == 200 and "ETag" not in made_up.headers
    assert _get(api, "/v1/games/0123456789ab", tag='W/"0-anyone"').status_code == 404


def test_resolution_tags(api):
    created = api.post("/v1/resolutions", json={"kind": "1630.war", "state": TV11, "dice": "director"})
    assert created.status_code == 201, created.text
    path = f"/v1/resolutions/{created.json()['resolution']['id']}"
    director = created.json()["director_token"]
    tag = _get(api, path, token=director).headers["ETag"]
    assert _get(api, path, token=director, tag=tag).status_code == 304
    assert _get(api, path, tag=tag).status_code == 200  # another viewer
    api.post(f"{path}/pause", token=director)
    assert _get(api, path, token=director, tag=tag).status_code == 200


def test_tournament_and_standings_tags(api):
    created = api.post("/v1/tournaments", json={"system": "sum_of_squares", "rounds": 1,
                                                "players": [f"P{i}" for i in range(7)]})
    assert created.status_code == 201, created.text
    tid = created.json()["tournament"]["id"]
    director = created.json()["director_token"]
    view, standings = f"/v1/tournaments/{tid}", f"/v1/tournaments/{tid}/standings"
    tags = {p: _get(api, p).headers["ETag"] for p in (view, standings)}
    assert all(_get(api, p, tag=t).status_code == 304 for p, t in tags.items())
    boards = api.post(f"/v1/tournaments/{tid}/rounds/1/boards", json={"seating": "draw"}, token=director)
    assert boards.status_code == 201, boards.text
    assert all(_get(api, p, tag=t).status_code == 200 for p, t in tags.items())
    tags = {p: _get(api, p).headers["ETag"] for p in (view, standings)}
    # a board ends: its status is in the view and its result in the standings
    gid = boards.json()["boards"][0]["game"]
    assert api.post(f"/v1/games/{gid}/end", json={"reason": "a test"}, token=director).status_code == 200
    assert all(_get(api, p, tag=t).status_code == 200 for p, t in tags.items())
