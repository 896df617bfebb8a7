"""Press reaches no one who may not read it (the press contract, "Everywhere else"): not the game
view, the history, the export, the audit log, webhooks (a press event carries id, phase and time
only), metrics, logs, or the mail of anyone outside the message's group."""
from __future__ import annotations

import json
import logging
import mailbox

import pytest

from tests.service.gamekit import POWERS, Game
from tests.service.test_webhooks import Receiver, add_hook
from tests.service.svc_stack import wait_for

SECRET = "Sealed plan: Tyrolia on the 3rd"
GREY = "Nobody knows this came from England"
ADDRESS = {p: f"{p.lower()}@secrecy.test" for p in POWERS}


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def mailed_game(api):
    created = api.post("/v1/games", json={"assignment": "chosen", "press": {"grey": "allowed"}}).json()
    gid = created["game"]["id"]
    tokens = {p: api.post(f"/v1/games/{gid}/players", json={"name": p.title(), "power": p,
                                                            "email": ADDRESS[p]}).json()["token"] for p in POWERS}
    return Game(api, gid, created["director_token"], tokens)


class KeepRecords(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


def test_no_copy_of_a_message_anywhere_else(api, inproc, receiver, caplog, request):
    game = mailed_game(api)
    hook = add_hook(api, game, receiver.url + "/all").json()
    assert "press" in hook["events"]
    caplog.set_level(logging.DEBUG)
    kept, outbox_log = KeepRecords(), logging.getLogger("rq.worker.mail")  # the outbox's own (the worker shows it)
    level = outbox_log.level
    outbox_log.addHandler(kept)
    outbox_log.setLevel(logging.INFO)
    request.addfinalizer(lambda: (outbox_log.removeHandler(kept), outbox_log.setLevel(level)))
    api.put(f"{game.path}/press/rules", json={"press": {"grey": "allowed", "director_reads": True}},
            token=game.director)  # before the press: the director reads only what is sent while it is on
    private = api.post(f"{game.path}/press", json={"to": ["GERMANY"], "body": SECRET},
                       token=game.tokens["FRANCE"]).json()["message"]
    grey = api.post(f"{game.path}/press", json={"to": ["RUSSIA", "TURKEY"], "body": GREY, "grey": True},
                    token=game.tokens["ENGLAND"]).json()["message"]
    game.director_action("adjudicate")
    game.wait_phase("F1901M")

    def clean(text: str, where: str) -> None:
        for secret in (SECRET, GREY, "Tyrolia"):
            assert secret not in text, f"{where} holds press: {secret!r}"

    # the public views
    clean(api.get(game.path).text, "the game view")
    clean(api.get(f"{game.path}/history").text, "the history")
    clean(api.get(f"{game.path}/export").text, "the export")
    clean(api.get(f"{game.path}/audit", token=game.director).text, "the audit log")
    clean(api.get("/metrics").text, "the metrics")

    # webhooks: a press event per message, with its id, phase and time only
    events = wait_for(lambda: (found := [json.loads(d["body"]) for d in receiver.at("/all")
                                         if d["headers"]["X-Webhook-Event"] == "press"]) and len(found) == 2
                      and found, 10, "two press events")
    assert sorted(e["data"]["id"] for e in events) == sorted([private["id"], grey["id"]])
    for event in events:
        assert set(event["data"]) == {"id", "phase", "sent_at"} and event["data"]["phase"] == "S1901M"
        raw = json.dumps(event)
        clean(raw, "a webhook")
        assert "ENGLAND" not in raw and "GERMANY" not in raw and "FRANCE" not in raw

    # logs: no body, no recipient's address, no subject that names a sender
    logged = "\n".join(json.dumps(r.__dict__, default=str) for r in caplog.records)
    clean(logged, "the logs")
    assert "Press from" not in logged
    mailed = "\n".join(r.getMessage() for r in kept.records)
    clean(mailed, "the mail log")
    assert mailed.count("private: delivered") >= 3 and "Press from" not in mailed
    for power in ("GERMANY", "RUSSIA", "TURKEY"):
        assert ADDRESS[power] not in "\n".join(line for line in mailed.splitlines() if "private" in line)

    # mail: the group alone, and the grey sender named in none of it
    box = mailbox.Maildir(inproc.settings.mail_outbox)
    press_mail = [m for m in box if f"[dip {game.id}] Press from" in (m["Subject"] or "")]
    got = {m["To"]: m for m in press_mail}
    assert set(got) == {ADDRESS["GERMANY"], ADDRESS["RUSSIA"], ADDRESS["TURKEY"]}
    for power in ("RUSSIA", "TURKEY"):
        assert "ENGLAND" not in got[ADDRESS[power]].as_string() and "england@" not in got[ADDRESS[power]].as_string()
        assert GREY in got[ADDRESS[power]].get_payload(decode=True).decode()

    # the director reads the private press sent while director_reads is on, and still not who sent grey press
    seen = api.get(f"{game.path}/press", token=game.director).json()["messages"]
    assert [(m["id"], m["from"]) for m in seen] == [(private["id"], "FRANCE"), (grey["id"], None)]
