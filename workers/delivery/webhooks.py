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
delivery (:func:`destination`), as ``WEBHOOK_HOSTS`` says: ``public`` (the
default) takes only hosts whose every address is public, so a subscriber
cannot make the service call into its own network (loopback, private,
link-local, reserved, multicast, site-local, or an IPv6 address embedding
any of these: NAT64, 6to4, Teredo, IPv4-compatible; :func:`address_refusal`);
``loopback`` takes only loopback hosts, for a service whose subscribers run
beside it (the tests, a laptop).  A delivery resolves the host once and
connects to the address it checked, sending the URL's host as ``Host`` and as
the TLS server name (:func:`post`), so DNS cannot answer a public address to
the check and an internal one to the connection.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import json
import secrets
import socket
import time
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import certifi
import urllib3
from rq import Retry

from ..core import audit, keys
from ..core.outcome import JobOutcome
from ..core.records import Delivery, WebhookRecord
from ..core.errors import Conflict, Invalid, NotFound
from ..core.settings import current as settings
from ..core.store import Store, iso, new_id

EVENTS = ("phase_adjudicated", "deadline_approaching", "game_ended", "vote_passed", "press", "seat")
RETRY = Retry(max=6, interval=[1, 5, 30, 120, 600, 1800])
MAX_HOOKS = 20  # per game or tournament
LOG_KEEP = 500  # delivery attempts kept per subscription


