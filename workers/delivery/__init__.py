"""Telling listeners what happened at a table: events, e-mail, webhooks, deadline reminders. Built on ``workers.core`` only; their jobs run in ``workers.runtime.jobs``."""
