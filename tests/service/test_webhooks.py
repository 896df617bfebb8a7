"""Signed webhooks against a real HTTP receiver started here (http.server on 127.0.0.1 in a thread):
the signature, retries after a 500, the delivery log, and no secret orders or ballots in a payload."""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.service.gamekit import LONG, POWERS, Game, new_game, propose, vote
from tests.service.svc_stack import wait_for


class Receiver:
    """Records every POST; a path's first ``fail_first[path]`` requests get a 500."""

    def __init__(self):
        self.received: list[dict] = []
        self.fail_first: dict[str, int] = {}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    failing = receiver.fail_first.get(self.path, 0) > 0
                    if failing:
                        receiver.fail_first[self.path] -= 1
                    receiver.received.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                              "status": 500 if failing else 200, "at": time.time()})
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)  # a short poll: close() waits for one
        self.thread.start()

    def at(self, path: str) -> list[dict]:
        with self.lock:
            return [r for r in self.received if r["path"] == path]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def verify(secret: str, delivery: dict) -> dict:
    """Check the signature as a receiver would; the payload."""
    headers = delivery["headers"]
    parts = dict(p.split("=", 1) for p in headers["X-Webhook-Signature"].split(","))
    assert parts["t"] == headers["X-Webhook-Timestamp"]
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + delivery["body"], hashlib.sha256).hexdigest()
    assert hmac.compare_digest(parts["v1"], expected)
    assert abs(int(parts["t"]) - delivery["at"]) < 60
    payload = json.loads(delivery["body"])
    assert payload["id"] == headers["X-Webhook-Id"] and payload["type"] == headers["X-Webhook-Event"]
    return payload


def add_hook(api, game, url, events=None, token=None):
    body = {"url": url} | ({"events": events} if events else {})
    return api.post(f"{game.path}/webhooks", json=body, token=game.director if token is None else token)


def test_signed_deliveries_retried_after_a_500_and_logged(api, receiver):
    game = new_game(api)
    hook = add_hook(api, game, receiver.url + "/ok")
    assert hook.status_code == 201, hook.text
    hook = hook.json()
    assert sorted(hook["events"]) == sorted(["phase_adjudicated", "deadline_approaching", "game_ended",
                                             "vote_passed", "press", "seat"])
    receiver.fail_first["/flaky"] = 1
    flaky = add_hook(api, game, receiver.url + "/flaky", events=["phase_adjudicated"]).json()
    # the secret is shown once only
    listed = api.get(f"{game.path}/webhooks", token=game.director).json()["webhooks"]
    assert {h["id"] for h in listed} == {hook["id"], flaky["id"]} and all("secret" not in h for h in listed)

    game.submit("FRANCE", ["A PAR - BUR"])
    game.director_action("adjudicate")
    ok = wait_for(lambda: receiver.at("/ok"), what="the phase_adjudicated delivery")
    payload = verify(hook["secret"], ok[0])
    assert payload["type"] == "phase_adjudicated" and payload["game"] == game.id
    assert payload["data"]["phase"] == "S1901M" and payload["data"]["next_phase"] == "F1901M"
    drawn = api.get(payload["data"]["map"]["svg"])  # the phase's map, linked
    assert drawn.status_code == 200 and 'data-phase="S1901M"' in drawn.text and 'data-order="A PAR - BUR"' in drawn.text
    assert api.get(payload["data"]["map"]["png"]).headers["Content-Type"] == "image/png"
    with pytest.raises(AssertionError):
        verify(flaky["secret"], ok[0])  # another subscription's secret does not verify it

    # the flaky receiver answered 500 once; the job was retried with backoff and delivered
    tries = wait_for(lambda: len(receiver.at("/flaky")) >= 2 and receiver.at("/flaky"), 30, "the retry")
    assert [t["status"] for t in tries] == [500, 200]
    assert tries[0]["headers"]["X-Webhook-Id"] == tries[1]["headers"]["X-Webhook-Id"]
    verify(flaky["secret"], tries[1])
    log = wait_for(lambda: len((d := api.get(f"{game.path}/webhooks/{flaky['id']}/deliveries",
                                             token=game.director).json())["deliveries"]) >= 2 and d, 10, "the log")
    assert [(d["status"], d["ok"]) for d in log["deliveries"]] == [(500, False), (200, True)]
    assert "secret" not in log

    # only the director reads the hooks and their log
    assert api.get(f"{game.path}/webhooks/{flaky['id']}/deliveries", token=game.tokens["FRANCE"]).status_code == 403
    assert api.get(f"{game.path}/webhooks").status_code == 401
    assert add_hook(api, game, "ftp://example.org/x").status_code == 422
    assert add_hook(api, game, receiver.url, events=["orders_submitted"]).status_code == 422
    assert api.delete(f"{game.path}/webhooks/{flaky['id']}", token=game.director).status_code == 204
    assert api.get(f"{game.path}/webhooks/{flaky['id']}/deliveries", token=game.director).status_code == 404
    audit = [a["action"] for a in api.get(f"{game.path}/audit", token=game.director).json()["entries"]]
    assert audit.count("webhook_added") == 2 and "webhook_removed" in audit


