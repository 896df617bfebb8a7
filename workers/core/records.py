"""The typed records of the tables: each kept in one Redis hash, read and written here only.

A record is a dataclass whose every field names its codec (how its value is
kept as a Redis string).  :meth:`Record.restore` builds one from the hash as
read, :meth:`Record.encode` turns changed fields into the strings to write
(``pipe.hset(key, mapping=GameRecord.encode(seq=2, position=...))``), and
:meth:`Record.save` encodes a whole new record.  A field the hash lacks
takes its default, so a record written before a field existed still reads.

The statuses and the moves between them are in ``workers.core.machine``.
"""
from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cache
from typing import Any, ClassVar

import orjson

from .machine import GameStatus, ResolutionStatus


def read_json(text):
    """A stored JSON value: orjson reads it several times faster than the stdlib; the stdlib reads
    what only it reads (NaN, integers past 64 bits, which ``json.dumps`` writes)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


@cache
def field_names(cls) -> frozenset[str]:
    """The names of a dataclass's fields (``dataclasses.fields`` builds them again at each call)."""
    return frozenset(f.name for f in fields(cls))


@dataclass(frozen=True)
class Codec:
    read: Any  # str -> value
    write: Any  # value -> str | int | float


def _or_empty(value):
    return "" if value is None else value


# an empty string is "no value": the field takes its default when read
TEXT = Codec(str, _or_empty)
INT = Codec(int, _or_empty)
OPT_INT = Codec(lambda s: int(float(s)), _or_empty)
OPT_FLOAT = Codec(float, _or_empty)
JSON = Codec(read_json, lambda v: "" if v is None else json.dumps(v))
FLAG = Codec(lambda s: s not in ("", "0"), lambda v: 1 if v else "")


def enum_codec(kind):
    return Codec(kind, str)


def _field(codec: Codec, default=None, factory=None):
    if factory is not None:
        return field(default_factory=factory, metadata={"codec": codec})
    return field(default=default, metadata={"codec": codec})


class Record:
    """What every record shares: restore from a hash, encode fields, save."""

    _codecs: ClassVar[dict[str, Codec]]

    @classmethod
    def codecs(cls) -> dict[str, Codec]:
        if "_codecs" not in cls.__dict__:
            cls._codecs = {f.name: f.metadata["codec"] for f in fields(cls)}
        return cls._codecs

    @classmethod
    def restore(cls, raw: dict[str, str]):
        """The record of the hash ``raw`` (as HGETALL returns it, decoded)."""
        values = {}
        for name, codec in cls.codecs().items():
            text = raw.get(name)
            if text not in (None, ""):
                values[name] = codec.read(text)
        return cls(**values)

    @classmethod
    def encode(cls, **changes) -> dict[str, str | int | float]:
        """The strings to write for ``changes`` (field -> value)."""
        codecs = cls.codecs()
        return {name: codecs[name].write(value) for name, value in changes.items()}

    def save(self) -> dict[str, str | int | float]:
        return self.encode(**{f.name: getattr(self, f.name) for f in fields(self)})

    def changed(self, **changes):
        """This record with ``changes`` (what it is once they are written)."""
        return replace(self, **changes)


def _required(codec: Codec):
    return field(default=MISSING, metadata={"codec": codec})


