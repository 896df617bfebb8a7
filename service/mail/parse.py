"""Reading an incoming message with the standard ``email`` package: who it is from, where it
was sent, and the lines of text a player wrote (the text part, or the HTML part as text;
charsets decoded; quoted replies, attributions and signatures left out; attachments noted
and ignored)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as POLICY
from email.utils import getaddresses, parseaddr

from workers.core.text import one_line
from workers.delivery.mail import MESSAGE_ID

MAX_TEXT = 64 * 1024  # characters of text read from a message
MAX_LINES = 300  # lines read from a message
#: an address a reply may go to: no space, control, line-break or bracket, one @
_ATOM = r"[^\s\x00-\x1f\x7f-\x9f\u2028\u2029<>()\[\]\\,;:\"@]"
ADDRESS = re.compile(rf"{_ATOM}{{1,64}}@{_ATOM}{{1,253}}")
WROTE = re.compile(r"(wrote|a écrit|schrieb|escribió|ha scritto)\s*:$", re.I)
SEPARATOR = re.compile(r"^(-{2,}\s*(original message|forwarded message|message d'origine|ursprüngliche nachricht)"
                       r"\s*-{2,}|begin forwarded message:|_{10,})$", re.I)


@dataclass
class Incoming:
    sender: str = ""  # where the reply goes: Reply-To, else From
    sender_name: str = ""
    subject: str = ""
    message_id: str | None = None
    recipients: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # the kept lines as written (blank ones too), for press
    spans: list[int] = field(default_factory=list)  # where in ``text`` each of ``lines`` is
    notes: list[str] = field(default_factory=list)
    automatic: bool = False  # an auto-reply, bounce or list mail: never answered (RFC 3834)


def _header(msg, name: str) -> str:
    try:
        return str(msg.get(name, "") or "")
    except Exception:  # a header the policy cannot parse: take it raw
        raw = msg.get_all(name, failobj=[""]) if hasattr(msg, "get_all") else [""]
        return str(raw[0]) if raw else ""


def _decode(part, notes: list[str]) -> str:
    try:
        return part.get_content()
    except (LookupError, UnicodeError, AssertionError, ValueError):
        payload = part.get_payload(decode=True) or b""
        charset = part.get_content_charset() or "utf-8"
        try:
            return payload.decode(charset, errors="replace")
        except LookupError:
            notes.append(f"unknown charset '{charset}': the text was read as UTF-8")
            return payload.decode("utf-8", errors="replace")


def html_to_text(html: str) -> str:
    """The text of an HTML part, one line per block or line break, quoted parts left out."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(["script", "style", "head", "blockquote"]):
        tag.decompose()
    for tag in soup.select(".gmail_quote, .gmail_signature, .moz-cite-prefix, .moz-signature, #divRplyFwdMsg"):
        tag.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    for tag in soup.find_all(["p", "div", "li", "tr", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "table"]):
        tag.insert_before("\n")
        tag.append("\n")
    return soup.get_text()


def body_text(msg: EmailMessage, notes: list[str]) -> str:
    """The message's text: its first text/plain part, else its first text/html part as text."""
    plain = html = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if part.get_content_disposition() == "attachment" or ctype not in ("text/plain", "text/html"):
            name = part.get_filename() or "unnamed"
            notes.append(f"ignored the attachment {name} ({ctype})")
            continue
        if ctype == "text/plain" and plain is None:
            plain = _decode(part, notes)
        elif ctype == "text/html" and html is None:
            html = _decode(part, notes)
    if plain is not None and plain.strip():
        return plain
    return html_to_text(html) if html is not None else ""


