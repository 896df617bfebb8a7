"""Signed webhooks: a game's or a tournament's director registers URLs for events.

Registration stores the subscription (its owner, URL, event types and HMAC
secret: the secret is returned once and needed at rest to sign).  The
listener :func:`on_event` (of ``workers.delivery.events``) runs as an
RQ job for every event; it enqueues one delivery job per interested
subscription (job id from subscription and event, so a re-run enqueues
nothing new).  A delivery job POSTs the event as JSON with

    X-Webhook-Id: <event id>    X-Webhook-Event: <type>    X-Webhook-Timestamp: <unix seconds>
    X-Webhook-Signature: t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>." + body)>

and logs the attempt; a non-2xx answer or a network error raises, so RQ
retries it with backoff (:data:`RETRY`).  An event id in the subscription's
``done`` set is never sent again.  Payloads carry only the event's public
data (see ``workers.delivery.events``): no orders before adjudication, no ballots.

Where a webhook may point is checked at registration and again before each
delivery (:func:`destination_refusal`), as ``WEBHOOK_HOSTS`` says:
``public`` (the default) takes only hosts whose every address is global, so
a subscriber cannot make the service call into its own network (loopback,
private, link-local, reserved); ``loopback`` takes only loopback hosts, for
a service whose subscribers run beside it (the tests, a laptop).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
import socket
import time
from urllib.parse import urlsplit

import requests
from rq import Retry

from ..core import keys
from ..core.outcome import JobOutcome
from ..core.errors import Conflict, Invalid, NotFound
from ..core.settings import current as settings
from ..core.store import Store, iso, new_id

EVENTS = ("phase_adjudicated", "deadline_approaching", "game_ended", "vote_passed")
RETRY = Retry(max=6, interval=[1, 5, 30, 120, 600, 1800])
MAX_HOOKS = 20  # per game or tournament
LOG_KEEP = 500  # delivery attempts kept per subscription


def destination_refusal(url: str, mode: str | None = None) -> str | None:
    """Why the service will not POST to ``url`` under ``WEBHOOK_HOSTS`` (None: it will)."""
    mode = mode or settings().webhook_hosts
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        return f"not a URL: {e}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "a webhook URL is http:// or https:// with a host"
    host = parts.hostname
    if mode == "loopback":
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        return None if loopback else f"this service delivers webhooks only to loopback hosts, not {host}"
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, port or 443, proto=socket.IPPROTO_TCP)}
    except (socket.gaierror, UnicodeError) as e:
        return f"the host {host} does not resolve ({e})"
    inner = sorted(a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_global)
    if inner:
        return f"the host {host} resolves to {', '.join(inner)}, which is not a public address"
    return None


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The value of ``X-Webhook-Signature`` for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


class Webhooks:
    """Subscriptions of one kind of owner: ``"game"`` or ``"tournament"``."""

    def __init__(self, store: Store):
        self.store = store
        self.r = store.r

    # ------------------------------------------------------------ registration
    @staticmethod
    def view(h: dict) -> dict:
        return {"id": h["id"], "url": h["url"], "events": json.loads(h["events"]), "created_at": iso(h["created_at"])}

    def add(self, owner: str, url: str, types: list[str], audit) -> dict:
        """Register ``url`` for ``types``; ``audit(pipe, action, detail)`` logs it in the owner's audit."""
        refusal = destination_refusal(url)
        if refusal:
            raise Invalid(f"body.url: {refusal}")
        hid, secret = new_id(), secrets.token_urlsafe(32)
        record = {"id": hid, "owner": owner, "url": url, "events": json.dumps(sorted(set(types))),
                  "secret": secret, "created_at": time.time()}

        def body(pipe):
            if pipe.scard(keys.hooks(owner)) >= MAX_HOOKS:
                raise Conflict(f"{owner.replace(':', ' ')} already has {MAX_HOOKS} webhooks; remove one first")
            pipe.multi()
            pipe.hset(keys.hook(hid), mapping=record)
            pipe.sadd(keys.hooks(owner), hid)
            audit(pipe, "webhook_added", {"webhook": hid, "url": url, "events": sorted(set(types))})

        self.store.transact([keys.hooks(owner)], body)
        return self.view(record) | {"secret": secret}

    def list(self, owner: str) -> list[dict]:
        found = [self.r.hgetall(keys.hook(h)) for h in self.r.smembers(keys.hooks(owner))]
        return sorted((self.view(h) for h in found if h), key=lambda h: h["created_at"])

    def _own(self, owner: str, hid: str) -> dict:
        h = self.r.hgetall(keys.hook(hid))
        if not h or h["owner"] != owner:
            raise NotFound(f"{owner.replace(':', ' ')} has no webhook '{hid}'")
        return h

    def remove(self, owner: str, hid: str, audit) -> None:
        h = self._own(owner, hid)

        def body(pipe):
            pipe.multi()
            pipe.srem(keys.hooks(owner), hid)
            pipe.delete(keys.hook(hid))  # its delivery log stays until it expires
            pipe.expire(keys.hook_log(hid), 30 * 24 * 3600)
            pipe.expire(keys.hook_done(hid), 30 * 24 * 3600)
            audit(pipe, "webhook_removed", {"webhook": hid, "url": h["url"]})

        self.store.transact([keys.hooks(owner)], body)

    def deliveries(self, owner: str, hid: str) -> dict:
        h = self._own(owner, hid)
        return {**self.view(h), "deliveries": [json.loads(d) for d in self.r.lrange(keys.hook_log(hid), 0, -1)]}


