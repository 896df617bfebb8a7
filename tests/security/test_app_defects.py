"""Issue 20's defects of the application (1, 2, 3, 4, 6, 11), each a named test that reproduced it
before its fix: what the rules hide, who a token is, what may be stored, what mail may do."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.budget import examples

from tests.service.gamekit import POWERS, LONG, created_game, finished, force_until, new_game
from workers.tables.games.views import HIDDEN_RULES


def _two_player(api, **rules):
    created = api.post("/v1/games", json={"variant": "two_player_1914", "assignment": "chosen",
                                          "deadlines": LONG, "rules": rules}).json()
    return created_game(api, created, powers=["ENGLAND", "AUSTRIA"])


# ---------------------------------------------------------------- 1. a hidden draw leaks through fork
def test_defect_01_fork_needs_the_director_or_a_player_of_an_ended_game(api):
    game = new_game(api)
    path = f"{game.path}/fork"
    assert api.post(path, json={}).status_code == 401  # no token: the repro got 201
    assert api.post(path, json={}, token="not-a-token-of-this-game").status_code == 401
    assert api.post(path, json={}, token=game.tokens["FRANCE"]).status_code == 403  # in play
    assert api.post(path, json={}, token=game.director).status_code == 201
    assert game.director_action("end", json={"reason": "time"}).status_code == 200
    assert api.post(path, json={}, token=game.tokens["FRANCE"]).status_code == 201  # ended: players may


def test_defect_01_every_hidden_rule_is_declared(api):
    """Every variant: what its public state leaves out of the stored rules is a declared hidden rule."""
    variants = api.get("/v1/variants").json()
    for variant in variants:
        created = api.post("/v1/games", json={"variant": variant["name"], "deadlines": LONG}).json()
        gid = created["game"]["id"]
        stored = _stored_rules(api, gid)
        shown = created["game"]["rules"]
        assert set(stored) - set(shown) <= set(HIDDEN_RULES), variant["name"]
        assert {k: v for k, v in stored.items() if k in shown} == shown


def _stored_rules(api, gid):
    from workers.core import keys
    from workers.core.records import GameRecord
    return api.stack.store.record(api.stack.store.r, GameRecord, keys.game(gid), gid).rules


@pytest.mark.parametrize("rule", sorted(HIDDEN_RULES))
def test_defect_01_a_fork_draws_what_is_still_hidden_anew(api, rule):
    """The repro: fork a two-player game before the coin toss is shown; the forks' own tosses are
    drawn anew (twenty forks of a copied toss would all equal the origin's: 1 in 2**19 by chance)."""
    game = _two_player(api)
    origin = _stored_rules(api, game.id)[rule]
    drawn = set()
    for _ in range(20):
        fork = api.post(f"{game.path}/fork", json={}, token=game.director)
        assert fork.status_code == 201, fork.text
        assert rule not in fork.json()["game"]["rules"]
        drawn.add(_stored_rules(api, fork.json()["game"]["id"])[rule])
    assert drawn == {1, 2} and origin in drawn


def test_defect_01_a_fork_copies_what_is_already_shown(api):
    game = _two_player(api, italy_joins=2)
    state = force_until(game, "S1915M")
    assert state["rules"]["italy_joins"] == 2  # shown from the Winter 1914 adjustments on
    fork = api.post(f"{game.path}/fork", json={}, token=game.director).json()
    assert fork["game"]["rules"]["italy_joins"] == 2
    early = api.post(f"{game.path}/fork", json={"seq": 1}, token=game.director).json()
    assert _stored_rules(api, early["game"]["id"])["italy_joins"] == 2  # public in the origin already


# ---------------------------------------------------------------- 2. a participant named "director"
def _card(cid, country, value):
    return {"id": cid, "kind": "INFLUENCE", "country": country, "value": value}


def _vote_1630(players):
    """The 1630 vote of docs/resolutions.md (TV-06), its players named ``players`` (caller first)."""
    tim, martin, simon = players
    return {"kind": "1630.vote", "state": {
        "players": [tim, martin, simon], "caller": tim,
        "displays": {tim: {"ENGLAND": {"state": "DOMINANT", "cards": [_card("T0", "ENGLAND", 3)]}},
                     martin: {"ENGLAND": {"state": "DOMINANT", "cards": [_card("M0", "ENGLAND", 5)]}},
                     simon: {"ENGLAND": {"state": "DOMINANT", "cards": [_card("S0", "ENGLAND", 1)]}}},
        "hands": {simon: [_card("Simon-E9", "ENGLAND", 1)], martin: [_card("Martin-F9", "FRANCE", 2)]},
        "countries": {"ENGLAND": {"side": "RED", "army_size": 1, "military_ability": 1, "leader": True},
                      "FRANCE": {"side": "BLUE", "prestige": 3}}},
        "participants": {p: {"name": p} for p in players}, "deadlines": {"default": 3600}}


def test_defect_02_a_participant_named_director_is_only_a_participant(api):
    created = api.post("/v1/resolutions", json=_vote_1630(["Tim", "director", "Simon"]))
    assert created.status_code == 201, created.text
    rid, tokens = created.json()["resolution"]["id"], created.json()["tokens"]
    path = f"/v1/resolutions/{rid}"
    seen = api.get(path, token=tokens["director"]).json()
    assert seen["you"] == "director" and seen["role"] == "participant"
    assert set(seen["state"]["hands"]) == {"director"}  # its own hand, never Simon's
    assert seen["step"]["details_hidden"] is True  # Tim's private country question
    answered = api.post(f"{path}/answers", token=tokens["director"],
                        json={"step": 0, "answer": "ENGLAND", "participant": "Tim"})
    assert answered.status_code == 403, answered.text
    assert api.post(f"{path}/pause", token=tokens["director"]).status_code == 403
    # the director is the holder of the director token, whatever the participants are called
    boss = api.get(path, token=created.json()["director_token"]).json()
    assert boss["role"] == "director" and set(boss["state"]["hands"]) == {"director", "Simon"}
    assert api.get(path).json()["role"] is None


def test_defect_02_a_participant_named_director_has_an_etag_of_its_own(api):
    created = api.post("/v1/resolutions", json=_vote_1630(["Tim", "director", "Simon"])).json()
    path = f"/v1/resolutions/{created['resolution']['id']}"
    boss = api.get(path, token=created["director_token"]).headers["ETag"]
    named = api.get(path, token=created["tokens"]["director"])
    assert named.headers["ETag"] != boss
    again = api.get(path, token=created["tokens"]["director"], headers={"If-None-Match": boss})
    assert again.status_code == 200 and set(again.json()["state"]["hands"]) == {"director"}


# ---------------------------------------------------------------- 11. smaller
UNKNOWN = "an-unknown-token-of-32-characters"


def test_defect_11_an_unknown_token_on_a_director_endpoint_is_401(api):
    """docs/service.md: 401 missing or unknown token, 403 a known token not allowed."""
    game = new_game(api)
    calls = [("post", f"{game.path}/{a}", None) for a in ("pause", "resume", "adjudicate", "start")]
    calls += [("post", f"{game.path}/extend", {"seconds": 10}), ("get", f"{game.path}/audit", None),
              ("post", f"{game.path}/end", {"reason": "time"}), ("put", f"{game.path}/last-year", {"year": 1910}),
              ("get", f"{game.path}/webhooks", None)]
    for method, path, body in calls:
        assert getattr(api, method)(path, json=body, token=UNKNOWN).status_code == 401, path
        assert getattr(api, method)(path, json=body, token=game.tokens["ITALY"]).status_code == 403, path
    created = api.post("/v1/resolutions", json=_vote_1630(["Tim", "Martin", "Simon"])).json()
    path = f"/v1/resolutions/{created['resolution']['id']}"
    for action in ("pause", "resume", "cancel"):
        assert api.post(f"{path}/{action}", token=UNKNOWN).status_code == 401
        assert api.post(f"{path}/{action}", token=created["tokens"]["Tim"]).status_code == 403
    tournament = api.post("/v1/tournaments", json={"name": "t", "system": "sum_of_squares", "rounds": 1,
                                                   "aggregate": {"method": "sum"}})
    assert tournament.status_code == 201, tournament.text
    tid = tournament.json()["tournament"]["id"]
    assert api.post(f"/v1/tournaments/{tid}/players", json={"name": "x"}, token=UNKNOWN).status_code == 401


# ---------------------------------------------------------------- 4. line breaks in names and titles
BREAKS = ["a\r\nb", "a\nb", "a\rb", "a\u2028b", "a\u2029b", "a\x85b", "a\x00b", "a\tb", "a\x1bb", "line\n"]


@pytest.mark.parametrize("bad", BREAKS)
def test_defect_04_every_name_and_title_is_one_line(api, bad):
    game = new_game(api)
    forming = api.post("/v1/games", json={"assignment": "chosen"}).json()["game"]["id"]
    tournament = api.post("/v1/tournaments", json={"system": "sum_of_squares", "rounds": 1}).json()
    where = [
        ("post", "/v1/games", {"name": bad}, None),
        ("post", f"/v1/games/{forming}/players", {"name": bad, "power": "FRANCE"}, None),
        ("post", f"{game.path}/fork", {"name": bad}, game.director),
        ("post", "/v1/accounts", {"name": bad}, None),
        ("post", "/v1/resolutions", {**_vote_1630(["Tim", "Martin", "Simon"]),
                                     "participants": {"Tim": {"name": bad}}}, None),
        ("post", "/v1/tournaments", {"name": bad, "system": "sum_of_squares", "rounds": 1}, None),
        ("post", "/v1/tournaments", {"system": "sum_of_squares", "rounds": 1, "players": ["ok", bad]}, None),
        ("post", f"/v1/tournaments/{tournament['tournament']['id']}/players", {"name": bad},
         tournament["director_token"]),
    ]
    for method, path, body, token in where:
        resp = getattr(api, method)(path, json=body, token=token)
        assert resp.status_code == 422, (path, resp.status_code, resp.text)
        assert "one line" in resp.text, resp.text


def test_defect_04_names_keep_what_is_not_a_control(api):
    created = api.post("/v1/games", json={"name": "Ünïcødé ✓ — «quotes» 👩‍👩‍👧 d'Artagnan"})
    assert created.status_code == 201 and created.json()["game"]["name"].startswith("Ünïcødé")


# ---------------------------------------------------------------- 11. the orders' phase
@pytest.mark.parametrize("phase", ["ſ1901m", "S1901M\n", "S١٩٠١M", "X1901M", "S19010M"])
def test_defect_11_the_orders_phase_is_pattern_checked(api, phase):
    game = new_game(api)
    assert game.submit("FRANCE", ["A PAR H"], phase=phase).status_code == 422
    cleared = api.delete(f"{game.path}/orders/FRANCE", params={"phase": phase}, token=game.tokens["FRANCE"])
    assert cleared.status_code == 422, cleared.text
    assert game.submit("FRANCE", ["A PAR H"], phase="s1901m").status_code == 200  # case-insensitive


# ---------------------------------------------------------------- 3. an absence past the year 9999
EDGE = [("9999-12-31T23:00:00-14:00", "9999-12-31T23:59:59-14:00"),  # the repro: UTC is year 10000
        ("9999-12-31T23:00:00Z", "9999-12-31T23:59:59.5Z"),  # rounded up to the next second: year 10000
        ("0001-01-01T00:00:00+14:00", "0001-01-02T00:00:00+14:00")]


def _absence_views_answer(api, game) -> None:
    """Every view that shows absences answers, and whatever a client reads back it can send back."""
    listed = api.get(f"{game.path}/absences")
    assert listed.status_code == 200, listed.text
    for view in (game.path, f"{game.path}/export"):
        assert api.get(view).status_code == 200
    for a in listed.json()["absences"]:
        for moment in (a["start"], a["end"]):
            datetime.fromisoformat(moment.replace("Z", "+00:00"))


@pytest.mark.parametrize("start,end", EDGE)
def test_defect_03_an_absence_past_the_year_9999_is_refused_before_it_is_stored(api, start, end):
    game = new_game(api)
    declared = api.post(f"{game.path}/absences", json={"start": start, "end": end}, token=game.tokens["FRANCE"])
    assert declared.status_code == 422, declared.text
    _absence_views_answer(api, game)
    assert api.get(f"{game.path}/absences").json()["absences"] == []


MOMENTS = st.builds(lambda when, offset: when.replace(tzinfo=timezone(timedelta(minutes=offset))),
                    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)),
                    st.integers(-14 * 60, 14 * 60))


