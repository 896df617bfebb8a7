"""The mail interface's commands, one per line, run against the same ``workers.tables.games`` methods
(and token checks) as the HTTP routes, and the reply that says, command by command, what was done.

A message is authenticated by a signed reply address among its recipients
(``workers.delivery.mail.signed_player``) or by ``GAME <id>`` and ``TOKEN <token>``
lines, never by its ``From``.  Lines that are not commands are orders: a run
of them is one block, which replaces the orders of its power for the phase
(``ORDERS [POWER] [PHASE]`` names them; ``END`` closes a block).  docs/email.md
is the players' reference.
"""
from __future__ import annotations

import hashlib
import logging
import re
from datetime import datetime, timezone

import redis
from marshmallow import ValidationError

from workers.delivery import mail as outbox
from workers.delivery import notices
from workers.core.errors import GameError, Invalid
from workers.core.records import PlayerRecord
from workers.core.store import iso

from .. import schemas
from ..limits import MailLimits
from . import press as press_mail
from .parse import Incoming, parse

log = logging.getLogger("service.mail")
PHASE = re.compile(r"^[SFW][0-9]{4}[MRA]\Z")
IDS = {"game": (re.compile(r"[0-9a-f]{12}"), "12 lowercase hex digits, such as 4e0974c572a7"),
       "proposal": (re.compile(r"[0-9a-f]{12}"), "12 lowercase hex digits"),
       "absence": (re.compile(r"a[1-9][0-9]*"), "a1, a2, ...")}
COMMANDS = ("HELP", "GAME", "TOKEN", "SIGNON", "JOIN", "ACCOUNT", "ORDERS", "END", "CLEAR", "READY", "NOT", "NOTREADY",
            "UNREADY", "STATUS", "HISTORY", "DRAW", "CONCEDE", "VOTE", "PROPOSALS", "ABSENCE", "ABSENCES",
            "APPROVE", "REJECT", "PRESS", "BROADCAST", "ENDPRESS")
HELP = """Commands (one per line, upper or lower case):
  SIGNON <game> [<power>] [<your name>]   take a seat (the power only in games where powers are chosen),
                              or take over the open seat of <power> in a game in play
  ACCOUNT <token>             with SIGNON: tie the seat to your account (its reliability record)
  GAME <game>                 the game the following lines are about
  TOKEN <token>               your player token (or the director's), after GAME
  ORDERS [<power>] [<phase>]  the order lines that follow (until END) replace your orders
  <order lines>               with no ORDERS line, a run of orders is a block just the same
  CLEAR [<power>]             withdraw your orders
  READY / NOT READY           say you are done (the phase closes early when every power is ready)
  STATUS                      the game, the position and your orders
  HISTORY [<phase>]           the results of the last (or the named) phase
  DRAW [<powers>] / CONCEDE <power> / VOTE <proposal> YES|NO / PROPOSALS   end the game by agreement
  ABSENCE <from> <to> / ABSENCE CANCEL <id> / ABSENCES    declare (dates YYYY-MM-DD, UTC) and list absences
  APPROVE <id> / REJECT <id>  decide an absence (director)
  PRESS [GREY] [FAKE] [FROM <power>] TO <powers>   press: the lines that follow, until ENDPRESS
  BROADCAST [GREY] [FROM <power>]                  press to every power, until ENDPRESS
  HELP                        this text
Replying to any message from the judge signs you in: its Reply-To is your own signed address.
A reply to a press message is press back to its group: its whole text, quotes and signature left out.

For example, a player of France replying to the judge's last message:

  A PAR - BUR
  A MAR S A PAR - BUR
  F BRE - MAO
  READY

A player of several powers may send one list: each order goes to the power whose unit it names.
  READY FRANCE                marks France alone ready; READY alone, every power you play
  PRESS TO GERMANY ... ENDPRESS   from your only power (name it with FROM if you play several)
  A YOR - NWY VIA NTH         a move by convoy, with its route"""


class TempFail(Exception):
    """The message cannot be handled now (Redis is unreachable): the sender should retry."""


