"""The SMTP listener: aiosmtpd on ``SMTP_HOST`` (default 127.0.0.1):``SMTP_PORT``, one thread per message handled.

It accepts any recipient (the mail server in front decides what reaches it),
refuses messages over ``MAIL_MAX_BYTES`` at the SMTP level (552, so the sender's
server bounces it with the reason), answers 451 (try again later) when the
game store is unreachable, so the sending server keeps the message and
retries, and otherwise 250 once the commands ran and the reply is queued.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import threading

from aiosmtpd.controller import Controller

from workers.core import settings

from .commands import Inbox, TempFail

log = logging.getLogger("service.mail")


class Handler:
    def __init__(self, inbox: Inbox):
        self.inbox = inbox

    async def handle_DATA(self, server, session, envelope) -> str:
        loop = asyncio.get_running_loop()
        try:
            summary = await loop.run_in_executor(None, self.inbox.handle, envelope.content, list(envelope.rcpt_tos),
                                                 envelope.mail_from)
        except TempFail as e:
            log.warning("message from %s deferred: %s", envelope.mail_from, e)
            return f"451 4.3.0 {e}"
        except Exception:
            log.exception("message from %s could not be handled", envelope.mail_from)
            return "554 5.6.0 the judge could not read this message; send plain text commands"
        log.info("message from %s: %s", envelope.mail_from, summary)
        return "250 2.0.0 handled; a reply is on its way"


def controller(inbox: Inbox, port: int, max_bytes: int | None = None) -> Controller:
    """``max_bytes``: default ``MAIL_MAX_BYTES``."""
    return Controller(Handler(inbox), hostname=settings.current().smtp_host, port=port,
                      data_size_limit=max_bytes or settings.current().mail_max_bytes,
                      enable_SMTPUTF8=True, ready_timeout=10, server_hostname="diplomacy-judge")


def serve(inbox: Inbox, port: int) -> None:
    """Run until SIGTERM or SIGINT."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    smtp = controller(inbox, port)
    smtp.start()
    log.info("SMTP listener on %s:%d", smtp.hostname, port)
    print(f"SMTP listener on {smtp.hostname}:{port}", flush=True)
    stop.wait()
    smtp.stop()
