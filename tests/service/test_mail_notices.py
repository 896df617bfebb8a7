"""The judge's own messages, read as a player gets them through a real SMTP relay (decoded, with the
map attached where the message promises one): proposals and their outcomes, the game-over result,
the start notice and the two-player coin toss, a takeover's welcome, and each with its one-time
sign-in link.  Nothing secret reaches another player: votes, orders of the open phase, private press."""
from __future__ import annotations

import re

import pytest

from tests.service.gamekit import LONG, POWERS, SOLO_START, created_game, propose, vote
from tests.service.mailkit import text
from tests.service.mailkit import mail_service as mail_service_in
from workers.core import keys, settings
from workers.core.store import hash_token


@pytest.fixture(scope="module")
def mail_service(tmp_path_factory):
    with mail_service_in(tmp_path_factory.mktemp("notices-mail-redis")) as service:
        yield service


def addresses(tag: str, powers=POWERS) -> dict[str, str]:
    return {p: f"{p.lower()}.{tag}@players.test" for p in powers}


def new_game(api, emails: dict, powers=POWERS, **spec):
    """A game with every seat of ``powers`` taken, the players of ``emails``'s powers with an address."""
    made = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, **spec})
    assert made.status_code == 201, made.text
    return created_game(api, made.json(), powers=powers, emails=emails)


def pictures(msg) -> list:
    return [a for a in msg.iter_attachments() if a.get_content_type() == "image/png"]


def the_map(api, msg, gid: str, phase: str | None = None) -> None:
    """``msg`` carries the map it promises: one PNG, the game's map as the API draws it."""
    (png,) = pictures(msg)
    assert f"Attached: {png.get_filename()}, the map of" in text(msg)
    width = settings.current().mail_map_width  # the stack's (MAIL_MAP_WIDTH)
    query = f"?width={width}" + (f"&phase={phase}" if phase else "")
    assert png.get_content() == api.get(f"/v1/games/{gid}/map.png{query}").content


def signs_in(r, msg) -> None:
    """``msg`` has a one-time sign-in link of its own, not used yet."""
    code = re.search(r"/signin/(\S+)", text(msg)).group(1)
    assert r.exists(keys.signin_code(hash_token(code)))


def judge_mail(relay, address: str) -> list:
    """What the judge sent ``address`` of its own accord (not the answers to its commands)."""
    return [m for m in relay.to(address) if not m["Subject"].startswith("Re:")]


