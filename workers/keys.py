"""Every Redis key the game service uses, built in one place.

docs/redis-keys.md describes each key's type, contents and lifetime.  RQ's own
keys (``rq:*``) are made by RQ from the queue name below.
"""

PREFIX = "dip"
QUEUE = "adjudication"


def game(gid: str) -> str:
    """HASH: the game record and its current phase."""
    return f"{PREFIX}:game:{gid}"


def players(gid: str) -> str:
    """HASH: player id -> JSON {id, name, powers, joined_at}."""
    return f"{PREFIX}:game:{gid}:players"


def tokens(gid: str) -> str:
    """HASH: sha256(player token) -> player id."""
    return f"{PREFIX}:game:{gid}:tokens"


def orders(gid: str, seq: int) -> str:
    """HASH: power -> JSON list of canonical orders for phase number ``seq``."""
    return f"{PREFIX}:game:{gid}:orders:{seq}"


def ready(gid: str, seq: int) -> str:
    """SET: powers that marked themselves ready in phase number ``seq``."""
    return f"{PREFIX}:game:{gid}:ready:{seq}"


def history(gid: str) -> str:
    """LIST: JSON record of every adjudicated phase, oldest first."""
    return f"{PREFIX}:game:{gid}:history"


def resolution(rid: str) -> str:
    """HASH: a resolution's record: kind, state, log, current step, clock, dice commitment."""
    return f"{PREFIX}:res:{rid}"


def resolution_tokens(rid: str) -> str:
    """HASH: sha256(participant token) -> participant id."""
    return f"{PREFIX}:res:{rid}:tokens"
