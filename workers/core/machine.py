"""The state machines of the tables: every status, every move between them, and the one
function that moves a record (:meth:`Diagram.transition`).

A Diplomacy game (``workers.tables.games``)::

    forming --start--> open --------------close (deadline, all ready, director)----> adjudicating --the engine
       |               |  ^ \\--pause--> paused --resume--> open                          |      fails--> halted
       |               |  |                |                                            |
       |               |  +----------------+-------- next phase opens <-----------------+
       |               |                   |                                            |
       |               +--end, vote--------+--end, vote--> finished <--game over--------+
       +--start, nobody to order----------------------------------------> adjudicating
                        rollback: open, paused, halted or finished --> open (or adjudicating)
                        halted --end--> finished

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
taking the old deadline off the schedule.  It works on the typed records of
``workers.core.records`` and returns the record as it is once written.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from . import versions


class GameStatus(StrEnum):
    FORMING = "forming"
    OPEN = "open"
    PAUSED = "paused"
    ADJUDICATING = "adjudicating"
    HALTED = "halted"  # its adjudication failed for good: the director rolls it back or ends it
    FINISHED = "finished"


class ResolutionStatus(StrEnum):
    OPEN = "open"
    PAUSED = "paused"
    RESOLVED = "resolved"
    CANCELLED = "cancelled"
    HALTED = "halted"




class IllegalMove(RuntimeError):
    """A status change the table's diagram does not allow: a bug in the service."""


@dataclass(frozen=True)
class Diagram:
    table: str
    moves: dict[str, frozenset[str]]

    def allows(self, here: str, to: str) -> bool:
        return to in self.moves.get(here, ())

    def transition(self, store, pipe, key: str, record, to: str, **changes):
        """Queue (after MULTI) the move of ``record`` (at ``key``) to status ``to`` with ``changes``;
        the clock fields not in ``changes`` are cleared.  Returns the record as written."""
        if not self.allows(record.status, to):
            raise IllegalMove(f"{self.table} {record.id}: no move from {record.status} to {to}")
        if getattr(record, "tournament", None):
            versions.board_moved(pipe, record.tournament, record.status == "finished", to == "finished")
        return self.set_clock(store, pipe, key, record, **changes, status=type(record.status)(to))

    @staticmethod
    def set_clock(store, pipe, key: str, record, **changes):
        """Queue (after MULTI) new clock fields (those not in ``changes`` cleared) and other ``changes``,
        the status unchanged, taking the old deadline off the schedule.  Returns the record as written."""
        changes = {"deadline": None, "deadline_job": "", "remaining": None, **changes}
        if record.deadline_job != changes["deadline_job"]:  # a deadline set again to the same second stays
            store.cancel_deadline(pipe, record.deadline_job)
        pipe.hset(key, mapping=type(record).encode(**changes))
        return record.changed(**changes)


def _moves(pairs: dict) -> dict[str, frozenset[str]]:
    return {str(here): frozenset(map(str, to)) for here, to in pairs.items()}


G, R = GameStatus, ResolutionStatus
GAME = Diagram("game", _moves({
    G.FORMING: {G.OPEN, G.ADJUDICATING},
    G.OPEN: {G.ADJUDICATING, G.PAUSED, G.FINISHED, G.OPEN},
    G.PAUSED: {G.OPEN, G.FINISHED, G.ADJUDICATING},
    G.ADJUDICATING: {G.OPEN, G.ADJUDICATING, G.FINISHED, G.HALTED},
    G.HALTED: {G.OPEN, G.ADJUDICATING, G.FINISHED},
    G.FINISHED: {G.OPEN, G.ADJUDICATING},
}))
RESOLUTION = Diagram("resolution", _moves({
    R.OPEN: {R.OPEN, R.PAUSED, R.RESOLVED, R.CANCELLED, R.HALTED},
    R.PAUSED: {R.OPEN, R.RESOLVED, R.CANCELLED, R.HALTED},
}))
