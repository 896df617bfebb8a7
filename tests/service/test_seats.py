"""Replacing a player (docs/seats.md, "Replacing a player"): the director opens a seat, anyone
may take it (min_reliability applies, on joining too), the taker gets a new token and the old one
401s; the audit log, the `seat` webhook event and the players' mails say so; by mail, SIGNON with
ACCOUNT takes an open seat."""
from __future__ import annotations

import json
import re

import pytest

from tests.service.gamekit import LONG, POWERS, new_game
from tests.service.mailkit import text
from tests.service.mailkit import mail_service as mail_service_in
from tests.service.svc_stack import wait_for
from tests.service.test_accounts import new_account
from tests.service.test_webhooks import Receiver


def reliable_accounts(api, inproc, on_time: int, late: int) -> list[tuple[dict, str]]:
    """``on_time`` accounts with reliability 1 and ``late`` with 0, earned in one phase of a game."""
    accounts = [new_account(api, f"On time {i}") for i in range(on_time)] + \
               [new_account(api, f"Late {i}") for i in range(late)]
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    gid, tokens = created["game"]["id"], {}
    for power, (account, token) in zip(POWERS, accounts):
        tokens[power] = api.post(f"/v1/games/{gid}/players", json={"name": account["name"], "power": power},
                                 token=token).json()["token"]
    api.post(f"/v1/games/{gid}/start", token=created["director_token"])
    for power in POWERS[:on_time]:
        assert api.put(f"/v1/games/{gid}/orders/{power}", json={"orders": []}, token=tokens[power]).status_code == 200
    inproc.advance(LONG["first_movement"] + 1)
    for i, (account, _token) in enumerate(accounts):
        assert api.get(f"/v1/accounts/{account['id']}").json()["record"]["reliability"] == (
            1.0 if i < on_time else 0.0)
    return accounts


def test_min_reliability_on_join_and_on_takeover_and_the_seat_event(api, inproc):
    (first, first_token), (second, second_token), (late, late_token) = reliable_accounts(api, inproc, 2, 1)
    _nobody, nobody_token = new_account(api, "New")  # no phase due yet: no reliability
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "min_reliability": 0.5})
    assert created.status_code == 201 and created.json()["game"]["min_reliability"] == 0.5
    created = created.json()
    gid, director = created["game"]["id"], created["director_token"]
    path = f"/v1/games/{gid}"
    receiver = Receiver()
    try:
        hook = api.post(f"{path}/webhooks", json={"url": receiver.url + "/seats", "events": ["seat"]},
                        token=director)
        assert hook.status_code == 201, hook.text
        for token in (None, late_token, nobody_token):
            refused = api.post(f"{path}/players", json={"name": "X", "power": "FRANCE"}, token=token)
            assert refused.status_code == 403 and "min_reliability" in refused.json()["detail"], refused.text
        joined = api.post(f"{path}/players", json={"name": "First", "power": "FRANCE"}, token=first_token)
        assert joined.status_code == 201, joined.text
        old_token = joined.json()["token"]
        api.post(f"{path}/start", token=director)

        # only the director opens a seat, only a held one, once
        assert api.post(f"{path}/seats/FRANCE/open", token=old_token).status_code == 403
        assert api.post(f"{path}/seats/ITALY/open", token=director).status_code == 404  # nobody plays Italy
        opened = api.post(f"{path}/seats/FRANCE/open", json={"reason": "no word for a week"}, token=director)
        assert opened.status_code == 200, opened.text
        france = next(s for s in opened.json()["seats"] if s["power"] == "FRANCE")
        assert france["open"] and france["player"] is None
        assert "FRANCE" in opened.json()["to_order"]  # still plays, as missed_orders says
        assert api.post(f"{path}/seats/FRANCE/open", token=director).status_code == 409
        assert api.get(f"{path}/orders", token=old_token).status_code == 401

        # the takeover: min_reliability again; then a new token
        for token in (None, late_token):
            refused = api.post(f"{path}/players", json={"name": "Y", "power": "FRANCE"}, token=token)
            assert refused.status_code == 403 and "min_reliability" in refused.json()["detail"]
        assert api.post(f"{path}/players", json={"name": "Y", "power": "ENGLAND"},
                        token=second_token).status_code == 404  # no seat plays England
        taken = api.post(f"{path}/players", json={"name": "Second", "power": "FRANCE"}, token=second_token)
        assert taken.status_code == 201, taken.text
        new_token = taken.json()["token"]
        assert new_token != old_token and taken.json()["player"]["powers"] == ["FRANCE"]
        assert api.put(f"{path}/orders/FRANCE", json={"orders": ["A PAR - BUR"]}, token=new_token).status_code == 200
        assert api.put(f"{path}/orders/FRANCE", json={"orders": ["A PAR H"]}, token=old_token).status_code == 401
        france = next(s for s in api.get(path).json()["seats"] if s["power"] == "FRANCE")
        assert france == {"power": "FRANCE", "player": "Second", "open": False, "bot": False, "since": france["since"]}
        assert api.post(f"{path}/players", json={"name": "Z", "power": "FRANCE"},
                        token=first_token).status_code == 409  # taken
        assert api.get(f"/v1/accounts/{first['id']}").json()["record"]["replaced"] == 1
        assert api.get(f"/v1/accounts/{second['id']}").json()["record"]["took_over"] == 1

        # the audit log keeps both, and the webhook got both events
        audit = api.get(f"{path}/audit", token=director).json()["entries"]
        seat_entries = [e for e in audit if e["action"].startswith("seat")]
        assert [(e["action"], e["by"]) for e in seat_entries] == [("seat_opened", "director"),
                                                                 ("seat_taken", f"player {taken.json()['player']['id']}")]
        assert seat_entries[0]["detail"]["reason"] == "no word for a week"
        assert seat_entries[0]["detail"]["account"] == first["id"]
        deliveries = wait_for(lambda: len(receiver.at("/seats")) >= 2 and receiver.at("/seats"),
                              what="two seat events")
        events = [json.loads(d["body"]) for d in deliveries]
        assert [(e["type"], e["data"]["powers"], e["data"]["open"]) for e in events] == [
            ("seat", ["FRANCE"], True), ("seat", ["FRANCE"], False)]
        assert events[1]["data"]["player"] == "Second"
    finally:
        receiver.close()