@dataclass(frozen=True)
class GameRecord(Record):
    """A Diplomacy game (``keys.game``): its settings, its current phase and its clock."""

    id: str = _required(TEXT)
    variant: str = _required(TEXT)
    director: str = _required(TEXT)  # the director token's hash
    status: GameStatus = _field(enum_codec(GameStatus), GameStatus.FORMING)
    name: str = _field(TEXT, "")
    rules: dict = _field(JSON, factory=dict)
    settings: dict = _field(JSON, factory=dict)
    start: dict | None = _field(JSON)  # a set starting position, or a fork's
    last_year: int | None = _field(OPT_INT)
    tournament: str | None = _field(TEXT)  # the tournament the game is a board of
    round: int | None = _field(OPT_INT)  # ... in this round
    forked_from: dict | None = _field(JSON)
    created_at: float | None = _field(OPT_FLOAT)
    started_at: float | None = _field(OPT_FLOAT)
    # the current phase
    seq: int = _field(INT, 0)
    phase: str = _field(TEXT, "")
    position: dict | None = _field(JSON)
    to_order: list = _field(JSON, factory=list)
    opened_at: float | None = _field(OPT_FLOAT)
    closed_by: str = _field(TEXT, "")
    attempts: int = _field(INT, 0)
    branch: int = _field(INT, 0)  # rollbacks so far
    first_seq: int = _field(INT, 1)  # the number of the phase the start opens (after an imported record's)
    # the clock
    deadline: int | None = _field(OPT_INT)
    deadline_job: str = _field(TEXT, "")
    remaining: float | None = _field(OPT_FLOAT)
    waiting: bool = _field(FLAG, False)  # the deadline passed; the phase waits for the missing orders
    late: list | None = _field(JSON)  # the powers that missed the deadline
    overdue: list | None = _field(JSON)  # the powers waited for past the deadline and its grace
    streaks: dict = _field(JSON, factory=dict)  # power -> movement phases missed in a row (open_seat_after)
    halted_because: str | None = _field(TEXT)  # why its adjudication failed for good (status halted)
    bots: list = _field(JSON, factory=list)  # the powers to order that the bot plays in this phase (a bot's seat)
    # the end
    winner: str | None = _field(TEXT)
    ended_by: str | None = _field(TEXT)
    ended_at: float | None = _field(OPT_FLOAT)
    result: dict | None = _field(JSON)


@dataclass(frozen=True)
class ResolutionRecord(Record):
    """A resolution of another game's procedure (``keys.resolution``): its log, its step and its clock."""

    id: str = _required(TEXT)
    kind: str = _required(TEXT)
    director: str = _required(TEXT)
    status: ResolutionStatus = _field(enum_codec(ResolutionStatus), ResolutionStatus.OPEN)
    version: str = _field(TEXT, "1")  # of the engine that wrote the log
    state: dict = _field(JSON, factory=dict)  # the starting state
    participants: dict = _field(JSON, factory=dict)
    deadlines: dict = _field(JSON, factory=dict)
    dice: str = _field(TEXT, "server")
    seed: str = _field(TEXT, "")
    commitment: str = _field(TEXT, "")
    created_at: float | None = _field(OPT_FLOAT)
    seq: int = _field(INT, 0)
    log: list = _field(JSON, factory=list)
    sealed: dict = _field(JSON, factory=dict)  # the parts of a sealed step given so far
    opened_at: float | None = _field(OPT_FLOAT)
    attempts: int = _field(INT, 0)
    deadline: int | None = _field(OPT_INT)
    deadline_job: str = _field(TEXT, "")
    remaining: float | None = _field(OPT_FLOAT)
    overdue: bool = _field(FLAG, False)  # the deadline passed on a step without a default
    outcome: dict | None = _field(JSON)
    message: str = _field(TEXT, "")  # why it halted


@dataclass(frozen=True)
class TournamentRecord(Record):
    """A tournament (``keys.tournament``): its scoring and its rounds; players and boards have keys of their own."""

    id: str = _required(TEXT)
    director: str = _required(TEXT)
    system: str = _required(TEXT)
    rounds: int = _field(INT, 1)
    aggregate: dict = _field(JSON, factory=dict)
    name: str = _field(TEXT, "")
    created_at: float | None = _field(OPT_FLOAT)
    bye_score: dict = _field(JSON, factory=dict)  # how a bye scores: {"score": "average"|"fixed"|"zero", "value"}
    preferences: bool = _field(FLAG, False)  # the seating draw asks for the players' power preferences
    byes: dict = _field(JSON, factory=dict)  # round (as text) -> the ids of the players who sat out
    round_ends: dict = _field(JSON, factory=dict)  # round (as text) -> when the director says it ends (unix)