class Session:
    """What a message has established so far: the game, and who is speaking."""

    def __init__(self, msg: Incoming):
        self.sender, self.sender_name = msg.sender, msg.sender_name
        self.gid: str | None = None
        self.token: str | None = None
        self.player: PlayerRecord | None = None
        self.director = False
        self.digest = ""  # the message's SHA-256: where its press came from
        self.press_reply: str | None = None  # the id of the press message this one answers (sent to its press address)
        self.account_token: str | None = None  # ACCOUNT <token>, anywhere in the message
        self.press_blocks = 0  # PRESS and BROADCAST blocks met so far (press_mail.MAX_BLOCKS)


class Inbox:
    """Handles one incoming message: runs its commands, queues the reply."""

    def __init__(self, games):
        self.games, self.store, self.r = games, games.store, games.r
        self.limits = MailLimits(self.store.url, self.store.settings)

    # ------------------------------------------------------------ the message
    def handle(self, raw: bytes, envelope_to=(), envelope_from: str | None = None) -> str:
        """Run a message's commands and queue the reply; returns a one-line summary."""
        try:
            return self._handle(raw, envelope_to, envelope_from)
        except redis.RedisError as e:
            raise TempFail(f"the game store is unreachable ({type(e).__name__}); try again later") from e

    def _handle(self, raw: bytes, envelope_to, envelope_from) -> str:
        digest = hashlib.sha256(raw).hexdigest()
        if outbox.seen(self.r, digest):
            return "already handled (the same message again)"
        msg = parse(raw, list(envelope_to), envelope_from)
        if msg.automatic:
            log.info("ignored an automatic message from %s: %r", msg.sender, msg.subject)
            return "ignored: automatic message"
        if not msg.sender:
            log.info("ignored a message without a sender address: %r", msg.subject)
            return "ignored: no address to reply to"
        subject = re_subject(msg.subject)
        try:  # applied and answered, or neither: a reply that cannot be written stops the message first
            outbox.compose(msg.sender, subject, "", None, msg.message_id).as_bytes()
        except Exception:
            log.exception("ignored a message whose reply cannot be written, from %r", msg.sender)
            return "ignored: no reply can be written to it"
        session = Session(msg)
        session.digest = digest
        out = self.run(msg, session)
        text = "\n".join(out) + "\n"
        try:
            reply = outbox.compose(msg.sender, subject, text, self._reply_to(session), msg.message_id,
                                   auto="auto-replied")
        except Exception:  # applied, so answered: what was done, if not the whole report
            log.exception("the reply to %r could not be written in full", msg.sender)
            reply = outbox.compose(msg.sender, subject, text.encode("utf-8", "replace").decode("utf-8"),
                                   self._reply_to(session), msg.message_id, auto="auto-replied")
        with self.r.pipeline() as pipe:
            pipe.multi()
            outbox.queue(self.store, pipe, reply)
            outbox.mark_seen(pipe, digest, msg.sender)
            pipe.execute()
        return f"replied to {msg.sender} ({len(msg.lines)} lines)"

    def _reply_to(self, s: Session) -> str | None:
        if s.player and s.gid:
            return outbox.reply_address(self.r, s.gid, s.player.id)
        return None

    def run(self, msg: Incoming, s: Session) -> list[str]:
        out: list[str] = []
        self._sign_in(msg, s, out)
        if s.press_reply is not None:
            return out + press_mail.reply(self, s, msg) + (["", "Notes:"] + [f"  {n}" for n in msg.notes]
                                                           if msg.notes else [])
        for line in msg.lines:  # ACCOUNT ties the seats the message's SIGNON takes, before or after it
            words = line.split()
            if words[0].upper() == "ACCOUNT" and len(words) == 2:
                s.account_token = words[1]
        if not msg.lines:
            out.append("Your message has no commands or orders in it.\n\n" + HELP)
        block: dict | None = None
        skip = -1  # the last line of a press block already sent
        for i, line in enumerate(msg.lines):
            if i <= skip:
                continue
            word = line.split()[0].upper()
            if word in COMMANDS:
                if block is not None:
                    self._orders(s, block, out)
                    block = None
                if word in ("END", press_mail.END):
                    continue
                if word in press_mail.WORDS:
                    skip = press_mail.end_of(msg.lines, i)
                    out += press_mail.command(self, s, msg, i, skip)
                    continue
                if word == "ORDERS":
                    block = {"header": line, "args": line.split()[1:], "lines": []}
                    continue
                out.append(f"> {line}")
                out.extend("  " + t for t in self._command(s, word, line.split()[1:]).splitlines())
                out.append("")
            else:
                if block is None:
                    block = {"header": None, "args": [], "lines": []}
                block["lines"].append(line)
        if block is not None:
            self._orders(s, block, out)
        if msg.notes:
            out += ["Notes:"] + [f"  {n}" for n in msg.notes]
        return out

    def _sign_in(self, msg: Incoming, s: Session, out: list[str]) -> None:
        subject_game = re.search(r"\[dip ([0-9a-f]{12})\b", msg.subject)
        if subject_game:
            s.gid = subject_game.group(1)
        for address in msg.recipients:
            if "+" not in address.partition("@")[0]:
                continue
            found = outbox.signed_player(self.r, address)
            answering = outbox.signed_press(self.r, address) if found is None else None
            if answering:
                found = answering[:2]
            if found is None:
                out.append(f"The address {address} is not a valid reply address (altered?); it was not used "
                           "to sign you in.\n")
                continue
            gid, pid = found
            seat = self.games.core.seat(self.r, gid, pid)
            if seat is None:
                continue
            if not seat.holds:  # given up (docs/seats.md): its address no longer plays
                out.append(f"Game {gid}: the seat of this reply address was given up; it no longer plays.\n")
                s.gid = gid
                continue
            token = outbox.mail_token(self.r, gid, pid)
            s.gid, s.player, s.token, s.director = gid, self.games.core.player_for(gid, token), token, False
            s.press_reply = answering[2] if answering else None
            out.append(f"Game {gid}: signed in as {s.player.name} ({', '.join(s.player.powers) or 'no power yet'}) "
                       "by your reply address.\n")
            return

    # ------------------------------------------------------------ commands
    def _command(self, s: Session, word: str, args: list[str]) -> str:
        handler = getattr(self, f"c_{'notready' if word in ('NOT', 'UNREADY') else word.lower()}")
        if refusal := self.limits.refusal(word, s.sender):
            return f"Refused: {refusal}"
        try:
            return handler(s, args)
        except GameError as e:
            return f"Refused: {e.detail}" + self._readings(e)
        except ValidationError as e:
            return "Refused: " + "; ".join(f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}"
                                           for k, v in _flat(e.messages).items())
        except redis.RedisError:
            raise
        except Exception:
            log.exception("mail command %s failed", word)
            return "Failed: an internal error; this command changed nothing."

    @staticmethod
    def _readings(e: GameError) -> str:
        readings = e.extra.get("orders") if isinstance(e, Invalid) else None
        return "\n" + _readings(readings) if readings else ""

    def _game(self, s: Session) -> str:
        if not s.gid:
            raise GameError("which game? Start with GAME <id>, or reply to a message from the judge")
        return s.gid

    def _need_player(self, s: Session) -> PlayerRecord:
        self._game(s)
        if not s.player:
            raise GameError("this needs you signed in: reply to a message from the judge, "
                            "or send GAME <id> and TOKEN <your token> first")
        return s.player

    def _power(self, s: Session, args: list[str]) -> str:
        player = self._need_player(s)
        named = [a.upper() for a in args if not PHASE.match(a.upper())]
        for name in named:
            if name not in player.powers:
                raise GameError(f"{name} is not your power; you play {', '.join(player.powers) or 'no power yet'}")
        if named:
            return named[0]
        if len(player.powers) == 1:
            return player.powers[0]
        raise GameError(f"name the power: you play {', '.join(player.powers) or 'no power yet'}")

    def c_help(self, s, args):
        return HELP

    def c_game(self, s, args):
        if len(args) != 1:
            raise GameError("GAME takes the game's id: GAME <id>")
        state = self.games.views.public_state(_id(args[0]))
        if s.gid != state["id"]:
            s.player, s.token, s.director = None, None, False
        s.gid = state["id"]
        return f"Game {state['id']} {state['name']} ({state['variant']}): {state['status']}" + (
            f", {state['phase']}" if state["phase"] else "")

    def c_token(self, s, args):
        gid = self._game(s)
        if len(args) != 1:
            raise GameError("TOKEN takes your token: TOKEN <token>")
        viewer = self.games.core.who(gid, args[0])
        if viewer.is_director:
            s.token, s.director, s.player = args[0], True, None
            return f"Signed in as the director of game {gid}."
        s.player, s.token, s.director = viewer.player(), args[0], False
        return f"Signed in as {s.player.name} ({', '.join(s.player.powers) or 'no power yet'})."

    def c_signon(self, s, args):
        if not args:
            raise GameError("SIGNON takes the game, then the power if powers are chosen, then your name")
        gid = _id(args[0])
        state = self.games.views.public_state(gid)
        powers = {p for grp in _variant_players(state["variant"]) for p in grp}
        power = args[1].upper() if len(args) > 1 and args[1].upper() in powers else None
        name = " ".join(args[2 if power else 1:]) or s.sender_name or s.sender.partition("@")[0]
        body = schemas.JoinSchema().load({"name": name[:50], **({"power": power} if power else {}),
                                          "email": s.sender})
        account = self.games.accounts.holder(s.account_token) if s.account_token else None
        _joined, token = self.games.setup.join(gid, body["name"], body.get("power"), body["email"], account)
        player = self.games.core.player_for(gid, token)
        s.gid, s.token, s.player, s.director = gid, token, player, False
        return (f"Signed on to game {gid} as {player.name}, player {player.id}"
                f"{', playing ' + ', '.join(player.powers) if player.powers else ''}.\n"
                f"A welcome message with your token was sent to {s.sender}.")

    c_join = c_signon

    def c_account(self, s, args):
        if len(args) != 1:
            raise GameError("ACCOUNT takes your account token: ACCOUNT <token>")
        aid = self.games.accounts.holder(args[0])
        return f"Account {aid}: the seat SIGNON takes in this message counts in its record."

    def c_clear(self, s, args):
        power = self._power(s, args)
        phase = next((a.upper() for a in args if PHASE.match(a.upper())), None)
        done = self.games.orders.clear(s.gid, s.token, power, phase)
        return f"Cleared the orders of {done['power']} for {done['phase']}."

    def c_ready(self, s, args):
        done = self.games.orders.set_ready(s.gid, s.token, True, self._named_powers(s, args))
        warning = (f" Warning: no orders are stored for {', '.join(done['without_orders'])}; its units hold "
                   "unless you send orders before the phase closes." if done["without_orders"] else "")
        return f"{', '.join(done['powers'])} ready in {done['phase']}; ready now: {', '.join(done['ready'])}.{warning}"

    def c_notready(self, s, args):
        done = self.games.orders.set_ready(s.gid, s.token, False, self._named_powers(s, args))
        return f"{', '.join(done['powers'])} not ready in {done['phase']}."

    def _named_powers(self, s: Session, args: list[str]) -> list[str] | None:
        """The powers a command names (``READY FRANCE``; ``NOT READY`` has READY as its first word),
        each one the player's; None: every power the player has."""
        player = self._need_player(s)
        named = [a.upper() for a in args if a.upper() != "READY"]
        for name in named:
            if name not in player.powers:
                raise GameError(f"{name} is not your power; you play {', '.join(player.powers) or 'no power yet'}")
        return named or None

    def c_status(self, s, args):
        gid = self._game(s)
        state = self.games.views.public_state(gid)
        text = notices.state_text(state)
        if s.player:
            own = self.games.views.own_orders(gid, s.token)
            for power, mine in own["powers"].items():
                orders = mine["orders"]
                if not mine["must_order"]:
                    text += f"\n\n{power} has nothing to order in this phase."
                    continue
                text += f"\n\nYour orders for {power}{' (ready)' if mine['ready'] else ''}:"
                text += ("\n  " + "\n  ".join(orders)) if orders else " none yet" if orders is None else " none"
        return text

    def c_history(self, s, args):
        gid = self._game(s)
        phases = self.games.views.history(gid)
        if not phases:
            return "No phase has been adjudicated yet."
        wanted = args[0].upper() if args else None
        found = [h for h in phases if h.phase == wanted and not h.superseded] if wanted else phases[-1:]
        if not found:
            raise GameError(f"no adjudicated phase {wanted}; the phases are {', '.join(h.phase for h in phases)}")
        h = found[-1]
        return (f"Phases: {', '.join(h.phase for h in phases)}\n\n"
                f"{h.phase} (closed by {h.closed_by or 'the deadline'}):\n{notices.results_text(h.results)}")

    # votes (draws and concessions) exist when workers.tables.games has them
    def _votes(self):
        votes = getattr(self.games, "votes", None)
        if votes is None:
            raise GameError("draw and concession votes are not available in this service yet")
        return votes

    def c_draw(self, s, args):
        votes, power = self._votes(), self._power(s, [])
        members = sorted({a.upper() for a in args}) or None
        p = votes.propose(s.gid, s.token, power, "draw", members, None)
        return f"Proposed a draw ({', '.join(p['members'] or [])}) as {power}: proposal {p['id']}, {p['status']}."

    def c_concede(self, s, args):
        votes, power = self._votes(), self._power(s, [])
        if len(args) != 1:
            raise GameError("CONCEDE takes the power conceded to: CONCEDE <power>")
        p = votes.propose(s.gid, s.token, power, "concession", None, args[0].upper())
        return f"Proposed a concession to {p['to']} as {power}: proposal {p['id']}, {p['status']}."

    def c_vote(self, s, args):
        votes = self._votes()
        if len(args) < 2 or args[1].upper() not in ("YES", "NO"):
            raise GameError("VOTE takes the proposal and YES or NO: VOTE <proposal> YES")
        power = self._power(s, args[2:])
        done = votes.vote(s.gid, s.token, _id(args[0], "proposal"), power, args[1].lower())
        return f"{power} voted {done['vote']} on proposal {done['proposal']}: it is {done['status']}."

    def c_proposals(self, s, args):
        found = self._votes().proposals(self._game(s), s.token)
        return "\n".join(proposal_text(p) for p in found) or "No proposals."

    # absences
    def c_absence(self, s, args):
        absences = self.games.absences
        if args and args[0].upper() == "CANCEL":
            if len(args) != 2:
                raise GameError("ABSENCE CANCEL takes the absence's id: ABSENCE CANCEL a1")
            done = absences.cancel(self._game(s), s.token, _id(args[1], "absence"))
            return f"Absence {done['id']} cancelled."
        self._need_player(s)
        if len(args) != 2:
            raise GameError("ABSENCE takes the first and last day away: ABSENCE 2026-07-01 2026-07-14")
        start, end = _when(args[0], False), _when(args[1], True)
        done = absences.declare(s.gid, s.token, start, end)
        return f"Absence {done['id']} from {done['start']} to {done['end']}: {done['status']}."

    def c_absences(self, s, args):
        found = self.games.absences.list(self._game(s))
        return "\n".join(f"{a['id']}: {a['player']} ({', '.join(a['powers'])}) {a['start']} to {a['end']}, "
                         f"{a['status']}" for a in found) or "No absences."

    def _decide(self, s, args, status):
        if len(args) != 1:
            raise GameError("give the absence's id, e.g. APPROVE a1")
        done = self.games.absences.decide(self._game(s), s.token, _id(args[0], "absence"), status)
        return f"Absence {done['id']} of {done['player']} ({done['start']} to {done['end']}): {done['status']}."

    def c_approve(self, s, args):
        return self._decide(s, args, "approved")

    def c_reject(self, s, args):
        return self._decide(s, args, "rejected")

    # ------------------------------------------------------------ orders
    def _orders(self, s: Session, block: dict, out: list[str]) -> None:
        out += [f"> {block['header']}"] if block["header"] else []
        out += [f"> {line}" for line in block["lines"]]
        try:
            if not s.player and not block["header"]:
                shown = block["lines"][:10]
                out.append("  Not understood: " + ("these lines are not commands" if len(shown) > 1
                                                  else "this line is not a command")
                           + (" (and orders need a game and your token or reply address)" if not s.player else "")
                           + ". Send HELP for the commands.")
                if len(block["lines"]) > 10:
                    out.append(f"  ({len(block['lines']) - 10} more lines not shown)")
                out.append("")
                return
            phase = next((a.upper() for a in block["args"] if PHASE.match(a.upper())), None)
            body = schemas.OrdersSchema().load({"orders": block["lines"], **({"phase": phase} if phase else {})})
            named = [a for a in block["args"] if not PHASE.match(a.upper())]
            if not named and len(s.player.powers) > 1:  # one list for a seat of several powers
                lists = self.games.orders.by_owner(s.gid, s.player.powers, body["orders"])
            else:
                lists = {self._power(s, block["args"]): body["orders"]}
            for power, orders in lists.items():
                done = self.games.orders.submit(s.gid, s.token, power, orders, body.get("phase"))
                out.append(f"  Stored {len(done['orders'])} order{'s' * (len(done['orders']) != 1)} for "
                           f"{done['power']} in {done['phase']} (they replace any earlier ones):")
                out.append(_readings(done["orders"]))
        except GameError as e:
            out.append(f"  Refused: {e.detail}" + ("; your earlier orders stay" if isinstance(e, Invalid) else ""))
            readings = e.extra.get("orders")
            if readings:
                out.append(_readings(readings))
        except ValidationError as e:
            out.append("  Refused: " + "; ".join(f"{k}: {v}" for k, v in _flat(e.messages).items())
                       + "; your earlier orders stay")
        except redis.RedisError:
            raise
        except Exception:  # as for a command: said in the reply, and the message is still answered
            log.exception("mail orders block failed")
            out.append("  Failed: an internal error; your earlier orders stay")
        out.append("")