def _rfc3339(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=MOMENTS, length=st.one_of(st.timedeltas(timedelta(seconds=-5), timedelta(days=31)),
                                       st.timedeltas(timedelta(days=-1), timedelta(days=9999 * 365))),
       near=st.none() | st.integers(-2 * 86400, 400 * 86400))
@example(start=datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-14))),
         length=timedelta(minutes=59, seconds=59), near=None)  # the repro
def test_defect_03_every_valid_absence_request_reads_back(api, inproc, absence_game, start, length, near):
    """Random well-formed requests (near now, or anywhere from year 1 to 9999, any offset): each is
    stored (201) or refused (422), never a 5xx, and every view shows what is stored afterwards."""
    game = absence_game
    if near is not None:
        start = datetime.fromtimestamp(int(inproc.clock()) + near, timezone.utc).astimezone(start.tzinfo)
    try:
        end = start + length
    except OverflowError:
        return
    body = {"start": _rfc3339(start), "end": _rfc3339(end)}
    declared = api.post(f"{game.path}/absences", json=body, token=game.tokens["FRANCE"])
    assert declared.status_code in (201, 422), declared.text
    if declared.status_code == 201:
        aid = declared.json()["id"]
        decided = api.put(f"{game.path}/absences/{aid}", json={"status": "approved"}, token=game.director)
        assert decided.status_code == 200, decided.text
        assert api.delete(f"{game.path}/absences/{aid}", token=game.tokens["FRANCE"]).status_code == 200
    _absence_views_answer(api, game)


