"""``python -m service.mail``: one message on standard input (pipe mode), or ``--listen``.

Pipe mode exits 0 when the message was handled (a reply is queued), and 75
(EX_TEMPFAIL) when the game store is unreachable, so the delivering mail
server keeps the message and tries again.
"""
from __future__ import annotations

import argparse
import logging
import sys

from workers.core import settings

from .commands import Inbox, TempFail
from .listener import MAX_BYTES, serve

EX_TEMPFAIL = 75


def inbox() -> Inbox:
    from workers.tables.games import Games
    from workers.core.store import Store

    url = settings.current().redis_url
    if not url:
        sys.exit("set REDIS_URL (the service's Redis)")
    return Inbox(Games(Store(url)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The play-by-mail judge: one message on stdin, or an SMTP listener.")
    parser.add_argument("--listen", action="store_true", help="run the SMTP listener on 127.0.0.1:$SMTP_PORT")
    parser.add_argument("--port", type=int, help="the listener's port (default $SMTP_PORT)")
    parser.add_argument("--to", action="append", default=[], help="envelope recipient (pipe mode; repeatable)")
    parser.add_argument("--from", dest="sender", help="envelope sender (pipe mode; '' for a bounce)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=settings.current().log_level, format="%(asctime)s %(name)s %(message)s")
    if args.listen:
        port = args.port or settings.current().smtp_port
        if not port:
            sys.exit("set SMTP_PORT (or --port) for the listener")
        serve(inbox(), port)
        return 0
    raw = sys.stdin.buffer.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        print(f"message over {MAX_BYTES} bytes: refused", file=sys.stderr)
        return 65  # EX_DATAERR: the mail server bounces it with the line above
    try:
        print(inbox().handle(raw, args.to, args.sender))
    except TempFail as e:
        print(e, file=sys.stderr)
        return EX_TEMPFAIL
    return 0


if __name__ == "__main__":
    sys.exit(main())
