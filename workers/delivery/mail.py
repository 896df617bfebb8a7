"""E-mail out of the service: the outbox, its delivery job, signed reply addresses,
and the events listener that turns what happens at a game into messages.

* **Outbox.** :func:`queue` stores a whole message in Redis
  (``keys.mail_out``) and enqueues :func:`send` for it, both in the caller's
  transaction.  The job hands the message to the relay named by ``SMTP_URL``
  (``smtp://`` or ``smtps://``, optional ``user:password@``) and deletes it
  only once the relay has accepted it; a refused or unreachable relay makes
  the job fail and RQ retries it (``RETRY``), the message still waiting.
  With no ``SMTP_URL`` the message is added to a Maildir (``mailbox.Maildir``;
  ``MAIL_OUTBOX``, default ``$DATA_DIR/outbox``, i.e. ``data/outbox``) and
  logged, so nothing is lost on a laptop.
* **Signed reply addresses.** Every message to a player has as ``Reply-To``
  ``<local>+<game>-<player>-<signature>@<domain>`` (from ``MAIL_FROM``): an
  HMAC (key ``MAIL_SECRET``, or one made once and kept in Redis) of the game
  and player.  Mail to that address is the player's, whoever the ``From`` says.
* **Events.** :func:`on_event` (a listener of ``workers.delivery.events``) sends the
  results after each phase to every player with an address, a reminder to the
  players of powers without orders (``deadline_approaching``), a late notice
  (``deadline_passed``) and the end of the game.  Each event is handled once
  per game (``keys.mail_done``): the messages and the mark are one transaction.
  The results carry the map of the phase just adjudicated, its orders and
  their outcomes drawn (docs/maps.md), as a PNG attachment.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import mailbox
import re
import secrets
import smtplib
import ssl
import time
import uuid
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formataddr, formatdate, make_msgid, parseaddr
from urllib.parse import unquote, urlsplit

from rq import Retry

from ..core import keys, sessions
from ..core.machine import GameStatus
from ..core.outcome import JobOutcome
from ..core.records import GameRecord, MailOut, PlayerRecord
from ..core.settings import current as settings
from ..core.store import hash_token
from ..core.text import one_line
from .notices import MESSAGES, in_play_text

log = logging.getLogger("rq.worker.mail")  # the worker's log handler shows it
RETRY = Retry(max=10, interval=[5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600])
SMTP_TIMEOUT = 20
POLICY = SMTP.clone(cte_type="7bit")  # non-ASCII text goes quoted-printable or base64
#: a message id a reply may name: printable ASCII, no spaces, one @ (RFC 5322's msg-id, simply)
MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}@[!-;=?-~]{1,250}>")


# ---------------------------------------------------------------- addresses
def service_address() -> str:
    return settings().mail_from


def _secret(r) -> bytes:
    if settings().mail_secret:
        return settings().mail_secret.encode()
    r.set(keys.mail_secret(), secrets.token_hex(32), nx=True)
    return r.get(keys.mail_secret()).encode()


def _sign(r, text: str, length: int = 20) -> str:
    return hmac.new(_secret(r), text.encode(), hashlib.sha256).hexdigest()[:length]


def reply_address(r, gid: str, pid: str) -> str:
    """The player's signed address: mail to it acts as that player."""
    local, _, domain = service_address().partition("@")
    return f"{local}+{gid}-{pid}-{_sign(r, f'reply:{gid}:{pid}')}@{domain}"


def signed_player(r, address: str) -> tuple[str, str] | None:
    """``(game, player)`` if ``address`` is a correctly signed reply address, else None."""
    local = parseaddr(address)[1].partition("@")[0].lower()
    tag = local.partition("+")[2]
    parts = tag.split("-")
    if len(parts) != 3:
        return None
    gid, pid, sig = parts
    return (gid, pid) if hmac.compare_digest(sig, _sign(r, f"reply:{gid}:{pid}")) else None


def press_address(r, gid: str, pid: str, mid: str) -> str:
    """The player's signed address for answering message ``mid`` (its public id): mail to it is press
    back to that message's group."""
    local, _, domain = service_address().partition("@")
    return f"{local}+{gid}-{pid}-{mid}-{_sign(r, f'press:{gid}:{pid}:{mid}')}@{domain}"


