"""The state machines of the tables: every status, every move between them, and the one
function that moves a record (:meth:`Diagram.transition`).

A Diplomacy game (``workers.tables.games``)::

    forming --start--> open --------------close (deadline, all ready, director)----> adjudicating
       |               |  ^ \\--pause--> paused --resume--> open                          |
       |               |  |                |                                            |
       |               |  +----------------+-------- next phase opens <-----------------+
       |               |                   |                                            |
       |               +--end, vote--------+--end, vote--> finished <--game over--------+
       +--start, nobody to order----------------------------------------> adjudicating
                        rollback: open, paused or finished --> open (or adjudicating)

    flags of an open phase: ``waiting`` (the deadline passed and the game waits for the
    missing orders), ``late`` (the powers that missed it: in their grace period, or waited for)

A resolution (``workers.tables.resolutions``)::

    open --answer, bot, dice, default--> open (the next step) or resolved
    open --pause--> paused --resume--> open       (a paused resolution still takes answers)
    open, paused --cancel--> cancelled
    open, paused --the log no longer replays--> halted

    flag of an open step: ``overdue`` (its deadline passed and it has no default)

A move names its target status; :meth:`Diagram.transition` refuses a move the diagram
lacks (a bug, never a user's error) and clears the clock fields (``deadline``,
``deadline_job``, ``remaining``: the caller passes new ones to keep a clock running),
taking the old deadline off the schedule.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class GameStatus(StrEnum):
    FORMING = "forming"
    OPEN = "open"
    PAUSED = "paused"
    ADJUDICATING = "adjudicating"
    FINISHED = "finished"


class ResolutionStatus(StrEnum):
    OPEN = "open"
    PAUSED = "paused"
    RESOLVED = "resolved"
    CANCELLED = "cancelled"
    HALTED = "halted"


CLOCK_FIELDS = ("deadline", "deadline_job", "remaining")


class IllegalMove(RuntimeError):
    """A status change the table's diagram does not allow: a bug in the service."""


@dataclass(frozen=True)
class Diagram:
    table: str
    moves: dict[str, frozenset[str]]

    def allows(self, here: str, to: str) -> bool:
        return to in self.moves.get(here, ())

    def transition(self, store, pipe, key: str, record: dict, to: str, **fields) -> dict:
        """Queue (after MULTI) the move of ``record`` (at ``key``) to status ``to`` with ``fields``;
        the clock fields not in ``fields`` are cleared.  Returns what was written."""
        here = record["status"]
        if not self.allows(here, to):
            raise IllegalMove(f"{self.table} {record.get('id')}: no move from {here} to {to}")
        return self.set_clock(store, pipe, key, record, **fields, status=str(to))

    @staticmethod
    def set_clock(store, pipe, key: str, record: dict, **fields) -> dict:
        """Queue (after MULTI) new clock fields (those not in ``fields`` cleared) and other ``fields``,
        the status unchanged, taking the old deadline off the schedule.  Returns what was written."""
        store.cancel_deadline(pipe, record)
        written = {**dict.fromkeys(CLOCK_FIELDS, ""), **fields}
        pipe.hset(key, mapping=written)
        return written


def _moves(pairs: dict) -> dict[str, frozenset[str]]:
    return {str(here): frozenset(map(str, to)) for here, to in pairs.items()}


G, R = GameStatus, ResolutionStatus
GAME = Diagram("game", _moves({
    G.FORMING: {G.OPEN, G.ADJUDICATING},
    G.OPEN: {G.ADJUDICATING, G.PAUSED, G.FINISHED, G.OPEN},
    G.PAUSED: {G.OPEN, G.FINISHED, G.ADJUDICATING},
    G.ADJUDICATING: {G.OPEN, G.ADJUDICATING, G.FINISHED},
    G.FINISHED: {G.OPEN, G.ADJUDICATING},
}))
RESOLUTION = Diagram("resolution", _moves({
    R.OPEN: {R.OPEN, R.PAUSED, R.RESOLVED, R.CANCELLED, R.HALTED},
    R.PAUSED: {R.OPEN, R.RESOLVED, R.CANCELLED, R.HALTED},
}))
