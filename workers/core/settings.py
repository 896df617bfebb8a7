"""Every setting of the service, read from the environment once per process.

``current()`` is the process's settings, read on first use; code that needs a
setting takes it from there (or is handed a :class:`Settings`), never from
``os.environ``.  Tests build their own with :meth:`Settings.from_env` and a
mapping, or with ``dataclasses.replace``.  docs/service.md lists them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Mapping

# endpoint -> (environment variable, default limit per client)
RATE_LIMITS = {
    "games.create_game": ("RATE_LIMIT_CREATE_GAME", "20 per minute; 200 per day"),
    "games.join": ("RATE_LIMIT_JOIN", "30 per minute"),
    "games.submit_orders": ("RATE_LIMIT_SUBMIT", "120 per minute"),
    "resolutions.create": ("RATE_LIMIT_CREATE_RESOLUTION", "20 per minute; 200 per day"),
    "resolutions.answer": ("RATE_LIMIT_ANSWER", "120 per minute"),
    "press.send": ("RATE_LIMIT_PRESS", "30 per minute; 500 per day"),  # per token, not per address
    # every other path that creates something (tests/security/test_net_defects.py checks none is missed)
    "games.fork": ("RATE_LIMIT_FORK", "20 per minute; 200 per day"),
    "export.import_game": ("RATE_LIMIT_IMPORT", "20 per minute; 200 per day"),
    "games.propose": ("RATE_LIMIT_PROPOSE", "30 per minute"),
    "games.declare_absence": ("RATE_LIMIT_ABSENCE", "30 per minute"),
    "accounts.create_account": ("RATE_LIMIT_CREATE_ACCOUNT", "10 per minute; 100 per day"),
    "tournaments.create": ("RATE_LIMIT_CREATE_TOURNAMENT", "5 per minute; 50 per day"),
    "tournaments.add_player": ("RATE_LIMIT_TOURNAMENT_PLAYER", "60 per minute"),
    "tournaments.create_boards": ("RATE_LIMIT_BOARDS", "10 per minute; 100 per day"),
    "webhooks.games_add": ("RATE_LIMIT_WEBHOOK", "20 per minute"),
    "webhooks.tournaments_add": ("RATE_LIMIT_WEBHOOK", "20 per minute"),
    # what costs the service a search: the stateless bot's answers (docs/bots.md)
    "api.bot_orders": ("RATE_LIMIT_BOT", "30 per minute; 500 per day"),
}
# A request with a token the service knows (an account's, a player's, a director's, a participant's) counts
# against that credential, with these limits where an app serving many players needs more than one person
# does (the others: the same as RATE_LIMITS); a request without one counts against its address.
CREDENTIAL_LIMITS = {
    "games.create_game": ("RATE_LIMIT_CREATE_GAME_CREDENTIAL", "120 per minute; 5000 per day"),
    "games.join": ("RATE_LIMIT_JOIN_CREDENTIAL", "120 per minute"),
    "games.submit_orders": ("RATE_LIMIT_SUBMIT_CREDENTIAL", "600 per minute"),
    "resolutions.create": ("RATE_LIMIT_CREATE_RESOLUTION_CREDENTIAL", "120 per minute; 5000 per day"),
    "resolutions.answer": ("RATE_LIMIT_ANSWER_CREDENTIAL", "600 per minute"),
    "export.import_game": ("RATE_LIMIT_IMPORT_CREDENTIAL", "60 per minute; 1000 per day"),
    "api.bot_orders": ("RATE_LIMIT_BOT_CREDENTIAL", "120 per minute; 5000 per day"),
}
_OFF = ("off", "0", "false", "no")


class SettingsError(ValueError):
    """A setting in the environment that is not what it must be (says which, and what it is)."""


def env(variable: str, default=None):
    """A setting read from the environment variable ``variable``; ``default`` when it is unset or empty."""
    return field(default=default, metadata={"env": variable})


def _parse(kind: str, value: str):
    """``value`` (from the environment) as the setting's type, named by its annotation."""
    if kind == "bool":
        return value.strip().lower() not in _OFF
    return {"int": int, "float": float, "Path": Path}.get(kind, str)(value)


