"""The audit log of director actions on a table: one writer, called inside the action's transaction."""
from __future__ import annotations

from . import keys
from .records import AuditEntry
from .store import iso


def record(pipe, table: str, tid: str, at: float, action: str, detail: dict, by: str = "director") -> None:
    """Queue (in ``pipe``'s transaction, after MULTI) the entry of one action (the director's, unless
    ``by`` names another: a player, the service)."""
    pipe.rpush(keys.audit(table, tid), AuditEntry(iso(at), action, by, detail).dumps())


def read(r, table: str, tid: str) -> list[dict]:
    """The table's audit log, oldest first, as its views show it."""
    return [e.as_dict() for e in AuditEntry.loads_all(r.lrange(keys.audit(table, tid), 0, -1))]
