"""A game's worth of press by e-mail, through the service's own SMTP listener and a real capturing
relay (tests/service/mailkit.py): FRANCE writes to GERMANY and ITALY with PRESS TO ... ENDPRESS,
GERMANY replies by mail (quotes and signature left out), grey press and a reply to it, a fake
broadcast and a reply to it, the rulebook's silence in the retreat and adjustment phases, a
broadcast, and each message mailed exactly once, even when the relay refuses it at first."""
from __future__ import annotations

import re
from email.message import EmailMessage

import pytest

from tests.service.gamekit import RETREAT_AHEAD
from tests.service.mailkit import JUDGE, text
from tests.service.mailkit import mail_service as mail_service_in
from tests.service.svc_stack import wait_for
from workers.core import keys

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
ADDR = {p: f"{p.lower()}@players.test" for p in POWERS}


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    with mail_service_in(tmp_path_factory.mktemp("press-mail-redis")) as service:
        yield service


def press_mail(relay, power: str, count: int = 1):
    """The press messages mailed to ``power`` so far, once there are ``count``."""
    return wait_for(lambda: (found := [m for m in relay.to(ADDR[power]) if "Press from" in m["Subject"]
                                       or "Broadcast from" in m["Subject"]]) and len(found) >= count and found,
                    30, f"{count} press mail to {power}")


def answer(stack, relay, power: str, body: str, to: str = JUDGE, subject: str = "press") -> str:
    """``power`` mails the judge (or a reply address) and gets the judge's answer."""
    before = len(relay.to(ADDR[power]))
    stack.send(ADDR[power], body, to=to, subject=subject)
    found = wait_for(lambda: [m for m in relay.to(ADDR[power])[before:] if m["Subject"].startswith("Re:")], 30,
                     f"the judge's answer to {power}")
    return text(found[0])


