"""Issue 30's defects (2 to 14) and the two-player game's Italy, each a named test that reproduced
it before its fix (defect 1, the revoked token's open stream, is tests/service/test_viewers.py)."""
from __future__ import annotations

import json
import re
import threading
from contextlib import ExitStack, contextmanager
from urllib.parse import urlencode

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples

from tests.security.test_net_defects import _limited
from tests.service.gamekit import LONG, POWERS, Game, created_game, force_until, new_game
from tests.service.sse import Stream
from tests.service.svc_stack import spec as read_spec, wait_for
from tests.service.test_accounts import new_account
from workers.core import keys
from workers.core.settings import Settings
from workers.core.store import Store, new_id
from workers.core.text import SURROGATE, UNSAFE

SIDES = [["ENGLAND", "FRANCE", "RUSSIA"], ["AUSTRIA", "GERMANY", "TURKEY"]]


# ---------------------------------------------------------------- the two-player game's Italy
@pytest.mark.parametrize("toss", [1, 2])
def test_italy_two_player_the_toss_winner_plays_italy_from_spring_1915_and_its_side_counts_it(api, toss):
    """Rules 13.6: from Spring 1915 Italy is a normal power played by the coin toss's winner."""
    created = api.post("/v1/games", json={"variant": "two_player_1914", "assignment": "chosen",
                                          "deadlines": LONG, "rules": {"italy_joins": toss}}).json()
    game = created_game(api, created, powers=["ENGLAND", "AUSTRIA"])
    winner, loser = ("ENGLAND", "AUSTRIA") if toss == 1 else ("AUSTRIA", "ENGLAND")
    state = force_until(game, "S1915M")
    assert "ITALY" in state["to_order"]
    mine = api.get(game.path, token=game.tokens[winner]).json()
    seat = next(p for p in mine["players"] if winner in p["powers"])
    assert seat["powers"] == [*SIDES[toss - 1], "ITALY"]
    assert "ITALY" in api.get(f"{game.path}/options", token=game.tokens[winner]).json()["powers"]
    assert "ITALY" not in api.get(f"{game.path}/options", token=game.tokens[loser]).json()["powers"]
    assert game.submit("ITALY", ["A ROM - APU"], token=game.tokens[winner]).status_code == 200
    assert game.submit("ITALY", ["A ROM H"], token=game.tokens[loser]).status_code == 403
    state = force_until(game, "F1916M")  # Italy keeps playing, a year on
    assert "ITALY" in state["to_order"]
    botted = api.post(f"{game.path}/seats/{winner}/bot", token=game.director)  # the bot plays the whole seat
    assert botted.status_code == 200, botted.text
    assert game.director_action("adjudicate").status_code == 200

    def fall():
        return next((h for h in api.get(f"{game.path}/history").json()["phases"] if h["phase"] == "F1916M"), None)

    assert {*SIDES[toss - 1], "ITALY"} <= set(wait_for(fall, 20, "F1916M adjudicated")["bots"])
    assert game.director_action("end", json={"reason": "time"}).status_code == 200
    result = api.get(f"{game.path}/result").json()
    result = result.get("result", result)
    counted = {tuple(side["powers"]): side["centers"] for side in result["sides"]}
    with_italy = (*SIDES[toss - 1], "ITALY")
    assert counted[with_italy] == sum(result["centers"][p] for p in with_italy)
    assert result["centers"]["ITALY"] > 0
    assert tuple(SIDES[2 - toss]) in counted


# ---------------------------------------------------------------- 4. the account quota and an account token
def test_defect_04_account_creation_counts_against_the_address_whatever_token_is_sent(redis_url):
    client = _limited(redis_url, RATE_LIMIT_CREATE_ACCOUNT="3 per minute")
    made = [client.post("/v1/accounts", json={"name": f"a{i}"}) for i in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201]
    for m in made:  # each new token used to open a fresh bucket of its own
        again = client.post("/v1/accounts", json={"name": "more"},
                            headers={"Authorization": f"Bearer {m.get_json()['token']}"})
        assert again.status_code == 429, again.get_json()