def test_no_orders_or_ballots_in_any_payload_before_adjudication(api, receiver):
    game = new_game(api)
    hook = add_hook(api, game, receiver.url + "/all").json()
    game.submit("FRANCE", ["A PAR - BUR"])
    game.submit("GERMANY", ["A MUN - RUH"])
    game.director_action("adjudicate")
    wait_for(lambda: receiver.at("/all"), what="the first delivery")

    # F1901M: secret orders, a blocked draw (one "no") and a concession that passes: the game ends
    # with these orders never adjudicated
    game.submit("FRANCE", ["A BUR - BEL"])
    game.submit("ENGLAND", ["F LON - ENG"])
    draw = propose(game, "ITALY", "draw").json()
    vote(game, draw["id"], "TURKEY", "no")
    concession = propose(game, "AUSTRIA", "concession", to="FRANCE").json()
    for power in POWERS:
        if power != "AUSTRIA":
            vote(game, concession["id"], power, "yes")
    types = lambda: sorted(json.loads(d["body"])["type"] for d in receiver.at("/all"))  # noqa: E731
    wait_for(lambda: types() == ["game_ended", "phase_adjudicated", "vote_passed"], what="three deliveries")
    payloads = {p["type"]: p for p in (verify(hook["secret"], d) for d in receiver.at("/all"))}
    assert payloads["vote_passed"]["data"] == {"id": concession["id"], "kind": "concession", "members": None,
                                               "to": "FRANCE", "phase": "F1901M", "status": "passed"}
    assert payloads["game_ended"]["data"]["result"]["end"] == "concession"
    every = b" ".join(d["body"] for d in receiver.at("/all"))
    for secret in (b"BUR - BEL", b"LON - ENG", b'"no"', b"proposed_by", b"your_votes", draw["id"].encode()):
        assert secret not in every, secret
    # the adjudicated S1901M orders are public by then, and only they appear
    assert "A PAR - BUR" in json.dumps(payloads["phase_adjudicated"]["data"])


@pytest.mark.parametrize("url, mode, refused", [
    ("http://127.0.0.1:9/hook", "loopback", False),
    ("http://localhost/hook", "loopback", False),
    ("http://[::1]:8080/hook", "loopback", False),
    ("http://10.1.2.3/hook", "loopback", True),
    ("http://10.1.2.3/hook", "public", True),          # private
    ("http://169.254.169.254/latest", "public", True),  # link-local (cloud metadata)
    ("http://127.0.0.1/hook", "public", True),          # the service's own host
    ("http://[fd00::1]/hook", "public", True),           # unique local
    ("ftp://127.0.0.1/hook", "loopback", True),
    ("http:///nohost", "public", True),
])
def test_where_a_webhook_may_point(url, mode, refused):
    from workers.delivery.webhooks import destination_refusal
    assert (destination_refusal(url, mode) is not None) == refused, destination_refusal(url, mode)


def test_a_webhook_into_another_network_is_refused_at_registration(api):
    game = new_game(api)
    resp = api.post(f"{game.path}/webhooks", token=game.director, json={"url": "http://10.1.2.3/hook"})
    assert resp.status_code == 422 and "body.url" in resp.json()["detail"] and "loopback" in resp.json()["detail"]


def test_an_event_is_queued_only_for_the_listeners_that_would_hear_it(api, receiver):
    """A phase's event is queued for webhooks only when the game has a subscription, and for mail
    only when a player has an address: a deadline of many games nobody listens to queues no job
    per game and listener.  Whoever does listen still hears it."""
    from rq.job import Job

    def queued(game, seq: int) -> set[str]:
        return {listener for listener in ("webhooks", "mail") if Job.exists(
            f"event-{listener}-game-{game.id}-phase_adjudicated-{seq}", connection=api.stack.queue.connection)}

    game = new_game(api)
    assert game.director_action("adjudicate").status_code == 200
    assert game.state()["phase"] == "F1901M" and queued(game, 1) == set()
    assert add_hook(api, game, receiver.url + "/hook").status_code == 201
    assert game.director_action("adjudicate").status_code == 200
    assert queued(game, 2) == {"webhooks"}
    assert json.loads(wait_for(lambda: receiver.at("/hook"), what="the delivery")[0]["body"])["data"]["seq"] == 2

    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    mailed = Game(api, created["game"]["id"], created["director_token"], {})
    for power in POWERS:
        email = {"email": "france@example.org"} if power == "FRANCE" else {}
        assert api.post(f"{mailed.path}/players", json={"name": power, "power": power, **email}).status_code == 201
    assert mailed.director_action("adjudicate").status_code == 200
    assert queued(mailed, 1) == {"mail"}
