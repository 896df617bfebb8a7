"""Seats: opening a seat (the director, a player leaving, missed orders), taking an open seat over,
and the reliability record that the phases of a game keep for the accounts of its seats.

A seat is a player entry of ``keys.players`` (its powers).  An **open** seat keeps
its powers (they still play, as the game's ``missed_orders`` says) with
``open``, ``since``, ``reason`` and ``left_account`` (the account that held it),
and loses its name, address, account and tokens.  Taking it makes a new player
(a new id, so the signed reply address of the one before never works again) and
retires the open entry (``retired``, ``replaced_by``).

Every change of a seat is one transaction with its audit entry, its lobby
index, the account counters it changes and its event (:meth:`Seats.announce`,
the one place a ``seat`` event is emitted; webhooks and mail listen).

The record of a phase is counted in the transaction that commits its
adjudication (:meth:`Seats.tally` before MULTI, :meth:`Seats.count` after), and
written into the phase's history entry (``counted``), so that a rollback takes
back exactly what the phases it supersedes counted (:meth:`Seats.take_back`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core import audit, keys, live, sessions
from ...core.errors import Conflict, Forbidden, NotFound
from ...core.machine import GameStatus
from ...core.records import GameRecord, HistoryEntry, PlayerRecord
from ...core.store import hash_token, iso, new_token
from ...delivery import events, mail
from .. import lobby
from .table import GameTable, engine, seated

DEFAULT_OPEN_SEAT_AFTER = 2


@dataclass
class Tally:
    """What the adjudication of one phase counts: per account ``{counter: n}``, the new streaks of
    missed movement phases, and the seats that open because of them."""

    counted: dict[str, dict[str, int]] = field(default_factory=dict)
    streaks: dict[str, int] = field(default_factory=dict)
    opening: list[tuple[PlayerRecord, list[str]]] = field(default_factory=list)  # (player, its token hashes)

    def add(self, account: str | None, **counts: int) -> None:
        if account:
            mine = self.counted.setdefault(account, {})
            for name, n in counts.items():
                mine[name] = mine.get(name, 0) + n


def group_of(variant: str, power: str) -> list[str]:
    """The powers one player of ``variant`` plays with ``power`` (404 for a power no player can play)."""
    group = next((grp for grp in engine().variant_info(variant)["players"] if power in grp), None)
    if group is None:
        raise NotFound(f"no player plays a power '{power}' in this variant")
    return list(group)


class Seats:
    def __init__(self, table: GameTable):
        self.t = table

    # ------------------------------------------------------------ reading
    def view(self, g: GameRecord, players: list[PlayerRecord]) -> list[dict]:
        """The game view's ``seats``: every power, its player's name (None if none), open, since."""
        by_power = {power: p for p in players if not p.retired for power in p.powers}
        out = []
        for power in engine().variant_info(g.variant)["powers"]:
            p = by_power.get(power)
            out.append({"power": power, "player": p.name if p and p.holds else None,
                        "open": bool(p and p.open), "bot": bool(p and p.bot),
                        "since": iso(p.since if p.open else p.joined_at) if p else None})
        return out

    @staticmethod
    def _holder_of(players: list[PlayerRecord], power: str, gid: str) -> PlayerRecord:
        found = next((p for p in players if not p.retired and power in p.powers), None)
        if found is None:
            raise NotFound(f"no seat of game '{gid}' plays {power}")
        return found

    @staticmethod
    def _tokens_of(reader, gid: str, pid: str) -> list[str]:
        return [h for h, holder in reader.hgetall(keys.tokens(gid)).items() if holder == pid]

    # ------------------------------------------------------------ opening
    def open_by_director(self, gid: str, token: str | None, power: str, reason: str) -> None:
        def body(pipe):
            g = self.t.load(pipe, gid)
            self.t.check_director(g, token)
            player = self._openable(pipe, g, power)
            hashes = self._tokens_of(pipe, gid, player.id)
            pipe.multi()
            self.open_seat(pipe, g, player, hashes, "director", reason, by="director")

        self.t.store.transact([keys.game(gid), keys.players(gid), keys.tokens(gid)], body)

    def leave(self, gid: str, token: str | None, power: str) -> None:
        player = self.t.player_for(gid, token)
        if power not in player.powers:
            raise Forbidden(f"{power} is not your power; you play {', '.join(player.powers) or 'no power'}")

        def body(pipe):
            g = self.t.load(pipe, gid)
            found = self._openable(pipe, g, power)
            if found.id != player.id:
                raise Conflict(f"your seat of {power} in game '{gid}' was already given up")
            hashes = self._tokens_of(pipe, gid, player.id)
            pipe.multi()
            self.t.accounts.count(pipe, player.account, left=1)
            self.open_seat(pipe, g, found, hashes, "left", "the player left", by=f"player {player.id}")

        self.t.store.transact([keys.game(gid), keys.players(gid), keys.tokens(gid)], body)

    def _openable(self, pipe, g: GameRecord, power: str) -> PlayerRecord:
        if g.status in (GameStatus.FORMING, GameStatus.FINISHED):
            raise Conflict(f"game '{g.id}' is {g.status}; only a seat of a game in play can be opened")
        player = self._holder_of(self.t.players(pipe, g.id), power, g.id)
        if player.open:
            raise Conflict(f"the seat of {power} in game '{g.id}' is already open")
        return player

    def open_seat(self, pipe, g: GameRecord, player: PlayerRecord, token_hashes: list[str], cause: str,
                  reason: str, by: str, bot: bool = False) -> None:
        """Queue (after MULTI): ``player``'s seat is open (``bot``: and the bot plays it); its tokens
        stop working, its name, address and account are dropped (kept in the audit entry, the account
        as ``left_account``)."""
        now = self.t.now()
        entry = PlayerRecord(player.id, player.powers, player.joined_at, open=True, since=now, cause=cause,
                             reason=reason, left_account=player.account or player.left_account, bot=bot)
        pipe.hset(keys.players(g.id), player.id, entry.dumps())
        if token_hashes:
            pipe.hdel(keys.tokens(g.id), *token_hashes)
        lobby.seats_open(pipe, g, True)
        detail = {"powers": player.powers, "player": player.id, "name": player.name or None,
                  "account": player.account, "cause": cause, "reason": reason}
        audit.record(pipe, self.t.table, g.id, now, "seat_opened", detail, by=by)
        self.announce(pipe, g, player.powers, True, cause, f"open-{player.id}", since=now)

    # ------------------------------------------------------------ the bot
    def to_bot(self, gid: str, token: str | None, power: str) -> None:
        """The director hands the seat of ``power`` to the bot (docs/bots.md): a held seat opens, an
        open one stays open, a power nobody plays gets a seat; the bot plays it from the open phase
        on (what its player stored for it is dropped) until someone takes it over."""
        def body(pipe):
            g = self.t.load(pipe, gid)
            self.t.check_director(g, token)
            if g.status in (GameStatus.FORMING, GameStatus.FINISHED):
                raise Conflict(f"game '{gid}' is {g.status}; only a seat of a game in play can be handed to "
                               "the bot (a forming game takes 'bots' when it is created)")
            players = self.t.players(pipe, gid)
            seat = next((p for p in players if not p.retired and power in p.powers), None)
            if seat is None:
                seat = PlayerRecord(f"p{len(players) + 1}", group_of(g.variant, power), self.t.now())
            elif seat.bot:
                raise Conflict(f"the bot already plays {power} in game '{gid}'")
            hashes = self._tokens_of(pipe, gid, seat.id) if seat.holds else []
            pipe.watch(keys.ready(gid, g.seq))  # a power ready meanwhile may leave only the bot to wait for
            ready = set(pipe.smembers(keys.ready(gid, g.seq)))
            handed = [p for p in seat.powers if p in g.to_order and p not in g.bots]
            pipe.multi()
            self.open_seat(pipe, g, seat, hashes, "bot", "handed to the bot", by="director", bot=True)
            if g.status in (GameStatus.OPEN, GameStatus.PAUSED) and handed:
                pipe.hdel(keys.orders(gid, g.seq), *handed)  # the bot orders it now
                pipe.srem(keys.ready(gid, g.seq), *handed)
                self.t.bots_play(pipe, g, g.bots + handed, ready - set(handed))

        self.t.store.transact([keys.game(gid), keys.players(gid), keys.tokens(gid)], body)

    # ------------------------------------------------------------ taking over
    def take(self, gid: str, name: str, power: str | None, email: str | None,
             account: str | None) -> tuple[dict, str]:
        """Take the open seat that plays ``power`` in a game in play: a new player with a new token."""
        if power is None:
            raise Conflict(f"game '{gid}' has already started; no seat is free unless one is open to take "
                           "over: name its power")
        token = new_token()

        def body(pipe):
            g = self.t.load(pipe, gid)
            if g.status == GameStatus.FINISHED:
                raise Conflict(f"game '{gid}' is over; no seat can be taken")
            players = self.t.players(pipe, gid)
            seat = self._holder_of(players, power, gid)
            if not seat.open:
                raise Conflict(f"{power} is already taken in game '{gid}' and its seat is not open")
            self.t.accounts.require(pipe, account, g.settings.get("min_reliability"), gid)
            first_seat = self.t.first_seat(pipe, gid, account)
            now = self.t.now()
            pid = f"p{len(players) + 1}"
            player = PlayerRecord(pid, seat.powers, now, name, email or None, account or None, took_over=seat.id)
            still_open = any(p.open for p in players if p.id != seat.id)
            playing = g.status in (GameStatus.OPEN, GameStatus.PAUSED)
            ready = set(pipe.smembers(keys.ready(gid, g.seq))) if playing else set()
            pipe.multi()
            # the newcomer's record counts its own phases: the streak of the one before ends here
            streaks = {**(g.streaks or {}), **{power: 0 for power in seat.powers}}
            pipe.hset(keys.game(gid), mapping=GameRecord.encode(streaks=streaks))
            if seat.bot and playing:  # the bot stops at once: the open phase waits for the new player
                self.t.bots_play(pipe, g, [p for p in g.bots if p not in seat.powers], ready)
            retired = PlayerRecord(seat.id, [], seat.joined_at, retired=True, replaced_by=pid)
            pipe.hset(keys.players(gid), seat.id, retired.dumps())
            pipe.hset(keys.players(gid), pid, player.dumps())
            pipe.hset(keys.tokens(gid), hash_token(token), pid)
            sessions.issued(pipe, sessions.Place("game", gid), hash_token(token))
            self.t.tie(pipe, gid, account, first_seat)
            self.t.accounts.count(pipe, account, took_over=1)
            self.t.accounts.count(pipe, seat.left_account, replaced=1)
            lobby.seats_open(pipe, g, still_open)
            audit.record(pipe, self.t.table, gid, now, "seat_taken",
                         {"powers": seat.powers, "player": pid, "name": name, "account": account,
                          "replaces": seat.id}, by=f"player {pid}")
            self.announce(pipe, g, seat.powers, False, "taken", f"taken-{pid}", since=now, player=name)
            if email:
                mail.welcome(self.t.store, pipe, g, player, token)
            return player

        return self.t.store.transact([keys.game(gid), keys.players(gid)], body).public(), token

    # ------------------------------------------------------------ a power joins a side
    def gain_joining(self, pipe, g: GameRecord, players: list[PlayerRecord], position: dict) -> list[PlayerRecord]:
        """Queue (after MULTI) what a phase opening at ``position`` gives a seat: in the two-player
        game, from Spring 1915 Italy is a normal power played by the coin toss's winner (rules 13.6),
        so once the engine asks Italy for orders the seat of side ``rules.italy_joins`` plays it.
        Returns the seats as they are then."""
        toss = g.rules.get("italy_joins")
        if not toss:
            return players
        unplayed = [p for p in engine().powers_to_order(self.t.full(g, position)) if p not in seated(players)]
        sides = engine().variant_info(g.variant)["players"]
        side = next((s for i, s in enumerate(sides, 1) if toss == i or toss in s), None)
        seat = next((p for p in players if not p.retired and side and set(p.powers) & set(side)), None)
        if not unplayed or seat is None:
            return players
        gained = seat.changed(powers=[*seat.powers, *unplayed])
        pipe.hset(keys.players(g.id), seat.id, gained.dumps())
        audit.record(pipe, self.t.table, g.id, self.t.now(), "powers_joined",
                     {"player": seat.id, "powers": unplayed, "phase": position["phase"]}, by="service")
        return [gained if p.id == seat.id else p for p in players]

    # ------------------------------------------------------------ the event
    def announce(self, pipe, g: GameRecord, powers: list[str], is_open: bool, cause: str, key: str, since: float,
                 player: str | None = None) -> None:
        """Queue (after MULTI) the ``seat`` event of a seat that opened or was taken: the one place it is emitted."""
        data = {"powers": powers, "power": powers[0] if powers else None, "open": is_open, "cause": cause,
                "player": player, "since": iso(since), "phase": g.phase or None}
        events.emit(self.t.store, pipe, self.t.table, g.id, "seat", key, data)
        live.publish(self.t.store, pipe, self.t.table, g.id, "seat", data)

    # ------------------------------------------------------------ the record of a phase
    def tally(self, pipe, g: GameRecord, submitted: set[str], players: list[PlayerRecord]) -> Tally:
        """Read (before MULTI) what the adjudication of ``g``'s phase counts (for accounts only in a
        game whose seats at least two accounts hold).  A power had to act if
        it was in ``to_order``; it was on time if its orders, or its readiness, came before the deadline
        (grace included): not among those the phase waited for past it (``overdue``).  A phase closed
        before its deadline (the director, every power ready) finds nobody late."""
        ready = set(pipe.smembers(keys.ready(g.id, g.seq)))
        overdue = set(g.overdue or [])
        at_deadline = g.closed_by.startswith("deadline")
        movement = g.phase.endswith("M")
        limit = g.settings.get("open_seat_after", DEFAULT_OPEN_SEAT_AFTER)
        seat_of = {power: p for p in players if not p.retired for power in p.powers}
        tally = Tally(streaks=dict(g.streaks or {}))
        punctual: dict[str, bool] = {}  # account -> all its powers due were on time (a phase counts once)
        for power in g.to_order:
            seat = seat_of.get(power)
            if seat is None or seat.open:
                continue  # an open seat counts for nobody
            on_time = not at_deadline or (power in submitted or power in ready) and power not in overdue
            if seat.account:
                punctual[seat.account] = punctual.get(seat.account, True) and on_time
            if movement:
                tally.streaks[power] = 0 if on_time else tally.streaks.get(power, 0) + 1
        if len({p.account for p in players if p.holds and p.account}) >= 2:
            # a phase counts only if another player could have missed it: in a game of one account
            # (its director forcing phase after phase) the record would count what nobody checked
            for account, on_time in punctual.items():
                tally.add(account, phases_due=1, phases_on_time=int(on_time))
        if limit:
            for seat in {p.id: p for p in seat_of.values() if p.holds}.values():
                if any(tally.streaks.get(power, 0) >= limit for power in seat.powers):
                    tally.opening.append((seat, self._tokens_of(pipe, g.id, seat.id)))
                    tally.add(seat.account, civil_disorder=1)
                    for power in seat.powers:
                        tally.streaks[power] = 0
        return tally

    def count(self, pipe, g: GameRecord, tally: Tally) -> None:
        """Queue (after MULTI, in the adjudication's transaction) the tally's counters and seat openings."""
        for account, counts in tally.counted.items():
            self.t.accounts.count(pipe, account, **counts)
        pipe.hset(keys.game(g.id), mapping=GameRecord.encode(streaks=tally.streaks))
        limit = g.settings.get("open_seat_after", DEFAULT_OPEN_SEAT_AFTER)
        for seat, hashes in tally.opening:
            self.open_seat(pipe, g, seat, hashes, "missed_orders",
                           f"missed orders in {limit} movement phases in a row", by="service")

    def take_back(self, pipe, superseded: list[HistoryEntry]) -> dict:
        """Queue (after MULTI) the undoing of what the ``superseded`` history entries counted; returns the
        streaks as they were before the first of them."""
        for entry in superseded:
            for account, counts in (entry.counted or {}).items():
                self.t.accounts.count(pipe, account, **{k: -n for k, n in counts.items()})
        return (superseded[0].streaks_before or {}) if superseded else {}

    def count_finish(self, pipe, players: list[PlayerRecord], sign: int = 1) -> None:
        """Queue (after MULTI): a game ends (``sign`` 1) or a rollback reopens it (-1) for the accounts
        holding its seats."""
        for p in players:
            if p.holds:
                self.t.accounts.count(pipe, p.account, finished=sign)