def signed_press(r, address: str) -> tuple[str, str, str] | None:
    """``(game, player, message id)`` if ``address`` is a correctly signed press address, else None."""
    local = parseaddr(address)[1].partition("@")[0].lower()
    parts = local.partition("+")[2].split("-")
    if len(parts) != 4 or not re.fullmatch(r"m[0-9a-f]{1,24}", parts[2]):
        return None
    gid, pid, mid, sig = parts
    return (gid, pid, mid) if hmac.compare_digest(sig, _sign(r, f"press:{gid}:{pid}:{mid}")) else None


def mail_token(r, gid: str, pid: str) -> str:
    """A player token derived from the secret, for mail that came to the signed address:
    registered (its hash) in the game's tokens on first use, so that mail calls the
    same token-checked methods of ``workers.tables.games`` as the API."""
    token = f"mail-{_sign(r, f'token:{gid}:{pid}', 40)}"
    r.hsetnx(keys.tokens(gid), hashlib.sha256(token.encode()).hexdigest(), pid)
    return token


# ---------------------------------------------------------------- incoming mail handled once
SEEN_TTL = 7 * 86400  # seconds a message handled is remembered (a resent copy is not handled again)


def seen(r, digest: str) -> bool:
    """Whether the incoming message whose SHA-256 is ``digest`` was handled already."""
    return bool(r.exists(keys.mail_seen(digest)))


def mark_seen(pipe, digest: str, sender: str) -> None:
    """Queue (after MULTI, with the reply): the message ``digest`` from ``sender`` is handled."""
    pipe.set(keys.mail_seen(digest), f"replied to {sender}", ex=SEEN_TTL)


