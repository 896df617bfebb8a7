"""A tournament's slips by mail, read as a player gets them through a real SMTP relay: each player
with an address gets their board, power and token for the round, or word of their bye; then the
board's own mail, up to its end with the scores under the tournament's system."""
from __future__ import annotations

import re

import pytest

from tests.service.gamekit import LONG
from tests.service.mailkit import text
from tests.service.mailkit import mail_service as mail_service_in

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    with mail_service_in(tmp_path_factory.mktemp("mail-redis")) as service:
        yield service


def address(pid: str) -> str:
    return f"{pid}@players.test"


def test_each_player_with_an_address_is_mailed_the_slip(mail):
    relay, _stack, api, _r = mail
    made = api.post("/v1/tournaments", json={"name": "Mail Cup", "system": "dss", "rounds": 1,
                                             "players": NAMES}).json()
    tid, director = made["tournament"]["id"], made["director_token"]
    path = f"/v1/tournaments/{tid}"
    for i in range(1, 8):  # t8 has no address
        api.call("PATCH", f"{path}/players/t{i}", json={"email": address(f"t{i}")}, token=director)
    assert api.put(f"{path}/rounds/1/clock", json={"ends_at": "2030-05-01T18:00:00Z"},
                   token=director).status_code == 200
    round_1 = api.post(f"{path}/rounds/1/boards", json={"seating": "draw", "game": {"deadlines": LONG}},
                       token=director).json()
    (bye,) = round_1["byes"]
    for slip in round_1["slips"]:
        if slip["player"] == "t8":
            continue
        (msg,) = relay.wait(address(slip["player"]), "Round 1: board 1")
        assert msg["Subject"] == f"[dip Mail Cup] Round 1: board 1, {slip['power']}"
        body = text(msg)
        assert f"you play {slip['power']} on board 1 (game {slip['game']})" in body
        assert slip["token"] in body and "2030-05-01T18:00:00Z" in body
        assert f"/signin/" in body and slip["signin"] not in body  # a link of its own, not the director's
    if bye["player"] != "t8":
        (msg,) = relay.wait(address(bye["player"]), "Round 1: a bye")
        assert "you sit out round 1 of Mail Cup with a bye" in text(msg)
    for i in range(1, 8):  # the slip, which is the welcome, then the board's own mail: its start
        subjects = [m["Subject"] for m in relay.to(address(f"t{i}"))]
        assert subjects[0].startswith("[dip Mail Cup] Round 1") and not any("Welcome" in s for s in subjects)
        assert subjects[1:] == ([] if f"t{i}" == bye["player"] else [f"[dip {round_1['boards'][0]['game']} "
                                                                     "Mail Cup: round 1, board 1] Started: S1901M"])


def test_a_board_played_by_mail_ends_with_the_scores(mail):
    relay, _stack, api, _r = mail
    made = api.post("/v1/tournaments", json={"name": "Score Cup", "system": "sum_of_squares", "rounds": 1,
                                             "players": NAMES[:7]}).json()
    tid, director = made["tournament"]["id"], made["director_token"]
    path = f"/v1/tournaments/{tid}"
    for i in range(1, 8):
        api.call("PATCH", f"{path}/players/t{i}", json={"email": address(f"s{i}")}, token=director)
    board = api.post(f"{path}/rounds/1/boards", json={"seating": "draw", "game": {"deadlines": LONG}},
                     token=director).json()["boards"][0]
    draw = {"end": "draw", "members": ["AUSTRIA", "ENGLAND", "FRANCE"],
            "centers": {"AUSTRIA": 10, "ENGLAND": 9, "FRANCE": 8, "GERMANY": 4, "ITALY": 3, "RUSSIA": 0, "TURKEY": 0}}
    assert api.post(f"{path}/boards/{board['game']}/result", json={"result": draw},
                    token=director).status_code == 200
    for power, seat in board["seats"].items():
        started = relay.wait(address(f"s{seat['player'][1:]}"), "Started: S1901M")[0]
        assert f"You play {power}." in text(started)
        over = text(relay.wait(address(f"s{seat['player'][1:]}"), "Game over: a draw between AUSTRIA, ENGLAND, FRANCE")[0])
        assert "is over: a draw between AUSTRIA, ENGLAND, FRANCE. The director recorded it." in over
        assert "Attached" not in over  # centres counted at the table: the board here does not show them
        assert "Scores under the tournament's system, sum_of_squares (Sum-of-Squares:" in over
        # 100 x c^2 / 270: AUSTRIA 1000/27 = 37.04, ENGLAND 30
        assert re.search(r"^  AUSTRIA +37\.04$", over, re.M) and re.search(r"^  ENGLAND +30\.00$", over, re.M)
        assert re.search(r"^  RUSSIA +0\.00$", over, re.M)
        assert "It ended during S1901M, before that phase was adjudicated; no phase had been played." in over
