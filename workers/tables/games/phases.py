"""The jobs of a game: a phase's deadline, and its adjudication, each taken exactly once."""
from __future__ import annotations

import time
from dataclasses import dataclass

from ...core import audit, keys, live
from ...core.machine import GAME, GameStatus
from ...core.outcome import JobOutcome
from ...core.records import GameRecord, HistoryEntry, decode_orders, encode_orders
from ...core.store import ALONE, ReadAhead, iso
from ...delivery import events
from .. import absences
from .ending import Ending
from .seats import Seats
from .table import MAX_YEAR, GameTable, engine, played_by_bot, seated
from .views import coin_toss_shown


def map_links(gid: str, phase: str) -> dict:
    """Where the map of an adjudicated phase is drawn (docs/maps.md), relative to the service."""
    return {"svg": f"/v1/games/{gid}/map.svg?phase={phase}", "png": f"/v1/games/{gid}/map.png?phase={phase}"}


class Phases:
    def __init__(self, table: GameTable, ending: Ending, votes, seats: Seats):
        self.t, self.ending, self.votes, self.seats = table, ending, votes, seats

    def halt(self, gid: str, seq: int, why: str) -> JobOutcome:
        """Phase ``seq``'s adjudication failed for good: the game is halted (its director rolls it back
        or ends it), audited, and its watchers told."""
        def body(pipe):
            g = GameRecord.restore(pipe.hgetall(keys.game(gid)))
            if g.seq != seq or g.status != GameStatus.ADJUDICATING:
                return JobOutcome.noop("another job committed this phase")
            pipe.multi()
            GAME.transition(self.t.store, pipe, keys.game(gid), g, GameStatus.HALTED, halted_because=why[:500])
            audit.record(pipe, self.t.table, gid, self.t.now(), "halted", {"seq": seq, "phase": g.phase,
                                                                          "reason": why[:500]}, by="service")
            live.publish(self.t.store, pipe, self.t.table, gid, "phase", {
                "seq": seq, "phase": g.phase, "status": str(GameStatus.HALTED), "to_order": [], "deadline": None,
                "results": None})
            return JobOutcome.did(f"halted at {g.phase}")

        return self.t.store.transact([keys.game(gid)], body)

    def count_attempts(self, due: list[tuple[str, int, int]]) -> None:
        """Count (on disk, in one round trip) an attempt at each due deadline ``(gid, seq, deadline)`` of a
        batch, before any work: the deadline's job then closes and commits the phase in one transaction,
        which leaves no trace if the worker dies in it (the job runs again, and counts again)."""
        self.t.store.count_attempts([(keys.game(gid), seq, deadline) for gid, seq, deadline in due])

    def on_deadline(self, gid: str, seq: int, deadline: int, stall: float = 0.0) -> JobOutcome:
        """The deadline job: if ``deadline`` is still phase ``seq``'s and the phase closes at it, close it
        and commit its adjudication (the history entry, the next phase) in one transaction, which
        watches what the adjudication takes (the game, its orders, its players, the bot's orders
        computed ahead) and reads it all in one round trip after WATCH.  Exactly once: a second run
        finds the deadline gone.  A phase closed already (by an earlier version of this job) is
        adjudicated as :meth:`advance` does."""
        watch, reads, body = self._deadline(gid, seq, deadline, stall)
        found = self.t.store.transact(watch, lambda pipe: body(ReadAhead(pipe, self.t.r, reads)))
        return self._after_deadline(gid, seq, found, stall)

    def on_deadlines(self, due: list[tuple[str, int, int]], stall: float = 0.0) -> list[JobOutcome | None]:
        """The deadlines ``(gid, seq, deadline)`` of a batch, each as :meth:`on_deadline` takes it, all in
        one transaction (``Store.transact_together``: one WATCH, one round trip of reads, one
        MULTI/EXEC and one write to disk for all of them).  None for each it could not take together
        (a read that was not made ahead, such as those of a game's end; a watched key changed
        before EXEC; an error), which the caller takes alone with :meth:`on_deadline`.  Exactly once
        either way: the shared EXEC commits every phase or none, and a deadline taken again finds
        what was committed."""
        found = self.t.store.transact_together([self._deadline(gid, seq, deadline, stall)
                                                for gid, seq, deadline in due])
        return [None if result is ALONE else self._after_deadline(gid, seq, result, stall)
                for (gid, seq, _), result in zip(due, found)]

    def _deadline(self, gid: str, seq: int, deadline: int, stall: float):
        """The transaction of :meth:`on_deadline`: the keys it watches, those it reads ahead, and its
        body, which returns what :meth:`_after_deadline` makes the job's outcome of."""
        def body(pipe):
            found = pipe.hgetall(keys.game(gid))
            if not found:
                return None
            g = GameRecord.restore(found)
            if g.seq == seq and g.status == GameStatus.ADJUDICATING:
                return GameStatus.ADJUDICATING  # closed already: adjudicate it
            if self.t.clock.due(g, seq, deadline):
                return None  # superseded by an extension, a pause or another trigger, or early
            closes, missed = self._missed_deadline(pipe, g, deadline)
            if not closes:
                pipe.multi()
                missed(pipe)
                return None
            closed = g.changed(closed_by="deadline", attempts=max(1, g.attempts))  # counted by count_attempts
            try:
                work = self._adjudicate(closed, pipe.hgetall(keys.orders(gid, seq)), pipe, stall)
            except Refused as refused:  # closed, then halted
                pipe.multi()
                missed(pipe)
                self.t.close(pipe, g, "deadline", enqueue=False)
                return refused
            return self._commit(pipe, closed, work, before=missed)

        watch = [keys.game(gid), keys.orders(gid, seq), keys.players(gid), events.game_hooks(gid),
                 keys.bot_orders(gid, seq)]
        reads = [*self._commit_reads(gid, seq), ("hgetall", keys.orders(gid, seq)), ("hgetall", keys.bot_orders(gid, seq))]
        return watch, reads, body

    def _after_deadline(self, gid: str, seq: int, outcome, stall: float) -> JobOutcome:
        """The job's outcome of a deadline's transaction; a phase found closed is adjudicated now, and one
        the engine refused halts."""
        if outcome is None:
            return JobOutcome.noop("deadline superseded or phase waits for missing orders")
        if outcome is GameStatus.ADJUDICATING:
            return self.advance(gid, seq, stall)
        if isinstance(outcome, Refused):
            return self.halt(gid, seq, str(outcome))
        return outcome

    def _missed_deadline(self, pipe, g: GameRecord, deadline: int):
        """At the deadline of an open phase (reads only): whether the phase closes now (units without
        orders hold, or the bot orders them: :meth:`ordered_by_bot`), and what to queue after MULTI:
        the late powers told (``deadline_passed``), and, when it does not close, the phase moved to
        the return of an absent power without orders (absence effect ``extend``), or given the grace
        period, or made to wait (``wait``); the attempt the batch counted is then taken back."""
        gid, seq, settings = g.id, g.seq, g.settings
        submitted = set(pipe.hgetall(keys.orders(gid, seq)))
        missing = [p for p in g.to_order if p not in submitted and p not in g.bots]  # the bot is never late
        away = absences.covering(pipe, gid, missing, deadline)
        late = [p for p in missing if p not in away]
        first = not g.late
        grace = settings.get("grace", 0) if first else 0
        extend = bool(away) and absences.policy(settings)["effect"] == "extend"
        wait = bool(late) and not extend and not grace and settings["missed_orders"] == "wait"
        heard = events.game_listeners(pipe, gid, g.tournament, self.t.players(pipe, gid)) if late and first else ()

        def writes(pipe):
            if extend:
                self._move_deadline(pipe, g, int(max(away.values())), "absence")
                return
            if late and first:
                events.emit(self.t.store, pipe, self.t.table, gid, "deadline_passed", str(seq), {
                    "seq": seq, "phase": g.phase, "deadline": iso(deadline), "missing": late,
                    "grace_until": iso(deadline + grace) if grace else None, "policy": settings["missed_orders"]},
                    listeners=heard)
            if late and grace:
                self._move_deadline(pipe, g, deadline + grace, "grace", late=late)
            elif wait:
                self.t.clock.tell(pipe, GAME.set_clock(self.t.store, pipe, keys.game(gid), g, waiting=True, late=late,
                                                       overdue=late, attempts=0), "wait")

        return not (extend or late and grace or wait), writes

    def _move_deadline(self, pipe, g: GameRecord, deadline: int, why: str, **changes) -> None:
        """Queue (after MULTI, from the deadline job itself) a later deadline for the open phase."""
        self.t.clock.tell(pipe, GAME.set_clock(
            self.t.store, pipe, keys.game(g.id), g, deadline=deadline, attempts=0, **changes,
            deadline_job=self.t.store.schedule_deadline(pipe, self.t.table, g.id, g.seq, deadline)), why)

    def ordered_by_bot(self, g: GameRecord, orders: dict, reader) -> dict[str, list[str]]:
        """The orders the bot gives in the closed phase of ``g`` (``orders``: the powers' own; ``reader``
        reads those computed ahead): for each
        power to order without orders that the bot plays (``g.bots``, frozen when the phase closed), or
        that missed the deadline of a game whose ``missed_orders`` is ``bot``.  Those :meth:`prepare_bots`
        computed while the phase was open are taken as they are (nothing writes them once it has
        closed, and phase numbers are never used twice: a rollback opens a new one); the others are
        computed now, seeded by (game, phase number, power), so a re-run of the job gives the same; a
        phase closed at its deadline, which may be many games' at once, gets the smaller budget
        (docs/bots.md)."""
        at_deadline = g.closed_by.startswith("deadline")
        missed = at_deadline and g.settings["missed_orders"] == "bot"
        powers = [p for p in g.to_order if p not in orders and (p in g.bots or missed)]
        if not powers:
            return {}
        prepared = reader.hgetall(keys.bot_orders(g.id, g.seq))
        settings = self.t.store.settings
        budget = settings.bot_deadline_budget if at_deadline else settings.bot_budget
        return {p: decode_orders(prepared[p]) if p in prepared else self._bot(g, p, budget) for p in powers}

    def _bot(self, g: GameRecord, power: str, budget: int) -> list[str]:
        """The bot's orders for ``power`` in the phase of ``g``: the same whenever they are computed."""
        return engine().bot_orders(self.t.full(g, g.position), power, seed=f"{g.id}:{g.seq}:{power}", budget=budget)

    def prepare_bots(self, gid: str, seq: int, missing: bool = False) -> JobOutcome:
        """The job queued with phase ``seq`` when the bot plays seats in it, and, with ``missing``, the
        one its timer queues a little before the deadline of a game whose ``missed_orders`` is ``bot``
        (for the powers still without orders then): their orders computed now, with the full budget,
        while the phase is open (its position never changes), so that neither its deadline nor its
        closing waits for them.  Kept aside (``keys.bot_orders``), not as orders: a power that sends
        its own later is adjudicated with them.  Written only while the phase is still open: what its
        adjudication reads is fixed when it closes."""
        with self.t.r.pipeline(transaction=False) as reads:
            reads.hgetall(keys.game(gid))
            reads.hkeys(keys.bot_orders(gid, seq))
            reads.hkeys(keys.orders(gid, seq))
            found, done, submitted = reads.execute()
        g = GameRecord.restore(found) if found else None
        open_now = (GameStatus.OPEN, GameStatus.PAUSED)
        if g is None or g.seq != seq or g.status not in open_now:
            return JobOutcome.noop("the phase is no longer open")
        powers = list(g.bots)
        if missing and g.settings["missed_orders"] == "bot":
            powers += [p for p in g.to_order if p not in submitted and p not in g.bots]
        computed = {p: self._bot(g, p, self.t.store.settings.bot_budget) for p in powers if p not in done}
        if not computed:
            return JobOutcome.noop("the bot's orders are ready")

        def body(pipe):
            now = GameRecord.restore(pipe.hgetall(keys.game(gid)))
            if now.seq != seq or now.status not in open_now:
                return JobOutcome.noop("the phase closed meanwhile")
            pipe.multi()
            pipe.hset(keys.bot_orders(gid, seq), mapping={p: encode_orders(o) for p, o in computed.items()})
            return JobOutcome.did(f"the bot's orders for {', '.join(computed)}")

        return self.t.store.transact([keys.game(gid)], body)

    def advance(self, gid: str, seq: int, stall: float = 0.0) -> JobOutcome:
        """Adjudicate closed phase ``seq`` of game ``gid`` exactly once; returns what happened."""
        g = self.t.store.claim(GameRecord, keys.game(gid), seq, GameStatus.ADJUDICATING)  # counts this attempt
        if g is None:
            return JobOutcome.noop("phase already adjudicated or not closed")
        try:
            work = self._adjudicate(g, self.t.r.hgetall(keys.orders(gid, seq)), self.t.r, stall)  # frozen orders
        except Refused as refused:
            return self.halt(gid, seq, str(refused))

        def body(pipe):  # what it reads, in one round trip after WATCH
            pipe = ReadAhead(pipe, self.t.r, self._commit_reads(gid, seq))
            now = GameRecord.restore(pipe.hgetall(keys.game(gid)))
            if now.seq != seq or now.status != GameStatus.ADJUDICATING:
                return JobOutcome.noop("another job committed this phase")
            return self._commit(pipe, now, work)

        return self.t.store.transact([keys.game(gid), keys.players(gid), events.game_hooks(gid)], body)

    def _adjudicate(self, g: GameRecord, submitted: dict[str, str], reader, stall: float = 0.0) -> "Adjudicated":
        """The adjudication of the closed phase of ``g``: the powers' orders (``submitted``, as stored),
        the bot's where it gives them (``reader`` reads those computed ahead), and the engine's answer.
        Raises :class:`Refused` if the engine refuses the phase (what fails once fails every time)."""
        position = g.position
        orders = {p: decode_orders(o) for p, o in submitted.items()}
        by_bot = self.ordered_by_bot(g, orders, reader)
        orders |= by_bot
        request = {"variant": g.variant, "rules": g.rules, "phase": position["phase"],
                   "units": position.get("units", {}), "centers": position.get("centers", {}),
                   "dislodged": position.get("dislodged", {}), "contested": position.get("contested", []),
                   "orders": orders}
        if stall:  # fault injection for the test that kills a worker mid-adjudication
            time.sleep(stall)
        try:
            return Adjudicated(request, engine().adjudicate(request), by_bot)
        except Exception as e:  # noqa: BLE001 - the engine is pure: what fails once fails every time
            raise Refused(f"the engine refused {position['phase']}: {e}") from e

    @staticmethod
    def _commit_reads(gid: str, seq: int) -> list[tuple[str, str]]:
        """What the commit of phase ``seq``'s adjudication reads (:class:`ReadAhead`)."""
        return [("hgetall", keys.game(gid)), ("hvals", keys.players(gid)), ("smembers", keys.ready(gid, seq)),
                ("hvals", keys.proposals(gid)), ("hvals", keys.absences(gid)), ("scard", events.game_hooks(gid)),
                ("ttl", keys.game(gid))]

    def _commit(self, pipe, now: GameRecord, work: "Adjudicated", before=None) -> JobOutcome:
        """Commit (reads, then MULTI, in the caller's transaction) the adjudication ``work`` of the phase of
        ``now`` (the record as closed): its history entry, the counts of the players' records, the next
        phase or the end.  ``before(pipe)`` queues first what the caller writes with it (the close)."""
        gid, seq, position = now.id, now.seq, now.position
        request, response, by_bot = work.request, work.response, work.by_bot
        orders = request["orders"]
        players = self.t.players(pipe, gid)  # seats may change while it adjudicates: watched
        powers = seated(players)
        tally = self.seats.tally(pipe, now, set(orders) - set(by_bot), players)  # a miss counts
        record = HistoryEntry(
            seq, position["phase"], now.closed_by, now.attempts or 1,
            {k: v for k, v in request.items() if k not in ("orders", "rules")}
            | {k: position[k] for k in ("retreat_options", "adjustments") if position.get(k)},
            orders, response["results"], (response.get("next") or {}).get("phase"), iso(self.t.now()),
            tally.counted, now.streaks or {}, bots=sorted(by_bot) or None)
        nxt = response.get("next")
        winner = response.get("winner")
        ending = None
        if winner or not nxt:
            ending = ("solo" if winner else "timeout", "solo" if winner else "last_year")
        elif int(nxt["phase"][1:5]) > min(now.last_year or MAX_YEAR, MAX_YEAR):
            ending = ("timeout", "last_year")  # after the last year's winter adjustments
        elif nxt["phase"].endswith("M") and not any(nxt.get("units", {}).get(p) for p in powers):
            # no player has a unit left to move: nothing any player does can change the game,
            # which would otherwise adjudicate phase after phase on its own
            ending = ("timeout", "no_player_left")
        if ending:
            result = self.ending.result(pipe, now, [record.position, nxt or record.position], ending[0])
        toss = None if ending else coin_toss_shown(now, position["phase"], nxt["phase"])
        lapsing = self.votes.open_proposals(pipe, gid)
        heard = events.game_listeners(pipe, gid, now.tournament, players)
        pipe.multi()
        if before:
            before(pipe)
        pipe.rpush(keys.history(gid), record.dumps())
        self.seats.count(pipe, now, tally)
        pipe.delete(keys.orders(gid, seq), keys.ready(gid, seq), keys.bot_orders(gid, seq))
        self.t.cancel_timers(pipe, now)
        self.votes.lapse(pipe, gid, lapsing, f"{position['phase']} was adjudicated")
        events.emit(self.t.store, pipe, self.t.table, gid, "phase_adjudicated", str(seq),
                    {"seq": seq, "phase": position["phase"], "results": response["results"],
                     "next_phase": record.next_phase, "map": map_links(gid, position["phase"]),
                     "bots": record.bots or [], **({"coin_toss": toss} if toss else {})},
                    listeners=heard)
        if ending:
            self.ending.finish(pipe, now, result, ending[1], nxt, winner=winner)
        else:
            players = self.seats.gain_joining(pipe, now, players, nxt)
            self.t.open_phase(pipe, now, seq + 1, nxt, seated(players), reader=pipe, bots=played_by_bot(players))
        return JobOutcome.did(f"committed {position['phase']}")


@dataclass(frozen=True)
class Adjudicated:
    """A closed phase's adjudication, computed: what the engine was asked (the orders adjudicated,
    the bot's among them), what it answered, and the orders the bot gave (by power)."""
    request: dict
    response: dict
    by_bot: dict[str, list[str]]


class Refused(Exception):
    """The engine refused a closed phase: the game halts (its director rolls it back or ends it)."""