def re_subject(subject: str) -> str:
    """The subject of an answer: one "Re:" however many the message had."""
    bare = re.sub(r"^(\s*re\s*:\s*)+", "", subject or "", flags=re.IGNORECASE)
    return f"Re: {bare}" if bare else "Your message to the judge"


def proposal_text(p: dict) -> str:
    """A proposal as a player reads it by mail, in words."""
    terms = (f"a draw between {', '.join(p.get('members') or [])}" if p["kind"] == "draw"
             else f"a concession to {p.get('to')}")
    mine = p.get("your_votes") or {}
    votes = "; ".join(f"{power} voted {vote}" for power, vote in sorted(mine.items()))
    return (f"{p['id']}: {terms}, proposed in {p['phase']}: {p['status']}"
            + (f" ({votes})" if votes else "") + "."
            + (f" Vote with VOTE {p['id']} YES or VOTE {p['id']} NO." if p["status"] == "open" else ""))


def _id(text: str, kind: str = "game") -> str:
    """An id as the API's paths take it (openapi.yaml's GameId, ProposalId, AbsenceId), so that no
    id by mail names another key either."""
    found = text.lower()
    if not IDS[kind][0].fullmatch(found):
        raise GameError(f"'{text[:40]}' is not a {kind} id: a {kind}'s id is {IDS[kind][1]}")
    return found