# ---------------------------------------------------------------- records kept as one JSON value
class Entry:
    """A record kept as one JSON value (a hash field or a list item), read and written here only.

    :meth:`loads` ignores keys the class does not know (an entry written by a newer version still
    reads) and :meth:`dumps` leaves out optional fields that are unset, so what is stored stays small."""

    sparse: ClassVar[bool] = True  # unset optional fields are left out of what is stored

    @classmethod
    def loads(cls, text: str):
        data = read_json(text)
        known = field_names(cls)
        return cls(**{k: v for k, v in data.items() if k in known})

    @classmethod
    def loads_all(cls, texts) -> list:
        return [cls.loads(t) for t in texts if t is not None]

    def dumps(self) -> str:
        return json.dumps(self.as_dict())

    def as_dict(self) -> dict:
        """The entry as stored: an optional value left out while it is unset (None or False)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if not self.sparse or f.default is MISSING or value is not f.default or f.default not in (None, False):
                out[f.name] = value
        return out

    def changed(self, **changes):
        return replace(self, **changes)


@dataclass(frozen=True)
class PlayerRecord(Entry):
    """A seat of a game (``keys.players``): its player, or the seat open or retired (docs/seats.md)."""

    id: str
    powers: list
    joined_at: float
    name: str = ""
    email: str | None = None
    account: str | None = None
    took_over: str | None = None  # the open seat this player took
    # an open seat: its powers still play; its player left or was removed
    open: bool = False
    since: float | None = None
    cause: str | None = None
    reason: str | None = None
    left_account: str | None = None
    # a retired seat: an open one that was taken
    retired: bool = False
    replaced_by: str | None = None
    bot: bool = False  # an open seat the bot plays until someone takes it over

    @property
    def holds(self) -> bool:
        """Whether the player holds the seat now (not open, not retired)."""
        return not self.open and not self.retired

    def public(self) -> dict:
        """What anyone may see of the player."""
        return {"id": self.id, "name": self.name, "powers": self.powers}


@dataclass(frozen=True)
class LiveEvent:
    """An entry of a table's live-event stream (``keys.events``; ``workers.core.live``)."""

    id: str
    type: str
    data: str  # JSON text, sent to clients as it is
    to: frozenset | None  # the audiences that may see it (None: everyone who may watch the table)
    views: tuple = ()  # or what each audience sees: (audiences, JSON text) pairs; ``to`` is their union

    @classmethod
    def fields(cls, type: str, data: dict | None, to, views=None) -> dict:
        """The stream entry's fields for an event (``views``: ``(data, audiences)`` pairs)."""
        if views:
            to = sorted({a for _view, audiences in views for a in audiences})
        return {"type": type, "data": json.dumps(data), "to": json.dumps(sorted(to)) if to else "",
                "views": json.dumps([[sorted(audiences), view] for view, audiences in views]) if views else ""}

    @classmethod
    def restore(cls, entry_id: str, fields: dict):
        to, views = fields.get("to"), fields.get("views")
        return cls(entry_id, fields["type"], fields["data"], frozenset(read_json(to)) if to else None,
                   tuple((frozenset(a), json.dumps(v)) for a, v in read_json(views)) if views else ())

    def data_for(self, seen: frozenset) -> str | None:
        """The data an audience holding ``seen`` sees (None: nothing)."""
        if self.views:
            return next((data for audiences, data in self.views if audiences & seen), None)
        return self.data if self.to is None or self.to & seen else None


@dataclass(frozen=True)
class Proposal(Entry):
    """A draw or concession proposal (``keys.proposals``); its ballots are ``keys.ballots``."""

    id: str
    kind: str  # "draw" or "concession"
    seq: int
    phase: str
    proposed_by: str  # the power
    player: str
    proposed_at: float
    status: str = "open"  # open, passed, lapsed
    members: list | None = None  # a draw's
    to: str | None = None  # a concession's
    closed_at: float | None = None
    closed_because: str | None = None


@dataclass(frozen=True)
class Absence(Entry):
    """A player's declared absence (``keys.absences``)."""

    id: str
    player: str
    powers: list
    start: float
    end: float
    declared_at: float
    status: str = "pending"  # pending, approved, rejected, cancelled