def kept_lines(text: str, notes: list[str]) -> list[str]:
    """The lines a player wrote, as written (right-trimmed, blank lines kept), quotes dropped, up to
    the signature (``-- ``), a reply's attribution (``On ... wrote:``) or a forwarded block."""
    if len(text) > MAX_TEXT:
        notes.append(f"the text is longer than {MAX_TEXT // 1024} KiB; only its start was read")
        text = text[:MAX_TEXT]
    out: list[str] = []
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if line == "--" or SEPARATOR.match(line):
            break
        if line.startswith(">") or line.startswith("|>"):
            continue
        if WROTE.search(line):
            last = next((i for i in range(len(out) - 1, -1, -1) if out[i].strip()), None)
            if (last is not None and re.match(r"^(on|le|am|el|il)\b", out[last].strip(), re.I)
                    and not re.match(r"^on\b", line, re.I)):
                del out[last:]  # the attribution wrapped onto two lines
            break
        out.append(raw.rstrip())
    return out


def command_lines(kept: list[str], notes: list[str]) -> tuple[list[str], list[int]]:
    """The non-blank ``kept`` lines with their spaces collapsed (what commands and orders are read
    from), and where each is in ``kept``."""
    found = [(" ".join(line.split()), i) for i, line in enumerate(kept) if line.strip()]
    if len(found) > MAX_LINES:
        notes.append(f"the message has more than {MAX_LINES} lines of text; only the first {MAX_LINES} were read")
        found = found[:MAX_LINES]
    return [line for line, _ in found], [i for _, i in found]


def _automatic(msg) -> bool:
    auto = _header(msg, "Auto-Submitted").strip().lower()
    precedence = _header(msg, "Precedence").strip().lower()
    sender = parseaddr(_header(msg, "From"))[1].lower()
    return ((auto not in ("", "no")) or precedence in ("bulk", "junk", "list") or bool(_header(msg, "List-Id"))
            or sender.startswith(("mailer-daemon@", "postmaster@")))


def _address(value: str) -> tuple[str, str]:
    """``(name, address)`` of a header's first address; ``("", "")`` unless the address is one a
    reply can go to as it is: an addr-spec with no space, control or line-break character."""
    try:
        name, address = parseaddr(value)
    except Exception:  # an encoded CR or LF in an address part: nobody to answer
        return "", ""
    return (one_line(name), address) if ADDRESS.fullmatch(address) else ("", "")


def parse(raw: bytes, envelope_to: list[str] | tuple = (), envelope_from: str | None = None) -> Incoming:
    """An :class:`Incoming` from the bytes of a message; never raises on bad input.  Its header values
    are safe to answer with: ``sender`` is empty (nobody to answer) unless the reply address is a
    plain address, ``message_id`` None unless it is a plain message id, the rest one line each."""
    try:
        return _parse(raw, envelope_to, envelope_from)
    except Exception:  # the parser is lenient; this is a last resort: nobody to answer, nothing applied
        return Incoming(notes=["the message could not be read as e-mail"], recipients=list(envelope_to))


def _parse(raw: bytes, envelope_to, envelope_from) -> Incoming:
    notes: list[str] = []
    msg = message_from_bytes(raw, policy=POLICY)
    incoming = Incoming(notes=notes)
    name, incoming.sender = _address(_header(msg, "Reply-To") or _header(msg, "From"))
    incoming.sender_name = name or _address(_header(msg, "From"))[0]
    incoming.subject = one_line(" ".join(_header(msg, "Subject").split()))[:200]
    message_id = _header(msg, "Message-ID").strip()
    incoming.message_id = message_id if MESSAGE_ID.fullmatch(message_id) else None
    heads = [_header(msg, h) for h in ("To", "Cc", "Delivered-To", "X-Original-To")]
    try:
        named = [a for _n, a in getaddresses([h for h in heads if h]) if a]
    except Exception:
        named = []
    incoming.recipients = list(dict.fromkeys([*envelope_to, *named]))  # each once: one note per address
    incoming.automatic = _automatic(msg) or envelope_from == ""
    try:
        incoming.text = kept_lines(body_text(msg, notes), notes)
        incoming.lines, incoming.spans = command_lines(incoming.text, notes)
    except Exception:
        notes.append("the message's text could not be read; send plain text")
    incoming.notes = list(dict.fromkeys(notes))
    return incoming
