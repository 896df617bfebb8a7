"""Live events (docs/clients.md, "Live events"): every type, filtered per token, resumable."""
from __future__ import annotations

import pytest

from tests.service.gamekit import new_game, propose
from tests.service.sse import Stream
from tests.service.test_resolutions import TV06, TV11, WAR_ON_FRANCE
from workers.core import live


@pytest.fixture
def opened():
    streams = []

    def open_(*args, **kw):
        s = Stream(*args, **kw)
        streams.append(s)
        return s
    yield open_
    for s in streams:
        s.close()


def test_every_game_event_type(api, inproc, opened):
    game = new_game(api)
    stream = opened(inproc, f"{game.path}/events", game.tokens["FRANCE"])
    assert stream.status == 200 and stream.response.mimetype == "text/event-stream"
    game.submit("FRANCE", ["A PAR - BUR"])
    game.ready("FRANCE")
    game.director_action("extend", json={"seconds": 600})
    game.director_action("pause")
    game.director_action("resume")
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    made = propose(game, "FRANCE", "draw")
    assert made.status_code == 201, made.text
    game.director_action("end", json={"reason": "a test"})
    events = stream.take(9)
    assert [e.type for e in events] == ["orders", "orders", "deadline", "deadline", "deadline", "phase", "vote",
                                       "vote", "end"], events
    submitted, ready, extended, paused, resumed, phase, proposed, lapsed, end = events
    assert submitted.data == {"seq": 1, "phase": "S1901M", "power": "FRANCE", "submitted": True}
    assert "A PAR - BUR" not in str(submitted.data) and ready.data["ready"] is True
    assert extended.data["why"] == "extend" and paused.data["status"] == "paused"
    assert resumed.data["status"] == "open" and resumed.data["deadline"]
    assert phase.data["phase"] == "F1901M" and phase.data["results"] == f"/v1/games/{game.id}/history"
    assert proposed.data["status"] == "open" and proposed.data["kind"] == "draw"
    assert "proposed_by" not in proposed.data  # never who voted what
    assert lapsed.data["id"] == proposed.data["id"] and lapsed.data["status"] == "lapsed"  # the game ended
    assert end.data["ended_by"] == "director"
    ids = [e.id for e in events]
    assert ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-")))) and len(set(ids)) == len(ids)