@pytest.fixture(scope="module")
def absence_game(api):
    return new_game(api)


# ---------------------------------------------------------------- 11. standings.csv
def test_defect_11_standings_csv_quotes_what_a_spreadsheet_would_run(api):
    import csv
    import io

    names = ['=HYPERLINK("http://evil.test","x")', "+1+1", "-2+3", "@SUM(A1)", "Plain - Name"]
    made = api.post("/v1/tournaments", json={"system": "sum_of_squares", "rounds": 1, "players": names}).json()
    resp = api.get(f"/v1/tournaments/{made['tournament']['id']}/standings.csv")
    assert resp.status_code == 200
    shown = {row["name"] for row in csv.DictReader(io.StringIO(resp.text))}
    assert shown == {"'" + n for n in names[:4]} | {"Plain - Name"}


def test_defect_11_options_answers_204_with_allow(api):
    game = new_game(api)
    for path, allowed in [(game.path, {"GET", "HEAD", "OPTIONS"}), (f"{game.path}/orders/FRANCE", {"PUT", "DELETE"}),
                          ("/v1/games", {"POST"})]:
        resp = api.call("OPTIONS", path, check=False)
        assert resp.status_code == 204 and not resp.content and "Content-Type" not in resp.headers, path
        assert allowed <= {m.strip() for m in resp.headers["Allow"].split(",")}, resp.headers["Allow"]
    missing = api.call("OPTIONS", "/v1/games/not-an-id", check=False)
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
    assert api.call("OPTIONS", "/v1/nowhere", check=False).status_code == 404