# ---------------------------------------------------------------- 5. the reliability record farmed
def test_defect_05_a_game_of_one_account_counts_nothing_in_its_record(api):
    account, account_token = new_account(api, "Farmer")
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG,
                                          "visibility": "private"}).json()
    gid = created["game"]["id"]
    tokens = {}
    for power in POWERS:
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power},
                          token=account_token if power == "FRANCE" else None)
        tokens[power] = joined.json()["token"]
    game = Game(api, gid, created["director_token"], tokens)
    force_until(game, "S1903M")
    record = api.get(f"/v1/accounts/{account['id']}").json()["record"]
    assert record["phases_due"] == 0 and record["reliability"] is None, record


def test_defect_05_a_game_of_two_accounts_still_counts(api):
    ann, ann_token = new_account(api, "Ann")
    _bob, bob_token = new_account(api, "Bob")
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).json()
    gid = created["game"]["id"]
    for power in POWERS:
        token = {"FRANCE": ann_token, "ENGLAND": bob_token}.get(power)
        api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power}, token=token)
    force_until(Game(api, gid, created["director_token"], {}), "F1901M")
    assert api.get(f"/v1/accounts/{ann['id']}").json()["record"]["phases_due"] == 1


# ---------------------------------------------------------------- 12. the missed-orders streak passed on
def test_defect_12_the_streak_resets_when_a_seat_is_taken_over(api, inproc):
    ann, ann_token = new_account(api, "Ann")
    cy, cy_token = new_account(api, "Cy")
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "open_seat_after": 2}).json()
    gid = created["game"]["id"]
    tokens = {}
    for power in POWERS:
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power},
                          token={"FRANCE": ann_token}.get(power))
        tokens[power] = joined.json()["token"]
    game = Game(api, gid, created["director_token"], tokens)
    for power in POWERS:
        if power != "TURKEY":
            game.submit(power, [])
    inproc.advance(LONG["movement"] + 1)  # TURKEY misses S1901M, then its player leaves
    game.wait_phase("F1901M")
    assert api.post(f"{game.path}/seats/TURKEY/leave", token=tokens["TURKEY"]).status_code == 200
    taken = api.post(f"{game.path}/players", json={"name": "Cy", "power": "TURKEY"}, token=cy_token)
    assert taken.status_code == 201, taken.text
    for power in POWERS:
        if power != "TURKEY":
            game.submit(power, [])
    inproc.advance(LONG["movement"] + 1)  # the newcomer misses one phase: its first
    state = wait_for(lambda: (s := game.state())["phase"] != "F1901M" and s, 20, "F1901M adjudicated")
    turkey = next(s for s in state["seats"] if s["power"] == "TURKEY")
    assert turkey["open"] is False and turkey["player"] == "Cy"
    record = api.get(f"/v1/accounts/{cy['id']}").json()["record"]
    assert record["civil_disorder"] == 0 and record["phases_due"] == 1, record


# ---------------------------------------------------------------- 13. tournament boards in the lobby, their seats
def test_defect_13_boards_are_never_listed_and_only_the_director_seats_them(api):
    created = api.post("/v1/tournaments", json={"system": "sum_of_squares", "rounds": 1,
                                                "players": [f"p{i}" for i in range(7)]}).json()
    tid, director = created["tournament"]["id"], created["director_token"]
    boards = api.post(f"/v1/tournaments/{tid}/rounds/1/boards", json={"seating": "draw", "game": {"deadlines": LONG}},
                      token=director)
    assert boards.status_code == 201, boards.text
    board = boards.json()["boards"][0]["game"]
    opened = api.post(f"/v1/games/{board}/seats/FRANCE/open", json={"reason": "gone"}, token=director)
    assert opened.status_code == 200, opened.text
    for query in ("", "?status=started", "?seats=open", "?status=started&seats=open", "?variant=standard"):
        listed = [g["id"] for g in api.get(f"/v1/games{query}").json()["games"]]
        assert board not in listed, query
    outsider = api.post(f"/v1/games/{board}/players", json={"name": "Outsider", "power": "FRANCE"})
    assert outsider.status_code == 401, outsider.text
    account, account_token = new_account(api, "Someone")
    assert api.post(f"/v1/games/{board}/players", json={"name": "Someone", "power": "FRANCE"},
                    token=account_token).status_code == 401
    seated = api.post(f"/v1/games/{board}/players", json={"name": "Sub", "power": "FRANCE"}, token=director)
    assert seated.status_code == 201, seated.text


