"""Issue 20's mail defects (4, 6 and two of 11), over real SMTP: the service's own listener takes
the mail, its jobs deliver through a capturing relay (tests/service/mailkit.py)."""
from __future__ import annotations

import smtplib

import pytest

from service.mail.parse import parse
from tests.service.gamekit import LONG
from tests.service.mailkit import JUDGE, text
from tests.service.mailkit import mail_service as mail_service_in
from workers.core import keys

BREAKS = ["\r\n", "\n", "\u2028", "\x85", "\x00"]


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    with mail_service_in(tmp_path_factory.mktemp("security-mail-redis")) as service:
        yield service


def _game(api, power="FRANCE", start=True):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    gid = created["game"]["id"]
    joined = api.post(f"/v1/games/{gid}/players", json={"name": "Marie", "power": power}).json()
    if start:
        assert api.post(f"/v1/games/{gid}/start", token=created["director_token"]).status_code == 200
    return gid, created["director_token"], joined["token"]


def _raw(sender: str, body: str, subject: str, **headers: str) -> bytes:
    """A message as its sender's program wrote it, header by header, unchecked."""
    lines = [f"From: {sender}", f"To: {JUDGE}", f"Subject: {subject}",
             *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items()),
             "Content-Type: text/plain; charset=utf-8", "", body]
    return "\r\n".join(lines).encode()


def _send_raw(stack, sender: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", stack.smtp_port, timeout=30) as client:
        client.sendmail(sender, [JUDGE], raw)  # raises unless the listener answers 250


def _answer(relay, address, subject):
    return text(relay.wait(address, f"Re: {subject}")[0])


# ---------------------------------------------------------------- 4. line breaks in stored names
@pytest.mark.parametrize("brk", BREAKS)
def test_defect_04_mail_to_a_game_whose_stored_name_breaks_lines(mail, brk):
    relay, stack, api, r = mail
    gid, _director, _token = _game(api, start=False)
    r.hset(keys.game(gid), "name", f"evil{brk}Bcc: victim@else.test")  # stored before names were checked
    address = f"join-{ord(brk[0])}@players.test"
    joined = api.post(f"/v1/games/{gid}/players", json={"name": "Ann", "power": "ENGLAND", "email": address})
    assert joined.status_code == 201, joined.text
    welcome = relay.wait(address, "Welcome")[0]
    assert "\n" not in welcome["Subject"] and "\u2028" not in welcome["Subject"]
    assert welcome["Bcc"] is None and not relay.to("victim@else.test")


# ---------------------------------------------------------------- 6. mail parsing total
HOSTILE_IDS = ["<m\u2028x@players.test>", "=?utf-8?q?<m=0D=0AX-Evil:_1@players.test>?=", "<m\x85x@players.test>"]
HOSTILE_REPLY_TO = ["=?utf-8?q?x=0D=0ABcc=3A_evil=40x.test?= <p@players.test>", "=?utf-8?q?p=0D=0Aq=40r.test?=",
                    "p\u2028x@players.test", "=?utf-8?b?cAq=?= <p@players.test>"]


@pytest.mark.parametrize("value", HOSTILE_IDS + HOSTILE_REPLY_TO)
def test_defect_06_parse_never_raises(value):
    for header in ("Message-ID", "Reply-To", "From", "To", "Subject"):
        found = parse(_raw("a@players.test", "STATUS", "s", **{header.replace("-", "_"): value}))
        assert "\r" not in (found.message_id or "") and "\n" not in (found.message_id or "")
        assert not found.sender or "\u2028" not in found.sender and "\n" not in found.sender


@pytest.mark.parametrize("n", range(len(HOSTILE_IDS)))
def test_defect_06_a_hostile_message_id_is_dropped_and_the_message_applied_and_answered(mail, n):
    relay, stack, api, _r = mail
    gid, _director, token = _game(api)
    sender = f"mid{n}@players.test"
    _send_raw(stack, sender, _raw(sender, f"GAME {gid}\nTOKEN {token}\nA PAR - BUR", "orders",
                                  Message_ID=HOSTILE_IDS[n]))
    answer = relay.wait(sender, "Re: orders")[0]
    assert "Stored 1 order for FRANCE" in text(answer) and answer["X-Evil"] is None
    own = api.get(f"/v1/games/{gid}/orders", token=token).json()
    assert own["powers"]["FRANCE"]["orders"] == ["A PAR - BUR"]


@pytest.mark.parametrize("n", range(len(HOSTILE_REPLY_TO)))
def test_defect_06_a_hostile_reply_address_is_neither_applied_nor_answered(mail, n):
    relay, stack, api, _r = mail
    gid, _director, token = _game(api)
    sender = f"rt{n}@players.test"
    before = len(relay.messages)
    _send_raw(stack, sender, _raw(sender, f"GAME {gid}\nTOKEN {token}\nA PAR - BUR", "orders",
                                  Reply_To=HOSTILE_REPLY_TO[n]))
    stack.settle()
    assert len(relay.messages) == before  # no reply to anyone
    own = api.get(f"/v1/games/{gid}/orders", token=token).json()
    assert own["powers"]["FRANCE"]["orders"] is None  # and nothing applied


# ---------------------------------------------------------------- 11. smaller
def test_defect_11_game_with_a_key_suffix_by_mail_is_refused_by_pattern(mail):
    relay, stack, api, _r = mail
    gid, _director, _token = _game(api)
    for n, word in enumerate([f"GAME {gid}:tokens", f"SIGNON {gid}:players FRANCE Ann"]):
        stack.send("keys@players.test", word, subject=f"keys {n}")
        answer = _answer(relay, "keys@players.test", f"keys {n}")
        assert "internal error" not in answer and "12 lowercase hex digits" in answer, answer


def test_defect_11_a_reply_says_each_note_once(mail):
    relay, stack, api, _r = mail
    stack.send("notes@players.test", "HELP", to="judge+000000000000-p1-0000@dip.test", subject="notes")
    answer = _answer(relay, "notes@players.test", "notes")
    assert answer.count("is not a valid reply address") == 1, answer


# ---------------------------------------------------------------- 3. ABSENCE by mail past the year 9999
def test_defect_03_an_absence_by_mail_past_the_year_9999_is_refused(mail):
    relay, stack, api, _r = mail
    gid, _director, token = _game(api)
    stack.send("away@players.test", f"GAME {gid}\nTOKEN {token}\nABSENCE 9999-12-31 9999-12-31", subject="away")
    answer = _answer(relay, "away@players.test", "away")
    assert "Refused" in answer and "9999-12-31T23:59:59Z" in answer, answer
    assert api.get(f"/v1/games/{gid}/absences").status_code == 200
    assert api.get(f"/v1/games/{gid}/absences").json()["absences"] == []
