"""A whole game played by e-mail through the service's own SMTP listener, with a real capturing
relay for what the workers send: seven players sign on; orders, replies, a reminder, a late
notice, a grace period, an absence approved by the director, results and the end all by mail."""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

import pytest

from maps import render_png, render_svg
from tests.service.mailkit import JUDGE, text
from tests.service.mailkit import mail_service as mail_service_in
from tests.service.svc_stack import wait_for
from workers.core import keys, settings

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
ADDR = {p: f"{p.lower()}@players.test" for p in POWERS}
S1901 = {"AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
         "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
         "FRANCE": ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"],
         "GERMANY": ["A BER - KIE", "F KIE - DEN", "A MUN - RUH"],
         "ITALY": ["A VEN - PIE", "A ROM - APU", "F NAP - ION"],
         "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
         "TURKEY": ["F ANK - CON", "A CON - BUL", "A SMY - ARM"]}


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    with mail_service_in(tmp_path_factory.mktemp("mail-redis")) as service:
        yield service


def _reply(stack, relay, power: str, to_msg, body: str, expect: str):
    """``power`` replies to ``to_msg`` (to its signed Reply-To) and gets the judge's answer."""
    before = len(relay.to(ADDR[power]))
    stack.send(ADDR[power], body, to=to_msg["Reply-To"], subject=f"Re: {to_msg['Subject']}")
    answer = wait_for(lambda: [m for m in relay.to(ADDR[power])[before:] if m["Subject"].startswith("Re:")], 30,
                      f"the judge's reply to {power}")[0]
    assert expect in text(answer), text(answer)
    return text(answer)


