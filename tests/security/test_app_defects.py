"""Issue 20's defects of the application (1, 2, 3, 4, 6, 11), each a named test that reproduced it
before its fix: what the rules hide, who a token is, what may be stored, what mail may do."""
from __future__ import annotations

import pytest

from tests.service.gamekit import POWERS, LONG, created_game, finished, force_until, new_game
from workers.tables.games.views import HIDDEN_RULES


def _two_player(api, **rules):
    created = api.post("/v1/games", json={"variant": "two_player_1914", "assignment": "chosen",
                                          "deadlines": LONG, "rules": rules}).json()
    return created_game(api, created, powers=["ENGLAND", "AUSTRIA"])


# ---------------------------------------------------------------- 1. a hidden draw leaks through fork
def test_defect_01_fork_needs_the_director_or_a_player_of_an_ended_game(api):
    game = new_game(api)
    path = f"{game.path}/fork"
    assert api.post(path, json={}).status_code == 401  # no token: the repro got 201
    assert api.post(path, json={}, token="not-a-token-of-this-game").status_code == 401
    assert api.post(path, json={}, token=game.tokens["FRANCE"]).status_code == 403  # in play
    assert api.post(path, json={}, token=game.director).status_code == 201
    assert game.director_action("end", json={"reason": "time"}).status_code == 200
    assert api.post(path, json={}, token=game.tokens["FRANCE"]).status_code == 201  # ended: players may


def test_defect_01_every_hidden_rule_is_declared(api):
    """Every variant: what its public state leaves out of the stored rules is a declared hidden rule."""
    variants = api.get("/v1/variants").json()
    for variant in variants:
        created = api.post("/v1/games", json={"variant": variant["name"], "deadlines": LONG}).json()
        gid = created["game"]["id"]
        stored = _stored_rules(api, gid)
        shown = created["game"]["rules"]
        assert set(stored) - set(shown) <= set(HIDDEN_RULES), variant["name"]
        assert {k: v for k, v in stored.items() if k in shown} == shown


def _stored_rules(api, gid):
    from workers.core import keys
    from workers.core.records import GameRecord
    return api.stack.store.record(api.stack.store.r, GameRecord, keys.game(gid), gid).rules


@pytest.mark.parametrize("rule", sorted(HIDDEN_RULES))
def test_defect_01_a_fork_draws_what_is_still_hidden_anew(api, rule):
    """The repro: fork a two-player game before the coin toss is shown; the forks' own tosses are
    drawn anew (twenty forks of a copied toss would all equal the origin's: 1 in 2**19 by chance)."""
    game = _two_player(api)
    origin = _stored_rules(api, game.id)[rule]
    drawn = set()
    for _ in range(20):
        fork = api.post(f"{game.path}/fork", json={}, token=game.director)
        assert fork.status_code == 201, fork.text
        assert rule not in fork.json()["game"]["rules"]
        drawn.add(_stored_rules(api, fork.json()["game"]["id"])[rule])
    assert drawn == {1, 2} and origin in drawn


def test_defect_01_a_fork_copies_what_is_already_shown(api):
    game = _two_player(api, italy_joins=2)
    state = force_until(game, "S1915M")
    assert state["rules"]["italy_joins"] == 2  # shown from the Winter 1914 adjustments on
    fork = api.post(f"{game.path}/fork", json={}, token=game.director).json()
    assert fork["game"]["rules"]["italy_joins"] == 2
    early = api.post(f"{game.path}/fork", json={"seq": 1}, token=game.director).json()
    assert _stored_rules(api, early["game"]["id"])["italy_joins"] == 2  # public in the origin already
