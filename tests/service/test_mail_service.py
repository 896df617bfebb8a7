"""The mail interface's edges over real SMTP: bad and hostile mail, pipe mode, a relay that
refuses for a while, the launcher with its Maildir outbox, absences and grace over the API."""
from __future__ import annotations

import mailbox
import os
import signal
import smtplib
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

import pytest
import redis

from tests.service.mailkit import JUDGE, start, text
from tests.service.svc_stack import ROOT, environment, wait_for
from workers.core import keys

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
LONG = {"first_movement": 3600, "movement": 3600, "retreat": 3600, "adjustment": 3600}
MAX_BYTES = 2 * 1024 * 1024


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    """The service in this process on a Redis of its own, with the relay and its own SMTP listener."""
    from service.launch import start_redis, stop

    proc, url = start_redis(tmp_path_factory.mktemp("mail-redis"), persist=False)
    relay, stack, api = start(url, MAIL_MAX_BYTES=str(MAX_BYTES))
    yield relay, stack, api, url
    stack.close()
    relay.close()
    stop(proc)


def _game(api, emails: dict | None = None, **settings) -> tuple[str, str, dict]:
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, **settings}).json()
    gid, tokens = created["game"]["id"], {}
    for power in POWERS:
        body = {"name": power.title(), "power": power}
        if emails and power in emails:
            body["email"] = emails[power]
        joined = api.post(f"/v1/games/{gid}/players", json=body)
        assert joined.status_code == 201, joined.text
        tokens[power] = joined.json()["token"]
    return gid, created["director_token"], tokens


def _answer(relay, sender: str, subject: str) -> str:
    return text(relay.wait(sender, f"Re: {subject}")[0])


def test_bad_mail_never_crashes_the_listener_or_loses_orders(mail):
    relay, stack, api, _url = mail
    gid, _director, tokens = _game(api, {"FRANCE": "marie@players.test"})
    other, _d, _t = _game(api)
    welcome = relay.wait("marie@players.test", "Welcome")[0]
    assert tokens["FRANCE"] in text(welcome)
    signed = welcome["Reply-To"]

    # the token in the message authenticates, whatever the From says
    stack.send("anyone@elsewhere.test", f"GAME {gid}\nTOKEN {tokens['FRANCE']}\nORDERS\nA PAR - BUR\nF BRE - MAO\nEND",
               subject="token")
    assert "Stored 2 orders for FRANCE in S1901M" in _answer(relay, "anyone@elsewhere.test", "token")

    tampered = signed.replace("@", "x@", 1) if signed[signed.index("@") - 1] != "x" else signed.replace("x@", "y@")
    attacks = [  # (sender, recipient, body, what the reply says)
        ("marie@players.test", JUDGE, f"GAME {gid}\nORDERS FRANCE\nA PAR - PIC", "needs you signed in"),
        ("wrong@players.test", JUDGE, f"GAME {gid}\nTOKEN not-a-token\nORDERS FRANCE\nA PAR - GAS",
         "the token is not a token"),
        ("tamper@players.test", tampered, "A PAR - GAS", "is not a valid reply address"),
        ("other@players.test", signed, f"GAME {other}\nORDERS FRANCE\nA PAR - GAS", "needs you signed in"),
        ("england@players.test", JUDGE, f"GAME {gid}\nTOKEN {tokens['ENGLAND']}\nORDERS FRANCE\nA PAR - GAS",
         "FRANCE is not your power"),
        ("chatty@players.test", JUDGE, "Hello judge,\nhow are you?\nHELP", "Not understood"),
        ("nogame@players.test", JUDGE, "GAME 000000000000\nSTATUS", "there is no game '000000000000'"),
        ("huge@players.test", JUDGE, "A PAR - GAS\n" * 100_000, "only its start was read"),
        ("marie@players.test", signed, "ORDERS\nA PAR - GAS\nA PAR - PIC\nEND", "several different orders"),
        ("marie@players.test", signed, f"ORDERS FRANCE {'W1901A'}\nA PAR - GAS", "these orders are for W1901A"),
    ]
    for n, (sender, to, body, expected) in enumerate(attacks):
        stack.send(sender, body, to=to, subject=f"attack {n}")
        assert expected in _answer(relay, sender, f"attack {n}"), (n, _answer(relay, sender, f"attack {n}"))

    # a binary attachment is ignored, the text is read
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "marie@players.test", signed, "attachment"
    msg.set_content("STATUS")
    msg.add_attachment(os.urandom(200_000), maintype="application", subtype="octet-stream", filename="map.bin")
    stack.send_message(msg)
    answer = _answer(relay, "marie@players.test", "attachment")
    assert "ignored the attachment map.bin" in answer and "Your orders for FRANCE:" in answer

    # over the size limit: refused at the SMTP level (552), so the sender's server bounces it
    with pytest.raises(smtplib.SMTPException) as refused:
        stack.send("big@players.test", "x" * (MAX_BYTES + 1000), subject="too big")
    assert "552" in str(refused.value)

    # an auto-reply gets no answer (no mail loops); the next real message does
    stack.send("away@players.test", "I am on holiday", to=signed, subject="auto", Auto_Submitted="auto-replied")
    stack.send("away@players.test", "HELP", subject="real")
    assert "SIGNON" in _answer(relay, "away@players.test", "real")
    assert [m["Subject"] for m in relay.to("away@players.test")] == ["Re: real"]

    # nothing of that touched France's orders, and the listener is still up
    own = api.get(f"/v1/games/{gid}/orders", token=tokens["FRANCE"]).json()
    assert own["powers"]["FRANCE"]["orders"] == ["A PAR - BUR", "F BRE - MAO"]
    assert stack.listening()