# ---------------------------------------------------------------- outbox
def compose(to: str, subject: str, body: str, reply_to: str | None = None, in_reply_to: str | None = None,
            auto: str = "auto-generated") -> EmailMessage:
    """A message; every header is one line whatever the values hold (a game's name stored with a line
    break, say), and ``in_reply_to`` is left out unless it is a plain message id."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = formataddr(("Diplomacy judge", service_address()))
    msg["To"] = one_line(to)
    msg["Subject"] = one_line(subject)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid("dip", service_address().partition("@")[2] or "localhost")
    msg["Reply-To"] = one_line(reply_to or service_address())
    msg["Auto-Submitted"] = auto  # RFC 3834: no auto-reply loops
    if in_reply_to and MESSAGE_ID.fullmatch(in_reply_to):
        msg["In-Reply-To"] = msg["References"] = in_reply_to
    msg.set_content(body)
    return msg


def queue(store, pipe, msg: EmailMessage, mid: str | None = None, private: bool = False) -> str:
    """Queue (in ``pipe``'s transaction, after MULTI) ``msg`` in the outbox and its delivery job.
    A ``private`` message (press) is logged without its recipients or subject."""
    mid = mid or uuid.uuid4().hex
    to = [addr for _name, addr in [parseaddr(a) for a in msg.get_all("To", [])] if addr]
    pipe.hset(keys.mail_out(mid), mapping=MailOut(msg.as_string(), to, str(msg["Subject"]), time.time(),
                                                   private).save())
    store.enqueue(pipe, "workers.runtime.jobs.send_mail", mid, job_id=f"mail-{mid}", retry=RETRY)
    return mid


def send(store, mid: str) -> JobOutcome:
    """The delivery job: hand message ``mid`` to the relay (or the Maildir), then forget it."""
    r = store.r
    found = r.hgetall(keys.mail_out(mid))
    if not found:
        return JobOutcome.noop("already delivered")
    record = MailOut.restore(found)
    url = store.settings.smtp_url
    if url:
        refused = _relay(url, record.to, record.raw)
        if refused:
            r.hset(keys.mail_out(mid), mapping=MailOut.encode(refused=refused))
            log.warning("mail %s: the relay refused %s for good", mid,
                        f"{len(refused)} recipients" if record.private else refused)
        where = urlsplit(url).hostname
    else:
        where = _maildir(store.settings.mail_outbox, mid, record.raw)
    r.delete(keys.mail_out(mid))
    what = "private" if record.private else f"to {', '.join(record.to)}, {record.subject!r}"
    log.info("mail %s %s: delivered to %s", mid, what, where)
    return JobOutcome.did(f"delivered to {where}")


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS settings of every connection to the relay: made once a process, since reading the
    system's certificates takes tens of milliseconds, more than sending a message."""
    return ssl.create_default_context()


def _relay(url: str, to: list[str], raw: str) -> dict:
    """Send through the relay; returns the recipients it refused permanently.  A
    temporary refusal or an unreachable relay raises, so the job is retried."""
    u = urlsplit(url)
    if u.scheme not in ("smtp", "smtps"):
        raise ValueError(f"SMTP_URL must start with smtp:// or smtps://, not {u.scheme}://")
    if u.scheme == "smtps":
        client = smtplib.SMTP_SSL(u.hostname, u.port or 465, timeout=SMTP_TIMEOUT, context=_tls())
    else:
        client = smtplib.SMTP(u.hostname, u.port or 25, timeout=SMTP_TIMEOUT)
    with client:
        client.ehlo()
        if u.scheme == "smtp" and client.has_extn("starttls"):
            client.starttls(context=_tls())
            client.ehlo()
        if u.username:
            client.login(unquote(u.username), unquote(u.password or ""))
        try:
            refused = client.sendmail(service_address(), to, raw.encode())
        except smtplib.SMTPRecipientsRefused as e:
            refused = e.recipients
        except smtplib.SMTPResponseException as e:
            if 500 <= e.smtp_code < 600:
                return {addr: [e.smtp_code, str(e.smtp_error)] for addr in to}
            raise
    permanent = {a: [c, str(m)] for a, (c, m) in refused.items() if 500 <= c < 600}
    if len(permanent) < len(refused):
        raise smtplib.SMTPException(f"temporarily refused: {refused}")
    return permanent


def _maildir(box, mid: str, raw: str) -> str:
    """Add the message to the Maildir ``box`` (made if missing); returns where it is."""
    key = mailbox.Maildir(box, create=True).add(raw)
    log.info("mail %s is %s in the Maildir %s", mid, key, box)
    return f"{box}/new/{key}"


# ---------------------------------------------------------------- the messages
FOOTER = ("\n\n--\nReply to this message to send commands or orders; the reply address is yours "
          "(keep it private).  Send HELP for the commands.\n")


SIGNIN = "To play in your browser, sign in with this link (it works once, within 7 days):"


def signin_link(pipe, gid: str, digest: str | None) -> str:
    """Queue (after MULTI) a one-time sign-in code for the token whose hash is ``digest`` in game
    ``gid``; the lines of the message that give its link ("" without a token to sign in with)."""
    if not digest:
        return ""
    return f"\n\n{SIGNIN}\n\n    {signin_url(pipe, gid, digest)}\n"


def signin_url(pipe, gid: str, digest: str) -> str:
    """Queue (after MULTI) a one-time sign-in code for the token whose hash is ``digest`` in game ``gid``;
    its link."""
    return f"{settings().public_url}/signin/{sessions.make_code(pipe, sessions.Place('game', gid), digest)}"


def token_digests(r, gid: str) -> dict[str, str]:
    """Each player's token hash in game ``gid`` (one of them, for a player with several)."""
    return {pid: digest for digest, pid in r.hgetall(keys.tokens(gid)).items()}


def subject(g: dict, text: str) -> str:
    return f"[dip {g.id}{' ' + g.name if g.name else ''}] {text}"


def welcome(store, pipe, g: GameRecord, player: PlayerRecord, token: str) -> None:
    """Queue (after MULTI) the welcome of a player who joined with an address: to a game forming, or
    to the open seat of a game in play (``g``: the game as the player joins it)."""
    if g.status == GameStatus.FORMING:
        plays = f"play {', '.join(player.powers) or 'a power drawn when the game starts'}"
        now = "The game starts when every seat is taken; you will be told then."
    else:
        plays = f"take over {' and '.join(player.powers)} from the player before you"
        now = in_play_text(g, player.powers)
    body = (f"Welcome to game {g.id} {g.name} ({g.variant}), {player.name}.\n\n"
            f"You are player {player.id} and {plays}.\n"
            f"Your player token (keep it secret; the API needs it, and mail can carry it):\n\n"
            f"    {token}\n\n"
            f"To send orders by mail, reply to this message with one order per line, e.g.\n\n"
            f"    A PAR - BUR\n    F BRE - MAO\n\nor write to {service_address()} with\n\n"
            f"    GAME {g.id}\n    TOKEN {token}\n    ORDERS\n    A PAR - BUR\n    END\n\n"
            f"{now}{signin_link(pipe, g.id, hash_token(token))}")
    queue(store, pipe, compose(player.email, subject(g, "Welcome"), body + FOOTER,
                               reply_address(store.r, g.id, player.id)), f"welcome-{g.id}-{player.id}")


def press(store, pipe, g: GameRecord, player: PlayerRecord, shown: dict, answers: str) -> None:
    """Queue (after MULTI) message ``shown`` (as ``player`` may see it) to ``player``'s address,
    with the player's signed press address as ``Reply-To``; ``answers`` says who a reply reaches."""
    sender = shown["from"] or "an unknown power (grey press)"
    to = ("all the powers (a broadcast)" if shown["to"] == "all"
          else ", ".join(shown["to"]) if shown["to"] else "you")
    head = f"Press in game {g.id}, {shown['phase']}, {shown['sent_at']}\nFrom: {sender}\nTo: {to}\n\n"
    link = signin_link(pipe, g.id, token_digests(store.r, g.id).get(player.id))
    foot = (f"\n\n--\nA reply to this message is press to {answers}: its whole text, quotes and signature "
            f"left out. For orders and commands, reply to another message from the judge.\n{link[1:]}")
    title = f"{'Broadcast' if shown['to'] == 'all' else 'Press'} from {shown['from'] or 'an unknown power'}"
    msg = compose(player.email, subject(g, title), head + shown["body"] + foot,
                  press_address(store.r, g.id, player.id, shown["id"]))
    mid = hashlib.sha256(f"press:{g.id}:{shown['id']}:{player.id}".encode()).hexdigest()[:32]
    queue(store, pipe, msg, mid, private=True)


def on_event(store, event: dict) -> JobOutcome:
    """The events listener: the messages an event of a game means, queued once."""
    make = MESSAGES.get(event["type"])
    if event["table"] != "game" or make is None:
        return JobOutcome.noop("nothing to mail")
    gid = event["table_id"]
    found = store.r.hgetall(keys.game(gid))
    if not found:
        return JobOutcome.noop("no such game")
    g = GameRecord.restore(found)
    players = PlayerRecord.loads_all(store.r.hvals(keys.players(gid)))
    notice = make(store.r, g, event["data"], players)
    recipients = [p for p in players if p.email and (notice.powers is None or notice.powers & set(p.powers))]
    digests = token_digests(store.r, gid) if recipients else {}
    picture = None  # the map, drawn once for every recipient, before the transaction
    if recipients and notice.picture and not store.r.sismember(keys.mail_done(gid), event["id"]):
        picture = notice.picture()
    attached = f"\nAttached: {picture[0]}, the map of {picture[2]}.\n" if picture else ""

    def commit(pipe):
        if pipe.sismember(keys.mail_done(gid), event["id"]):
            return JobOutcome.noop("mailed already")
        pipe.multi()
        pipe.sadd(keys.mail_done(gid), event["id"])
        for p in recipients:
            text = notice.text(p) + attached + signin_link(pipe, gid, digests.get(p.id)) + FOOTER
            msg = compose(p.email, subject(g, notice.title), text, reply_address(store.r, gid, p.id))
            if picture:
                msg.add_attachment(picture[1], maintype="image", subtype="png", filename=picture[0])
            queue(store, pipe, msg, hashlib.sha256(f"{event['id']}:{p.id}".encode()).hexdigest()[:32])
        return JobOutcome.did(f"queued {len(recipients)} messages")

    return store.transact([keys.mail_done(gid)], commit)


def tournament_slip(store, pipe, to: str, about: dict, seat: dict) -> None:
    """Queue (after MULTI) a tournament player's slip for a round: the board, the power, the game, the
    player token and a sign-in link (``seat``: player, name, and board, game, power, token, signin; without a board, the
    player sits the round out with a bye).  ``about``: the tournament's id, name, round and ends_at."""
    title = about["name"] or f"tournament {about['tournament']}"
    ends = f"\nThe round ends at {about['ends_at']} (UTC).\n" if about.get("ends_at") else ""
    if "board" not in seat:
        head, body = f"Round {about['round']}: a bye", (
            f"{seat['name']}, you sit out round {about['round']} of {title} with a bye; the standings give "
            f"you the tournament's bye score for it.\n{ends}")
    else:
        head = f"Round {about['round']}: board {seat['board']}, {seat['power']}"
        body = (f"{seat['name']}, in round {about['round']} of {title} you play {seat['power']} "
                f"on board {seat['board']} (game {seat['game']}).\n{ends}\n"
                f"Your player token for this board (keep it secret; the API and mail commands need it):\n\n"
                f"    {seat['token']}\n\n"
                f"{SIGNIN}\n\n    {seat['signin']}\n\n"
                f"By mail, write to {service_address()} with\n\n"
                f"    GAME {seat['game']}\n    TOKEN {seat['token']}\n    ORDERS\n    A PAR - BUR\n    END\n")
    msg = compose(to, f"[dip {title}] {head}", body)
    queue(store, pipe, msg, f"slip-{about['tournament']}-{about['round']}-{seat['player']}")
