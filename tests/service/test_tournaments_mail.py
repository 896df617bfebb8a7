"""A tournament's slips by mail, read as a player gets them through a real SMTP relay: each player
with an address gets their board, power and token for the round, or word of their bye."""
from __future__ import annotations

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
    assert all(len(relay.to(address(f"t{i}"))) == 1 for i in range(1, 8))  # the slip alone, no game welcome