def test_a_reply_shows_own_orders_only_to_their_player(mail):
    relay, stack, api, _url = mail
    gid, _director, tokens = _game(api, {"FRANCE": "fr@players.test", "GERMANY": "de@players.test"})
    fr = relay.wait("fr@players.test", "Welcome")[0]["Reply-To"]
    de = relay.wait("de@players.test", "Welcome")[0]["Reply-To"]
    stack.send("fr@players.test", "A PAR - PIC\nF BRE - ENG\nA MAR - GAS", to=fr, subject="fr orders")
    assert "Stored 3 orders" in _answer(relay, "fr@players.test", "fr orders")
    stack.send("de@players.test", "STATUS", to=de, subject="de status")
    answer = _answer(relay, "de@players.test", "de status")
    assert "Have orders: FRANCE" in answer and "PAR - PIC" not in answer and "Your orders for GERMANY: none yet" in answer
    assert not any("PAR - PIC" in text(m) or "MAR - GAS" in text(m) for m in relay.to("de@players.test"))


def test_pipe_mode_reads_one_message_on_stdin(mail):
    relay, _stack, _api, url = mail
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = "pipe@players.test", JUDGE, "by pipe", "<p1@players.test>"
    msg.set_content("HELP")
    env = {**environment(), "REDIS_URL": url, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "service.mail"], input=msg.as_bytes(), env=env, capture_output=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 0 and b"replied to pipe@players.test" in run.stdout, run.stderr
    reply = relay.wait("pipe@players.test", "Re: by pipe")[0]
    assert "SIGNON" in text(reply) and reply["In-Reply-To"] == "<p1@players.test>"
    again = subprocess.run([sys.executable, "-m", "service.mail"], input=msg.as_bytes(), env=env,
                           capture_output=True, timeout=60, cwd=ROOT)
    assert again.returncode == 0 and b"already handled" in again.stdout
    from service.launch import free_port
    down = subprocess.run([sys.executable, "-m", "service.mail"], input=msg.as_bytes(), capture_output=True,
                          env={**env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}, timeout=60, cwd=ROOT)
    assert down.returncode == 75 and b"try again later" in down.stderr  # EX_TEMPFAIL: the MTA retries