def test_press_by_mail(mail):
    relay, stack, api, r = mail
    created = api.post("/v1/games", json={
        "assignment": "chosen", "start": RETREAT_AHEAD,
        "press": {"grey": "allowed", "fake_broadcast": True, "phases": "movement"},
        "deadlines": {"first_movement": 3600, "movement": 3600, "retreat": 3600, "adjustment": 3600}}).json()
    gid, director = created["game"]["id"], created["director_token"]
    tokens = {}
    for power in POWERS:
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power,
                                                            "email": ADDR[power]})
        tokens[power] = joined.json()["token"]
    login = f"GAME {gid}\nTOKEN {tokens['FRANCE']}\n"

    # FRANCE writes to GERMANY and ITALY; each gets it by mail with its own signed press address
    said = answer(stack, relay, "FRANCE", login + "PRESS TO GERMANY I\nShall we?\n\n  Austria first.\nENDPRESS\n")
    m1 = sent_id(said, "(F1901M) to GERMANY, ITALY.")
    for power in ("GERMANY", "ITALY"):
        got = press_mail(relay, power)[0]
        assert got["Subject"] == f"[dip {gid}] Press from FRANCE"
        assert "From: FRANCE\nTo: GERMANY, ITALY\n\nShall we?\n\n  Austria first.\n" in text(got)
        assert re.fullmatch(rf"judge\+{gid}-p\d-{m1}-[0-9a-f]{{20}}@dip\.test", got["Reply-To"])
    assert "A reply to this message is press to FRANCE, ITALY:" in text(press_mail(relay, "GERMANY")[0])
    assert not [m for m in relay.to(ADDR["ENGLAND"]) if "Press" in m["Subject"]]

    # GERMANY replies by mail: the press goes back to the group, without the quote and the signature
    to_germany = press_mail(relay, "GERMANY")[0]
    said = answer(stack, relay, "GERMANY", "Agreed.\nWe move in spring.\n\nOn Mon, FRANCE wrote:\n> Shall we?\n"
                                           "-- \nHans, who plays Germany\n", to=to_germany["Reply-To"],
                  subject=f"Re: {to_germany['Subject']}")
    assert f"Your reply to {m1}: Sent press " in said, said
    m2 = sent_id(said, "(F1901M) to FRANCE, ITALY.")
    for power in ("FRANCE", "ITALY"):
        got = press_mail(relay, power, 2 if power == "ITALY" else 1)[-1]
        assert got["Subject"] == f"[dip {gid}] Press from GERMANY"
        assert "Agreed.\nWe move in spring.\n\n--\nA reply" in text(got) and "Hans" not in text(got)
    italy = api.get(f"/v1/games/{gid}/press", token=tokens["ITALY"]).json()["messages"]
    assert italy[-1] | {"sent_at": "?"} == {"id": m2, "phase": "F1901M", "sent_at": "?", "from": "GERMANY",
                                            "to": ["FRANCE", "ITALY"], "body": "Agreed.\nWe move in spring.",
                                            "grey": False, "in_reply_to": m1}

    # grey press: GERMANY's copy names nobody; GERMANY's reply reaches FRANCE, who stays unknown to GERMANY
    said = answer(stack, relay, "FRANCE", login + "PRESS GREY TO GERMANY\nBeware of Russia.\nENDPRESS\n")
    m3 = sent_id(said, "(F1901M) to GERMANY.", "grey press")
    grey = press_mail(relay, "GERMANY", 2)[-1]
    assert grey["Subject"] == f"[dip {gid}] Press from an unknown power"
    assert "FRANCE" not in grey.as_string() and "france@" not in grey.as_string()
    said = answer(stack, relay, "GERMANY", "Who are you?", to=grey["Reply-To"], subject=f"Re: {grey['Subject']}")
    m4 = sent_id(said, f"(F1901M) to the sender of {m3} (grey press: unknown to you).")
    assert "FRANCE" not in said
    got = press_mail(relay, "FRANCE", 2)[-1]
    assert got["Subject"] == f"[dip {gid}] Press from GERMANY" and "Who are you?" in text(got)
    seen = api.get(f"/v1/games/{gid}/press", token=tokens["GERMANY"]).json()["messages"]
    assert [(m["id"], m["from"], m["to"]) for m in seen[-2:]] == [(m3, None, ["GERMANY"]), (m4, "GERMANY", None)]

    # a fake broadcast: ITALY and AUSTRIA see it to all; ITALY's reply goes to FRANCE alone
    said = answer(stack, relay, "FRANCE", login + "PRESS FAKE BROADCAST TO ITALY AUSTRIA\nPeace to all.\nENDPRESS")
    sent_id(said, "(F1901M) to AUSTRIA, ITALY.", "fake broadcast press")
    fake = press_mail(relay, "ITALY", 3)[-1]
    assert fake["Subject"] == f"[dip {gid}] Broadcast from FRANCE" and "To: all the powers (a broadcast)" in text(fake)
    assert "AUSTRIA" not in text(fake)
    answer(stack, relay, "ITALY", "Peace indeed.", to=fake["Reply-To"], subject=f"Re: {fake['Subject']}")
    assert press_mail(relay, "FRANCE", 3)[-1]["Subject"] == f"[dip {gid}] Press from ITALY"
    assert len(press_mail(relay, "AUSTRIA")) == 1  # the fake broadcast only, not ITALY's answer

    # the rulebook's silence: no press in the retreat and the adjustment phase, by mail either
    orders = {"FRANCE": ["A BUR - MUN", "A RUH S A BUR - MUN"], "GERMANY": ["A MUN H"]}
    for power, lines in orders.items():
        api.put(f"/v1/games/{gid}/orders/{power}", json={"orders": lines}, token=tokens[power])
    for phase in ("F1901R", "W1901A"):
        api.post(f"/v1/games/{gid}/adjudicate", token=director)
        wait_for(lambda: api.get(f"/v1/games/{gid}").json()["phase"] == phase, 30, phase)
        said = answer(stack, relay, "FRANCE", login + f"BROADCAST\nI won ({phase}).\nENDPRESS")
        assert "Refused: no press while a retreat or adjustment phase is open" in said and "phases: movement" in said
        said = answer(stack, relay, "GERMANY", f"Not fair ({phase}).", to=to_germany["Reply-To"],
                      subject=f"Re: {to_germany['Subject']}")
        assert "was refused: no press while a retreat or adjustment phase is open" in said
    api.post(f"/v1/games/{gid}/adjudicate", token=director)
    wait_for(lambda: api.get(f"/v1/games/{gid}").json()["phase"] == "S1902M", 30, "S1902M")

    # a broadcast, through a relay that refuses at first: mailed once to each other player all the same
    relay.refuse = True
    spring = "BROADCAST\nSpring again.\nENDPRESS"
    stack.send(ADDR["FRANCE"], login + spring, subject="spring")
    wait_for(lambda: r.hget(keys.press(gid), 7), 30, "the broadcast stored")
    assert sum(1 for k in r.scan_iter("dip:mail:out:*") if r.hget(k, "private")) == 6  # waiting in the outbox
    relay.refuse = False
    stack.advance(60)  # the delivery jobs' retry
    for power in POWERS:
        if power != "FRANCE":
            got = [m for m in press_mail(relay, power) if "Spring again." in text(m)]
            assert len(got) == 1 and got[0]["Subject"] == f"[dip {gid}] Broadcast from FRANCE", power

    # a message handled twice (the listener died after sending its press, before marking it handled;
    # the sender's server delivers it again) sends its press once
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ADDR["FRANCE"], JUDGE, "twice"
    msg.set_content(login + "PRESS TO RUSSIA\nOnce only.\nENDPRESS\n")
    stack.send_message(msg)
    wait_for(lambda: r.hget(keys.press(gid), 8), 30, "the press stored")
    for key in r.scan_iter("dip:mail:seen:*"):
        r.delete(key)
    stack.send_message(msg)
    stack.settle()
    assert r.hlen(keys.press(gid)) == 8 and not r.hget(keys.press(gid), 9)
    assert len([m for m in press_mail(relay, "RUSSIA") if "Once only." in text(m)]) == 1
    answers = [m for m in relay.to(ADDR["FRANCE"]) if m["Subject"] == "Re: twice"]
    m8 = sent_id(text(answers[0]), "(S1902M) to RUSSIA.")
    assert len(answers) == 2 and all(f"Sent press {m8} (S1902M) to RUSSIA." in text(a) for a in answers)


