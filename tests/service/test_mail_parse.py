"""Reading incoming mail (service.mail.parse): text and HTML parts, charsets, quotes,
signatures, attachments, size limits and junk, built with the standard email package."""
from __future__ import annotations

from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from service.mail.parse import MAX_LINES, parse


def _msg(body: str = "", subtype: str = "plain", charset: str = "utf-8", **headers) -> bytes:
    msg = MIMEText(body, subtype, charset)
    msg["From"] = headers.pop("From", "Marie <marie@players.test>")
    msg["To"] = headers.pop("To", "judge@dip.test")
    msg["Subject"] = headers.pop("Subject", "orders")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    return msg.as_bytes()


def test_plain_text_lines_are_trimmed_and_blank_lines_dropped():
    got = parse(_msg("  ORDERS FRANCE \n\n A PAR  -   BUR\nF BRE - MAO\n\nEND\n"))
    assert got.lines == ["ORDERS FRANCE", "A PAR - BUR", "F BRE - MAO", "END"]
    assert got.sender == "marie@players.test" and got.sender_name == "Marie" and not got.automatic


def test_quoted_reply_attribution_and_signature_are_ignored():
    body = ("A PAR - BUR\nF BRE - MAO\n\n-- \nMarie Curie\nA MAR - SPA\n")
    assert parse(_msg(body)).lines == ["A PAR - BUR", "F BRE - MAO"]
    reply = ("A PAR - BUR\n\nOn Tue, 3 Mar 2026 at 10:00, Diplomacy judge <\njudge+abc@dip.test> wrote:\n"
             "> Results of S1901M\n>   A MUN - BUR   succeeds\n")
    assert parse(_msg(reply)).lines == ["A PAR - BUR"]
    inline = "> quoted line\nA PAR - BUR\n> another\nREADY\n"
    assert parse(_msg(inline)).lines == ["A PAR - BUR", "READY"]
    outlook = "READY\n\n-----Original Message-----\nFrom: judge\nA MUN - BUR\n"
    assert parse(_msg(outlook)).lines == ["READY"]


def test_multipart_alternative_takes_the_text_part():
    msg = MIMEMultipart("alternative")
    msg["From"], msg["To"], msg["Subject"] = "a@players.test", "judge@dip.test", "x"
    msg.attach(MIMEText("A PAR - BUR\n", "plain"))
    msg.attach(MIMEText("<p>A PAR - PIC</p>", "html"))
    assert parse(msg.as_bytes()).lines == ["A PAR - BUR"]


def test_html_only_mail_is_read_as_text_without_its_quote():
    html = ("<html><head><style>p {color: red}</style></head><body><div>ORDERS</div><div>A PAR - <b>BUR</b></div>"
            "<p>F BRE&nbsp;-&nbsp;MAO<br>END</p><div class='gmail_quote'>On Monday the judge wrote:"
            "<blockquote>A MUN - BUR</blockquote></div></body></html>")
    assert parse(_msg(html, "html")).lines == ["ORDERS", "A PAR - BUR", "F BRE - MAO", "END"]


def test_charsets_are_decoded():
    assert parse(_msg("SIGNON abc FRANCE Jérôme Müller\n", charset="iso-8859-1")).lines == [
        "SIGNON abc FRANCE Jérôme Müller"]
    assert parse(_msg("SIGNON abc RUSSIA Пётр\n", charset="koi8-r")).lines == ["SIGNON abc RUSSIA Пётр"]
    raw = (b"From: a@players.test\r\nTo: judge@dip.test\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: text/plain; charset=x-no-such-charset\r\n\r\nA PAR - BUR\r\n")
    got = parse(raw)
    assert got.lines == ["A PAR - BUR"] and any("x-no-such-charset" in n for n in got.notes)


def test_encoded_headers_and_reply_to():
    msg = EmailMessage()
    msg["From"] = "Jérôme <jerome@players.test>"
    msg["Reply-To"] = "other@players.test"
    msg["To"] = "Judge <judge+abc-p1-0123@dip.test>, cc@dip.test"
    msg["Subject"] = "Ré: [dip 0123456789ab] Results"
    msg.set_content("READY")
    got = parse(msg.as_bytes(), envelope_to=["judge+env@dip.test"])
    assert got.sender == "other@players.test" and got.sender_name == "Jérôme"
    assert got.subject == "Ré: [dip 0123456789ab] Results"
    assert got.recipients[:2] == ["judge+env@dip.test", "judge+abc-p1-0123@dip.test"]


def test_attachments_are_noted_and_ignored():
    msg = MIMEMultipart()
    msg["From"], msg["To"], msg["Subject"] = "a@players.test", "judge@dip.test", "x"
    msg.attach(MIMEText("A PAR - BUR\n"))
    msg.attach(MIMEApplication(bytes(range(256)) * 100, "octet-stream", Name="map.bin"))
    image = MIMEApplication(b"\x89PNG\r\n\x1a\n" + b"\0" * 500, "png")
    image.add_header("Content-Disposition", "attachment", filename="board.png")
    msg.attach(image)
    got = parse(msg.as_bytes())
    assert got.lines == ["A PAR - BUR"]
    assert len(got.notes) == 2 and "map.bin" in got.notes[0] and "board.png" in got.notes[1]


def test_huge_text_is_cut_with_a_note():
    got = parse(_msg("A PAR H\n" * 200_000))
    assert len(got.lines) == MAX_LINES and got.notes


def test_junk_never_raises():
    for raw in (b"", b"\x00\xff\xfe" * 1000, b"From: <<<@>>>\r\n\r\n", b"Content-Type: multipart/mixed\r\n\r\n--x",
                _msg("x", From="not an address"), bytes(range(256)) * 50):
        got = parse(raw)
        assert isinstance(got.lines, list)
    assert parse(_msg("x", From="not an address")).sender == ""


def test_automatic_mail_is_recognised():
    assert parse(_msg("I am away", Auto_Submitted="auto-replied")).automatic
    assert parse(_msg("x", Precedence="bulk")).automatic
    assert parse(_msg("x", From="MAILER-DAEMON@mx.test")).automatic
    assert parse(_msg("x"), envelope_from="").automatic
    assert not parse(_msg("x", Auto_Submitted="no")).automatic