# ---------------------------------------------------------------- 3. director_reads backwards in time
def test_defect_03_director_reads_shows_only_what_was_sent_while_it_was_on_and_players_see_when(api):
    game = new_game(api)
    before = api.post(f"{game.path}/press", json={"to": ["GERMANY"], "body": "between us"},
                      token=game.tokens["FRANCE"]).json()["message"]
    rules = f"{game.path}/press/rules"
    assert api.put(rules, json={"press": {"director_reads": True}}, token=game.director).status_code == 200
    during = api.post(f"{game.path}/press", json={"to": ["GERMANY"], "body": "the director reads this"},
                      token=game.tokens["FRANCE"]).json()["message"]
    read = [m["id"] for m in api.get(f"{game.path}/press", token=game.director).json()["messages"]]
    assert before["id"] not in read and during["id"] in read
    assert api.put(rules, json={"press": {"director_reads": False}}, token=game.director).status_code == 200
    seen = api.get(game.path, token=game.tokens["FRANCE"]).json()
    assert seen["press"]["director_reads"] is False
    assert [c["press"]["director_reads"] for c in seen["press_changes"]] == [True, False]
    assert all(c["at"] for c in seen["press_changes"])


# ---------------------------------------------------------------- 14. smaller ones
def _tag(api, path, token=None):
    return api.get(path, token=token).headers["ETag"]


def test_defect_14_a_revision_of_orders_moves_no_tag(api):
    game = new_game(api)
    assert game.submit("FRANCE", ["A PAR - BUR"]).status_code == 200
    spectator, director = _tag(api, game.path), _tag(api, game.path, game.director)
    assert game.submit("FRANCE", ["A PAR - PIC"]).status_code == 200  # the same body for everyone else
    assert _tag(api, game.path) == spectator and _tag(api, game.path, game.director) == director
    assert api.delete(f"{game.path}/orders/FRANCE", token=game.tokens["FRANCE"]).status_code == 200
    assert _tag(api, game.path) != spectator  # who has orders changed: the view did
    assert game.state()["submitted"] == []


@pytest.mark.parametrize("last_id", ["0-99999999999999999999", "99999999999999999999-0", "18446744073709551616-0"])
def test_defect_14_a_last_event_id_out_of_range_is_a_400(api, inproc, last_id):
    game = new_game(api)
    stream = Stream(inproc, f"{game.path}/events", game.tokens["FRANCE"], last_id=last_id)
    try:
        assert stream.status == 400
    finally:
        stream.close()


@pytest.mark.parametrize("fixed", [{"at": "20:00", "tz": "localtime"}, {"at": "20:00", "tz": "Factory"},
                                   {"at": "20:00", "tz": "EST5EDT"}, {"at": "20:00", "tz": "posixrules"},
                                   {"at": "\u0662\u0660:\u0660\u0660", "tz": "Europe/Paris"}])
def test_defect_14_odd_time_zones_and_digits_are_refused(api, fixed):
    made = api.post("/v1/games", json={"deadlines": {**LONG, "movement": fixed}})
    assert made.status_code == 422, made.text


def test_defect_14_fixed_times_still_take_iana_zones(api):
    made = api.post("/v1/games", json={"deadlines": {**LONG, "movement": {"at": "20:00", "tz": "America/New_York"}}})
    assert made.status_code == 201, made.text


def test_defect_14_a_deleted_account_is_named_nowhere_in_the_audit_log(api):
    account, account_token = new_account(api, "Zebulon Unique")
    game = new_game(api)
    assert api.post(f"{game.path}/seats/FRANCE/open", json={"reason": "gone"}, token=game.director).status_code == 200
    taken = api.post(f"{game.path}/players", json={"name": "Zebulon Unique", "power": "FRANCE"}, token=account_token)
    assert taken.status_code == 201
    assert "Zebulon Unique" in api.get(f"{game.path}/audit", token=game.director).text
    assert api.delete(f"/v1/accounts/{account['id']}", token=account_token).status_code == 200
    assert "Zebulon Unique" not in api.get(f"{game.path}/audit", token=game.director).text
    assert "Zebulon Unique" not in api.get(game.path).text


def test_defect_14_pages_send_a_content_security_policy(api):
    game = new_game(api)
    page = api.get(f"/games/{game.id}")
    assert page.status_code == 200
    policy = page.headers["Content-Security-Policy"]  # service/page_auth.py's, on every page
    assert "'unsafe-inline'" not in policy.partition("script-src")[2].partition(";")[0]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