def _readings(readings: list[dict]) -> str:
    lines = []
    for r in readings:
        shown = r.get("order") or r.get("input")
        if r.get("valid"):
            lines.append(f"    {shown}")
        else:
            lines.append(f"    {r.get('input')!s:<24} INVALID (read as {shown}): {r.get('reason')}")
    return "\n".join(lines)


def _flat(messages, where: str = "") -> dict:
    if isinstance(messages, dict):
        out = {}
        for k, v in messages.items():
            out |= _flat(v, f"{where}.{k}" if where else str(k))
        return out
    return {where or "message": " ".join(map(str, messages)) if isinstance(messages, list) else str(messages)}


def _variant_players(variant: str) -> list[list[str]]:
    from workers.tables.games import engine
    return engine().variant_info(variant)["players"]


def _when(text: str, end: bool) -> float:
    """A day (YYYY-MM-DD, UTC; the end of it for ``end``) or an ISO time with a zone."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp()
            return day + (86400 if end else 0)
        found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise GameError(f"'{text}' is not a date: write YYYY-MM-DD (UTC) or an ISO time such as 2026-07-01T18:00Z")
    if found.tzinfo is None:
        raise GameError(f"'{text}' has no time zone: add Z for UTC, or +02:00")
    return found.timestamp()


__all__ = ["Inbox", "TempFail", "HELP", "iso"]