def sent_id(said: str, rest: str, kind: str = "press") -> str:
    """The id of the message a reply says was sent (ids are random: docs/security.md)."""
    found = re.search(rf"Sent {kind} (m[0-9a-f]+) {re.escape(rest)}", said)
    assert found, said
    return found.group(1)

@pytest.mark.parametrize("line, to, grey, fake, sender", [
    ("PRESS TO GERMANY ITALY", ["GERMANY", "ITALY"], None, False, None),
    ("press grey to g, i", ["GERMANY", "ITALY"], True, False, None),
    ("PRESS TO ALL", "all", None, False, None),
    ("BROADCAST GREY", "all", True, False, None),
    ("PRESS WHITE FROM FRANCE TO RUSSIA", ["RUSSIA"], False, False, "FRANCE"),
    ("PRESS FAKE BROADCAST TO ITALY AUSTRIA", ["ITALY", "AUSTRIA"], None, True, None),
    ("PRESS TO T FAKE", ["TURKEY"], None, True, None),
])
def test_the_press_command_line(line, to, grey, fake, sender):
    from service.mail.press import header

    assert header(line, "standard") == {"to": to, "grey": grey, "fake_broadcast": fake, "sender": sender}


@pytest.mark.parametrize("line, why", [
    ("PRESS", "PRESS needs TO"), ("PRESS GERMANY", "write TO before"), ("PRESS TO PRUSSIA", "not a power"),
    ("BROADCAST TO ITALY", "BROADCAST goes to every power"), ("PRESS TO X", "not a power"),
])
def test_a_press_command_line_that_says_too_little(line, why):
    from service.mail.press import header
    from workers.core.errors import GameError

    with pytest.raises(GameError, match=why):
        header(line, "standard")
