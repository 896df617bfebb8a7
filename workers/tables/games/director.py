"""What a game's director does: the clock, forcing a phase, ending the game, its last year,
and rollback and fork.  Every action is one transaction with its audit entry."""
from __future__ import annotations


from ...core import audit, keys
from ...core.errors import Conflict, Forbidden, Invalid, Unauthorized
from ...core.machine import GameStatus
from ...core.records import GameRecord
from ...core.store import iso
from .ending import Ending
from .seats import DEFAULT_OPEN_SEAT_AFTER, Seats
from .setup import Setup
from .table import POSITION_FIELDS, GameTable, played_by_bot, seated, waits_for
from .views import Views, public_rules

OPEN = (GameStatus.OPEN, GameStatus.PAUSED)


class Director:
    def __init__(self, table: GameTable, ending: Ending, votes, setup: Setup, views: Views, seats: Seats):
        self.t, self.ending, self.votes, self.setup, self.views, self.seats = table, ending, votes, setup, views, seats

    def _act(self, gid: str, token: str | None, action: str, detail: dict, change) -> dict:
        self.t.director(gid, token, action, detail, change)
        return self.views.public_state(gid)

    def extend(self, gid: str, token: str | None, seconds: int | None = None, until: float | None = None) -> dict:
        return self._act(gid, token, "extend", {"seconds": seconds, "deadline": iso(until)},
                         lambda pipe, g: self.t.clock.extend(pipe, g, seconds, until))

    def pause(self, gid: str, token: str | None) -> dict:
        return self._act(gid, token, "pause", {}, self.t.clock.pause)

    def resume(self, gid: str, token: str | None) -> dict:
        """Restart the clock with the time that was left; a phase whose every power became ready
        while it was paused closes now instead (a pause stops the clock, not the players)."""
        def change(pipe, g: GameRecord):
            if g.status == GameStatus.PAUSED and g.to_order:
                pipe.watch(keys.ready(gid, g.seq))
                if waits_for(g) <= set(pipe.smembers(keys.ready(gid, g.seq))):
                    pipe.multi()
                    self.t.close(pipe, g, "every power was ready")
                    return
            self.t.clock.resume(pipe, g)

        return self._act(gid, token, "resume", {}, change)

    def force(self, gid: str, token: str | None) -> dict:
        def change(pipe, g: GameRecord):
            if g.status not in OPEN:
                raise Conflict(f"game '{gid}' is {g.status}; there is no open phase to adjudicate")
            pipe.multi()
            self.t.close(pipe, g, "director")

        return self._act(gid, token, "adjudicate", {}, change)

    def end_game(self, gid: str, token: str | None, reason: str, at_table: dict | None = None) -> dict:
        """The director ends the game by hand: time called (a timeout with the centres as they stand), or
        the result recorded at the table (``at_table``, see :meth:`Ending.recorded`)."""
        detail = {"reason": reason, **({"result": at_table} if at_table else {})}

        def change(pipe, g: GameRecord):
            if g.status not in (*OPEN, GameStatus.HALTED):
                raise Conflict(f"game '{gid}' is {g.status}; only a game with an open phase (or halted) can be ended"
                               + (" (the phase is being adjudicated: try again in a moment)"
                                  if g.status == GameStatus.ADJUDICATING else ""))
            result, winner = self.ending.recorded(pipe, g, at_table or {"end": "timeout"})
            lapsing = self.votes.open_proposals(pipe, gid)
            pipe.multi()
            self.votes.lapse(pipe, gid, lapsing, "the director ended the game")
            self.ending.finish(pipe, g, result, "director", winner=winner)

        return self._act(gid, token, "end", detail, change)

    def set_last_year(self, gid: str, token: str | None, year: int | None) -> dict:
        """The game ends after ``year``'s winter adjustments (None: no last year)."""
        def change(pipe, g: GameRecord):
            if g.status == GameStatus.FINISHED:
                raise Conflict(f"game '{gid}' is over")
            phase = (g.position or g.start)["phase"]
            if year is not None and year < int(phase[1:5]):
                raise Invalid(f"body.year: {year} is before the current phase {phase}; "
                              "end the game by hand instead (POST .../end)")
            pipe.multi()
            pipe.hset(keys.game(gid), mapping=GameRecord.encode(last_year=year))

        return self._act(gid, token, "last_year", {"year": year}, change)

    def open_seat(self, gid: str, token: str | None, power: str, reason: str) -> dict:
        """The director opens a seat for a replacement (its audit entry is the seat's own)."""
        self.seats.open_by_director(gid, token, power, reason)
        return self.views.public_state(gid)

    # ------------------------------------------------------------ rollback and fork
    def rollback(self, gid: str, token: str | None, seq: int, reason: str) -> dict:
        """Reopen the start of adjudicated phase ``seq`` with a fresh deadline and no orders; the
        phases after it stay in the history, marked superseded (who, when, why)."""
        detail = {"seq": seq, "reason": reason, "superseded": []}

        def change(pipe, g: GameRecord):
            if g.status in (GameStatus.FORMING, GameStatus.ADJUDICATING):
                raise Conflict(f"game '{gid}' is {g.status}; " + (
                    "it has no phase to go back to" if g.status == GameStatus.FORMING
                    else "a phase is being adjudicated: try again in a moment"))
            history = self.t.history(pipe, gid)
            live = [(i, h) for i, h in enumerate(history) if not h.superseded]
            target = next((h for _i, h in live if h.seq == seq), None)
            if target is None:
                raise Invalid(f"body.seq: {seq} is not an adjudicated phase of the live history of game '{gid}'; "
                              f"one of {[h.seq for _i, h in live]}")
            players = self.t.players(pipe, gid)
            lapsing = self.votes.open_proposals(pipe, gid)
            mark = {"by": "director", "at": iso(self.t.now()), "reason": reason, "restored_seq": g.seq + 1}
            pipe.multi()
            superseded = [h for _i, h in live if h.seq >= seq]
            for i, h in live:
                if h.seq >= seq:
                    pipe.lset(keys.history(gid), i, h.changed(superseded=mark).dumps())
            streaks = self.seats.take_back(pipe, superseded)  # the record forgets the phases it removes
            if g.status == GameStatus.FINISHED:
                self.seats.count_finish(pipe, players, -1)
            self.votes.lapse(pipe, gid, lapsing, "the director rolled the game back")
            pipe.delete(keys.orders(gid, g.seq), keys.ready(gid, g.seq), keys.bot_orders(gid, g.seq))
            pipe.hset(keys.game(gid), mapping=GameRecord.encode(winner=None, ended_by=None, ended_at=None,
                                                                result=None, branch=g.branch + 1, streaks=streaks))
            position = {k: target.position[k] for k in POSITION_FIELDS if k in target.position}
            self.t.open_phase(pipe, g, g.seq + 1, position, seated(players), bots=played_by_bot(players))
            detail["superseded"] = [h.seq for h in superseded]

        return self._act(gid, token, "rollback", detail, change)

    def fork(self, gid: str, token: str | None, seq: int | None, spec: dict) -> tuple[dict, str]:
        """A new game (a sandbox) starting at the start of phase ``seq`` of this game (None: its current
        phase), for its director, or one of its players once it has ended.  It copies the rules the
        origin shows, and draws anew what the origin still hides (``HIDDEN_RULES``)."""
        g = self.t.load(self.t.r, gid)
        viewer = self.t.who(gid, token)
        director = viewer.is_director
        if not director:
            if not token:
                raise Unauthorized("forking needs the director's token, or a player's once the game has "
                                   "ended: send 'Authorization: Bearer <token>'")
            viewer.player()  # 401 for a token that is no player's either
            if g.status != GameStatus.FINISHED:
                raise Forbidden(f"only the director may fork game '{gid}' while it is played; "
                                "its players may once it has ended")
        if seq is None:
            if not g.seq:
                raise Conflict(f"game '{gid}' has not started; name an adjudicated phase or wait for the start")
            position, seq, phase = g.position, g.seq, g.phase
        else:
            found = next((h for h in self.views.history(gid) if h.seq == seq), None)
            if found is None:
                raise Invalid(f"body.seq: game '{gid}' has no adjudicated phase {seq}",
                              errors={"seq": ["not an adjudicated phase of this game"]})
            position, phase = found.position, found.phase
        settings = g.settings
        origin = {"game": gid, "seq": seq, "phase": phase}
        spec = {"variant": g.variant, "rules": public_rules(g.rules, g.phase), "deadlines": settings["deadlines"],
                "assignment": "chosen", "missed_orders": settings["missed_orders"],
                "draw_subsets": settings.get("draw_subsets", False),
                "civil_disorder_vote": settings.get("civil_disorder_vote", "yes"), "press": settings.get("press"),
                "visibility": settings.get("visibility", "public"),  # a private game's fork stays unlisted
                "min_reliability": settings.get("min_reliability"),
                "open_seat_after": settings.get("open_seat_after", DEFAULT_OPEN_SEAT_AFTER),
                "name": f"fork of {g.name or gid} at {phase}", **spec,
                "start": {k: position[k] for k in POSITION_FIELDS if k in position}}
        created, new_token = self.setup.create_game(spec, forked_from=origin)
        if director:
            with self.t.r.pipeline() as pipe:
                audit.record(pipe, self.t.table, gid, self.t.now(), "fork", {**origin, "into": created["id"]})
                pipe.execute()
        return created, new_token
