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
from . import mila
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
    """All reads and writes of Diplomacy games."""

    table = "game"

    def __init__(self, store):
        self.store, self.r = store, store.r
        self.core = GameTable(store)
        self.accounts = self.core.accounts
        self.seats = Seats(self.core)
        ending = Ending(self.core, self.seats)
        self.votes = Votes(self.core, ending)
        self.absences = Absences(self.core)
        self.press = Press(self.core)
        views = Views(self.core, self.seats)
        setup = Setup(self.core, views, self.seats)
        orders, phases = Orders(self.core), Phases(self.core, ending, self.votes, self.seats)
        director = Director(self.core, ending, self.votes, setup, views, self.seats)
        # the public operations, each the one of its part
        self.player_for, self.check_director = self.core.player_for, self.core.check_director
        self.create_game, self.join, self.start = setup.create_game, setup.join, setup.start
        self.public_state, self.player_view, self.history = views.public_state, views.player_view, views.history
        self.own_orders, self.export, self.audit = views.own_orders, views.export, views.audit
        self.result, self.scores = views.result, views.scores
        self.submit_orders, self.clear_orders, self.set_ready = orders.submit, orders.clear, orders.set_ready
        self.advance, self.on_deadline, self.close_at_deadline = phases.advance, phases.on_deadline, \
            phases.close_at_deadline
        self.extend, self.pause, self.resume, self.force = director.extend, director.pause, director.resume, \
            director.force
        self.end_game, self.set_last_year = director.end_game, director.set_last_year
        self.rollback, self.fork = director.rollback, director.fork
        self.open_seat, self.leave = director.open_seat, self.seats.leave
        self.lobby = Lobby(store)
        self._setup = setup

    def export_mila(self, gid: str) -> dict:
        """The game as a MILA saved-game record (workers.tables.games.mila)."""
        return mila.to_mila(self.public_state(gid), self.history(gid))

    def import_mila(self, spec: dict, saved: dict) -> tuple[dict, str]:
        """A new game (forming, with a director token) at the last phase of the MILA record ``saved``,
        whose phases, replayed through our engine, are its history; 422 naming the first that differs."""
        history, position = mila.replay(saved, spec.get("rules", {}), self.store.now())
        start = {k: position[k] for k in ("phase", "units", "centers", "dislodged", "contested", "retreat_options",
                                          "adjustments") if k in position}
        return self._setup.create_game({**spec, "variant": mila.MAP, "start": start}, history=history)