# ---------------------------------------------------------------- 2. press by mail, unmetered
def _press_mail(inbox, redis_url, gid, pid, blocks: int) -> None:
    from email.message import EmailMessage

    from workers.delivery import mail as outbox

    r = redis.Redis.from_url(redis_url, decode_responses=True)
    msg = EmailMessage()
    msg["From"], msg["Subject"] = f"france-{new_id()}@players.test", "press"
    msg["To"] = outbox.reply_address(r, gid, pid)
    msg.set_content("".join(f"PRESS TO GERMANY\nmessage {i}\nENDPRESS\n" for i in range(blocks)))
    inbox.handle(msg.as_bytes())


def _press_game(client):
    created = client.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).get_json()
    gid = created["game"]["id"]
    joined = {p: client.post(f"/v1/games/{gid}/players", json={"name": p.title(), "power": p}).get_json()
              for p in POWERS}
    return gid, joined["FRANCE"]["player"]["id"], joined["FRANCE"]["token"]


def _inbox(redis_url, **limits):
    from service.mail.commands import Inbox
    from workers.tables.games import Games

    config = Settings.from_env({"RATE_LIMITS": "on", "RATE_LIMIT_STRATEGY": "moving-window", **limits})
    return Inbox(Games(Store(redis_url, config)))


def test_defect_02_press_by_mail_spends_the_press_quota_of_the_api(redis_url):
    client = _limited(redis_url, RATE_LIMIT_PRESS="4 per minute")
    inbox = _inbox(redis_url, RATE_LIMIT_PRESS="4 per minute")
    gid, pid, token = _press_game(client)
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/v1/games/{gid}/press", json={"to": ["GERMANY"], "body": "by the API"},
                       headers=auth).status_code == 201
    _press_mail(inbox, redis_url, gid, pid, 6)
    sent = client.get(f"/v1/games/{gid}/press", headers=auth).get_json()["messages"]
    assert len(sent) == 4, [m["body"] for m in sent]  # the API's one and three by mail: the quota is spent
    refused = client.post(f"/v1/games/{gid}/press", json={"to": ["GERMANY"], "body": "more"}, headers=auth)
    assert refused.status_code == 429, refused.get_json()


def test_defect_02_one_mail_sends_a_bounded_number_of_press_blocks(redis_url):
    from service.mail.press import MAX_BLOCKS

    client = _limited(redis_url)
    inbox = _inbox(redis_url, RATE_LIMIT_PRESS="1000 per minute")
    gid, pid, token = _press_game(client)
    _press_mail(inbox, redis_url, gid, pid, 95)
    sent = client.get(f"/v1/games/{gid}/press", headers={"Authorization": f"Bearer {token}"}).get_json()["messages"]
    assert len(sent) == MAX_BLOCKS


# ---------------------------------------------------------------- 10. event ids tell of other audiences
def test_defect_10_every_reader_of_a_message_sees_one_id_that_tells_nothing(api, inproc):
    game = new_game(api, press={"fake_broadcast": True, "grey": "allowed", "director_reads": True})
    streams = {p: Stream(inproc, f"{game.path}/events", game.tokens[p]) for p in ("FRANCE", "ITALY", "AUSTRIA")}
    try:
        fake = api.post(f"{game.path}/press", json={"to": ["ITALY", "AUSTRIA"], "body": "to all (not)",
                                                    "fake_broadcast": True}, token=game.tokens["FRANCE"])
        assert fake.status_code == 201, fake.text
        seen = {p: s.take(1)[0] for p, s in streams.items()}
    finally:
        for s in streams.values():
            s.close()
    assert len({e.id for e in seen.values()}) == 1  # the sender's copy and the recipients' are one event
    assert seen["ITALY"].data["to"] == "all" and seen["FRANCE"].data["fake_broadcast"] is True
    for _ in range(10):  # many at once: no id counts what else happened in its millisecond
        api.post(f"{game.path}/press", json={"to": ["GERMANY"], "body": "grey", "grey": True},
                 token=game.tokens["ENGLAND"])
    ids = [entry_id for entry_id, _fields in inproc.store.r.xrange(keys.events("game", game.id))]
    assert all(i.endswith("-0") for i in ids), ids
    assert ids == sorted(ids, key=lambda i: int(i.split("-")[0])) and len(set(ids)) == len(ids)