def test_proposals_their_outcomes_and_the_end_by_mail_with_nothing_secret(mail):
    relay, stack, api, r = mail
    addr = addresses("votes", ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY"])  # the others play without
    game = new_game(api, addr, name="Votes")
    welcome = {p: relay.wait(addr[p], "Welcome")[0] for p in addr}
    for p in addr:
        the_map(api, relay.wait(addr[p], "Started: S1901M")[0], game.id, "S1901M")

    # the secrets of the open phase: FRANCE's orders, its private press to GERMANY
    assert game.submit("FRANCE", ["A PAR - PIC", "F BRE - ENG", "A MAR - GAS"]).status_code == 200
    assert api.post(f"{game.path}/press", json={"to": ["GERMANY"], "body": "Secret plan: Picardy."},
                    token=game.tokens["FRANCE"]).status_code == 201
    # FRANCE proposes a draw by mail; every player is told the terms, never who proposed
    stack.send(addr["FRANCE"], "DRAW", to=welcome["FRANCE"]["Reply-To"], subject="draw")
    pid = re.search(r"proposal ([0-9a-f]{12})", text(relay.wait(addr["FRANCE"], "Re: draw")[0])).group(1)
    told = {p: relay.wait(addr[p], "Proposal: a draw between")[0] for p in addr}
    for p in addr:
        assert f"a draw between {', '.join(POWERS)} (proposal {pid}, in S1901M)" in text(told[p])
        assert f"VOTE {pid} YES" in text(told[p]) and "lapses when S1901M is adjudicated" in text(told[p])
    same = {re.sub(r"/signin/\S+", "", text(m)) for m in told.values()}
    assert len(same) == 1  # one text for all: nothing in it tells who proposed
    # ENGLAND votes no by mail, GERMANY yes through the API: only the voter hears of its vote
    stack.send(addr["ENGLAND"], f"VOTE {pid} NO", to=welcome["ENGLAND"]["Reply-To"], subject="vote")
    assert f"ENGLAND voted no on proposal {pid}" in text(relay.wait(addr["ENGLAND"], "Re: vote")[0])
    assert vote(game, pid, "GERMANY", "yes").status_code == 200
    stack.send(addr["ITALY"], "PROPOSALS", to=welcome["ITALY"]["Reply-To"], subject="list")
    listed = text(relay.wait(addr["ITALY"], "Re: list")[0])
    assert f"{pid}: a draw between" in listed and "voted" not in listed
    # before the results, no mail to another player holds FRANCE's orders or its private press
    for p in addr:
        for msg in relay.to(addr[p]):
            assert p == "FRANCE" or "PAR - PIC" not in text(msg)
            assert p in ("FRANCE", "GERMANY") or "Secret plan" not in text(msg)

    # the phase is adjudicated: the proposal lapses, and every player is told
    assert game.director_action("adjudicate").status_code == 200
    game.wait_phase("F1901M")
    for p in addr:
        lapsed = text(relay.wait(addr[p], "Proposal lapsed: a draw between")[0])
        assert f"Proposal {pid} in game {game.id}" in lapsed and "(S1901M was adjudicated)" in lapsed

    # ITALY proposes a concession to FRANCE and all agree: passed, then the game's end
    conceded = propose(game, "ITALY", "concession", to="FRANCE").json()["id"]
    for p in addr:
        msg = relay.wait(addr[p], "Proposal: a concession to FRANCE")[0]
        assert "ITALY" not in msg["Subject"] + text(msg)
    for p in POWERS:
        if p != "ITALY":
            assert vote(game, conceded, p, "yes").status_code == 200
    for p in addr:
        assert f"Proposal {conceded} in game {game.id}, a concession to FRANCE, passed" in text(
            relay.wait(addr[p], "Proposal passed: a concession to FRANCE")[0])
        over = relay.wait(addr[p], "Game over: conceded to FRANCE")[0]
        body = text(over)
        assert f"Game {game.id} Votes is over: conceded to FRANCE. The players agreed to it by a vote." in body
        assert re.search(r"^  AUSTRIA +3$", body, re.M) and re.search(r"^  RUSSIA +4$", body, re.M)
        assert "It ended during F1901M, before that phase was adjudicated; the last phase played was S1901M." in body
        the_map(api, over, game.id)

    # votes are secret to the end: no mail names how another power voted; all had their sign-in link
    for p in addr:
        for msg in relay.to(addr[p]):
            assert not [o for o in POWERS if o != p and f"{o} voted" in text(msg)], (p, msg["Subject"])
        for msg in judge_mail(relay, addr[p]):
            signs_in(r, msg)
    subjects = {m["Subject"].split("] ", 1)[1] for m in judge_mail(relay, addr["AUSTRIA"])}
    assert subjects == {"Welcome", "Started: S1901M", "Proposal: a draw between " + ", ".join(POWERS),
                        "Results of S1901M", "Proposal lapsed: a draw between " + ", ".join(POWERS),
                        "Proposal: a concession to FRANCE", "Proposal passed: a concession to FRANCE",
                        "Game over: conceded to FRANCE"}


def test_a_solo_names_the_last_phase_played_and_attaches_the_final_map(mail):
    relay, _stack, api, r = mail
    addr = addresses("solo", ["FRANCE", "ENGLAND"])
    game = new_game(api, addr, start=SOLO_START)
    assert game.submit("FRANCE", ["A PIE - VEN", "A MUN H"]).status_code == 200
    assert game.director_action("adjudicate").status_code == 200
    for p in addr:
        over = relay.wait(addr[p], "Game over: FRANCE wins (a solo)")[0]
        body = text(over)
        assert "is over: FRANCE wins (a solo). A power reached the centres for victory." in body
        assert "It ended when F1905M was adjudicated; that was the last phase played." in body
        assert "W1905A" not in body and "S1906M" not in body  # never played
        assert re.search(r"^  FRANCE +18$", body, re.M) and re.search(r"^  ENGLAND +0  \(eliminated in 1904\)$",
                                                                      body, re.M)
        assert "Scores" not in body  # a game of no tournament has no scoring system
        the_map(api, over, game.id)
        signs_in(r, over)


def test_the_coin_toss_is_announced_when_it_is_shown(mail):
    relay, _stack, api, r = mail
    addr = addresses("toss", ["ENGLAND", "AUSTRIA"])
    game = new_game(api, addr, list(addr), variant="two_player_1914", rules={"italy_joins": 2})
    for p in addr:
        started = relay.wait(addr[p], "Started: S1914M")[0]
        assert "You play" in text(started) and "coin toss" not in text(started)
        the_map(api, started, game.id, "S1914M")
    for phase in ("S1914M", "F1914M"):
        assert game.director_action("adjudicate").status_code == 200
        for p in addr:
            relay.wait(addr[p], f"Results of {phase}")
    game.wait_phase("S1915M")
    for p in addr:
        spring, fall = (text(relay.wait(addr[p], f"Results of {phase}")[0]) for phase in ("S1914M", "F1914M"))
        assert "coin toss" not in spring and "Italy joins" not in spring
        assert ("The coin toss (rules 13.6): Italy joins AUSTRIA, GERMANY, TURKEY, played by Austria. "
                "From Spring 1915") in fall
    assert api.get(game.path).json()["rules"]["italy_joins"] == 2

    # a game that starts after the toss: its start notice announces it
    later = new_game(api, {"AUSTRIA": "austria.late-toss@players.test"}, list(addr), variant="two_player_1914",
                     rules={"italy_joins": 1}, start={"phase": "S1915M", **{
                         k: v for k, v in api.get(game.path).json()["position"].items() if k in ("units", "centers")}})
    started = text(relay.wait("austria.late-toss@players.test", "Started: S1915M")[0])
    assert "The coin toss (rules 13.6): Italy joins ENGLAND, FRANCE, RUSSIA, played by England." in started
    assert api.get(later.path).json()["rules"]["italy_joins"] == 1


def test_a_takeover_welcome_describes_the_game_in_play(mail):
    relay, _stack, api, r = mail
    game = new_game(api, {})  # nobody has an address: the newcomer's welcome alone
    assert game.director_action("seats/TURKEY/open", json={"reason": "vanished"}).status_code == 200
    newcomer = "nia.takeover@players.test"
    joined = api.post(f"{game.path}/players", json={"name": "Nia", "power": "TURKEY", "email": newcomer})
    assert joined.status_code == 201, joined.text
    welcome = relay.wait(newcomer, "Welcome")[0]
    body = text(welcome)
    assert "You are player p8 and take over TURKEY from the player before you." in body
    assert "The game is in play: phase S1901M, orders due " in body and "TURKEY must order in this phase." in body
    assert "TURKEY (3 centres: ANK CON SMY)\n  A CON, A SMY, F ANK" in body
    assert "FRANCE" not in body and "every seat is taken" not in body
    assert joined.json()["token"] in body
    signs_in(r, welcome)
