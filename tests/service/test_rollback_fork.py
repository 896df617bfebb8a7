"""Rollback (non-destructive, a superseded branch with who/when/why, a fresh deadline and empty orders),
fork (any phase into a new sandbox game) and the director's audit log, over HTTP."""
from __future__ import annotations

from datetime import datetime

from workers.core import keys

from tests.service.gamekit import LONG, SOLO_START, created_game, finished, new_game
from tests.service.svc_stack import now, wait_for


def when(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_rollback_keeps_the_superseded_branch_and_reopens_the_phase_fresh(api):
    game = new_game(api)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    game.submit("FRANCE", ["A BUR - MUN"])
    game.submit("GERMANY", ["A MUN H"])
    game.director_action("adjudicate")
    game.wait_phase("S1902M")
    before = game.history()
    assert [h["seq"] for h in before] == [1, 2]
    game.submit("ENGLAND", ["F LON - NTH"])  # an open phase's orders: discarded unseen by the rollback

    # only the director, only a live adjudicated phase, always with a reason
    assert api.post(f"{game.path}/rollback", json={"seq": 2, "reason": "x"}, token=game.tokens["FRANCE"]).status_code == 403
    assert api.post(f"{game.path}/rollback", json={"seq": 9, "reason": "x"}, token=game.director).status_code == 422
    assert api.post(f"{game.path}/rollback", json={"seq": 2}, token=game.director).status_code == 422

    started = now()  # the service's clock
    resp = api.post(f"{game.path}/rollback", json={"seq": 2, "reason": "France's orders were misread"},
                    token=game.director)
    assert resp.status_code == 200, resp.text
    state = resp.json()
    assert state["phase"] == "F1901M" and state["status"] == "open" and state["seq"] == 4  # a new phase number
    assert state["submitted"] == [] and state["ready"] == []
    assert when(state["deadline"]) >= started + LONG["movement"] - 5  # a fresh deadline
    assert state["position"]["units"]["FRANCE"] == before[1]["position"]["units"]["FRANCE"]
    assert api.get(f"{game.path}/orders", token=game.tokens["ENGLAND"]).json()["powers"]["ENGLAND"]["orders"] is None

    history = game.history()
    assert len(history) == 2  # nothing deleted
    assert history[0].get("superseded") is None
    mark = history[1]["superseded"]
    assert mark["by"] == "director" and mark["reason"] == "France's orders were misread" and mark["restored_seq"] == 4
    assert when(mark["at"]) >= started - 1
    assert history[1]["orders"] == before[1]["orders"]

    # the restored phase is played again, with other orders, and recorded beside the old one
    game.submit("FRANCE", ["A BUR H"])
    game.director_action("adjudicate")
    wait_for(lambda: len(game.history()) == 3, what="the restored phase to be adjudicated")
    third = game.history()[2]
    assert third["seq"] == 4 and third["phase"] == "F1901M" and third["orders"]["FRANCE"] == ["A BUR H"]
    assert third.get("superseded") is None

    audit = api.get(f"{game.path}/audit", token=game.director).json()["entries"]
    assert [a["action"] for a in audit] == ["adjudicate", "adjudicate", "rollback", "adjudicate"]
    assert audit[2]["detail"] == {"seq": 2, "reason": "France's orders were misread", "superseded": [2]}


def test_a_finished_game_rolled_back_reopens_without_its_result_and_is_kept_again(api, redis_client):
    resp = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "start": SOLO_START})
    game = created_game(api, resp.json())
    game.submit("FRANCE", ["A PIE - VEN"])
    game.director_action("adjudicate")
    assert finished(game)["winner"] == "FRANCE"
    game_keys = [keys.game(game.id), keys.players(game.id), keys.tokens(game.id), keys.history(game.id)]
    assert all(redis_client.ttl(key) > 0 for key in game_keys)  # finished: it expires
    state = api.post(f"{game.path}/rollback", json={"seq": 1, "reason": "the solo came from a typo"},
                     token=game.director).json()
    assert state["status"] == "open" and state["phase"] == "F1905M" and state["winner"] is None
    assert state["result"] is None and state["ended_by"] is None
    assert api.get(f"{game.path}/result").status_code == 409
    assert [redis_client.ttl(key) for key in game_keys] == [-1] * 4  # in play again: kept
    game.director_action("adjudicate")  # and still kept after the next phase
    assert [redis_client.ttl(key) for key in game_keys] == [-1] * 4


def test_fork_any_phase_into_a_sandbox(api):
    game = new_game(api)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    history = game.history()

    # the director may fork an adjudicated phase: a new game at its start, with its own director
    fork = api.post(f"{game.path}/fork", json={"seq": 1, "name": "what if France held"}, token=game.director)
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    assert forked["game"]["forked_from"] == {"game": game.id, "seq": 1, "phase": "S1901M"}
    assert forked["game"]["status"] == "forming" and forked["director_token"] != game.director
    sandbox = created_game(api, forked)
    state = sandbox.state()
    assert state["phase"] == "S1901M" and state["position"]["units"] == history[0]["position"]["units"]
    sandbox.submit("FRANCE", ["A PAR H"])
    sandbox.director_action("adjudicate")
    sandbox.wait_phase("F1901M")
    assert "A PAR" in sandbox.state()["position"]["units"]["FRANCE"]
    assert "A BUR" in game.state()["position"]["units"]["FRANCE"]  # the original is untouched

    # the current phase too, with other settings; the origin's director's forks are in its audit log
    current = api.post(f"{game.path}/fork", json={"last_year": 1902}, token=game.director).json()
    assert current["game"]["forked_from"]["phase"] == "F1901M" and current["game"]["last_year"] == 1902
    audit = api.get(f"{game.path}/audit", token=game.director).json()["entries"]
    assert audit[-1]["action"] == "fork" and audit[-1]["detail"]["into"] == current["game"]["id"]
    assert api.post(f"{game.path}/fork", json={"seq": 7}, token=game.director).status_code == 422
    assert api.post("/v1/games/000000000000/fork", json={}, token=game.director).status_code == 404