def test_secrecy_per_token(api, inproc, opened):
    """An event for one power (a message to ENGLAND, as press publishes it) reaches ENGLAND's stream
    and never FRANCE's or the director's; orders events never carry order text."""
    game = new_game(api)
    france = opened(inproc, f"{game.path}/events", game.tokens["FRANCE"])
    england = opened(inproc, f"{game.path}/events", game.tokens["ENGLAND"])
    director = opened(inproc, f"{game.path}/events", game.director)
    with inproc.store.r.pipeline() as pipe:
        pipe.multi()
        live.publish(inproc.store, pipe, "game", game.id, "press", {"text": "for England alone"}, to=["ENGLAND"])
        pipe.execute()
    game.submit("GERMANY", ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"])
    assert [e.type for e in england.take(2)] == ["press", "orders"]
    for stream in (france, director):
        [seen] = stream.take(1)
        assert seen.type == "orders" and seen.data["power"] == "GERMANY"
        assert "RUH" not in str(seen.data)


def test_last_event_id_after_a_disconnect(api, inproc, opened):
    game = new_game(api)
    first = opened(inproc, f"{game.path}/events", game.tokens["FRANCE"], query_token=True)
    game.submit("FRANCE", ["A PAR - BUR"])
    [got] = first.take(1)
    first.close()
    game.submit("ENGLAND", ["F LON - NTH"])  # while disconnected
    game.submit("ITALY", ["A ROM - APU"])
    again = opened(inproc, f"{game.path}/events", game.tokens["FRANCE"], last_id=got.id)
    missed = again.take(2)
    assert [e.data["power"] for e in missed] == ["ENGLAND", "ITALY"]
    assert all(e.id > got.id for e in missed)


def test_refusals(api, inproc, opened):
    game = new_game(api)
    assert opened(inproc, f"{game.path}/events").status == 401
    assert opened(inproc, f"{game.path}/events", "made-up-token").status == 401
    assert opened(inproc, "/v1/games/0123456789ab/events", game.director).status == 404
    assert opened(inproc, f"{game.path}/events", game.director, last_id="yesterday").status == 400
    # ?token= is taken on the event streams alone
    assert api.get(f"{game.path}/orders?token={game.tokens['FRANCE']}").status_code == 401


def test_resolution_events(api, inproc, opened):
    created = api.post("/v1/resolutions", json={"kind": "1630.war", "state": TV11, "dice": "director"})
    assert created.status_code == 201, created.text
    body = created.json()
    path = f"/v1/resolutions/{body['resolution']['id']}"
    stream = opened(inproc, f"{path}/events", body["director_token"])
    view = api.get(path, token=body["director_token"]).json()
    step = view["step"]
    from tests.service.resolution_cases import answer_for
    assert api.post(f"{path}/answers", token=body["director_token"],
                    json={"step": step["index"], "answer": answer_for("1630.war", step)}).status_code == 200
    [moved] = stream.take(1)
    assert moved.type == "step" and moved.data["closed"] == step["index"]
    assert api.post(f"{path}/cancel", token=body["director_token"]).status_code == 200
    [ended] = stream.take(1)
    assert ended.type == "resolved" and ended.data["status"] == "cancelled"


def test_sealed_answers_say_who_never_what(api, inproc, opened):
    players = {p: {} for p in TV06["players"]}
    created = api.post("/v1/resolutions", json={"kind": "1630.vote", "state": TV06, "participants": players,
                                                "dice": "director"})
    assert created.status_code == 201, created.text
    body = created.json()
    path, director = f"/v1/resolutions/{body['resolution']['id']}", body["director_token"]
    for index, value in enumerate(["ENGLAND", [], WAR_ON_FRANCE]):
        assert api.post(f"{path}/answers", token=director, json={"step": index, "answer": value}).status_code == 200
    stream = opened(inproc, f"{path}/events", body["tokens"]["Simon"])
    resp = api.post(f"{path}/answers", token=body["tokens"]["Martin"], json={"step": 3, "answer": []})
    assert resp.status_code == 200, resp.text
    [answered] = stream.take(1)
    assert answered.type == "answered"
    assert answered.data == {"step": 3, "participant": "Martin", "answered": ["Martin"]}


def test_press_reaches_its_readers_alone(api, inproc, opened):
    """Another power's press never reaches a stream; a grey message's sender is hidden from its
    recipient's stream as in its press view (docs/press.md)."""
    game = new_game(api, press={"grey": "allowed"})
    streams = {p: opened(inproc, f"{game.path}/events", game.tokens[p]) for p in ("FRANCE", "ENGLAND", "GERMANY")}
    director = opened(inproc, f"{game.path}/events", game.director)
    sent = api.post(f"{game.path}/press", token=game.tokens["FRANCE"],
                    json={"to": ["ENGLAND"], "body": "Channel?", "grey": True})
    assert sent.status_code == 201, sent.text
    assert api.post(f"{game.path}/press", token=game.tokens["GERMANY"],
                    json={"to": "all", "body": "Peace to all"}).status_code == 201
    [own, public] = streams["FRANCE"].take(2)
    assert own.type == "press" and own.data["from"] == "FRANCE" and own.data["body"] == "Channel?"
    [secret, public_e] = streams["ENGLAND"].take(2)
    assert secret.data["body"] == "Channel?" and secret.data["from"] is None  # grey
    assert secret.data == api.get(f"{game.path}/press", token=game.tokens["ENGLAND"]).json()["messages"][0]
    [only] = streams["GERMANY"].take(1)
    assert only.data["body"] == "Peace to all"  # never FRANCE's message to ENGLAND
    [seen] = director.take(1)
    assert seen.data["body"] == "Peace to all"  # private press is not the director's unless the rules say so
    assert public.data["body"] == public_e.data["body"] == "Peace to all"


def test_seat_events(api, inproc, opened):
    game = new_game(api)
    england = opened(inproc, f"{game.path}/events", game.tokens["ENGLAND"])
    assert api.post(f"{game.path}/seats/FRANCE/leave", token=game.tokens["FRANCE"]).status_code == 200
    assert api.post(f"{game.path}/players", json={"name": "Newcomer", "power": "FRANCE"}).status_code == 201
    left, taken = england.take(2)
    assert (left.type, left.data["power"], left.data["open"], left.data["cause"]) == ("seat", "FRANCE", True, "left")
    assert (taken.type, taken.data["open"], taken.data["player"]) == ("seat", False, "Newcomer")