def test_a_whole_game_by_mail(mail):
    relay, stack, api, r = mail
    created = api.post("/v1/games", json={
        "name": "by mail", "assignment": "chosen", "reminders": [25], "grace": 20,
        "deadlines": {"first_movement": 40, "movement": 3600, "retreat": 3600, "adjustment": 3600},
        "absences": {"approval": "director", "effect": "extend"}}).json()
    gid, director = created["game"]["id"], created["director_token"]
    assert created["game"]["grace"] == 20 and created["game"]["reminders"] == [25]

    # seven players sign on by mail; each gets the answer, a welcome with its token and the start
    for power in POWERS:
        stack.send(ADDR[power], f"SIGNON {gid} {power.lower()} {power.title()} Player", subject="sign on")
    started = {}
    for power in POWERS:
        answer = relay.wait(ADDR[power], "Re: sign on")[0]
        assert f"Signed on to game {gid}" in text(answer) and power in text(answer)
        welcome = relay.wait(ADDR[power], "Welcome")[0]
        token = re.search(r"^    (\S{32})$", text(welcome), re.M).group(1)
        assert api.get(f"/v1/games/{gid}/orders", token=token).json()["powers"].keys() == {power}
        assert re.fullmatch(rf"judge\+{gid}-p\d-[0-9a-f]{{20}}@dip\.test", welcome["Reply-To"])
        started[power] = relay.wait(ADDR[power], "Started: S1901M")[0]
        assert f"You play {power}" in text(started[power]) and "Phase S1901M: orders due" in text(started[power])
    state = api.get(f"/v1/games/{gid}").json()
    assert state["status"] == "open" and state["phase"] == "S1901M"
    assert [p["name"] for p in state["players"]] == [f"{p.title()} Player" for p in POWERS]

    # an invalid order: nothing stored, each order's reading and reason in the reply
    answer = _reply(stack, relay, "FRANCE", started["FRANCE"], "A PAR - BUR\nF BRE - XYZ\n", "INVALID")
    assert "A PAR - BUR" in answer and "XYZ" in answer and "earlier orders stay" in answer
    # six powers reply with their orders (England adds an absence); Turkey stays silent
    answers = {}
    for power in POWERS[:-1]:
        extra = ""
        if power == "ENGLAND":
            today = datetime.now(timezone.utc).date()
            extra = f"\nABSENCE {today} {today + timedelta(days=1)}\n\n-- \nsent from my phone"
        answers[power] = _reply(stack, relay, power, started[power], "\n".join(S1901[power]) + extra,
                                f"Stored {len(S1901[power])} orders for {power} in S1901M")
        for order in S1901[power]:
            assert order in answers[power]
    assert "Absence a1 from" in answers["ENGLAND"] and "pending" in answers["ENGLAND"]
    # the director approves the absence by mail
    stack.send("director@players.test", f"GAME {gid}\nTOKEN {director}\nAPPROVE a1\n", subject="absence")
    answer = relay.wait("director@players.test", "Re: absence")[0]
    assert "Absence a1 of p2" in text(answer) and "approved" in text(answer)

    # the reminder goes to Turkey alone, then the late notice with the grace period
    reminder = relay.wait(ADDR["TURKEY"], "Reminder: S1901M", timeout=40)[0]
    assert "TURKEY" in text(reminder) and "none have been received" in text(reminder)
    late = relay.wait(ADDR["TURKEY"], "Late: S1901M", timeout=40)[0]
    assert "grace period" in text(late) and "still taken until" in text(late)
    assert "/signin/" in text(reminder) and "/signin/" in text(late)  # each with its one-time sign-in link
    assert api.get(f"/v1/games/{gid}").json()["late"] == ["TURKEY"]
    for power in POWERS[:-1]:
        assert not [m for m in relay.to(ADDR[power]) if m["Subject"].split("] ")[-1].startswith(("Reminder", "Late"))]
    # nobody else has seen France's orders before the results
    assert not any("A MAR - SPA" in text(m) for p in POWERS if p != "FRANCE" for m in relay.to(ADDR[p]))

    # Turkey answers the late notice within the grace period: the phase closes at once
    _reply(stack, relay, "TURKEY", late, "\n".join(S1901["TURKEY"]), "Stored 3 orders for TURKEY")
    for power in POWERS:
        results = text(relay.wait(ADDR[power], "Results of S1901M")[0])
        for orders in S1901.values():
            for order in orders:
                assert order in results
        assert re.search(r"A VIE - GAL\s+fails", results) and re.search(r"A PAR - BUR\s+succeeds", results)
        assert "Position for F1901M" in results and "FRANCE (3 centres: BRE MAR PAR)" in results
        assert "A BUR, A SPA, F MAO" in results and "Next phase: F1901M, orders due" in results
    history = api.get(f"/v1/games/{gid}/history").json()["phases"]
    assert history[0]["closed_by"] == "deadline, then the last missing orders"
    assert history[0]["orders"]["TURKEY"] == S1901["TURKEY"]
    # each results mail carries the map of the phase just adjudicated, its orders drawn (docs/maps.md)
    drawn = render_png(render_svg({"variant": "standard", **history[0]["position"]}, history[0]["results"],
                                  title="by mail"), settings.current().mail_map_width)
    for power in POWERS:
        pictures = [a for a in relay.wait(ADDR[power], "Results of S1901M")[0].iter_attachments()
                    if a.get_content_type() == "image/png"]
        assert [a.get_filename() for a in pictures] == [f"{gid}-S1901M.png"]
        assert pictures[0].get_content() == drawn

    # F1901M: the approved absence of England moved the deadline to its end
    state = api.get(f"/v1/games/{gid}").json()
    end = (datetime.now(timezone.utc).date() + timedelta(days=2)).isoformat()
    assert state["phase"] == "F1901M" and state["deadline"] == f"{end}T00:00:00Z", state["deadline"]

    # orders and READY in one message, STATUS and HISTORY
    results_msg = relay.wait(ADDR["FRANCE"], "Results of S1901M")[0]
    answer = _reply(stack, relay, "FRANCE", results_msg,
                    "ORDERS\nA BUR - BEL\nF MAO - POR\nA SPA H\nEND\nSTATUS\nHISTORY\n", "Stored 3 orders")
    assert re.search(r"Your orders for FRANCE:\n\s+A BUR - BEL\n\s+F MAO - POR", answer) and "Phases: S1901M" in answer
    for power in POWERS:
        msg = relay.wait(ADDR[power], "Results of S1901M")[0]
        _reply(stack, relay, power, msg, "READY", "ready in F1901M")
    state = wait_for(lambda: (s := api.get(f"/v1/games/{gid}").json())["phase"] == "W1901A" and s, 30,
                     "the winter adjustments")
    assert "BEL" in state["position"]["centers"]["FRANCE"]

    # the end, reached as the lifecycle test does: France one centre short of a solo
    centres = "BRE MAR PAR SPA POR LON EDI LVP HOL DEN KIE BER MUN NWY SWE TUN NAP".split()
    position = {"phase": "F1902M", "units": {"FRANCE": ["A PIC"], "TURKEY": ["A CON", "A SMY", "F ANK"]},
                "centers": {"FRANCE": centres, "TURKEY": ["ANK", "CON", "SMY"]}, "dislodged": {}, "contested": []}
    r.hset(keys.game(gid), mapping={"phase": "F1902M", "position": json.dumps(position),
                                    "to_order": json.dumps(["FRANCE", "TURKEY"])})
    _reply(stack, relay, "FRANCE", results_msg, "A PIC - BEL\nREADY", "Stored 1 order for FRANCE in F1902M")
    _reply(stack, relay, "TURKEY", late, "READY", "TURKEY ready in F1902M")
    for power in POWERS:
        over = text(relay.wait(ADDR[power], "Game over")[0])
        assert "FRANCE wins" in over
        assert "The game is over: FRANCE wins" in text(relay.wait(ADDR[power], "Results of F1902M")[0])
    # every message to a player came from the judge, with its own signed Reply-To
    for power in POWERS:
        for msg in relay.to(ADDR[power]):
            assert msg["Auto-Submitted"] in ("auto-generated", "auto-replied")
            assert msg["Reply-To"].startswith(f"judge+{gid}-") or msg["Reply-To"] == JUDGE
    assert not [k for k in r.scan_iter(keys.mail_out("*"))]  # every message was accepted by the relay
