"""What every part of a game builds on: its record, its players, opening and closing
a phase, and the director's transaction with its audit entry."""
from __future__ import annotations

from adjudicator import diplomacy

from ...core import audit, keys, live
from ...core.clock import Clock
from ...core.machine import GAME, GameStatus
from ...core.records import GameRecord, HistoryEntry, PlayerRecord
from ...core.store import iso
from ...delivery import reminders
from .. import absences, lobby
from ..accounts import Accounts
from ..viewers import Viewer, who
from .fixed_times import phase_seconds

PHASE_KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}
MAX_YEAR = 3000  # every game ends after this year's adjustments at the latest (the bound of last_year)
POSITION_FIELDS = ("phase", "units", "centers", "dislodged", "contested", "retreat_options", "adjustments")


def engine():
    """The Diplomacy rules engine (pure functions, no I/O)."""
    return diplomacy


def seated(players: list[PlayerRecord]) -> list[str]:
    """The powers that have a player (or a seat open for one, which the bot may play)."""
    return [p for player in players for p in player.powers]


def played_by_bot(players: list[PlayerRecord]) -> list[str]:
    """The powers whose seat the bot plays."""
    return [p for player in players if player.bot for p in player.powers]


def waits_for(g: GameRecord) -> set[str]:
    """The powers whose orders, or readiness, the open phase of ``g`` waits for: all to order but the bot's."""
    return set(g.to_order) - set(g.bots)


