"""Every setting of the service, read from the environment once per process.

``current()`` is the process's settings, read on first use; code that needs a
setting takes it from there (or is handed a :class:`Settings`), never from
``os.environ``.  Tests build their own with :meth:`Settings.from_env` and a
mapping, or with ``dataclasses.replace``.  docs/service.md lists them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
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
}
_OFF = ("off", "0", "false", "no")


class SettingsError(ValueError):
    """A setting in the environment that is not what it must be (says which, and what it is)."""


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    data_dir: Path = Path("data")
    log_level: str = "INFO"
    # jobs and deadlines
    job_timeout: int = 60
    deadline_batch: int = 100  # deadlines per job (each job costs the worker a few fsynced writes of its own)
    deadline_threads: int = 4  # deadlines of a batch taken at once
    fault_stall_seconds: float = 0.0  # fault injection for the tests that kill a worker mid-step
    # worker and scheduler processes
    job_heartbeat_ttl: int = 10
    maintenance_interval: int = 5
    worker_ttl: int = 45
    redis_wait: float = 60.0
    scheduler_interval: float = 0.2
    scheduler_lock_ttl: int = 5
    # housekeeping: seconds a finished game, or one still forming with nobody joining, is kept
    game_ttl_finished: int = 30 * 24 * 3600
    game_ttl_forming: int = 7 * 24 * 3600
    # mail
    mail_from: str = "diplomacy@localhost"
    mail_secret: str | None = None
    smtp_url: str | None = None
    mail_outbox: Path = Path("data") / "outbox"
    smtp_port: int = 0
    mail_max_bytes: int = 10 * 1024 * 1024
    # webhooks
    webhook_timeout: float = 10.0
    webhook_hosts: str = "public"
    # the API
    openapi_spec: Path = Path(__file__).resolve().parents[2] / "openapi.yaml"
    rate_limits_on: bool = True
    rate_limit_storage: str | None = None
    rate_limit_strategy: str = "fixed-window"
    rate_limits: Mapping[str, str] = field(default_factory=lambda: {e: d for e, (_v, d) in RATE_LIMITS.items()})
    credential_limits: Mapping[str, str] = field(
        default_factory=lambda: {e: d for e, (_v, d) in CREDENTIAL_LIMITS.items()})
    # the launcher
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    web_concurrency: int = 2
    worker_connections: int = 5000  # per gunicorn process: open event streams and ordinary requests together
    request_body_timeout: float = 10.0  # s to receive a request's body (service/slow_clients.py)
    max_restarts: int = 5
    launcher_pid: int = 0  # set by the launcher for the API it starts (service/gunicorn_worker.py)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env

        def get(name: str, default, kind=str):
            value = env.get(name)
            if value in (None, ""):
                return default
            try:
                return kind(value)
            except ValueError:
                raise SettingsError(f"{name}={value!r} is not a valid {kind.__name__}") from None

        data_dir = Path(get("DATA_DIR", "data"))
        return cls(
            redis_url=get("REDIS_URL", None), data_dir=data_dir, log_level=get("LOG_LEVEL", "INFO"),
            job_timeout=get("ADJ_JOB_TIMEOUT", 60, int), deadline_batch=get("DEADLINE_BATCH", 100, int),
            deadline_threads=get("DEADLINE_THREADS", 4, int),
            fault_stall_seconds=get("ADJ_FAULT_STALL_SECONDS", 0.0, float),
            job_heartbeat_ttl=get("JOB_HEARTBEAT_TTL", 10, int),
            maintenance_interval=get("WORKER_MAINTENANCE_INTERVAL", 5, int), worker_ttl=get("WORKER_TTL", 45, int),
            redis_wait=get("REDIS_WAIT", 60.0, float), scheduler_interval=get("SCHEDULER_INTERVAL", 0.2, float),
            scheduler_lock_ttl=get("SCHEDULER_LOCK_TTL", 5, int),
            game_ttl_finished=get("GAME_TTL_FINISHED", 30 * 24 * 3600, int),
            game_ttl_forming=get("GAME_TTL_FORMING", 7 * 24 * 3600, int),
            mail_from=get("MAIL_FROM", "diplomacy@localhost"), mail_secret=get("MAIL_SECRET", None),
            smtp_url=get("SMTP_URL", None), mail_outbox=Path(get("MAIL_OUTBOX", data_dir / "outbox")),
            smtp_port=get("SMTP_PORT", 0, int), mail_max_bytes=get("MAIL_MAX_BYTES", 10 * 1024 * 1024, int),
            webhook_timeout=get("WEBHOOK_TIMEOUT", 10.0, float), webhook_hosts=get("WEBHOOK_HOSTS", "public"),
            openapi_spec=Path(get("OPENAPI_SPEC", cls.openapi_spec)),
            rate_limits_on=get("RATE_LIMITS", "on").strip().lower() not in _OFF,
            rate_limit_storage=get("RATE_LIMIT_STORAGE", None),
            rate_limit_strategy=get("RATE_LIMIT_STRATEGY", "fixed-window"),
            rate_limits={endpoint: get(variable, default) for endpoint, (variable, default) in RATE_LIMITS.items()},
            credential_limits={endpoint: get(variable, default)
                               for endpoint, (variable, default) in CREDENTIAL_LIMITS.items()},
            host=get("HOST", "127.0.0.1"), port=get("PORT", 8000, int), workers=get("WORKERS", 1, int),
            web_concurrency=get("WEB_CONCURRENCY", 2, int),
            worker_connections=get("WORKER_CONNECTIONS", 5000, int),
            request_body_timeout=get("REQUEST_BODY_TIMEOUT", 10.0, float),
            max_restarts=get("MAX_RESTARTS", 5, int), launcher_pid=get("LAUNCHER_PID", 0, int))


@lru_cache(maxsize=1)
def current() -> Settings:
    """This process's settings, read from the environment on first use."""
    return Settings.from_env()
