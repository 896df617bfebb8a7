"""Every Redis client of the service is made here, from one URL.

* ``redis://``, ``rediss://``, ``unix://``: that server.
* ``redis+sentinel://[:password@]host:port,host:port/master[/db]`` (the form the ``limits`` library
  also reads; ``REDIS_SENTINELS`` and ``REDIS_SENTINEL_MASTER`` make one): the primary that the
  sentinels name ``master``, through redis-py's :class:`~redis.sentinel.Sentinel`.  A connection
  asks the sentinels for the primary each time it connects, and a connection to a primary that
  died or was demoted fails once and is dropped, so after a failover every client of the process
  reaches the new primary by itself at its next command.  Each process logs the primary it
  found, and again whenever it changes.  A transaction whose WAIT falls short also asks the
  sentinels, and leaves a primary they have replaced (:func:`_leave_if_not_primary`).

**Replicas** (``REDIS_MIN_REPLICAS`` n > 0): every MULTI/EXEC transaction of a :class:`Client` made
with ``replicas`` (the store's: every change a request makes, and every step a job takes) is
followed, on its connection, by ``WAIT n timeout``.  It returns once n replicas have the
transaction; otherwise it raises :class:`NotReplicated` (HTTP 503).  The transaction is whole on
the primary either way (EXEC is atomic and replicated as one unit): it survives the primary unless
the primary fails before a replica has it.  docs/deployment.md says what this promises and what
it does not.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from urllib.parse import unquote, urlsplit

import redis
from redis.sentinel import Sentinel, SentinelConnectionPool

log = logging.getLogger(__name__)
SENTINEL_SCHEME = "redis+sentinel"
SENTINEL_TIMEOUT = 0.5  # seconds to wait for one sentinel's answer before asking the next


class _Sentinels(Sentinel):
    """redis-py's Sentinel, saying which primary it found when that changes."""

    found = None

    def discover_master(self, service_name):
        address = super().discover_master(service_name)
        if address != self.found:
            log.warning("Redis primary %r: %s:%s (found through Sentinel)", service_name, *address)
            self.found = address
        return address


class NotReplicated(redis.RedisError):
    """A transaction done on the primary that not enough replicas confirmed in time (or whose
    confirmation was lost with the connection): it may be lost if the primary fails now."""


class ReplicatedPipeline(redis.client.Pipeline):
    """A transaction's pipe whose EXEC, when it succeeds, is followed on the same connection by
    ``WAIT replicas timeout`` (WAIT counts the replicas that have the connection's last write)."""

    def __init__(self, client: "Client", transaction: bool, shard_hint):
        super().__init__(client.connection_pool, client.response_callbacks, transaction, shard_hint)
        self.replicas, self.timeout = client.replicas, client.replica_timeout

    def _execute_transaction(self, connection, commands, raise_on_error):
        response = super()._execute_transaction(connection, commands, raise_on_error)
        if self.replicas:
            try:  # a connection error here must not reach the pipe's retry: the EXEC would run again
                connection.send_command("WAIT", self.replicas, int(self.timeout * 1000))
                acknowledged = int(connection.read_response())
            except (redis.ConnectionError, redis.TimeoutError) as e:
                raise NotReplicated(f"the connection was lost waiting for the replicas: {e}") from e
            if acknowledged < self.replicas:
                _leave_if_not_primary(self.connection_pool, connection)
                raise NotReplicated(f"{acknowledged} of the {self.replicas} replicas needed had the change "
                                    f"after {self.timeout:g} s")
        return response


def _leave_if_not_primary(pool: redis.ConnectionPool, connection) -> None:
    """After a WAIT that fell short, through Sentinel: if the sentinels now name another primary,
    close ``connection`` (and the pool's idle ones), so the next command reaches the new primary.
    A primary the sentinels replaced keeps taking writes (answered 503: its replica left it) until
    they make it a replica, seconds later; a sentinel that loses sight of a new primary for
    ``down-after-milliseconds`` can replace it again in turn."""
    if not isinstance(pool, SentinelConnectionPool):
        return
    try:
        primary_now = pool.get_master_address()  # logs the change, and drops the idle connections
    except redis.RedisError:
        return
    if (connection.host, connection.port) != tuple(primary_now):
        connection.disconnect()


class Client(redis.Redis):
    """A client whose transactions (MULTI/EXEC pipelines) each wait for ``replicas`` replicas."""

    replicas, replica_timeout = 0, 0.0

    def pipeline(self, transaction=True, shard_hint=None) -> redis.client.Pipeline:
        return ReplicatedPipeline(self, transaction, shard_hint)


def is_sentinel(url: str) -> bool:
    return urlsplit(url).scheme == SENTINEL_SCHEME


@lru_cache(maxsize=None)
def _sentinels(url: str) -> tuple[_Sentinels, str, dict]:
    """The sentinels of ``url`` (one set per process: one line in the log per change), the
    primary's name, and the options of a connection to it."""
    parts = urlsplit(url)
    hosts = parts.netloc.rsplit("@", 1)[-1]
    addresses = []
    for host in hosts.split(","):
        name, _, port = host.partition(":")
        addresses.append((name, int(port or 26379)))
    path = [p for p in parts.path.split("/") if p]
    if not path:
        raise ValueError(f"{url}: name the primary after the sentinels (redis+sentinel://host:port/master)")
    options = {"db": int(path[1]) if len(path) > 1 else 0}
    if parts.password:
        options["password"] = unquote(parts.password)
    sentinels = _Sentinels(addresses, socket_timeout=SENTINEL_TIMEOUT)
    return sentinels, path[0], options


def client(url: str, max_connections: int | None = None, wait: float | None = None, replicas: int = 0,
           replica_timeout: float = 2.0, **options) -> Client:
    """A client of the Redis at ``url``.  ``max_connections``: at most that many connections, and
    (``wait``) a command waits up to that many seconds for one to be free; ``replicas``: each
    transaction waits up to ``replica_timeout`` s for that many replicas to have it; ``options``:
    redis-py's connection options (``decode_responses``, ``socket_timeout``...)."""
    if is_sentinel(url):
        sentinels, master, own = _sentinels(url)
        # no blocking pool for Sentinel in redis-py: past max_connections a command fails (a 503)
        pool = SentinelConnectionPool(master, sentinels, max_connections=max_connections, **own, **options)
    elif max_connections is None:
        pool = redis.ConnectionPool.from_url(url, **options)
    else:
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=wait, **options)
    made = Client(connection_pool=pool)
    made.replicas, made.replica_timeout = replicas, replica_timeout
    return made


def primary(url: str) -> str:
    """Where the primary of ``url`` is now (host:port), as this process finds it (and logs it, through
    Sentinel)."""
    if is_sentinel(url):
        sentinels, master, _ = _sentinels(url)
        return "%s:%s" % sentinels.discover_master(master)
    found = redis.Redis.from_url(url).connection_pool.connection_kwargs
    return found.get("path") or f"{found.get('host')}:{found.get('port')}"


def announce(url: str, role: str) -> None:
    """Log the Redis primary a process of ``role`` starts with."""
    try:
        where = primary(url)
    except redis.RedisError as e:
        log.warning("%s: no Redis primary found yet (%s)", role, e)
        return
    log.warning("%s: Redis primary %s", role, where)
