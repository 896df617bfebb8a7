"""One viewer (``workers.tables.viewers.who``): every kind of token, on every surface that asks.

The surfaces: the HTTP routes, the event streams, the mail commands and the quotas.  A token
revoked while its stream is open ends that stream within a second, and a stream follows the
powers its token holds as they change."""
from __future__ import annotations

import threading
import time

import pytest

from service.mail.commands import Inbox, Session
from service.mail.parse import parse
from tests.service.gamekit import LONG, new_game
from tests.service.sse import Stream
from tests.service.test_accounts import new_account
from tests.service.test_resolutions import TV06
from workers.core.errors import NotFound
from workers.tables.games import Games
from workers.tables.viewers import Role, who


@pytest.fixture
def table(api):
    """A game in play, a resolution, a tournament (with a board) and an account, with their tokens."""
    game = new_game(api)
    players = {p: {} for p in TV06["players"]}
    res = api.post("/v1/resolutions", json={"kind": "1630.vote", "state": TV06, "participants": players,
                                            "dice": "director"}).json()
    tour = api.post("/v1/tournaments", json={"system": "sum_of_squares", "rounds": 1,
                                             "players": [f"p{i}" for i in range(7)]}).json()
    tid, tdir = tour["tournament"]["id"], tour["director_token"]
    board = api.post(f"/v1/tournaments/{tid}/rounds/1/boards", json={"seating": "draw"}, token=tdir).json()
    account, account_token = new_account(api, "Viewer")
    return {"game": game, "res": res, "tid": tid, "tdir": tdir, "board": board["boards"][0]["game"],
            "account": account["id"], "account_token": account_token}


def test_who_names_every_kind_of_token(inproc, table):
    r, game, res = inproc.store.r, table["game"], table["res"]
    rid = res["resolution"]["id"]
    anyone = who(r, "game", game.id, None)
    assert anyone.role is Role.ANYONE and anyone.digest is None and not anyone.audiences()
    france = who(r, "game", game.id, game.tokens["FRANCE"])
    assert france.role is Role.PLAYER and france.powers == ["FRANCE"] and france.audiences() >= {"FRANCE"}
    assert who(r, "game", game.id, game.director).role is Role.DIRECTOR
    unknown = who(r, "game", game.id, "made-up")
    assert unknown.role is Role.ANYONE and unknown.digest and not unknown.known
    assert who(r, "resolution", rid, res["director_token"]).role is Role.DIRECTOR
    simon = who(r, "resolution", rid, res["tokens"]["Simon"])
    assert simon.role is Role.PARTICIPANT and simon.holder == "Simon" and simon.audiences() == {"Simon"}
    assert who(r, "tournament", table["tid"], table["tdir"]).role is Role.TOURNAMENT_DIRECTOR
    assert who(r, "game", table["board"], table["tdir"]).role is Role.DIRECTOR  # a board's director is the tournament's
    mine = who(r, "account", "", table["account_token"])
    assert mine.role is Role.ACCOUNT and mine.account_holder() == table["account"]
    on_game = who(r, "game", game.id, table["account_token"])
    assert on_game.role is Role.ACCOUNT and not on_game.known  # an account is nobody at a table it has no seat at
    with pytest.raises(NotFound):
        who(r, "game", "0123456789ab", game.director)


@pytest.mark.parametrize("kind, orders, audit, press", [
    ("anyone", 401, 401, 401), ("unknown", 401, 401, 401), ("player", 200, 403, 200),
    ("director", 401, 200, 200), ("account", 401, 401, 401), ("tournament_director", 401, 401, 401)])
def test_each_kind_of_viewer_on_the_http_routes(api, table, kind, orders, audit, press):
    game = table["game"]
    token = {"anyone": None, "unknown": "made-up", "player": game.tokens["FRANCE"], "director": game.director,
             "account": table["account_token"], "tournament_director": table["tdir"]}[kind]
    assert api.get(f"{game.path}/orders", token=token).status_code == orders
    assert api.get(f"{game.path}/audit", token=token).status_code == audit
    assert api.get(f"{game.path}/press", token=token).status_code == press
    assert api.get(game.path, token=token).status_code == 200  # the public view, for anyone


def test_the_tournament_director_on_its_tournament(api, table):
    path = f"/v1/tournaments/{table['tid']}/audit"
    assert api.get(path, token=table["tdir"]).status_code == 200
    assert api.get(path, token=table["game"].director).status_code == 401
    assert api.get(path).status_code == 401