# ---------------------------------------------------------------- jobs
def owners(store: Store, event: dict) -> list[str]:
    """Whose subscriptions hear ``event``: its game's, and the tournament's the game is a board of."""
    found = [f"{event['table']}:{event['table_id']}"]
    if event["table"] == "game":
        tournament = store.r.hget(keys.game(event["table_id"]), "tournament")
        if tournament:
            found.append(f"tournament:{tournament}")
    return found


def on_event(store: Store, event: dict) -> JobOutcome:
    """The events listener: one delivery job per subscription that wants ``event``."""
    queued = 0
    with store.r.pipeline(transaction=True) as pipe:
        for owner in owners(store, event):
            for hid in store.r.smembers(keys.hooks(owner)):
                wanted = store.r.hget(keys.hook(hid), "events")
                if wanted and event["type"] in json.loads(wanted):
                    store.enqueue(pipe, "workers.runtime.jobs.deliver_webhook", hid, event,
                                  job_id=f"hook-{hid}-{event['id']}".replace(":", "-"), retry=RETRY)
                    queued += 1
        pipe.execute()
    return JobOutcome.did(f"{queued} deliveries queued")


def deliver(store: Store, hid: str, event: dict) -> JobOutcome:
    """POST ``event`` to subscription ``hid``, signed; raise (so RQ retries) unless it got a 2xx."""
    h = store.r.hgetall(keys.hook(hid))
    if not h:
        return JobOutcome.noop("the webhook was removed")
    if store.r.sismember(keys.hook_done(hid), event["id"]):
        return JobOutcome.noop("delivered already")
    body = json.dumps({"id": event["id"], "type": event["type"], event["table"]: event["table_id"],
                       "at": iso(event["at"]), "data": event["data"]}, separators=(",", ":")).encode()
    timestamp = int(time.time())
    headers = {"Content-Type": "application/json", "User-Agent": "adjudication-service-webhooks",
               "X-Webhook-Id": event["id"], "X-Webhook-Event": event["type"],
               "X-Webhook-Timestamp": str(timestamp), "X-Webhook-Signature": signature(h["secret"], timestamp, body)}
    attempt = {"event": event["id"], "type": event["type"], "at": iso(time.time()), "url": h["url"]}
    refusal = destination_refusal(h["url"])  # again: a name can resolve elsewhere since it was registered
    if refusal:
        attempt |= {"status": None, "ok": False, "error": f"not sent: {refusal}", "ms": 0}
        store.r.rpush(keys.hook_log(hid), json.dumps(attempt))
        return JobOutcome.did(f"not sent: {refusal}")
    started = time.monotonic()
    try:
        resp = requests.post(h["url"], data=body, headers=headers, timeout=store.settings.webhook_timeout, allow_redirects=False)
        attempt |= {"status": resp.status_code, "ok": 200 <= resp.status_code < 300, "error": None}
    except requests.RequestException as e:
        attempt |= {"status": None, "ok": False, "error": f"{type(e).__name__}: {e}"[:300]}
    attempt["ms"] = round((time.monotonic() - started) * 1000, 1)
    with store.r.pipeline(transaction=True) as pipe:
        pipe.rpush(keys.hook_log(hid), json.dumps(attempt))
        pipe.ltrim(keys.hook_log(hid), -LOG_KEEP, -1)
        if attempt["ok"]:
            pipe.sadd(keys.hook_done(hid), event["id"])
        pipe.execute()
    if not attempt["ok"]:
        raise RuntimeError(f"webhook {hid}: {attempt['status'] or attempt['error']} from {h['url']}; retried later")
    return JobOutcome.did(f"delivered {event['id']} ({attempt['status']})")
