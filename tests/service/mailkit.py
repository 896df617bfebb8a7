"""Real SMTP for the mail tests: a capturing relay (aiosmtpd, with AUTH) that the service's jobs
deliver to, and the service in this process (inprocess.py) whose jobs use it and whose own SMTP
listener (service.mail.listener, in a thread) takes the players' mail from smtplib clients."""
from __future__ import annotations

import smtplib
from contextlib import contextmanager
import socket
import threading
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as POLICY

import redis
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from tests.service.inprocess import InProcessApi, InProcessStack
from tests.service.svc_stack import wait_for

USER, PASSWORD = "judge", "relay-secret"
JUDGE = "judge@dip.test"


class Relay:
    """A capturing SMTP relay: every accepted message is kept; ``refuse`` makes it answer 451."""

    def __init__(self):
        from service.launch import free_port

        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.refuse = False
        self.lock = threading.Lock()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, authenticator=self.auth,
                                     auth_require_tls=False, auth_required=True)
        self.controller.start()

    @staticmethod
    def auth(server, session, envelope, mechanism, data):
        ok = data.login == USER.encode() and data.password == PASSWORD.encode()
        return AuthResult(success=ok)

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return "451 4.3.0 try again later"
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content, policy=POLICY)))
        return "250 OK"

    @property
    def url(self) -> str:
        return f"smtp://{USER}:{PASSWORD}@127.0.0.1:{self.port}"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for rcpts, m in self.messages if address in rcpts]

    def wait(self, address: str, subject_part: str, count: int = 1, timeout: float = 30) -> list[EmailMessage]:
        """The messages to ``address`` whose subject contains ``subject_part``, once there are ``count``."""
        return wait_for(lambda: (found := [m for m in self.to(address) if subject_part in m["Subject"]])
                        and len(found) >= count and found, timeout, f"{count} '{subject_part}' mail to {address}")

    def close(self):
        self.controller.stop()


def text(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


class MailStack(InProcessStack):
    """The service in this process (see inprocess.py) with SMTP: its jobs send through ``relay``;
    its own listener (``service.mail.listener``, as ``python -m service.mail --listen`` runs it)
    takes the players' mail on ``smtp_port``, in a thread of this process, from smtplib clients."""

    def __init__(self, redis_url, relay: Relay, **env):
        from service.launch import free_port
        from service.mail import listener
        from service.mail.commands import Inbox
        from workers.tables.games import Games

        self.smtp_port = free_port()
        super().__init__(redis_url, SMTP_PORT=str(self.smtp_port), SMTP_URL=relay.url, MAIL_FROM=JUDGE, **env)
        self.listener = listener.controller(Inbox(Games(self.store)), self.smtp_port,
                                            max_bytes=self.settings.mail_max_bytes)  # this stack's MAIL_MAX_BYTES
        self.listener.start()

    def listening(self) -> bool:
        """The listener is up: its thread runs and it takes connections."""
        if not self.listener._thread.is_alive():
            return False
        try:
            socket.create_connection(("127.0.0.1", self.smtp_port), timeout=5).close()
            return True
        except OSError:
            return False

    def send(self, sender: str, body: str, to: str = JUDGE, subject: str = "orders", **headers) -> dict:
        """Mail from a player (an smtplib client) to the listener; returns refused recipients."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, to, subject
        for name, value in headers.items():
            msg[name.replace("_", "-")] = value
        msg.set_content(body)
        return self.send_message(msg)

    def send_message(self, msg: EmailMessage) -> dict:
        with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=30) as client:
            return client.send_message(msg)

    def close(self) -> None:
        self.listener.stop()
        super().close()


def start(redis_url, **env):
    """A relay, the mail stack on ``redis_url`` and its client.  The tests run with the stack
    driving the time (``stack.driving()``), as tests/service/conftest.py does for ``api``."""
    relay = Relay()
    stack = MailStack(redis_url, relay, **env)
    return relay, stack, InProcessApi(stack)


@contextmanager
def mail_service(folder, **env):
    """The mail service in this process on a Redis of its own (in ``folder``), with the relay and
    its own SMTP listener: ``(relay, stack, api, redis client)``, stopped on leaving."""
    from service.launch import start_redis, stop

    proc, url = start_redis(folder, persist=False)
    relay, stack, api = start(url, **env)
    try:
        yield relay, stack, api, redis.Redis.from_url(url, decode_responses=True)
    finally:
        stack.close()
        relay.close()
        stop(proc)