# ---------------------------------------------------------------- 11. one message counter per game
def test_defect_11_message_ids_are_random_and_reveal_no_count(api):
    game = new_game(api)

    def send(power, to, body):
        made = api.post(f"{game.path}/press", json={"to": to, "body": body}, token=game.tokens[power])
        assert made.status_code == 201, made.text
        return made.json()["message"]["id"]

    first = send("ITALY", ["FRANCE"], "one")
    for power in ("ENGLAND", "GERMANY", "RUSSIA", "TURKEY"):
        send(power, ["AUSTRIA"], "unseen by Italy")
    second = send("ITALY", ["FRANCE"], "two")
    for mid in (first, second):
        assert re.fullmatch(r"m[0-9a-f]{16}", mid) and not re.fullmatch(r"m[0-9]{1,3}", mid), mid
    later = api.get(f"{game.path}/press", token=game.tokens["ITALY"], params={"after": first}).json()["messages"]
    assert [m["id"] for m in later] == [second]
    probe = api.get(f"{game.path}/press", token=game.tokens["ITALY"], params={"after": "m3"})
    assert probe.status_code == 422  # a number finds nothing: no message is numbered for readers
    posts = "".join(line for line in api.get("/metrics").text.splitlines() if 'method="POST"' in line)
    assert "/v1/games/<game_id>/players" in posts and "/press" not in posts  # the others are counted, press never


# ---------------------------------------------------------------- 7. a game adjudicating for ever
def test_defect_07_the_years_a_game_reaches_are_bounded_at_creation(api):
    start = {"phase": "S9999M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    made = api.post("/v1/games", json={"deadlines": LONG, "start": start})
    assert made.status_code == 422 and "body.start.phase" in made.json()["detail"], made.text
    last = api.post("/v1/games", json={"deadlines": LONG, "start": {**start, "phase": "S3000M"}})
    assert last.status_code == 201, last.text


def _halted_game(api, inproc):
    """A game whose stored position the engine refuses (as one stored before the years were bounded)."""
    from workers.core.records import GameRecord

    game = new_game(api)
    state = force_until(game, "F1901M")
    position = {**state["position"], "phase": "F9999M"}
    inproc.store.r.hset(keys.game(game.id), mapping=GameRecord.encode(phase="F9999M", position=position))
    assert game.director_action("adjudicate").status_code == 200
    return game, wait_for(lambda: (s := game.state())["status"] == "halted" and s, 20, "the game halted")


def test_defect_07_a_game_whose_adjudication_fails_is_halted_and_the_director_rolls_it_back(api, inproc):
    game, halted = _halted_game(api, inproc)
    assert halted["phase"] == "F9999M"
    assert game.director_action("adjudicate").status_code == 409
    entry = api.get(f"{game.path}/audit", token=game.director).json()["entries"][-1]
    assert entry["action"] == "halted" and "F9999M" in entry["detail"]["reason"]
    back = game.director_action("rollback", json={"seq": 1, "reason": "the engine refused"})
    assert back.status_code == 200, back.text
    assert game.state()["status"] == "open" and game.state()["phase"] == "S1901M"


def test_defect_07_the_director_ends_a_halted_game(api, inproc):
    game, _halted = _halted_game(api, inproc)
    ended = game.director_action("end", json={"reason": "the engine refused"})
    assert ended.status_code == 200, ended.text
    assert game.state()["status"] == "finished"


# ---------------------------------------------------------------- 6. characters XML cannot hold
XML_BREAKERS = ["\ufffe", "\uffff", "\ud800", "\udfff", "\x01", "\x00", "\x1b", "\x7f", "\x85"]


def _refused(answer, field: str) -> bool:
    """A 422 problem naming ``field`` (of the body) first."""
    return (answer.status_code == 422 and answer.headers["Content-Type"] == "application/problem+json"
            and answer.json()["detail"].startswith(f"body.{field}"))


@pytest.mark.parametrize("bad", XML_BREAKERS)
def test_defect_06_a_name_xml_cannot_hold_is_refused(api, bad):
    made = api.post("/v1/games", json={"name": f"Spring{bad}Game", "deadlines": LONG})
    assert _refused(made, "name"), made.text


@pytest.mark.parametrize("bad", XML_BREAKERS)
def test_defect_06_an_order_xml_cannot_hold_is_refused_by_the_renderer(api, bad):
    position = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {},
                "orders": {"FRANCE": [f"A PAR H{bad}"]}}
    for form in ("svg", "png"):
        drawn = api.post(f"/v1/render/diplomacy?format={form}", json=position)
        assert _refused(drawn, "orders"), drawn.text


