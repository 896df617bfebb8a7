"""Press by mail (the press contract; docs/email.md): the judge's commands

    PRESS [GREY] [FAKE] [FROM <power>] TO <powers> ... ENDPRESS    (TO ALL is a broadcast)
    BROADCAST [GREY] [FROM <power>] ... ENDPRESS

whose lines up to ``ENDPRESS`` are the message as written, and replies to a press message: mail to
its signed press address (``workers.delivery.mail.press_address``) is press back to that message's
group, its whole text (quotes and signature left out, as for orders).  Both call the same
``workers.tables.press`` methods, with the same token checks, as the API.  A message handled twice
(the same bytes delivered again) sends its press once: each block's *source* is the message's
digest and the block's line.
"""
from __future__ import annotations

import re

from adjudicator import diplomacy
from workers.core.errors import GameError

from .parse import Incoming

WORDS = ("PRESS", "BROADCAST")
END = "ENDPRESS"
MAX_BLOCKS = 10  # press blocks one mail may send; the rest are refused
OPTIONS = ("GREY", "GRAY", "WHITE", "FAKE", "TO", "ALL", "FROM")


def end_of(lines: list[str], start: int) -> int:
    """The line of the ``ENDPRESS`` that closes the block opened at ``start`` (``len(lines)``: none)."""
    return next((i for i in range(start + 1, len(lines)) if lines[i].split()[0].upper() == END), len(lines))


def tidy(lines: list[str]) -> str:
    """Lines as a message body: no blank lines at either end, no more than one blank line in a row."""
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def body(msg: Incoming, start: int, end: int) -> str:
    """The text between the command line ``start`` and ``end`` (its ENDPRESS), as written."""
    last = msg.spans[end] if end < len(msg.lines) else len(msg.text)
    return tidy(msg.text[msg.spans[start] + 1:last])


def header(line: str, variant: str) -> dict:
    """What a PRESS or BROADCAST line asks for: ``to`` (powers or "all"), ``grey`` (None: the game's
    default), ``fake_broadcast``, ``sender`` (None: the player's only power).  A power is its name
    or, where no other power shares it, its initial."""
    powers = diplomacy.variant_info(variant)["powers"]
    words = [w.strip(",;").upper() for w in line.split()]
    spec = {"to": "all" if words[0] == "BROADCAST" else None, "grey": None, "fake_broadcast": False, "sender": None}
    named: list[str] = []
    where = None  # what a power names: after TO a recipient, after FROM the sender
    for w in filter(None, words[1:]):
        if w in ("GREY", "GRAY", "WHITE"):
            spec["grey"] = w != "WHITE"
        elif w == "FAKE":
            spec["fake_broadcast"], where = True, None
        elif w == "BROADCAST" and spec["fake_broadcast"]:
            continue  # FAKE BROADCAST
        elif w in ("TO", "FROM"):
            where = w
        elif w == "ALL" and where == "TO":
            spec["to"] = "all"
        else:
            power = _power(w, powers)
            if where == "FROM":
                spec["sender"], where = power, None
            elif where == "TO":
                named.append(power)
            else:
                raise GameError(f"'{w}': write TO before the powers the press is for")
    if words[0] == "BROADCAST" and named:
        raise GameError("BROADCAST goes to every power; for some of them write PRESS TO <powers>")
    if spec["to"] is None:
        if not named:
            raise GameError("PRESS needs TO and the powers it is for: PRESS TO GERMANY ITALY")
        spec["to"] = named
    return spec


def _power(word: str, powers: list[str]) -> str:
    if word in powers:
        return word
    found = [p for p in powers if p.startswith(word)] if len(word) == 1 else []
    if len(found) == 1:
        return found[0]
    raise GameError(f"'{word}' is not a power of this game ({', '.join(powers)})")


def recipients(shown: dict) -> str:
    if shown["to"] is None:
        return f"the sender of {shown['in_reply_to']} (grey press: unknown to you)"
    return "every power (a broadcast)" if shown["to"] == "all" else ", ".join(shown["to"])


def sent(shown: dict) -> str:
    kind = " grey" if shown["grey"] else ""
    kind += " fake broadcast" if shown.get("fake_broadcast") else ""
    return f"Sent{kind} press {shown['id']} ({shown['phase']}) to {recipients(shown)}."


def command(inbox, s, msg: Incoming, start: int, end: int) -> list[str]:
    """Run the PRESS or BROADCAST block from line ``start`` to ``end``; the reply's lines."""
    lines = msg.lines
    out = [f"> {lines[start]}", f"  ({end - start - 1 if end < len(lines) else len(lines) - start - 1} lines)"]
    try:
        inbox._need_player(s)
        s.press_blocks += 1
        if s.press_blocks > MAX_BLOCKS:
            raise GameError(f"a mail sends at most {MAX_BLOCKS} press messages; send the rest in another")
        if refusal := inbox.limits.press_refusal(s.gid, s.player.id):
            raise GameError(refusal)
        state = inbox.games.views.public_state(s.gid)
        spec = header(lines[start], state["variant"])
        power = inbox._power(s, [spec["sender"]] if spec["sender"] else [])
        shown = inbox.games.press.send(s.gid, s.token, power, spec["to"], body(msg, start, end), spec["grey"],
                                       spec["fake_broadcast"], source=f"{s.digest}:{start}")
        out.append("  " + sent(shown))
        if end >= len(lines):
            out.append(f"  (no {END}: the press ran to the end of the message)")
    except GameError as e:
        out.append(f"  Refused: {e.detail}")
    out.append("")
    return out


def reply(inbox, s, msg: Incoming) -> list[str]:
    """A reply to press message ``s.press_reply``: its whole text is press back to the group."""
    try:
        if refusal := inbox.limits.press_refusal(s.gid, s.player.id):
            raise GameError(refusal)
        shown = inbox.games.press.reply(s.gid, s.token, s.press_reply, tidy(msg.text), source=s.digest)
        return [f"Your reply to {s.press_reply}: " + sent(shown)]
    except GameError as e:
        return [f"Your reply to {s.press_reply} was refused: {e.detail}"]
