"""The director's actions: start early, extend, pause and resume, force adjudication."""
from __future__ import annotations

from tests.service.svc_stack import now, pass_time, wait_for
from tests.service.gamekit import LONG, new_game
from tests.service.test_api_orders import _epoch

SHORT = {"first_movement": 3, "movement": 3, "retreat": 3, "adjustment": 3}


def _stays(game, phase: str, until: float) -> None:
    """The phase is still ``phase`` at every poll until ``until`` (epoch seconds, the service's
    clock: the fake one in-process, which each poll moves on by 0.2 s)."""
    while now() < until:
        state = game.state()
        assert state["phase"] == phase, state
        pass_time(0.2)


def test_only_the_director_may_act(api):
    game = new_game(api)
    for action in ("pause", "resume", "adjudicate", "start"):
        assert game.api.post(f"{game.path}/{action}").status_code == 401
        assert game.api.post(f"{game.path}/{action}", token=game.tokens["ITALY"]).status_code == 403
    resp = game.api.post(f"{game.path}/extend", json={"seconds": 10}, token=game.tokens["ITALY"])
    assert resp.status_code == 403 and "only the director" in resp.json()["detail"]
    assert game.director_action("start").status_code == 409  # already started


def test_director_starts_before_all_seats_are_taken(api):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    gid, director = created["game"]["id"], created["director_token"]
    joined = api.post(f"/v1/games/{gid}/players", json={"name": "Ann", "power": "ENGLAND"}).json()
    taken = api.post(f"/v1/games/{gid}/players", json={"name": "Bob", "power": "England"})
    assert taken.status_code == 409 and "ENGLAND is already taken" in taken.json()["detail"]
    assert api.put(f"/v1/games/{gid}/orders/ENGLAND", json={"orders": []}, token=joined["token"]).status_code == 409
    state = api.post(f"/v1/games/{gid}/start", token=director).json()
    assert state["status"] == "open" and state["to_order"] == ["ENGLAND"]
    # the only player being ready is enough: the others are in civil disorder
    assert api.put(f"/v1/games/{gid}/ready", json={"ready": True}, token=joined["token"]).status_code == 200
    wait_for(lambda: api.get(f"/v1/games/{gid}").json()["phase"] == "F1901M", 10, "F1901M")


def test_extend_moves_the_deadline_and_the_old_one_does_nothing(api, redis_client):
    game = new_game(api, deadlines=SHORT)
    old = _epoch(game.state()["deadline"])
    old_job = redis_client.hget(f"dip:game:{game.id}", "deadline_job")
    assert redis_client.zscore("dip:deadlines", old_job) == old
    state = game.director_action("extend", json={"seconds": 4}).json()
    assert _epoch(state["deadline"]) == old + 4
    # the old deadline is off the schedule, the new one is on it
    new_job = redis_client.hget(f"dip:game:{game.id}", "deadline_job")
    assert redis_client.zscore("dip:deadlines", old_job) is None
    assert redis_client.zscore("dip:deadlines", new_job) == old + 4
    _stays(game, "S1901M", old + 2)
    state = game.wait_phase("F1901M", timeout=10)
    assert game.history()[0]["closed_by"] == "deadline"
    assert state["deadline"] is not None


def test_pause_stops_the_clock_and_resume_restarts_it(api):
    game = new_game(api, deadlines=SHORT)
    old = _epoch(game.state()["deadline"])
    paused = game.director_action("pause").json()
    assert paused["status"] == "paused" and paused["deadline"] is None and 0 < paused["remaining_seconds"] <= 4  # 3 s, rounded up to a whole second
    assert game.director_action("pause").status_code == 409
    assert game.submit("GERMANY", ["A BER - KIE"]).status_code == 200  # orders may still change
    assert game.ready("GERMANY").status_code == 200  # and so may readiness: a pause stops the clock only
    _stays(game, "S1901M", old + 2)
    resumed = game.director_action("resume").json()
    assert resumed["status"] == "open" and _epoch(resumed["deadline"]) > old
    game.wait_phase("F1901M", timeout=10)
    assert game.history()[0]["orders"] == {"GERMANY": ["A BER - KIE"]}


def test_force_adjudicates_now(api):
    game = new_game(api)
    game.submit("ITALY", ["A VEN - TYR"])
    state = game.director_action("adjudicate").json()
    assert state["status"] in ("adjudicating", "open")
    game.wait_phase("F1901M", timeout=10)
    record = game.history()[0]
    assert record["closed_by"] == "director" and record["orders"] == {"ITALY": ["A VEN - TYR"]}


def test_wait_policy_holds_the_phase_until_every_power_has_ordered(api):
    game = new_game(api, deadlines=SHORT, missed_orders="wait")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        assert game.submit(power, []).status_code == 200
    deadline = _epoch(game.state()["deadline"])
    _stays(game, "S1901M", deadline + 2.5)
    assert game.submit("TURKEY", ["F ANK - BLA"]).status_code == 200  # after the deadline: allowed here
    game.wait_phase("F1901M", timeout=10)
    assert game.history()[0]["closed_by"] == "deadline, then the last missing orders"


def test_extend_to_a_given_time_and_refusals(api):
    from datetime import datetime, timezone

    game = new_game(api, deadlines={**SHORT, "first_movement": 8})
    old = _epoch(game.state()["deadline"])
    earlier = datetime.fromtimestamp(old - 3, timezone.utc).isoformat()  # still in the future
    resp = game.director_action("extend", json={"deadline": earlier})
    assert resp.status_code == 422 and "can only be extended" in resp.json()["detail"]
    target = datetime.fromtimestamp(old + 1, timezone.utc).isoformat()
    state = game.director_action("extend", json={"deadline": target}).json()
    assert _epoch(state["deadline"]) == old + 1
    for body, where in (({"seconds": 5, "deadline": target}, "body:"), ({}, "body:"),
                        ({"deadline": "2001-01-01T00:00:00Z"}, "body.deadline"),
                        ({"deadline": "tomorrow"}, "body.deadline"), ({"seconds": 0}, "body.seconds")):
        resp = game.director_action("extend", json=body)
        assert resp.status_code == 422 and resp.json()["detail"].startswith(where), (body, resp.json())
    _stays(game, "S1901M", old + 0.5)
    game.wait_phase("F1901M", timeout=10)