def test_defect_06_press_and_mila_orders_xml_cannot_hold_are_refused(api):
    game = new_game(api)
    for bad in ("\ufffe", "\ud800"):
        sent = api.request("POST", f"{game.path}/press", json={"to": ["GERMANY"], "body": f"hi{bad}"},
                           token=game.tokens["FRANCE"])
        assert _refused(sent, "body"), sent.text
    record = _mila_record(api)
    record["phases"][0]["orders"]["FRANCE"] = ["A PAR H\x01"]
    imported = api.post("/v1/games/import", json={"format": "mila", "game": record})
    assert imported.status_code == 422 and "phases[0].orders.FRANCE[0]" in imported.json()["detail"], imported.text


@settings(max_examples=examples(200), deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=30))
def test_defect_06_the_renderer_writes_well_formed_xml_whatever_it_is_given(text):
    from xml.dom import minidom

    from maps.render import render_svg

    position = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {}}
    svg = render_svg(position, [{"power": f"FRANCE{text}", "order": f"A PAR H{text}", "outcome": "fails",
                                 "reason": text}], title=text)
    minidom.parseString(svg.encode("utf-8", "surrogatepass"))  # raises on anything not well-formed


# ---------------------------------------------------------------- 8. malformed MILA records
def _mila_record(api) -> dict:
    game = new_game(api)
    force_until(game, "F1901M")
    record = api.get(f"{game.path}/export", params={"format": "mila"}).json()
    assert len(record["phases"]) == 2
    return record


def _broken(record: dict, where: list, value):
    broken = json.loads(json.dumps(record))
    target = broken
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = value
    return broken


MALFORMED = [  # (where in the record, what it holds, what the 422 names)
    (["phases"], [1, 2], "phases[0]"),
    (["phases"], ["S1901M"], "phases[0]"),
    (["phases", 0, "state", "centers"], {"FRANCE": 5}, "phases[0].state.centers.FRANCE"),
    (["phases", 0, "state", "centers"], None, "phases[0].state.centers"),
    (["phases", 1, "state", "centers"], {"FRANCE": [1, "PAR"]}, "phases[1].state.centers.FRANCE"),
    (["phases", 0, "orders"], {"FRANCE": 5}, "phases[0].orders.FRANCE"),
    (["phases", 0, "orders"], [["A PAR H"]], "phases[0].orders"),
    (["phases", 0, "state", "retreats"], 5, "phases[0].state.retreats"),
    (["phases", 0, "state", "retreats"], ["A PAR"], "phases[0].state.retreats"),
    (["phases", 0, "state", "retreats"], "A PAR", "phases[0].state.retreats"),
    (["phases", 0, "state", "retreats"], {"FRANCE": {"A PAR": "BUR"}}, "phases[0].state.retreats.FRANCE.A PAR"),
    (["phases", 0, "state", "units"], {"FRANCE": "A PAR"}, "phases[0].state.units.FRANCE"),
]


@pytest.fixture(scope="module")
def mila_record(request):
    return _mila_record(request.getfixturevalue("api"))


@pytest.mark.parametrize("where, value, named", MALFORMED)
def test_defect_08_a_malformed_mila_record_is_a_422_naming_the_field(api, mila_record, where, value, named):
    answer = api.post("/v1/games/import", json={"format": "mila", "game": _broken(mila_record, where, value)})
    assert answer.status_code == 422, answer.text
    assert f"body.game.{named}" in answer.json()["detail"], answer.json()["detail"]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
                    | st.sampled_from(["A PAR", "*A PAR", "PAR", "S1901M", "F1901M", "FRANCE", "A PAR - BUR"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["FRANCE", "GERMANY", "A PAR", "name", "state", "units", "centers",
                                         "retreats", "orders", "x"]) | st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)
