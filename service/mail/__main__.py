"""``python -m service.mail``: one message on standard input (pipe mode), or ``--listen``.

Pipe mode exits 0 when the message was handled (a reply is queued), and 75
(EX_TEMPFAIL) when the game store is unreachable, so the delivering mail
server keeps the message and tries again.
"""
from __future__ import annotations

import argparse
import logging
import sys

from workers.core import connection, settings

from .commands import Inbox, TempFail
from .listener import serve

EX_TEMPFAIL = 75


def inbox() -> Inbox:
    from workers.tables.games import Games
    from workers.core.store import Store

    url = settings.current().redis_url
    if not url:
        sys.exit("set REDIS_URL (the service's Redis)")
    return Inbox(Games(Store(url, settings.current())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The play-by-mail judge: one message on stdin, or an SMTP listener.")
    parser.add_argument("--listen", action="store_true", help="run the SMTP listener on 127.0.0.1:$SMTP_PORT")
    parser.add_argument("--port", type=int, help="the listener's port (default $SMTP_PORT)")
    parser.add_argument("--to", action="append", default=[], help="envelope recipient (pipe mode; repeatable)")
    parser.add_argument("--from", dest="sender", help="envelope sender (pipe mode; '' for a bounce)")
    args = parser.parse_args(argv)
    config = settings.current()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(name)s %(message)s")
    if args.listen:
        port = args.port or config.smtp_port
        if not port:
            sys.exit("set SMTP_PORT (or --port) for the listener")
        judge = inbox()
        connection.announce(config.redis_url, "mail")
        serve(judge, port)
        return 0
    max_bytes = config.mail_max_bytes
    raw = sys.stdin.buffer.read(max_bytes + 1)
    if len(raw) > max_bytes:
        print(f"message over {max_bytes} bytes: refused", file=sys.stderr)
        return 65  # EX_DATAERR: the mail server bounces it with the line above
    try:
        print(inbox().handle(raw, args.to, args.sender))
    except TempFail as e:
        print(e, file=sys.stderr)
        return EX_TEMPFAIL
    return 0


if __name__ == "__main__":
    sys.exit(main())