@dataclass(frozen=True)
class Settings:
    # Redis: a URL (redis://, rediss://, unix://, or redis+sentinel://host:port,host:port/master/db), or
    # REDIS_SENTINELS and REDIS_SENTINEL_MASTER, which make such a URL (workers/core/connection.py)
    redis_url: str | None = env("REDIS_URL")
    redis_sentinels: str | None = env("REDIS_SENTINELS")  # host:port,host:port,...
    redis_sentinel_master: str | None = env("REDIS_SENTINEL_MASTER")
    # replicas that must have a transaction before it counts as done (Redis WAIT; docs/deployment.md),
    # and the seconds they are given
    redis_min_replicas: int = env("REDIS_MIN_REPLICAS", 0)
    redis_replica_timeout: float = env("REDIS_REPLICA_TIMEOUT", 2.0)
    data_dir: Path = env("DATA_DIR", Path("data"))
    log_level: str = env("LOG_LEVEL", "INFO")
    # jobs and deadlines
    job_timeout: int = env("ADJ_JOB_TIMEOUT", 60)
    # deadlines per job (each job costs the worker a few fsynced writes of its own)
    deadline_batch: int = env("DEADLINE_BATCH", 100)
    deadline_threads: int = env("DEADLINE_THREADS", 4)  # shares of a batch (each one transaction) taken at once
    # fault injection for the tests that kill a worker mid-step
    fault_stall_seconds: float = env("ADJ_FAULT_STALL_SECONDS", 0.0)
    # the bot's budget (adjudications a movement phase, docs/bots.md): in a phase closed at its deadline
    # (the deadline's own job, where many games may share the second), and in any other
    bot_deadline_budget: int = env("BOT_DEADLINE_BUDGET", 50)
    bot_budget: int = env("BOT_BUDGET", 400)
    # seconds before the deadline (at most half the phase) when the bot's orders are computed for the powers
    # without orders yet, in a game whose missed orders the bot gives (docs/bots.md)
    bot_ahead: int = env("BOT_AHEAD", 600)
    # worker and scheduler processes
    job_heartbeat_ttl: int = env("JOB_HEARTBEAT_TTL", 10)
    maintenance_interval: int = env("WORKER_MAINTENANCE_INTERVAL", 5)
    worker_ttl: int = env("WORKER_TTL", 45)
    redis_wait: float = env("REDIS_WAIT", 60.0)
    scheduler_interval: float = env("SCHEDULER_INTERVAL", 0.2)
    scheduler_lock_ttl: int = env("SCHEDULER_LOCK_TTL", 5)
    # housekeeping: seconds a finished game, or one still forming with nobody joining, is kept
    game_ttl_finished: int = env("GAME_TTL_FINISHED", 30 * 24 * 3600)
    game_ttl_forming: int = env("GAME_TTL_FORMING", 7 * 24 * 3600)
    # mail
    mail_from: str = env("MAIL_FROM", "diplomacy@localhost")
    mail_secret: str | None = env("MAIL_SECRET")
    smtp_url: str | None = env("SMTP_URL")
    mail_outbox: Path | None = env("MAIL_OUTBOX")  # default: $DATA_DIR/outbox
    smtp_port: int = env("SMTP_PORT", 0)
    smtp_host: str = env("SMTP_HOST", "127.0.0.1")  # the mail listener's address
    mail_max_bytes: int = env("MAIL_MAX_BYTES", 10 * 1024 * 1024)
    mail_map_width: int = env("MAIL_MAP_WIDTH", 1200)  # px of the maps attached to mails
    # where people reach the pages (the sign-in links of mail); default http://HOST:PORT
    public_url: str | None = env("PUBLIC_URL")
    # webhooks
    webhook_timeout: float = env("WEBHOOK_TIMEOUT", 10.0)
    webhook_hosts: str = env("WEBHOOK_HOSTS", "public")
    # the API
    rate_limits_on: bool = env("RATE_LIMITS", True)
    rate_limit_storage: str | None = env("RATE_LIMIT_STORAGE")
    rate_limit_strategy: str = env("RATE_LIMIT_STRATEGY", "fixed-window")
    rate_limits: Mapping[str, str] = field(default_factory=lambda: {e: d for e, (_v, d) in RATE_LIMITS.items()})
    credential_limits: Mapping[str, str] = field(
        default_factory=lambda: {e: d for e, (_v, d) in CREDENTIAL_LIMITS.items()})
    # the launcher
    host: str = env("HOST", "127.0.0.1")
    port: int = env("PORT", 8000)
    workers: int = env("WORKERS", 1)
    web_concurrency: int = env("WEB_CONCURRENCY", 2)
    # per gunicorn process: open event streams and ordinary requests together
    worker_connections: int = env("WORKER_CONNECTIONS", 5000)
    request_body_timeout: float = env("REQUEST_BODY_TIMEOUT", 10.0)  # s to receive a request's body (slow_clients)
    max_restarts: int = env("MAX_RESTARTS", 5)
    launcher_pid: int = env("LAUNCHER_PID", 0)  # set by the launcher for the API it starts (gunicorn_worker)

    def __post_init__(self):
        if self.mail_outbox is None:
            object.__setattr__(self, "mail_outbox", self.data_dir / "outbox")
        object.__setattr__(self, "public_url", (self.public_url or f"http://{self.host}:{self.port}").rstrip("/"))
        if self.redis_sentinels:
            if not self.redis_sentinel_master:
                raise SettingsError("REDIS_SENTINELS is set without REDIS_SENTINEL_MASTER (the primary's name)")
            object.__setattr__(self, "redis_url", f"redis+sentinel://{self.redis_sentinels}/"
                                                  f"{self.redis_sentinel_master}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        values = {}
        for setting in fields(cls):
            variable, value = setting.metadata.get("env"), None
            if variable:
                value = env.get(variable)
            if value in (None, ""):
                continue
            kind = setting.type.split(" |")[0]
            try:
                values[setting.name] = _parse(kind, value)
            except ValueError:
                raise SettingsError(f"{variable}={value!r} is not a valid {kind}") from None
        return cls(**values,
                   rate_limits={endpoint: env.get(variable) or default
                                for endpoint, (variable, default) in RATE_LIMITS.items()},
                   credential_limits={endpoint: env.get(variable) or default
                                      for endpoint, (variable, default) in CREDENTIAL_LIMITS.items()})


@lru_cache(maxsize=1)
def current() -> Settings:
    """This process's settings, read from the environment on first use."""
    return Settings.from_env()
