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
    """HASH: player id -> a ``records.PlayerRecord`` as JSON."""
    return f"{PREFIX}:game:{gid}:players"


def tokens(gid: str) -> str:
    """HASH: sha256(player token) -> player id."""
    return f"{PREFIX}:game:{gid}:tokens"


def orders(gid: str, seq: int) -> str:
    """HASH: power -> JSON list of canonical orders for phase number ``seq``."""
    return f"{PREFIX}:game:{gid}:orders:{seq}"


def bot_orders(gid: str, seq: int) -> str:
    """HASH: power -> JSON list of the bot's orders for phase number ``seq``, computed while it is open
    for the seats the bot plays (``Phases.prepare_bots``); written only while the phase is open."""
    return f"{PREFIX}:game:{gid}:bot_orders:{seq}"


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


def proposals(gid: str) -> str:
    """HASH: proposal id -> JSON draw or concession proposal (who proposed and when, status)."""
    return f"{PREFIX}:game:{gid}:proposals"


def ballots(gid: str, proposal: str) -> str:
    """HASH: power -> "yes" / "no", the secret votes on one proposal."""
    return f"{PREFIX}:game:{gid}:ballots:{proposal}"


def audit(table: str, tid: str) -> str:
    """LIST: JSON record of every director action on a game or tournament, oldest first."""
    return f"{PREFIX}:{table}:{tid}:audit"


def tournament(tid: str) -> str:
    """HASH: a tournament's record: name, scoring system, aggregation, rounds, director."""
    return f"{PREFIX}:tour:{tid}"


def tournament_players(tid: str) -> str:
    """HASH: tournament player id -> JSON {id, name}."""
    return f"{PREFIX}:tour:{tid}:players"


def tournament_boards(tid: str) -> str:
    """HASH: game id -> a ``records.Board`` as JSON (its round, number and seats)."""
    return f"{PREFIX}:tour:{tid}:boards"


def tournament_keys(tid: str) -> list[str]:
    """Every key of a tournament (they expire together: workers/tables/tournaments.py)."""
    return [tournament(tid), tournament_players(tid), tournament_boards(tid), audit("tournament", tid),
            hooks(f"tournament:{tid}")]


def hooks(owner: str) -> str:
    """SET: webhook subscription ids of an owner ("game:{gid}" or "tournament:{tid}")."""
    return f"{PREFIX}:hooks:{owner}"


def hook(hid: str) -> str:
    """HASH: one webhook subscription (``records.WebhookRecord``)."""
    return f"{PREFIX}:hook:{hid}"


def hook_log(hid: str) -> str:
    """LIST: JSON record of every delivery attempt of a subscription, oldest first."""
    return f"{PREFIX}:hook:{hid}:log"


def hook_done(hid: str) -> str:
    """SET: event ids a subscription has delivered (a re-run job sends nothing twice)."""
    return f"{PREFIX}:hook:{hid}:done"


def absences(gid: str) -> str:
    """HASH: absence id -> a ``records.Absence`` as JSON (dates epoch seconds)."""
    return f"{PREFIX}:game:{gid}:absences"


def mail_done(gid: str) -> str:
    """SET: ids of the game's events the mail listener has turned into messages (a re-run sends nothing twice)."""
    return f"{PREFIX}:game:{gid}:mail:done"


def mail_out(mid: str) -> str:
    """HASH: one outgoing message (``records.MailOut``), kept until the relay accepted it."""
    return f"{PREFIX}:mail:out:{mid}"


def mail_seen(digest: str) -> str:
    """STRING: an incoming message already handled (sha256 of its bytes) -> what was done; 7 days."""
    return f"{PREFIX}:mail:seen:{digest}"


def mail_secret() -> str:
    """STRING: the HMAC key of the signed reply addresses, made once (unless MAIL_SECRET is set)."""
    return f"{PREFIX}:mail:secret"


def press(gid: str) -> str:
    """HASH: message number -> a ``records.PressMessage`` as JSON (all press of a game)."""
    return f"{PREFIX}:game:{gid}:press"


def press_count(gid: str) -> str:
    """STRING: the number of the game's last message (its order; its public id is random)."""
    return f"{PREFIX}:game:{gid}:press:count"


def press_box(gid: str, box: str) -> str:
    """ZSET: message number -> itself, the messages one reader may see: a power's private press
    (sent or received), ``public`` (broadcasts), ``director`` (what was sent while the press rules
    said ``director_reads``) or ``all`` (every message)."""
    return f"{PREFIX}:game:{gid}:press:box:{box}"


def press_ids(gid: str) -> str:
    """HASH: a message's public id -> its number (the number orders the boxes and is never shown)."""
    return f"{PREFIX}:game:{gid}:press:ids"


def press_sources(gid: str) -> str:
    """HASH: where a message came from (an incoming mail and its block) -> its number, so a mail
    handled twice sends its press once."""
    return f"{PREFIX}:game:{gid}:press:sources"


def press_keys(gid: str, powers) -> list[str]:
    """Every press key of a game whose variant has ``powers`` (they live and expire with the game)."""
    return [press(gid), press_count(gid), press_sources(gid), press_ids(gid),
            *(press_box(gid, box) for box in ("public", "all", "director", *powers))]


def events(table: str, tid: str) -> str:
    """STREAM: the live events of a table (``table`` is "game" or "resolution"), trimmed by age."""
    return f"{PREFIX}:{'res' if table == 'resolution' else table}:{tid}:events"


def deadlines() -> str:
    """ZSET: "table:id:seq:deadline" -> deadline (epoch seconds), every step's pending deadline."""
    return f"{PREFIX}:deadlines"


def account(aid: str) -> str:
    """HASH: an account: id, name, email, created_at, deleted_at, and its record's counters."""
    return f"{PREFIX}:account:{aid}"


def account_tokens() -> str:
    """HASH: sha256(account token) -> account id, for every account."""
    return f"{PREFIX}:accounts:tokens"


def account_games(aid: str) -> str:
    """SET: the games in which an account holds, or held, a seat."""
    return f"{PREFIX}:account:{aid}:games"


def lobby(index: str) -> str:
    """ZSET: public game ids by creation time; ``index`` is ``all``, ``status:{stage}``,
    ``variant:{variant}`` or ``open`` (a seat open to take over)."""
    return f"{PREFIX}:lobby:{index}"


def session(digest: str) -> str:
    """HASH: a page session (by the hash of its cookie's id): "{table}:{id}" -> the hash of the token
    it signed in with, and "_csrf" -> the forms' CSRF secret (workers/core/sessions.py)."""
    return f"{PREFIX}:session:{digest}"


def token_place(digest: str) -> str:
    """STRING: the table a token (by its hash) was issued for, "{table}:{id}", so that /signin takes a
    token alone (workers/core/sessions.py); expires after a year, the table's own check still decides."""
    return f"{PREFIX}:tokenplace:{digest}"


def signin_code(digest: str) -> str:
    """STRING: a one-time sign-in code (by its hash) -> JSON {table, id, digest}; expires after 7 days."""
    return f"{PREFIX}:signin:{digest}"


def pages_secret() -> str:
    """STRING: the pages' signing key (CSRF tokens), made once."""
    return f"{PREFIX}:pages:secret"
