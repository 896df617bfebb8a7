"""Orders and readiness: what a player sends while a phase is open."""
from __future__ import annotations


from ...core import audit, keys, live, versions
from ...core.errors import Conflict, Forbidden, Invalid
from ...core.machine import GameStatus
from ...core.records import GameRecord, encode_orders
from .. import viewers
from ...core.store import iso
from .table import GameTable, engine, waits_for


class Orders:
    def __init__(self, table: GameTable):
        self.t = table

    def _writable_phase(self, g: GameRecord, power: str, phase: str | None) -> None:
        gid = g.id
        if g.status == GameStatus.FORMING:
            raise Conflict(f"game '{gid}' has not started yet")
        if g.status == GameStatus.FINISHED:
            raise Conflict(f"game '{gid}' is over")
        if phase is not None and phase != g.phase:
            raise Conflict(f"these orders are for {phase} but the current phase is {g.phase}")
        if g.status == GameStatus.ADJUDICATING:
            raise Conflict(f"phase {g.phase} is closed and being adjudicated; orders can no longer change")
        waiting_mode = g.settings["missed_orders"] == "wait"
        if g.status == GameStatus.OPEN and g.deadline and self.t.now() >= g.deadline and not waiting_mode:
            raise Conflict(f"the deadline of {g.phase} passed at {iso(g.deadline)}")
        if power not in g.to_order:
            raise Conflict(f"{power} has nothing to order in {g.phase}")

    def _maybe_close_waiting(self, pipe, g: GameRecord, submitted: set[str]) -> None:
        """In a game whose phases wait for missing orders: close once all are in."""
        if g.status == GameStatus.OPEN and (g.waiting or g.late) and set(g.late or waits_for(g)) <= submitted:
            self.t.close(pipe, g, "deadline, then the last missing orders")

    def _tell(self, pipe, g: GameRecord, **change) -> None:
        """Queue (after MULTI) the ``orders`` event: who submitted or is ready, never what was ordered."""
        live.publish(self.t.store, pipe, self.t.table, g.id, "orders", {"seq": g.seq, "phase": g.phase, **change})

    def _own_power(self, gid: str, token: str | None, power: str) -> None:
        player = self.t.player_for(gid, token)
        if power not in player.powers:
            raise Forbidden(f"{power} is not your power; you play {', '.join(player.powers) or 'no power'}")

    def submit(self, gid: str, token: str | None, power: str, orders: list[str], phase: str | None = None) -> dict:
        checked = {}

        def body(pipe):
            with self.t.r.pipeline(transaction=False) as reads:  # after WATCH: the game and the player at once
                reads.hgetall(keys.game(gid))
                viewers.queue(reads, self.t.table, gid, token)
                found, *answers = reads.execute()
            viewer = viewers.decide(self.t.table, gid, token, answers)
            if not viewer.is_director:  # a director types in the paper orders of a board played at a table
                player = viewer.player()
                if power not in player.powers:
                    raise Forbidden(f"{power} is not your power; you play {', '.join(player.powers) or 'no power'}")
            g = GameRecord.restore(found)
            self._writable_phase(g, power, phase)
            checked["results"] = engine().check_orders(self.t.full(g, g.position), power, orders)
            bad = [r for r in checked["results"] if not r["valid"]]
            if bad:
                raise Invalid(f"{len(bad)} of {len(orders)} orders for {power} are invalid; nothing was stored",
                              orders=checked["results"])
            waits = g.status == GameStatus.OPEN and (g.waiting or g.late)  # only then does a submission close it
            pipe.watch(keys.orders(gid, g.seq))  # whether its submission is new decides the tag
            before = set(pipe.hkeys(keys.orders(gid, g.seq)))
            submitted = before | {power} if waits else set()
            pipe.multi()
            pipe.hset(keys.orders(gid, g.seq), power, encode_orders([r["order"] for r in checked["results"]]))
            if power not in before:
                versions.submitted_changed(pipe, gid)
            self._tell(pipe, g, power=power, submitted=True)
            if viewer.is_director:
                audit.record(pipe, self.t.table, gid, self.t.now(), "orders_entered",
                             {"power": power, "phase": g.phase, "orders": len(orders)})
            if waits:
                self._maybe_close_waiting(pipe, g, submitted)
            return g.phase

        current = self.t.store.transact([keys.game(gid)], body)
        return {"phase": current, "power": power, "stored": True, "orders": checked["results"]}

    def clear(self, gid: str, token: str | None, power: str, phase: str | None = None) -> dict:
        self._own_power(gid, token, power)

        def body(pipe):
            g = self.t.load(pipe, gid)
            self._writable_phase(g, power, phase)
            pipe.watch(keys.orders(gid, g.seq))
            had = pipe.hexists(keys.orders(gid, g.seq), power)
            pipe.multi()
            pipe.hdel(keys.orders(gid, g.seq), power)
            if had:
                versions.submitted_changed(pipe, gid)
            self._tell(pipe, g, power=power, submitted=False)
            return g.phase

        current = self.t.store.transact([keys.game(gid)], body)
        return {"phase": current, "power": power, "stored": False, "orders": []}

    def by_owner(self, gid: str, powers: list[str], lines: list[str]) -> dict[str, list[str]]:
        """``lines`` of orders sent without naming a power, each given to the power of ``powers`` whose
        unit (or, in an adjustment phase, home centre) it names; 422 for a line that names none of
        them, or whose unit cannot be read."""
        g = self.t.load(self.t.r, gid)
        position = g.position or {}
        owner = {}
        for power in powers:
            for unit in (*position.get("units", {}).get(power, ()),
                         *(d["unit"] for d in position.get("dislodged", {}).get(power, ()))):
                owner[unit.split()[1][:3]] = power
        if g.phase.endswith("A"):  # a build names a home centre
            for province in engine().board_data(g.variant)["provinces"]:
                if province["home"] in powers:
                    owner.setdefault(province["id"], province["home"])
        found: dict[str, list[str]] = {}
        for i, line in enumerate(lines):
            try:
                loc = engine().parse(line).loc
            except engine().OrderError as e:
                raise Invalid(f"orders[{i}]: {e}; name the power (ORDERS <power>) to have it checked as one")
            power = owner.get((loc or "")[:3])
            if power is None:
                raise Invalid(f"orders[{i}]: '{line}' names no unit of {', '.join(powers)}; name the power")
            found.setdefault(power, []).append(line)
        return found

    def set_ready(self, gid: str, token: str | None, ready: bool, powers: list[str] | None = None) -> dict:
        """Mark the token's powers ready (or not) in the open phase: all of them, or ``powers``.  Ready
        with no orders stored is taken, with a warning: ``without_orders`` names those powers (their
        units hold, or the rules retreat, disband or waive for them), for the API and mail to say so."""
        player = self.t.player_for(gid, token)
        for power in powers or ():
            if power not in player.powers:
                raise Forbidden(f"{power} is not your power; you play {', '.join(player.powers) or 'no power'}")

        def body(pipe):
            g = self.t.load(pipe, gid)
            if g.status not in (GameStatus.OPEN, GameStatus.PAUSED):  # as orders: a pause stops the clock only
                raise Conflict(f"game '{gid}' is {g.status}; readiness can be set only while a phase is open")
            pipe.watch(keys.ready(gid, g.seq))
            to_order = set(g.to_order)
            mine = set(powers or player.powers) & to_order
            if not mine:
                raise Conflict(f"you have nothing to order in {g.phase}")
            now_ready = set(pipe.smembers(keys.ready(gid, g.seq)))
            unordered = sorted(mine - set(pipe.hkeys(keys.orders(gid, g.seq)))) if ready else []
            now_ready = now_ready | mine if ready else now_ready - mine
            pipe.multi()
            if ready:
                pipe.sadd(keys.ready(gid, g.seq), *mine)
            else:
                pipe.srem(keys.ready(gid, g.seq), *mine)
            self._tell(pipe, g, powers=sorted(mine), ready=ready)
            if ready and waits_for(g) <= now_ready and g.status == GameStatus.OPEN:  # paused: at the resume
                self.t.close(pipe, g, "every power was ready")
            return {"phase": g.phase, "ready": sorted(now_ready & to_order), "powers": sorted(mine),
                    "without_orders": unordered}

        return self.t.store.transact([keys.game(gid)], body)