# Where an IPv6 address carries an IPv4 one that a router may reach: NAT64 (RFC 6052's well-known
# prefix) and IPv4-compatible addresses, both in the last 32 bits; 6to4 and Teredo have their own.
NAT64 = ipaddress.ip_network("64:ff9b::/96")
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215: local use, never global
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]  # the client behind the relay
    if ip in NAT64 or ip in IPV4_COMPATIBLE:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_refusal(address: str) -> str | None:
    """Why ``address`` (an IP, as getaddrinfo gives it) is not a public unicast address (None: it is).
    Multicast, IPv6 site-local and local-use NAT64 are refused, and so is any IPv6 address that
    embeds (NAT64, 6to4, Teredo, IPv4-compatible or -mapped) an IPv4 address that is not public."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if ip.is_multicast:
        return f"{ip} is a multicast address"
    if not ip.is_global:
        return f"{ip} is not a public address"
    if ip.version == 6:
        if ip.is_site_local:
            return f"{ip} is a site-local address"
        if ip in NAT64_LOCAL:
            return f"{ip} is a local-use NAT64 address"
        inner = _embedded_ipv4(ip)
        if inner is not None and (why := address_refusal(str(inner))):
            return f"{ip} embeds {inner}: {why}"
    return None


@dataclass(frozen=True)
class Destination:
    """Where a webhook goes: the URL's parts and the one address it resolved to, which was checked
    and is the one connected to (no second lookup that DNS could answer differently)."""
    scheme: str
    host: str  # as in the URL: sent as Host and, over TLS, as SNI and the name the certificate must bear
    port: int
    address: str
    target: str  # path and query
    host_header: str
    userinfo: str | None


def destination(url: str, mode: str | None = None, resolve=socket.getaddrinfo) -> Destination | str:
    """Resolve ``url``'s host once with ``resolve`` (getaddrinfo's signature) and check every address
    it gives under ``WEBHOOK_HOSTS`` (``mode``): the :class:`Destination` to connect to, or why not."""
    mode = mode or settings().webhook_hosts
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        return f"not a URL: {e}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "a webhook URL is http:// or https:// with a host"
    host, port = parts.hostname, port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = [info[4][0] for info in resolve(host, port, proto=socket.IPPROTO_TCP)]
    except (OSError, UnicodeError) as e:
        return f"the host {host} does not resolve ({e})"
    if not addresses:
        return f"the host {host} does not resolve"
    for address in addresses:
        if mode == "loopback":
            if not ipaddress.ip_address(address.split("%")[0]).is_loopback:
                return f"this service delivers webhooks only to loopback hosts, not {host} ({address})"
        elif why := address_refusal(address):
            return why if address == host else f"the host {host} resolves to {address}; {why}"
    userinfo, _, netloc = parts.netloc.rpartition("@")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Destination(parts.scheme, host, port, addresses[0], target, netloc, userinfo or None)


def destination_refusal(url: str, mode: str | None = None, resolve=socket.getaddrinfo) -> str | None:
    """Why the service will not POST to ``url`` under ``WEBHOOK_HOSTS`` (None: it will)."""
    found = destination(url, mode, resolve)
    return found if isinstance(found, str) else None


def post(dest: Destination, body: bytes, headers: dict, timeout: float, ca_certs: str | None = None) -> int:
    """POST ``body`` to ``dest``: a connection to its checked address, with the URL's host as Host
    and, over TLS, as SNI and as the name checked in the certificate; the answer's status (its body
    is not read).  Raises urllib3's errors or OSError."""
    headers = {**headers, "Host": dest.host_header}
    if dest.userinfo:
        headers["Authorization"] = "Basic " + base64.b64encode(unquote(dest.userinfo).encode()).decode()
    options = {"timeout": urllib3.Timeout(connect=timeout, read=timeout), "retries": False, "maxsize": 1}
    if dest.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(dest.address, dest.port, server_hostname=dest.host,
                                           assert_hostname=dest.host, cert_reqs="CERT_REQUIRED",
                                           ca_certs=ca_certs or certifi.where(), **options)
    else:
        pool = urllib3.HTTPConnectionPool(dest.address, dest.port, **options)
    with pool:
        resp = pool.urlopen("POST", dest.target, body=body, headers=headers, redirect=False,
                            assert_same_host=False, preload_content=False)
        resp.release_conn()
        return resp.status


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
    def view(h: WebhookRecord) -> dict:
        return {"id": h.id, "url": h.url, "events": h.events, "created_at": iso(h.created_at)}

    def _audit(self, pipe, owner: str, action: str, detail: dict) -> None:
        """Queue (after MULTI) the entry of ``action`` in the owner's audit log (``game:<id>``, ``tournament:<id>``)."""
        table, _, tid = owner.partition(":")
        audit.record(pipe, table, tid, self.store.now(), action, detail)

    def add(self, owner: str, url: str, types: list[str]) -> dict:
        """Register ``url`` for ``types``, in the owner's audit log."""
        refusal = destination_refusal(url)
        if refusal:
            raise Invalid(f"body.url: {refusal}")
        hid, secret = new_id(), secrets.token_urlsafe(32)
        record = WebhookRecord(hid, owner, url, secret, sorted(set(types)), time.time())

        def body(pipe):
            if pipe.scard(keys.hooks(owner)) >= MAX_HOOKS:
                raise Conflict(f"{owner.replace(':', ' ')} already has {MAX_HOOKS} webhooks; remove one first")
            pipe.multi()
            pipe.hset(keys.hook(hid), mapping=record.save())
            pipe.sadd(keys.hooks(owner), hid)
            self._audit(pipe, owner, "webhook_added", {"webhook": hid, "url": url, "events": sorted(set(types))})

        self.store.transact([keys.hooks(owner)], body)
        return self.view(record) | {"secret": secret}

    def list(self, owner: str) -> list[dict]:
        found = [self.r.hgetall(keys.hook(h)) for h in self.r.smembers(keys.hooks(owner))]
        return sorted((self.view(WebhookRecord.restore(h)) for h in found if h), key=lambda h: h["created_at"])

    def _own(self, owner: str, hid: str) -> WebhookRecord:
        h = self.r.hgetall(keys.hook(hid))
        if not h or h["owner"] != owner:
            raise NotFound(f"{owner.replace(':', ' ')} has no webhook '{hid}'")
        return WebhookRecord.restore(h)

    def remove(self, owner: str, hid: str) -> None:
        h = self._own(owner, hid)

        def body(pipe):
            pipe.multi()
            pipe.srem(keys.hooks(owner), hid)
            pipe.delete(keys.hook(hid))  # its delivery log stays until it expires
            pipe.expire(keys.hook_log(hid), 30 * 24 * 3600)
            pipe.expire(keys.hook_done(hid), 30 * 24 * 3600)
            self._audit(pipe, owner, "webhook_removed", {"webhook": hid, "url": h.url})

        self.store.transact([keys.hooks(owner)], body)

    def deliveries(self, owner: str, hid: str) -> dict:
        h = self._own(owner, hid)
        return {**self.view(h), "deliveries": [d.as_dict() for d in
                                               Delivery.loads_all(self.r.lrange(keys.hook_log(hid), 0, -1))]}


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
                found = store.r.hgetall(keys.hook(hid))
                if found and event["type"] in WebhookRecord.restore(found).events:
                    store.enqueue(pipe, "workers.runtime.jobs.deliver_webhook", hid, event,
                                  job_id=f"hook-{hid}-{event['id']}".replace(":", "-"), retry=RETRY)
                    queued += 1
        pipe.execute()
    return JobOutcome.did(f"{queued} deliveries queued")


