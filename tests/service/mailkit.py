"""Real SMTP for the mail tests: a capturing relay (aiosmtpd, with AUTH) that the workers deliver
to, and a service stack whose workers use it and whose own listener (python -m service.mail
--listen) takes the players' mail from smtplib clients."""
from __future__ import annotations

import os
import smtplib
import socket
import threading
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as POLICY
from unittest import mock

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from svc_stack import Api, Stack, wait_for

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


class MailStack(Stack):
    """The service with SMTP: its workers send through ``relay``; its listener is on ``smtp_port``."""

    def __init__(self, redis_url, logs, relay: Relay, **env):
        from service.launch import free_port

        self.smtp_port = free_port()
        extra = {"SMTP_PORT": str(self.smtp_port), "SMTP_URL": relay.url, "MAIL_FROM": JUDGE, **env}
        with mock.patch.dict(os.environ, extra):
            super().__init__(redis_url, logs)
        self.start("mail")
        wait_for(self._smtp_up, 20, "the mail listener")

    def _smtp_up(self) -> bool:
        assert self.procs["mail"].poll() is None, (self.logs / "mail.log").read_text()
        try:
            socket.create_connection(("127.0.0.1", self.smtp_port), timeout=1).close()
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


def start(redis_url_factory, tmp_path_factory, **env):
    relay = Relay()
    stack = MailStack(redis_url_factory, tmp_path_factory.mktemp("mail-logs"), relay, **env)
    return relay, stack, Api(stack.base)
