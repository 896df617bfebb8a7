"""Diplomacy games: the table whose steps are phases, on the machinery of ``workers.core``.

Every change of a game is one transaction of :meth:`Store.transact` on the
game's record (``workers.core.records.GameRecord``), whose status moves only
through :data:`workers.core.machine.GAME` (its diagram is there), so:

* a submission is stored only while the phase is open: it commits before the
  phase closes (and is adjudicated) or fails and is refused with a 409;
* an adjudication commits only if the game is still ``adjudicating`` the same
  phase number: a second job, a racing job or a re-run of an abandoned job
  computes the same result and its commit is a no-op.

Jobs (deadline and adjudication) are enqueued in the same transaction as the
state change that needs them, so a crash can never leave a closed phase
without its job or an open phase without its deadline.

The package is split by concern, each part built on the one :class:`GameTable`
(reading the record, opening and closing phases, the director's transaction):
``setup`` (create, join, start), ``views``, ``orders``, ``phases`` (the jobs:
deadlines and adjudication), ``ending`` (results and the end of a game),
``director`` (the clock, forcing, ending, rollback and fork); votes on draws
and concessions are ``workers.tables.votes``.  :class:`Games` is what the API,
the mail interface and the jobs call.
"""
from __future__ import annotations

from ..absences import Absences
from ..press import Press
from ..lobby import Lobby
from ..votes import Votes
from .director import Director
from .ending import Ending
from .orders import Orders
from .phases import Phases
from .seats import Seats
from .setup import Setup
from .table import GameTable, engine
from .views import Views

__all__ = ["Games", "engine"]


class Games:
    """The parts of the Diplomacy games table, each built once on the one :class:`GameTable`.

    A caller names the part it means: ``games.orders.submit``, ``games.views.public_state``,
    ``games.director.rollback``.  The jobs take steps through ``games.phases`` (``advance``,
    ``on_deadline``: the shape ``workers.runtime.jobs.Steps`` asks of every table)."""

    table = "game"

    def __init__(self, store):
        self.store, self.r = store, store.r
        self.core = GameTable(store)
        self.accounts = self.core.accounts
        self.seats = Seats(self.core)
        self.ending = Ending(self.core, self.seats)
        self.votes = Votes(self.core, self.ending)
        self.absences = Absences(self.core)
        self.press = Press(self.core)
        self.views = Views(self.core, self.seats)
        self.setup = Setup(self.core, self.views, self.seats)
        self.orders = Orders(self.core)
        self.phases = Phases(self.core, self.ending, self.votes, self.seats)
        self.director = Director(self.core, self.ending, self.votes, self.setup, self.views, self.seats)
        self.lobby = Lobby(store)