@dataclass(frozen=True)
class PressMessage(Entry):
    """A press message as stored (``keys.press``): whom it is from and for, and how it is shown."""

    n: int
    phase: str
    sent_at: float
    to: Any  # "all" or a list of powers
    seq: int | None = None
    body: str = ""
    grey: bool = False
    fake_broadcast: bool = False
    hidden_to: bool = False  # a reply to grey press: its recipient is hidden from its own sender
    reply_to: int | None = None
    id: str | None = None  # its public id: random (None: a message stored before, shown as m{n})
    in_reply_to: str | None = None  # the public id of the message it answers
    # the sender (a reserved word in Python)
    sender: str = field(default="", metadata={"key": "from"})

    @classmethod
    def loads(cls, text: str):
        data = read_json(text)
        data["sender"] = data.pop("from", "")
        known = field_names(cls)
        return cls(**{k: v for k, v in data.items() if k in known})

    def as_dict(self) -> dict:
        out = super().as_dict()
        out["from"] = out.pop("sender")
        return out


@dataclass(frozen=True)
class HistoryEntry(Entry):
    """An adjudicated phase (``keys.history``), as the history shows it."""

    seq: int
    phase: str
    closed_by: str
    attempts: int
    position: dict
    orders: dict
    results: list
    next_phase: str | None = None
    adjudicated_at: str | None = None
    counted: dict | None = None  # account -> {counter: n}, what the phase counted (a rollback takes it back)
    streaks_before: dict | None = None
    superseded: Any = None  # the rollback that superseded it
    bots: list | None = None  # the powers whose orders the bot gave

    def public(self) -> dict:
        """What the history and the export show of it (not what it counted)."""
        out = self.as_dict()
        out.pop("counted", None)
        out.pop("streaks_before", None)
        return out


@dataclass(frozen=True)
class TournamentPlayer(Entry):
    """A tournament's player (``keys.tournament_players``)."""

    id: str
    name: str
    email: str | None = None
    preferences: list | None = None  # powers, the most wanted first
    withdrawn_at: float | None = None  # withdrawn: keeps the scores earned, gets no new board


@dataclass(frozen=True)
class Board(Entry):
    """A tournament's board (``keys.tournament_boards``): a game of one round, and who plays what."""

    round: int
    board: int  # its number in the round
    game: str
    seats: dict  # power -> tournament player id


@dataclass(frozen=True)
class AuditEntry(Entry):
    """An entry of a table's audit log (``keys.audit``)."""

    at: str
    action: str
    by: str
    detail: dict


@dataclass(frozen=True)
class WebhookRecord(Record):
    """A webhook subscription (``keys.hook``)."""

    id: str = _required(TEXT)
    owner: str = _required(TEXT)  # "game:<id>" or "tournament:<id>"
    url: str = _required(TEXT)
    secret: str = _required(TEXT)
    events: list = _field(JSON, factory=list)
    created_at: float | None = _field(OPT_FLOAT)


@dataclass(frozen=True)
class MailOut(Record):
    """A message in the outbox (``keys.mail_out``), until its delivery job hands it on."""

    raw: str = _required(TEXT)
    to: list = _field(JSON, factory=list)  # the envelope's recipients
    subject: str = _field(TEXT, "")
    queued_at: float | None = _field(OPT_FLOAT)
    private: bool = _field(FLAG, False)  # press: logged without its recipients or subject
    refused: dict | None = _field(JSON)  # the recipients a relay refused for good, with its answers


@dataclass(frozen=True)
class Delivery(Entry):
    """One attempt to deliver an event to a webhook (``keys.hook_log``)."""

    sparse: ClassVar[bool] = False
    event: str
    type: str
    at: str
    url: str
    status: int | None = None
    ok: bool = False
    error: str | None = None
    ms: float = 0
    address: str | None = None


@dataclass(frozen=True)
class SigninCode(Entry):
    """A one-time sign-in code (``keys.signin_code``): the table it opens and the token's hash."""

    table: str
    id: str
    digest: str


def encode_orders(orders: list[str]) -> str:
    """A power's stored orders (``keys.orders``): canonical order texts."""
    return json.dumps(orders)


def decode_orders(text: str | None) -> list[str] | None:
    return read_json(text) if text else None


def decode_json(text: str | None, default=None):
    """A value kept as JSON text in a field of a record of RQ's or of the mail outbox."""
    return default if text in (None, "") else read_json(text)