PLACES = st.sampled_from([["phases"], ["phases", 0], ["phases", 1], ["phases", 0, "name"], ["phases", 1, "name"],
                          ["phases", 0, "state"], ["phases", 0, "state", "units"], ["phases", 1, "state", "units"],
                          ["phases", 0, "state", "centers"], ["phases", 1, "state", "centers"],
                          ["phases", 0, "state", "retreats"], ["phases", 0, "orders"], ["phases", 1, "orders"],
                          ["phases", 0, "orders", "FRANCE"], ["phases", 0, "state", "units", "FRANCE"],
                          ["phases", 1, "state", "centers", "FRANCE"], ["map"], ["rules"]])


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(PLACES, JSON), min_size=1, max_size=3))
def test_defect_08_random_mila_records_never_get_a_5xx(api, mila_record, changes):
    record = mila_record
    for where, value in changes:
        try:
            record = _broken(record, where, value)
        except (KeyError, IndexError, TypeError):  # an earlier change removed the place: skip it
            continue
    answer = api.post("/v1/games/import", json={"format": "mila", "game": record})
    assert answer.status_code < 500, (answer.status_code, answer.text)


# ---------------------------------------------------------------- 9. rendering unmetered
RENDER = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {},
          "orders": {"FRANCE": ["A PAR - BUR"]}}


