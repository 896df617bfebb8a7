"""Play by e-mail: the inbound side.

* ``parse``: reading a message with the standard ``email`` package;
* ``commands``: the commands (one per line) and the reply;
* ``listener``: the SMTP server (aiosmtpd) the launcher starts on loopback when ``SMTP_PORT`` is set.

``python -m service.mail`` reads one message on standard input (pipe mode, as
procmail or postfix deliver to a program); ``python -m service.mail --listen``
runs the SMTP listener.  Outgoing mail (replies, notifications) is queued
through ``workers.delivery.mail`` and sent by the workers.  docs/email.md is the
players' reference.
"""