def deliver(store: Store, hid: str, event: dict, resolve=socket.getaddrinfo) -> JobOutcome:
    """POST ``event`` to subscription ``hid``, signed; raise (so RQ retries) unless it got a 2xx.
    ``resolve``: the name lookup (getaddrinfo's signature), done once."""
    found = store.r.hgetall(keys.hook(hid))
    if not found:
        return JobOutcome.noop("the webhook was removed")
    h = WebhookRecord.restore(found)
    if store.r.sismember(keys.hook_done(hid), event["id"]):
        return JobOutcome.noop("delivered already")
    body = json.dumps({"id": event["id"], "type": event["type"], event["table"]: event["table_id"],
                       "at": iso(event["at"]), "data": event["data"]}, separators=(",", ":")).encode()
    timestamp = int(time.time())
    headers = {"Content-Type": "application/json", "User-Agent": "adjudication-service-webhooks",
               "X-Webhook-Id": event["id"], "X-Webhook-Event": event["type"],
               "X-Webhook-Timestamp": str(timestamp), "X-Webhook-Signature": signature(h.secret, timestamp, body)}
    attempt = Delivery(event["id"], event["type"], iso(time.time()), h.url)
    # resolved again (a name can point elsewhere since it was registered), once: the address checked
    # is the address connected to
    dest = destination(h.url, store.settings.webhook_hosts, resolve)
    if isinstance(dest, str):
        store.r.rpush(keys.hook_log(hid), attempt.changed(error=f"not sent: {dest}").dumps())
        return JobOutcome.did(f"not sent: {dest}")
    attempt = attempt.changed(address=dest.address)
    started = time.monotonic()
    try:
        status = post(dest, body, headers, store.settings.webhook_timeout)
        attempt = attempt.changed(status=status, ok=200 <= status < 300)
    except (urllib3.exceptions.HTTPError, OSError) as e:
        attempt = attempt.changed(error=f"{type(e).__name__}: {e}"[:300])
    attempt = attempt.changed(ms=round((time.monotonic() - started) * 1000, 1))
    with store.r.pipeline(transaction=True) as pipe:
        pipe.rpush(keys.hook_log(hid), attempt.dumps())
        pipe.ltrim(keys.hook_log(hid), -LOG_KEEP, -1)
        if attempt.ok:
            pipe.sadd(keys.hook_done(hid), event["id"])
        pipe.execute()
    if not attempt.ok:
        raise RuntimeError(f"webhook {hid}: {attempt.status or attempt.error} from {h.url}; retried later")
    return JobOutcome.did(f"delivered {event['id']} ({attempt.status})")