def test_leaving_needs_the_seats_own_token(api):
    game = new_game(api)
    assert api.post(f"{game.path}/seats/FRANCE/leave").status_code == 401
    assert api.post(f"{game.path}/seats/FRANCE/leave", token=game.tokens["ENGLAND"]).status_code == 403
    left = api.post(f"{game.path}/seats/FRANCE/leave", token=game.tokens["FRANCE"])
    assert left.status_code == 200
    assert next(s for s in left.json()["seats"] if s["power"] == "FRANCE")["open"] is True
    assert api.post(f"{game.path}/seats/FRANCE/leave", token=game.tokens["FRANCE"]).status_code == 401
    audit = api.get(f"{game.path}/audit", token=game.director).json()["entries"]
    assert audit[-1]["action"] == "seat_opened" and audit[-1]["detail"]["cause"] == "left"
    forming = api.post("/v1/games", json={"assignment": "chosen"}).json()
    joined = api.post(f"/v1/games/{forming['game']['id']}/players", json={"name": "A", "power": "FRANCE"}).json()
    assert api.post(f"/v1/games/{forming['game']['id']}/seats/FRANCE/leave",
                    token=joined["token"]).status_code == 409  # a forming game has no seat to open yet


# ---------------------------------------------------------------- by mail
ADDR = {p: f"{p.lower()}@seats.test" for p in POWERS}


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    with mail_service_in(tmp_path_factory.mktemp("seats-mail-redis")) as service:
        yield service


def test_an_open_seat_taken_by_mail_with_an_account(mail_service):
    relay, stack, api, _r = mail_service
    with stack.driving():
        created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
        gid, director = created["game"]["id"], created["director_token"]
        tokens = {}
        for power in POWERS:
            tokens[power] = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power,
                                                                        "email": ADDR[power]}).json()["token"]
        assert api.post(f"/v1/games/{gid}/seats/TURKEY/open", json={"reason": "vanished"},
                        token=director).status_code == 200
        for power in POWERS[:-1]:
            msg = relay.wait(ADDR[power], "TURKEY is open for a replacement")[0]
            assert f"SIGNON {gid} TURKEY" in text(msg)
        assert not [m for m in relay.to(ADDR["TURKEY"]) if "open for a replacement" in m["Subject"]]

        account, account_token = new_account(api, "Nia")
        newcomer = "nia@seats.test"
        stack.send(newcomer, f"SIGNON {gid} TURKEY Nia\nACCOUNT {account_token}\n", subject="take over")
        answer = text(relay.wait(newcomer, "Re: take over")[0])
        assert f"Signed on to game {gid} as Nia" in answer and "TURKEY" in answer, answer
        assert f"Account {account['id']}" in answer
        welcome = relay.wait(newcomer, "Welcome")[0]
        token = re.search(r"^    (\S{32})$", text(welcome), re.M).group(1)
        assert api.get(f"/v1/games/{gid}/orders", token=token).json()["powers"].keys() == {"TURKEY"}
        assert api.get(f"/v1/games/{gid}/orders", token=tokens["TURKEY"]).status_code == 401
        for power in POWERS[:-1]:
            assert "Nia" in text(relay.wait(ADDR[power], "TURKEY has a new player")[0])
        assert api.get(f"/v1/accounts/{account['id']}").json()["record"]["took_over"] == 1
        # the one before replies to the judge's welcome: its reply address no longer plays
        old_welcome = relay.wait(ADDR["TURKEY"], "Welcome")[0]
        stack.send(ADDR["TURKEY"], "F ANK - BLA\n", to=old_welcome["Reply-To"], subject="still here")
        answer = text(relay.wait(ADDR["TURKEY"], "Re: still here")[0])
        assert "given up" in answer and "Stored" not in answer, answer

        # the seat is taken: another SIGNON for it is refused; a bad ACCOUNT token is named
        stack.send("late@seats.test", f"SIGNON {gid} TURKEY Late\n", subject="too late")
        assert "Refused" in text(relay.wait("late@seats.test", "Re: too late")[0])
        stack.send("bad@seats.test", f"ACCOUNT nope\nSIGNON {gid} TURKEY Bad\n", subject="bad account")
        assert "not an account token" in text(relay.wait("bad@seats.test", "Re: bad account")[0])