def test_defect_11_a_bad_board_start_is_reported_at_body_game_start(api):
    players = [f"P{i}" for i in range(7)]
    made = api.post("/v1/tournaments", json={"system": "sum_of_squares", "rounds": 1, "players": players}).json()
    path, director = f"/v1/tournaments/{made['tournament']['id']}", made["director_token"]
    bad = {"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}, "centers": {}}
    resp = api.post(f"{path}/rounds/1/boards", json={"seating": "draw", "game": {"start": bad}}, token=director)
    assert resp.status_code == 422 and resp.json()["detail"].startswith("body.game.start."), resp.text
    late = api.post(f"{path}/rounds/1/boards", json={"seating": "draw", "game": {"last_year": 1901,
                                                     "start": {**bad, "phase": "S1905M", "units": {}}}},
                    token=director)
    assert late.status_code == 422 and late.json()["detail"].startswith("body.game.last_year"), late.text
    assert api.post(f"{path}/rounds/1/boards", json={"seating": "draw"}, token=director).status_code == 201


def test_defect_11_a_webhook_url_has_a_length_limit(api):
    game = new_game(api)
    long_url = "http://127.0.0.1:9/" + "a" * 2000
    resp = api.post(f"{game.path}/webhooks", json={"url": long_url}, token=game.director)
    assert resp.status_code == 422 and "body.url" in resp.json()["detail"], resp.text
    assert api.post(f"{game.path}/webhooks", json={"url": long_url[:2000]}, token=game.director).status_code == 201


def test_defect_11_while_paused_orders_and_readiness_both_change_and_resume_closes_a_ready_phase(api):
    """One rule (docs/service.md): a pause stops the clock, not the players."""
    game = new_game(api)
    assert game.director_action("pause").status_code == 200
    assert game.submit("FRANCE", ["A PAR - BUR"]).status_code == 200
    for power in POWERS:
        assert game.ready(power).status_code == 200, power  # before, 409 while orders were taken
    state = game.state()
    assert state["status"] == "paused" and sorted(state["ready"]) == sorted(POWERS)  # a pause holds the phase
    assert game.ready("ITALY", False).status_code == 200 and game.ready("ITALY").status_code == 200
    resumed = game.director_action("resume")
    assert resumed.status_code == 200, resumed.text
    state = game.wait_phase("F1901M")
    assert "A BUR" in state["position"]["units"]["FRANCE"]


def test_defect_11_resume_with_some_not_ready_restarts_the_clock(api):
    game = new_game(api)
    assert game.director_action("pause").status_code == 200
    assert game.ready("FRANCE").status_code == 200
    state = game.director_action("resume").json()
    assert state["status"] == "open" and state["phase"] == "S1901M" and state["ready"] == ["FRANCE"]


# ---------------------------------------------------------------- injection, the family of 4 and 11
def test_injection_names_are_text_in_the_pages_and_the_map(api):
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    created = api.post("/v1/games", json={"name": evil, "assignment": "chosen", "deadlines": LONG}).json()
    game = created_game(api, created)
    page = api.get(f"/games/{game.id}", check=False)
    assert page.status_code == 200 and "<script>alert" not in page.text and "<img src=x" not in page.text
    assert "&lt;script&gt;" in page.text
    svg = api.get(f"{game.path}/map.svg", check=False)
    assert svg.status_code == 200 and "<script" not in svg.text
    made = api.post("/v1/tournaments", json={"name": evil, "system": "sum_of_squares", "rounds": 1,
                                             "players": [evil[:50]]})
    assert made.status_code == 201, made.text
    made = made.json()
    page = api.get(f"/tournaments/{made['tournament']['id']}", check=False)
    assert page.status_code == 200 and "<script>alert" not in page.text and "<img src=x" not in page.text


def test_defect_01_the_hidden_toss_is_in_no_view_before_it_is_shown(api):
    game = _two_player(api)
    force_until(game, "F1914M")
    views = [game.path, f"{game.path}/history", f"{game.path}/export", f"/games/{game.id}", f"{game.path}/map.svg",
             f"{game.path}/audit"]
    for path in views:
        for token in (None, game.director, game.tokens["ENGLAND"]):
            resp = api.get(path, token=token, check=False)
            assert resp.status_code in (200, 401, 403), (path, resp.status_code)
            assert "italy_joins" not in resp.text, path