def test_defect_09_stateless_renders_have_a_quota(redis_url, monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_RENDER", "3 per minute")
    client = _limited(redis_url)
    answers = [client.post("/v1/render/diplomacy", json=RENDER) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].get_json()["quota"] == "RATE_LIMIT_RENDER" and int(answers[-1].headers["Retry-After"]) > 0


def test_defect_09_uncached_pngs_have_a_quota_and_cached_ones_cost_nothing(redis_url, monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_PNG", "2 per minute")
    client = _limited(redis_url)
    created = client.post("/v1/games", json={"name": f"png quota {new_id()}"}).get_json()
    path = f"/v1/games/{created['game']['id']}/map.png"
    assert client.get(f"{path}?width=400").status_code == 200  # drawn
    for _ in range(3):
        assert client.get(f"{path}?width=400").status_code == 200  # the same picture, from the cache
    assert client.get(f"{path}?width=401").status_code == 200  # drawn
    refused = client.get(f"{path}?width=402")
    assert refused.status_code == 429 and refused.get_json()["quota"] == "RATE_LIMIT_PNG"


def test_defect_09_a_full_render_queue_answers_503_with_retry_after_and_health_answers(api, monkeypatch):
    from service import limits

    queue = limits.WorkQueue("maps are being drawn", running=1, waiting=1)
    monkeypatch.setattr(limits, "RENDERS", queue)
    with queue.turn(), ExitStack() as waiting:
        waiting.enter_context(_turn_in_thread(queue))  # one drawing (ours), one waiting for its turn
        busy = api.request("POST", "/v1/render/diplomacy", json=RENDER)
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0, busy.text
        assert api.get("/v1/health").status_code == 200
    assert api.post("/v1/render/diplomacy", json=RENDER).status_code == 200  # the queue is free again


def test_defect_09_maps_are_drawn_by_processes_of_their_own_and_one_that_ended_is_replaced(api):
    """Drawing holds the GIL: it is done in child processes (service/drawing.py), so the API's own
    loop goes on answering (benchmarks/render_flood.py measures health under a flood)."""
    import os

    from service import drawing

    assert api.post("/v1/render/diplomacy", json=RENDER).status_code == 200
    children = [child.proc.pid for child in drawing.POOL.idle]
    assert children and os.getpid() not in children
    for child in drawing.POOL.idle:  # killed while idle (out of memory, say): the next render starts another
        child.close()
    drawn = api.post("/v1/render/diplomacy?format=png&width=200", json=RENDER)
    assert drawn.status_code == 200 and drawn.content.startswith(b"\x89PNG"), drawn.text
    assert not {child.proc.pid for child in drawing.POOL.idle} & set(children)


def test_defect_09_a_drawing_past_its_time_is_a_503_and_its_process_is_replaced(api, monkeypatch):
    from service import drawing

    monkeypatch.setattr(drawing, "TIMEOUT", 0)  # every drawing is past its time: its process is killed
    late = api.request("POST", "/v1/render/diplomacy", json=RENDER)
    assert late.status_code == 503 and "could not be drawn within" in late.json()["detail"], late.text
    assert int(late.headers["Retry-After"]) > 0
    monkeypatch.undo()
    assert api.post("/v1/render/diplomacy", json=RENDER).status_code == 200


@contextmanager
def _turn_in_thread(queue):
    """A render waiting in ``queue``'s line (in a thread of its own) until the context ends."""
    admitted, done = threading.Event(), threading.Event()

    def wait():
        with queue.lock:
            queue.admitted += 1  # as turn() does before it waits for a slot
        admitted.set()
        done.wait(10)
        with queue.lock:
            queue.admitted -= 1

    worker = threading.Thread(target=wait)
    worker.start()
    admitted.wait(10)
    try:
        yield
    finally:
        done.set()
        worker.join(10)


# ---------------------------------------------------------------- every text of every request: no 5xx
def _string_fields(spec: dict, schema: dict, path: tuple = (), depth: int = 0) -> list[tuple]:
    """The paths of every string a JSON schema of openapi.yaml holds (object keys, list items as 0)."""
    if depth > 5 or not isinstance(schema, dict):
        return []
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _string_fields(spec, spec["components"]["schemas"][name], path, depth + 1)
    found = []
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            found += _string_fields(spec, part, path, depth + 1)
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    if "string" in kinds:
        found.append(path)
    for name, sub in (schema.get("properties") or {}).items():
        found += _string_fields(spec, sub, (*path, name), depth + 1)
    if isinstance(schema.get("items"), dict):
        found += _string_fields(spec, schema["items"], (*path, 0), depth + 1)
    if isinstance(schema.get("additionalProperties"), dict):
        found += _string_fields(spec, schema["additionalProperties"], (*path, "FRANCE"), depth + 1)
    return found


def _targets() -> list[tuple[str, str, str, tuple]]:
    """(method, path, "body" or "query", field path) for every text a request of openapi.yaml takes."""

    from tests.service.svc_stack import ROOT

    spec = read_spec()
    out = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if not isinstance(op, dict) or method not in ("get", "post", "put", "delete"):
                continue
            body = ((op.get("requestBody") or {}).get("content") or {}).get("application/json", {}).get("schema")
            out += [(method, path, "body", f) for f in _string_fields(spec, body or {}) if f]
            for p in op.get("parameters", []):
                if isinstance(p, dict) and p.get("in") == "query" and p.get("name") != "token":
                    out.append((method, path, "query", (p["name"],)))
    return sorted(set(out), key=str)


TARGETS = _targets()
HOSTILE = st.one_of(st.text(max_size=20), st.sampled_from(XML_BREAKERS + ["\u2028", "\r\n", "", " " * 300, "x" * 20000]),
                    st.lists(st.sampled_from(XML_BREAKERS + ["A PAR", "FRANCE", "é", "<&>"]), max_size=5).map("".join))


def _nested(path: tuple, value):
    for step in reversed(path):
        value = [value] if step == 0 else {step: value}
    return value


@pytest.fixture(scope="module")
def live_game(request):
    return new_game(request.getfixturevalue("api"))


def test_every_request_text_is_a_target():
    assert len(TARGETS) > 60 and any(t[1] == "/v1/games/import" for t in TARGETS)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.sampled_from(TARGETS), text=HOSTILE, who=st.sampled_from(["anyone", "director", "FRANCE"]))
def test_every_text_of_every_request_never_gets_a_5xx(api, live_game, target, text, who):
    method, template, where, field = target
    path = (template.replace("{game_id}", live_game.id).replace("{power}", "FRANCE")
            .replace("{system}", "sum_of_squares").replace("{round_number}", "1"))
    path = re.sub(r"\{[a-z_]+\}", "0123456789ab", path)
    token = {"anyone": None, "director": live_game.director}.get(who, live_game.tokens["FRANCE"])
    kw = {"json": _nested(field, text)}
    if where == "query":  # as raw bytes: a lone surrogate as the bytes a client could send
        path += "?" + urlencode({field[0]: text.encode("utf-8", "surrogatepass")})
        kw = {"json": {}} if method in ("post", "put") else {}
    answer = api.request(method.upper(), path, token=token, check=False, **kw)
    assert answer.status_code < 500, (method, path, field, answer.status_code, answer.text[:300])
    received = json.loads(json.dumps(text))  # as the service reads it: an escaped surrogate pair is one character
    if where == "body" and SURROGATE.search(received) and answer.status_code not in (401, 404):
        # refused before any view reads the body (only a missing token or an unknown path answers first)
        assert answer.status_code == 422 and answer.json()["detail"].startswith(f"body.{field[0]}"), answer.text
    elif where == "body" and UNSAFE.search(text):
        assert answer.status_code >= 400, (method, path, field, answer.status_code)