def test_a_message_waits_in_redis_until_the_relay_accepts_it(mail):
    from rq.job import Job

    relay, stack, _api, url = mail
    r = redis.Redis.from_url(url)
    before = set(r.scan_iter(keys.mail_out("*")))
    relay.refuse = True
    try:
        stack.send("retry@players.test", "HELP", subject="retry")
        key = wait_for(lambda: next(iter(set(r.scan_iter(keys.mail_out("*"))) - before), None), 20,
                       "the reply in the outbox")
        mid = key.decode().rsplit(":", 1)[1]
        wait_for(lambda: Job.fetch(f"mail-{mid}", connection=r).retries_left < 10, 20, "a refused delivery")
        assert r.exists(key) and not relay.to("retry@players.test")
    finally:
        relay.refuse = False
    assert "SIGNON" in text(relay.wait("retry@players.test", "Re: retry", timeout=40)[0])
    wait_for(lambda: not r.exists(key), 10, "the delivered message to leave the outbox")


def test_absences_over_the_api(mail):
    relay, _stack, api, _url = mail
    gid, director, tokens = _game(api, absences={"approval": "director", "effect": "civil_disorder"})
    path = f"/v1/games/{gid}/absences"
    now = datetime.now(timezone.utc)
    span = {"start": (now - timedelta(hours=1)).isoformat(), "end": (now + timedelta(days=1)).isoformat()}
    assert api.post(path, json=span).status_code == 401
    bad = api.post(path, json={"start": span["end"], "end": span["start"]}, token=tokens["FRANCE"])
    assert bad.status_code == 422 and "body.end" in bad.json()["detail"]
    long = api.post(path, json={**span, "end": (now + timedelta(days=40)).isoformat()}, token=tokens["FRANCE"])
    assert long.status_code == 422 and "30 days" in long.json()["detail"]
    declared = api.post(path, json=span, token=tokens["FRANCE"])
    assert declared.status_code == 201 and declared.json()["status"] == "pending"
    aid = declared.json()["id"]
    assert api.put(f"{path}/{aid}", json={"status": "approved"}, token=tokens["FRANCE"]).status_code == 403
    assert api.delete(f"{path}/{aid}", token=tokens["ENGLAND"]).status_code == 403
    assert api.put(f"{path}/a99", json={"status": "approved"}, token=director).status_code == 404
    assert api.put(f"{path}/{aid}", json={"status": "approved"}, token=director).json()["status"] == "approved"
    listed = api.get(path).json()["absences"]
    assert [(a["id"], a["player"], a["powers"], a["status"]) for a in listed] == [(aid, "p3", ["FRANCE"], "approved")]
    # civil disorder: the next phase does not ask France for orders
    assert api.post(f"/v1/games/{gid}/adjudicate", token=director).status_code == 200
    state = wait_for(lambda: (s := api.get(f"/v1/games/{gid}").json())["phase"] == "F1901M" and s, 20, "F1901M")
    assert "FRANCE" not in state["to_order"] and "ENGLAND" in state["to_order"]
    assert api.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": ["A PAR H"]},
                   token=tokens["FRANCE"]).status_code == 409
    assert api.delete(f"{path}/{aid}", token=tokens["FRANCE"]).json()["status"] == "cancelled"


def test_grace_then_the_missed_orders_policy(mail):
    relay, _stack, api, _url = mail
    created = api.post("/v1/games", json={"assignment": "chosen", "grace": 3, "reminders": [],
                                          "deadlines": {**LONG, "first_movement": 4}}).json()
    gid = created["game"]["id"]
    tokens = {}
    for power in POWERS:
        body = {"name": power.title(), "power": power, "email": f"{power.lower()}.grace@players.test"}
        tokens[power] = api.post(f"/v1/games/{gid}/players", json=body).json()["token"]
    assert api.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": ["A PAR - BUR"]},
                   token=tokens["FRANCE"]).status_code == 200
    late = text(relay.wait("turkey.grace@players.test", "Late: S1901M", timeout=30)[0])
    assert "grace period" in late and "units without orders hold" in late and "FRANCE" not in late
    assert not [m for m in relay.to("france.grace@players.test") if "Late" in m["Subject"]]
    state = wait_for(lambda: (s := api.get(f"/v1/games/{gid}").json())["phase"] == "F1901M" and s, 30, "F1901M")
    history = api.get(f"/v1/games/{gid}/history").json()["phases"]
    assert history[0]["closed_by"] == "deadline" and list(history[0]["orders"]) == ["FRANCE"]
    assert "A BUR" in state["position"]["units"]["FRANCE"] and state["late"] == []