def test_a_stream_ends_within_a_second_of_its_tokens_revocation(api, inproc, table):
    game = table["game"]
    stream = Stream(inproc, f"{game.path}/events", game.tokens["FRANCE"])
    assert stream.status == 200
    ended = threading.Event()

    def read_to_the_end():
        for _event in stream._events:
            pass
        ended.set()

    reader = threading.Thread(target=read_to_the_end, daemon=True)
    reader.start()
    opened = api.post(f"{game.path}/seats/FRANCE/open", json={"reason": "gone"}, token=game.director)
    assert opened.status_code == 200, opened.text
    revoked_at = time.monotonic()
    assert ended.wait(5), "the stream of a revoked token stayed open"
    assert time.monotonic() - revoked_at < 1.0
    taken = api.post(f"{game.path}/players", json={"name": "New France", "power": "FRANCE"})
    assert taken.status_code == 201
    stream.close()
    # the new player's own stream works, and the old token is refused a new one
    assert Stream(inproc, f"{game.path}/events", game.tokens["FRANCE"]).status == 401
    fresh = Stream(inproc, f"{game.path}/events", taken.json()["token"])
    assert fresh.status == 200
    fresh.close()


def test_a_stream_follows_the_powers_its_token_gets(api, inproc):
    """A player of a random-assignment game opens its stream while forming (no power yet); once the
    powers are drawn, press to its power reaches that stream."""
    created = api.post("/v1/games", json={"deadlines": LONG}).json()
    gid = created["game"]["id"]
    tokens = [api.post(f"/v1/games/{gid}/players", json={"name": f"P{i}"}).json()["token"] for i in range(6)]
    stream = Stream(inproc, f"/v1/games/{gid}/events", tokens[0])
    assert stream.status == 200
    tokens.append(api.post(f"/v1/games/{gid}/players", json={"name": "P6"}).json()["token"])  # the game starts
    powers = [next(iter(api.get(f"/v1/games/{gid}/orders", token=t).json()["powers"])) for t in tokens]
    sent = api.post(f"/v1/games/{gid}/press", json={"power": powers[1], "to": [powers[0]], "body": "hello"},
                    token=tokens[1])
    assert sent.status_code == 201, sent.text
    types = []
    for event in stream._events:
        types.append(event.type)
        if event.type == "press":
            assert event.data["body"] == "hello"
            break
    stream.close()
    assert "phase" in types and types[-1] == "press"


def _mail_lines(inproc, sender: str, text: str) -> list[str]:
    raw = f"From: {sender}\r\nTo: judge@example.org\r\nSubject: test\r\n\r\n{text}\r\n".encode()
    msg = parse(raw, [], None)
    return Inbox(Games(inproc.store)).run(msg, Session(msg))


def test_each_kind_of_viewer_by_mail(inproc, table):
    game = table["game"]
    as_player = "\n".join(_mail_lines(inproc, "fr@example.org", f"GAME {game.id}\nTOKEN {game.tokens['FRANCE']}"))
    assert "Signed in as" in as_player and "FRANCE" in as_player
    as_director = "\n".join(_mail_lines(inproc, "gm@example.org", f"GAME {game.id}\nTOKEN {game.director}"))
    assert f"Signed in as the director of game {game.id}" in as_director
    unknown = "\n".join(_mail_lines(inproc, "x@example.org", f"GAME {game.id}\nTOKEN made-up"))
    assert "Refused" in unknown and "not a token of" in unknown
    account = "\n".join(_mail_lines(inproc, "a@example.org", f"GAME {game.id}\nTOKEN {table['account_token']}"))
    assert "Refused" in account


def test_each_kind_of_viewer_spends_its_own_quota(inproc, table):
    """The quota a request spends is ``who()``'s: a player, the director, a participant, an account,
    or the address for anyone else (service/limits.py)."""
    from service.limits import holder

    game, res = table["game"], table["res"]
    cases = [(f"{game.path}/orders", game.tokens["FRANCE"], "player"), (f"{game.path}/orders", game.director,
             "director"), (f"/v1/resolutions/{res['resolution']['id']}", res["tokens"]["Simon"], "participant"),
             (f"/v1/tournaments/{table['tid']}", table["tdir"], "director"),
             (f"{game.path}/orders", table["account_token"], "account"), ("/v1/accounts", table["account_token"],
                                                                          "account"),
             (f"{game.path}/orders", "made-up", "address"), (f"{game.path}/orders", None, "address")]
    for path, token, kind in cases:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with inproc.app.test_request_context(path, headers=headers):
            assert holder()[0] == kind, (path, kind)
