"""Mail commands as a player of several powers, and answers a player reads by mail in words
(docs/email.md): one order list for several powers, READY for one power, PROPOSALS, one "Re:"."""
from __future__ import annotations

from service.mail.commands import Inbox, Session, proposal_text, re_subject
from service.mail.parse import parse
from tests.service.gamekit import LONG
from workers.tables.games import Games


def _run(inproc, text: str) -> str:
    raw = f"From: p@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\n\r\n{text}\r\n".encode()
    msg = parse(raw, [], None)
    return "\n".join(Inbox(Games(inproc.store)).run(msg, Session(msg)))


def _three_player_game(api) -> tuple[str, dict]:
    created = api.post("/v1/games", json={"variant": "three_player_a", "assignment": "chosen", "deadlines": LONG})
    gid = created.json()["game"]["id"]
    tokens = {}
    for power in ("RUSSIA", "ENGLAND", "AUSTRIA"):
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power})
        assert joined.status_code == 201, joined.text
        tokens[power] = joined.json()["token"]
    return gid, tokens


def test_one_order_list_for_a_seat_of_several_powers(api, inproc):
    gid, tokens = _three_player_game(api)
    reply = _run(inproc, f"GAME {gid}\nTOKEN {tokens['ENGLAND']}\nF LON - NTH\nA PAR - BUR\nA MUN - RUH\nA LVP - YOR")
    assert "for ENGLAND" in reply and "for FRANCE" in reply and "for GERMANY" in reply, reply
    mine = api.get(f"/v1/games/{gid}/orders", token=tokens["ENGLAND"]).json()["powers"]
    assert mine["ENGLAND"]["orders"] == ["F LON - NTH", "A LVP - YOR"] and mine["FRANCE"]["orders"] == ["A PAR - BUR"]
    assert mine["GERMANY"]["orders"] == ["A MUN - RUH"]
    refused = _run(inproc, f"GAME {gid}\nTOKEN {tokens['ENGLAND']}\nA MOS - UKR")
    assert "names no unit of" in refused and "name the power" in refused


def test_ready_names_one_power(api, inproc):
    gid, tokens = _three_player_game(api)
    reply = _run(inproc, f"GAME {gid}\nTOKEN {tokens['ENGLAND']}\nREADY FRANCE")
    assert "FRANCE ready" in reply, reply
    assert api.get(f"/v1/games/{gid}").json()["ready"] == ["FRANCE"]
    other = _run(inproc, f"GAME {gid}\nTOKEN {tokens['ENGLAND']}\nREADY RUSSIA")
    assert "RUSSIA is not your power" in other


def test_proposals_in_words_and_one_re():
    open_draw = {"id": "0123456789ab", "kind": "draw", "members": ["ENGLAND", "FRANCE"], "phase": "S1902M",
                 "status": "open", "your_votes": {"FRANCE": "yes"}}
    text = proposal_text(open_draw)
    assert text == ("0123456789ab: a draw between ENGLAND, FRANCE, proposed in S1902M: open (FRANCE voted yes). "
                    "Vote with VOTE 0123456789ab YES or VOTE 0123456789ab NO.")
    assert "{" not in proposal_text({**open_draw, "kind": "concession", "to": "TURKEY", "status": "lapsed"})
    assert re_subject("Re: RE: re:Orders") == "Re: Orders" and re_subject("") == "Your message to the judge"