@pytest.mark.background
def test_the_launcher_starts_the_listener_and_keeps_mail_in_a_maildir(tmp_path):
    from service.launch import free_port

    smtp, port = free_port(), free_port()
    env = {k: v for k, v in environment().items() if k not in ("REDIS_URL", "SMTP_URL")}
    env |= {"PORT": str(port), "SMTP_PORT": str(smtp), "PYTHONPATH": str(ROOT), "MAIL_FROM": JUDGE}
    log = open(tmp_path / "launch.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "service.launch"], cwd=tmp_path, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "Docs:" in (tmp_path / "launch.log").read_text() or proc.poll() is not None, 60,
                 "the launcher")
        wait_for(lambda: "SMTP listener on 127.0.0.1" in (tmp_path / "launch.log").read_text(), 30, "the listener")
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "laptop@players.test", JUDGE, "local"
        msg.set_content("HELP")
        with smtplib.SMTP("127.0.0.1", smtp, timeout=30) as client:
            client.send_message(msg)
        outbox = tmp_path / "data" / "outbox"
        found = wait_for(lambda: list(mailbox.Maildir(outbox, create=False)) if (outbox / "new").exists() else [],
                         30, "the reply in the Maildir")
        assert found[0]["To"] == "laptop@players.test" and found[0]["Subject"] == "Re: local"
        wait_for(lambda: "delivered to" in (tmp_path / "launch.log").read_text(), 10, "the log line")
        assert _listening(smtp) == ["127.0.0.1"]  # loopback only
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(40) == 0, (tmp_path / "launch.log").read_text()
    assert not list((tmp_path / "data" / "outbox" / "tmp").glob("*"))


def _listening(port: int) -> list[str]:
    """The local addresses listening on TCP ``port`` (from /proc/net/tcp and tcp6)."""
    import ipaddress

    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in list(f)[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    raw = bytes.fromhex(address)
                    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))  # host-order words
                    found.append(str(ipaddress.ip_address(raw)))
    return found


def test_a_draw_proposed_and_voted_by_mail(mail):
    relay, stack, api, _url = mail
    emails = {p: f"{p.lower()}.draw@players.test" for p in POWERS}
    gid, _director, tokens = _game(api, emails)
    signed = {p: relay.wait(emails[p], "Welcome")[0]["Reply-To"] for p in POWERS}
    stack.send(emails["FRANCE"], "DRAW", to=signed["FRANCE"], subject="draw")
    answer = _answer(relay, emails["FRANCE"], "draw")
    proposal = answer.split("proposal ")[1].split(",")[0]
    assert f"Proposed a draw ({', '.join(POWERS)}) as FRANCE" in answer and answer.rstrip().endswith("open.")
    for power in POWERS:
        if power != "FRANCE":
            stack.send(emails[power], f"VOTE {proposal} yes", to=signed[power], subject="vote")
            assert f"{power} voted yes on proposal {proposal}" in _answer(relay, emails[power], "vote")
    assert api.get(f"/v1/games/{gid}").json()["status"] == "finished"
    stack.send(emails["ENGLAND"], "PROPOSALS", to=signed["ENGLAND"], subject="list")
    assert f"{proposal}: a draw between {', '.join(POWERS)}, proposed in S1901M: passed" in _answer(relay, emails["ENGLAND"], "list")
    for power in POWERS:
        assert f"Game {gid} is over: a draw between {', '.join(POWERS)}. The players agreed to it by a vote." in text(
            relay.wait(emails[power], "Game over")[0])