class GameTable:
    table = "game"

    def __init__(self, store):
        self.store, self.r, self.now = store, store.r, store.now
        self.clock = Clock(store, GAME, keys.game, self.what)
        self.accounts = Accounts(store)

    @staticmethod
    def what(gid: str) -> str:
        return f"game '{gid}'"

    # ------------------------------------------------------------ reading
    def load(self, reader, gid: str) -> GameRecord:
        """The game's record, read with ``reader`` (a pipe before MULTI, or the client); 404 if none."""
        return self.store.record(reader, GameRecord, keys.game(gid), self.what(gid))

    @staticmethod
    def players(reader, gid: str) -> list[PlayerRecord]:
        """The game's seats, in the order their players joined."""
        return sorted(PlayerRecord.loads_all(reader.hvals(keys.players(gid))), key=lambda p: p.joined_at)

    @staticmethod
    def history(reader, gid: str) -> list[HistoryEntry]:
        """The game's adjudicated phases, oldest first (superseded ones included)."""
        return HistoryEntry.loads_all(reader.lrange(keys.history(gid), 0, -1))

    @staticmethod
    def seat(reader, gid: str, pid: str) -> PlayerRecord | None:
        raw = reader.hget(keys.players(gid), pid)
        return PlayerRecord.loads(raw) if raw else None

    def who(self, gid: str, token: str | None) -> Viewer:
        """Who ``token`` is in game ``gid`` (404 if there is no such game)."""
        return who(self.r, self.table, gid, token)

    def player_for(self, gid: str, token: str | None) -> PlayerRecord:
        """The seat of the player holding ``token`` in game ``gid`` (404 if no game, 401 if no such player)."""
        return self.who(gid, token).player()

    @staticmethod
    def first_seat(reader, gid: str, account: str | None) -> bool:
        """Whether a seat of game ``gid`` taken now is ``account``'s first there (read before MULTI)."""
        return bool(account) and not reader.sismember(keys.account_games(account), gid)

    def tie(self, pipe, gid: str, account: str | None, first_seat: bool) -> None:
        """Queue (after MULTI): a seat of game ``gid`` is now ``account``'s (None: no account); the
        record counts the game once, at the account's first seat in it."""
        if account:
            pipe.sadd(keys.account_games(account), gid)
            self.accounts.count(pipe, account, games=int(first_seat))

    def check_director(self, g: GameRecord, token: str | None) -> None:
        """401 or 403 unless ``token`` is the director's of ``g`` (read again: a transaction calls it
        with the record it read)."""
        self.who(g.id, token).director()

    @staticmethod
    def full(g: GameRecord, position: dict) -> dict:
        """``position`` with the game's variant and rules, as the engine reads it."""
        return {**position, "variant": g.variant, "rules": g.rules}

    # ------------------------------------------------------------ the director
    def director(self, gid: str, token: str | None, action: str, detail: dict, change) -> None:
        """Director action ``action``: ``change(pipe, g)`` (reads, then MULTI and writes) and its
        audit entry in one transaction, once the director token is checked.  ``detail`` is read
        after ``change``, which may fill it in."""
        def body(pipe):
            g = self.load(pipe, gid)
            self.check_director(g, token)
            change(pipe, g)
            if not pipe.explicit_transaction:
                pipe.multi()
            audit.record(pipe, self.table, gid, self.now(), action, detail)

        self.store.transact([keys.game(gid)], body)

    # ------------------------------------------------------------ phases
    def close(self, pipe, g: GameRecord, reason: str, enqueue: bool = True) -> GameRecord:
        """Queue (after MULTI) the writes that close the current phase and, unless the caller
        adjudicates it itself (then its attempt is counted here), enqueue its adjudication job.
        Returns the record as written."""
        closed = GAME.transition(self.store, pipe, keys.game(g.id), g, GameStatus.ADJUDICATING, closed_by=reason,
                                 attempts=0 if enqueue else 1, waiting=False)
        if enqueue:
            self.store.enqueue_advance(pipe, self.table, g.id, g.seq)
        return closed

    def bots_play(self, pipe, g: GameRecord, bots: list[str], ready: set[str]) -> None:
        """Queue (after MULTI): the bot plays ``bots`` in the open (or paused) phase of ``g``, whose
        ready powers are ``ready``; an open phase whose every other power is ready closes now."""
        g = g.changed(bots=bots)
        pipe.hset(keys.game(g.id), mapping=GameRecord.encode(bots=bots))
        if g.status == GameStatus.OPEN and waits_for(g) <= ready:
            self.close(pipe, g, "every power was ready" if waits_for(g) else "only the bot has orders to give")
        else:
            self.prepare_bots(pipe, g)

    def prepare_bots(self, pipe, g: GameRecord) -> None:
        """Queue (after MULTI) the timer, due now, whose job computes the orders of the powers the bot
        plays in the open phase of ``g`` ahead of its closing (``Phases.prepare_bots``), after the
        deadlines and steps (``workers.runtime.jobs.seat_bots``)."""
        if g.bots:
            self.store.schedule_timer(pipe, self.now(), "seat_bots", g.id, g.seq)

    def cancel_timers(self, pipe, g: GameRecord) -> None:
        """Queue (after MULTI): the open phase of ``g`` is over, and the timers it scheduled with it."""
        reminders.cancel(self.store, pipe, g.id, g.seq, g.settings.get("reminders", []))
        if g.settings["missed_orders"] == "bot":
            self.store.cancel_timer(pipe, "bots", g.id, g.seq)

    def keep(self, pipe, gid: str, seconds: int | None, variant: str | None = None) -> None:
        """Queue (after MULTI): the game's keys expire in ``seconds`` (None: they are kept).
        ``variant``: the game's, when the caller holds its record (it never changes)."""
        powers = engine().variant_info(variant or self.r.hget(keys.game(gid), "variant"))["powers"]
        for key in (keys.game(gid), keys.players(gid), keys.tokens(gid), keys.history(gid), keys.proposals(gid),
                    keys.audit("game", gid), keys.absences(gid), keys.mail_done(gid), *keys.press_keys(gid, powers)):
            if seconds is None:
                pipe.persist(key)
            else:
                pipe.expire(key, seconds)

    def open_phase(self, pipe, g: GameRecord, seq: int, position: dict, powers: list[str],
                   reader=None, bots: list[str] = ()) -> GameRecord:
        """Queue (after MULTI) the writes that open phase number ``seq`` at ``position``, where
        ``powers`` have a player and the bot plays ``bots``; returns the record as written.  ``reader``
        reads the absences and whether the game's keys expire (default: the client).  A phase in
        which only the bot has orders to give closes at once (its adjudication orders them)."""
        reader = reader or self.r
        if reader.ttl(keys.game(g.id)) != -1:  # forming, or finished until now: from now on it is kept
            self.keep(pipe, g.id, None, g.variant)
            if g.tournament:  # a tournament with a board in play is kept, however long ago its director acted
                for key in keys.tournament_keys(g.tournament):
                    pipe.persist(key)
        to_order = [p for p in engine().powers_to_order(self.full(g, position)) if p in powers]
        kind = PHASE_KINDS[position["phase"][-1]]
        length = phase_seconds(g.settings["deadlines"], "first_movement" if seq == 1 and kind == "movement" else kind,
                               self.now())
        to_order, length = self._absent_at_open(g, to_order, length, reader)
        phase = {"seq": seq, "phase": position["phase"], "position": position, "to_order": to_order, "attempts": 0,
                 "waiting": False, "late": None, "overdue": None, "opened_at": self.now(),
                 "bots": [p for p in to_order if p in bots]}
        lobby.stage(pipe, g, GameStatus.OPEN)
        if set(to_order) - set(bots):
            opened = self.clock.open(pipe, g, length, closed_by="", **phase)
            reminders.schedule(self.store, pipe, g.id, seq, opened.deadline, g.settings.get("reminders", []))
            self.prepare_bots(pipe, opened)
            if opened.deadline and g.settings["missed_orders"] == "bot":  # the bot, for those who may miss it
                ahead = max(self.now() + length / 2, opened.deadline - self.store.settings.bot_ahead)
                self.store.schedule_timer(pipe, ahead, "bots", g.id, seq)
        else:  # only powers without a player, or the bot's, would order: nothing to wait for
            opened = GAME.transition(self.store, pipe, keys.game(g.id), g, GameStatus.ADJUDICATING,
                                     closed_by="only the bot has orders to give" if to_order
                                     else "no player has anything to order", **phase)
            self.store.enqueue_advance(pipe, self.table, g.id, seq)
        live.publish(self.store, pipe, self.table, g.id, "phase", {
            "seq": seq, "phase": position["phase"], "status": str(opened.status), "to_order": to_order,
            "deadline": iso(opened.deadline), "results": f"/v1/games/{g.id}/history" if seq > 1 else None})
        return opened

    def _absent_at_open(self, g: GameRecord, to_order: list[str], length: int, reader) -> tuple[list, int]:
        """Approved absences as a phase opens: with ``civil_disorder`` the powers away now are not
        asked for orders; with ``extend`` a deadline inside an absence moves to its end."""
        now = self.now()
        if absences.policy(g.settings)["effect"] == "civil_disorder":
            away = absences.covering(reader, g.id, to_order, now)
            return [p for p in to_order if p not in away], length
        away = absences.covering(reader, g.id, to_order, now + length)
        # deadline_fields rounds now + seconds up: land on the absence's end (a whole second)
        return to_order, max([length, *(end - now - 0.5 for end in away.values())])
