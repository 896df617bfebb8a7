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
from typing import Any, ClassVar

from .machine import GameStatus, ResolutionStatus


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
JSON = Codec(json.loads, lambda v: "" if v is None else json.dumps(v))
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
