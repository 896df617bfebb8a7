"""Diplomacy games: the table whose steps are phases, on the machinery of ``workers.core.store``.

Every change of a game is one transaction of :meth:`Store.transact` on the
game hash.  The phase moves through

    open --(deadline / all ready / director)--> adjudicating --(commit)--> open (next phase)

and only these transitions touch the ``status`` field of the game hash, so:

* a submission is stored only while the phase is open: it commits before the
  phase closes (and is adjudicated) or fails and is refused with a 409;
* an adjudication commits only if the game is still ``adjudicating`` the same
  phase number: a second job, a racing job or a re-run of an abandoned job
  computes the same result and its commit is a no-op.

Jobs (deadline and adjudication) are enqueued in the same transaction as the
state change that needs them, so a crash can never leave a closed phase
without its job or an open phase without its deadline.
"""
from __future__ import annotations

import json
import secrets
import time

from adjudicator import diplomacy, scoring

from ..delivery import events, mail, reminders
from ..core import keys
from ..core.outcome import JobOutcome
from . import absences, results
from ..core import audit
from ..core.clock import Clock
from ..core.machine import GAME, GameStatus
from ..core.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from ..core.store import hash_token, iso, loads, new_id, new_token
from .votes import Votes

DEFAULT_DEADLINES = {"first_movement": 35 * 60, "movement": 20 * 60, "retreat": 5 * 60, "adjustment": 5 * 60}
PHASE_KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}
POSITION_FIELDS = ("phase", "units", "centers", "dislodged", "contested", "retreat_options", "adjustments")


def engine():
    """The Diplomacy rules engine (pure functions, no I/O)."""
    return diplomacy


class Games:
    """All reads and writes of Diplomacy games."""

    table = "game"

    def __init__(self, store):
        self.store = store
        self.r = store.r
        self.now = store.now
        self.clock = Clock(store, GAME, keys.game, self.what)
        self.votes = Votes(self)

    def what(self, gid: str) -> str:
        return f"game '{gid}'"

    def _game(self, pipe, gid: str) -> dict:
        return self.store.record(pipe, keys.game(gid), self.what(gid))

    def player_for(self, gid: str, token: str | None) -> dict:
        """The player holding ``token`` in game ``gid`` (401 if none)."""
        if not self.r.exists(keys.game(gid)):
            raise NotFound(f"there is no game '{gid}'")
        if not token:
            raise Unauthorized("this needs a player token: send 'Authorization: Bearer <token>'")
        pid = self.store.holder(keys.tokens(gid), token, f"a player of game '{gid}'")
        return json.loads(self.r.hget(keys.players(gid), pid))

    def check_director(self, g: dict, token: str | None) -> None:
        self.store.check_director(g, token, self.what(g["id"]))

    @staticmethod
    def _full(g: dict, position: dict) -> dict:
        """``position`` with the game's variant and rules, as the engine reads it."""
        return {**position, "variant": g["variant"], "rules": json.loads(g["rules"])}

    def _close(self, pipe, g: dict, reason: str, enqueue: bool = True) -> None:
        """Queue (after MULTI) the writes that close the current phase and, unless
        the caller adjudicates it itself, enqueue its adjudication job."""
        gid, seq = g["id"], int(g["seq"])
        GAME.transition(self.store, pipe, keys.game(gid), g, GameStatus.ADJUDICATING, closed_by=reason, attempts=0,
                        waiting="")
        if enqueue:
            self.store.enqueue_advance(pipe, self.table, gid, seq)

    def _keep(self, pipe, gid: str, seconds: int | None) -> None:
        """Queue (after MULTI): the game's keys expire in ``seconds`` (None: they are kept)."""
        for key in (keys.game(gid), keys.players(gid), keys.tokens(gid), keys.history(gid), keys.proposals(gid),
                    keys.audit("game", gid), keys.absences(gid), keys.mail_done(gid)):
            if seconds is None:
                pipe.persist(key)
            else:
                pipe.expire(key, seconds)

    def export(self, gid: str) -> dict:
        """The game and its whole history as one JSON document, and when it expires (None: not yet set to)."""
        state, phases, ttl = self.public_state(gid), self.history(gid), self.r.ttl(keys.game(gid))
        return {"game": state, "phases": phases, "exported_at": iso(self.now()),
                "expires_at": iso(self.now() + ttl) if ttl > 0 else None}

    def _open_phase(self, pipe, g: dict, seq: int, position: dict, seated: list[str]) -> None:
        """Queue (after MULTI) the writes that open phase number ``seq`` at ``position``."""
        gid = g["id"]
        self._keep(pipe, gid, None)
        settings = json.loads(g["settings"])
        to_order = [p for p in engine().powers_to_order(self._full(g, position)) if p in seated]
        kind = PHASE_KINDS[position["phase"][-1]]
        length = settings["deadlines"]["first_movement" if seq == 1 and kind == "movement" else kind]
        to_order, length = self._absent_at_open(gid, settings, to_order, length)
        fields = {"seq": seq, "phase": position["phase"], "position": json.dumps(position),
                  "to_order": json.dumps(to_order), "attempts": 0, "waiting": "", "late": "",
                  "opened_at": self.now()}
        if to_order:
            fields = GAME.transition(self.store, pipe, keys.game(gid), g, GameStatus.OPEN, closed_by="", **fields,
                                     **self.store.deadline_fields(pipe, self.table, gid, seq, length))
            reminders.schedule(self.store, pipe, gid, seq, fields["deadline"], settings.get("reminders", []))
        else:  # only powers without a player would order: nothing to wait for
            fields = GAME.transition(self.store, pipe, keys.game(gid), g, GameStatus.ADJUDICATING,
                                     closed_by="no player has anything to order", **fields)
            self.store.enqueue_advance(pipe, self.table, gid, seq)
        return fields

    def _absent_at_open(self, gid: str, settings: dict, to_order: list[str], length: int) -> tuple[list, int]:
        """Approved absences as a phase opens: with ``civil_disorder`` the powers away now are not
        asked for orders; with ``extend`` a deadline inside an absence moves to its end."""
        now = self.now()
        if absences.policy(settings)["effect"] == "civil_disorder":
            away = absences.covering(self.r, gid, to_order, now)
            return [p for p in to_order if p not in away], length
        away = absences.covering(self.r, gid, to_order, now + length)
        # deadline_fields rounds now + seconds up: land on the absence's end (a whole second)
        return to_order, max([length, *(end - now - 0.5 for end in away.values())])

    # ----------------------------------------------------------------- games
    def create_game(self, spec: dict, director: str | None = None, extra: dict | None = None) -> tuple[dict, str]:
        """A new game; ``spec["start"]`` sets its starting position (a set position, or a fork).
        ``director`` is the hash of an existing director token (a tournament's), else a new
        token is made and returned once."""
        info = engine().variant_info(spec["variant"])
        rules = dict(spec.get("rules", {}))
        if spec["variant"] == "two_player_1914" and "italy_joins" not in rules:
            rules["italy_joins"] = secrets.choice([1, 2])  # the coin toss (rules 13.6), drawn once
        start = engine().initial_position(spec["variant"])
        if spec.get("start"):
            start = {"phase": spec["start"]["phase"], "units": {}, "centers": {}, "dislodged": {}, "contested": [],
                     **{k: v for k, v in spec["start"].items() if k in POSITION_FIELDS}}
        try:
            engine().powers_to_order({**start, "variant": spec["variant"], "rules": rules})
        except engine().RequestError as e:
            field = getattr(e, "field", None)
            where = "body.start" if spec.get("start") and field != "rules" else "body"
            raise Invalid(f"{where}.{field or 'rules'}: {e}")
        if spec.get("last_year") is not None and spec["last_year"] < results.count_year(start["phase"]) + 1:
            raise Invalid(f"body.last_year: {spec['last_year']} is before the game's first year "
                          f"{results.count_year(start['phase']) + 1}")
        gid = new_id()
        token = None if director else new_token()
        settings = {"deadlines": DEFAULT_DEADLINES | spec.get("deadlines", {}),
                    "assignment": spec["assignment"], "missed_orders": spec["missed_orders"],
                    "grace": spec.get("grace", 0), "reminders": spec.get("reminders", reminders.DEFAULT),
                    "absences": absences.policy(spec),
                    "seats": len(info["players"]), "draw_subsets": spec.get("draw_subsets", False),
                    "civil_disorder_vote": spec.get("civil_disorder_vote", "yes")}
        self.r.hset(keys.game(gid), mapping={
            "id": gid, "name": spec.get("name", ""), "variant": spec["variant"],
            "rules": json.dumps(rules), "settings": json.dumps(settings), "start": json.dumps(start),
            "last_year": spec.get("last_year") or "", "director": director or hash_token(token),
            "status": GameStatus.FORMING.value, "seq": 0, "phase": "", "created_at": self.now(), **(extra or {})})
        self.r.expire(keys.game(gid), self.store.settings.game_ttl_forming)  # abandoned unless someone joins (or it starts)
        return self.public_state(gid), token

    def join(self, gid: str, name: str, power: str | None, email: str | None = None) -> tuple[dict, str]:
        token = new_token()

        def body(pipe):
            g = self._game(pipe, gid)
            if g["status"] != "forming":
                raise Conflict(f"game '{gid}' has already started; no seat is free")
            settings = json.loads(g["settings"])
            players = [json.loads(p) for p in pipe.hvals(keys.players(gid))]
            if len(players) >= settings["seats"]:
                raise Conflict(f"all {settings['seats']} seats of game '{gid}' are taken")
            groups = engine().variant_info(g["variant"])["players"]
            powers: list[str] = []
            if settings["assignment"] == "chosen":
                if power is None:
                    raise Invalid("body.power: this game lets players choose; name the power you want",
                                  errors={"power": ["required when powers are chosen"]})
                group = next((grp for grp in groups if power in grp), None)
                if group is None:
                    raise Invalid(f"body.power: '{power}' is not a power a player can take in this variant",
                                  errors={"power": [f"one of {sorted(p for grp in groups for p in grp)}"]})
                if any(set(p["powers"]) & set(group) for p in players):
                    raise Conflict(f"{power} is already taken in game '{gid}'")
                powers = list(group)
            elif power is not None:
                raise Invalid("body.power: powers are drawn at random in this game; leave 'power' out",
                              errors={"power": ["not allowed when powers are drawn at random"]})
            pid = f"p{len(players) + 1}"
            player = {"id": pid, "name": name, "powers": powers, "joined_at": self.now(),
                      **({"email": email} if email else {})}
            players.append(player)
            pipe.multi()
            pipe.hset(keys.players(gid), pid, json.dumps(player))
            pipe.hset(keys.tokens(gid), hash_token(token), pid)
            if email:
                mail.welcome(self.store, pipe, g, player, token)
            self._keep(pipe, gid, self.store.settings.game_ttl_forming)
            if len(players) == settings["seats"]:
                self._start(pipe, g, players)
            return player

        player = self.store.transact([keys.game(gid), keys.players(gid)], body)
        return self.player_view(gid, player["id"]), token

    def _start(self, pipe, g: dict, players: list[dict]) -> None:
        """Queue (after MULTI) the writes that draw powers and open the first phase."""
        gid = g["id"]
        info = engine().variant_info(g["variant"])
        if json.loads(g["settings"])["assignment"] == "random":
            groups = list(info["players"])
            secrets.SystemRandom().shuffle(groups)
            for player, group in zip(players, groups):
                player["powers"] = list(group)
                pipe.hset(keys.players(gid), player["id"], json.dumps(player))
        seated = [p for player in players for p in player["powers"]]
        position = json.loads(g["start"]) if g.get("start") else engine().initial_position(g["variant"])
        pipe.hset(keys.game(gid), "started_at", self.now())
        fields = self._open_phase(pipe, g, 1, position, seated)
        mail.game_started(self.store, pipe, g, players, fields)

    def start(self, gid: str, token: str | None) -> dict:
        def body(pipe):
            g = self._game(pipe, gid)
            self.check_director(g, token)
            if g["status"] != "forming":
                raise Conflict(f"game '{gid}' has already started")
            players = sorted((json.loads(p) for p in pipe.hvals(keys.players(gid))), key=lambda p: p["joined_at"])
            if not players:
                raise Conflict(f"game '{gid}' has no players yet")
            pipe.multi()
            self._start(pipe, g, players)
            audit.record(pipe, self.table, gid, self.now(), "start", {"players": len(players)})

        self.store.transact([keys.game(gid), keys.players(gid)], body)
        return self.public_state(gid)

    # ----------------------------------------------------------------- reading
    def _players(self, gid: str) -> list[dict]:
        return sorted((json.loads(p) for p in self.r.hvals(keys.players(gid))), key=lambda p: p["joined_at"])

    def player_view(self, gid: str, pid: str) -> dict:
        player = json.loads(self.r.hget(keys.players(gid), pid))
        return {"id": player["id"], "name": player["name"], "powers": player["powers"]}

    def public_state(self, gid: str) -> dict:
        g = self.r.hgetall(keys.game(gid))
        if not g:
            raise NotFound(f"there is no game '{gid}'")
        seq = int(g["seq"])
        settings = json.loads(g["settings"])
        rules = json.loads(g["rules"])
        if "italy_joins" in rules and not self._coin_toss_public(g["phase"]):
            del rules["italy_joins"]  # drawn at creation, shown from the Fall 1914 adjustments on
        state = {
            "id": gid, "name": g.get("name", ""), "variant": g["variant"], "rules": rules,
            "deadlines": settings["deadlines"], "assignment": settings["assignment"],
            "missed_orders": settings["missed_orders"], "seats": settings["seats"],
            "status": g["status"], "created_at": iso(g["created_at"]),
            "players": [{"id": p["id"], "name": p["name"], "powers": p["powers"]} for p in self._players(gid)],
            "phase": g["phase"] or None, "seq": seq, "deadline": None, "remaining_seconds": None,
            "position": None, "to_order": [], "submitted": [], "ready": [], "winner": g.get("winner") or None,
            "grace": settings.get("grace", 0), "reminders": settings.get("reminders", []),
            "absences": absences.policy(settings), "late": [],
            "draw_subsets": settings.get("draw_subsets", False),
            "civil_disorder_vote": settings.get("civil_disorder_vote", "yes"),
            "last_year": int(g["last_year"]) if g.get("last_year") else None,
            "ended_by": g.get("ended_by") or None, "result": loads(g.get("result")),
            "tournament": g.get("tournament") or None, "forked_from": loads(g.get("forked_from")),
        }
        if seq:
            position = json.loads(g["position"])
            state |= {
                "position": {k: position.get(k, {} if k != "contested" else []) for k in
                             ("units", "centers", "dislodged", "contested", "retreat_options", "adjustments")},
                "to_order": json.loads(g["to_order"]),
                "submitted": sorted(self.r.hkeys(keys.orders(gid, seq))),
                "ready": sorted(self.r.smembers(keys.ready(gid, seq))),
                "deadline": iso(g["deadline"]) if g.get("deadline") else None,
                "remaining_seconds": float(g["remaining"]) if g.get("remaining") else None,
                "late": loads(g.get("late"), []) if g["status"] in ("open", "paused") else [],
            }
        return state

    @staticmethod
    def _coin_toss_public(phase: str) -> bool:
        return bool(phase) and (int(phase[1:5]) > 1914 or phase == "W1914A")

    def history(self, gid: str) -> list[dict]:
        if not self.r.exists(keys.game(gid)):
            raise NotFound(f"there is no game '{gid}'")
        return [json.loads(h) for h in self.r.lrange(keys.history(gid), 0, -1)]

    def own_orders(self, gid: str, token: str | None) -> dict:
        player = self.player_for(gid, token)
        g = self.r.hgetall(keys.game(gid))
        seq = int(g["seq"])
        to_order = json.loads(g["to_order"]) if seq else []
        submitted = self.r.hgetall(keys.orders(gid, seq)) if seq else {}
        ready = self.r.smembers(keys.ready(gid, seq)) if seq else set()
        return {"phase": g["phase"] or None, "seq": seq, "player": player["id"], "powers": {
            power: {"must_order": power in to_order, "ready": power in ready,
                    "orders": loads(submitted.get(power))} for power in player["powers"]}}

    # ----------------------------------------------------------------- orders
    def _writable_phase(self, g: dict, power: str, phase: str | None) -> None:
        gid = g["id"]
        if g["status"] == "forming":
            raise Conflict(f"game '{gid}' has not started yet")
        if g["status"] == "finished":
            raise Conflict(f"game '{gid}' is over")
        if phase is not None and phase != g["phase"]:
            raise Conflict(f"these orders are for {phase} but the current phase is {g['phase']}")
        if g["status"] == "adjudicating":
            raise Conflict(f"phase {g['phase']} is closed and being adjudicated; orders can no longer change")
        waiting_mode = json.loads(g["settings"])["missed_orders"] == "wait"
        if g["status"] == "open" and g.get("deadline") and self.now() >= float(g["deadline"]) and not waiting_mode:
            raise Conflict(f"the deadline of {g['phase']} passed at {iso(g['deadline'])}")
        if power not in json.loads(g["to_order"]):
            raise Conflict(f"{power} has nothing to order in {g['phase']}")

    def _maybe_close_waiting(self, pipe, g: dict, submitted: set[str]) -> None:
        """In a game whose phases wait for missing orders: close once all are in."""
        if (g["status"] == "open" and (g.get("waiting") or g.get("late"))
                and set(loads(g.get("late")) or json.loads(g["to_order"])) <= submitted):
            self._close(pipe, g, "deadline, then the last missing orders")

    def submit_orders(self, gid: str, token: str | None, power: str, orders: list[str],
                      phase: str | None = None) -> dict:
        player = self.player_for(gid, token)
        if power not in player["powers"]:
            raise Forbidden(f"{power} is not your power; you play {', '.join(player['powers']) or 'no power'}")
        checked = {}

        def body(pipe):
            g = self._game(pipe, gid)
            self._writable_phase(g, power, phase)
            checked["results"] = engine().check_orders(self._full(g, json.loads(g["position"])), power, orders)
            bad = [r for r in checked["results"] if not r["valid"]]
            if bad:
                raise Invalid(f"{len(bad)} of {len(orders)} orders for {power} are invalid; nothing was stored",
                              orders=checked["results"])
            seq = int(g["seq"])
            submitted = set(pipe.hkeys(keys.orders(gid, seq))) | {power}
            pipe.multi()
            pipe.hset(keys.orders(gid, seq), power, json.dumps([r["order"] for r in checked["results"]]))
            self._maybe_close_waiting(pipe, g, submitted)
            return g["phase"]

        current = self.store.transact([keys.game(gid)], body)
        return {"phase": current, "power": power, "stored": True, "orders": checked["results"]}

    def clear_orders(self, gid: str, token: str | None, power: str, phase: str | None = None) -> dict:
        player = self.player_for(gid, token)
        if power not in player["powers"]:
            raise Forbidden(f"{power} is not your power; you play {', '.join(player['powers']) or 'no power'}")

        def body(pipe):
            g = self._game(pipe, gid)
            self._writable_phase(g, power, phase)
            pipe.multi()
            pipe.hdel(keys.orders(gid, int(g["seq"])), power)
            return g["phase"]

        current = self.store.transact([keys.game(gid)], body)
        return {"phase": current, "power": power, "stored": False, "orders": []}

    def set_ready(self, gid: str, token: str | None, ready: bool) -> dict:
        player = self.player_for(gid, token)

        def body(pipe):
            g = self._game(pipe, gid)
            if g["status"] != "open":
                raise Conflict(f"game '{gid}' is {g['status']}; readiness can be set only while a phase is open")
            seq = int(g["seq"])
            pipe.watch(keys.ready(gid, seq))
            to_order = set(json.loads(g["to_order"]))
            mine = set(player["powers"]) & to_order
            if not mine:
                raise Conflict(f"you have nothing to order in {g['phase']}")
            now_ready = set(pipe.smembers(keys.ready(gid, seq)))
            now_ready = now_ready | mine if ready else now_ready - mine
            pipe.multi()
            if ready:
                pipe.sadd(keys.ready(gid, seq), *mine)
            else:
                pipe.srem(keys.ready(gid, seq), *mine)
            if ready and to_order <= now_ready:
                self._close(pipe, g, "every power was ready")
            return {"phase": g["phase"], "ready": sorted(now_ready & to_order), "powers": sorted(mine)}

        return self.store.transact([keys.game(gid)], body)

    # ----------------------------------------------------------------- director
    def _director(self, gid: str, token: str | None, action: str, detail: dict, change) -> dict:
        """Director action ``action``: ``change(pipe, g)`` (reads, then MULTI and writes) and its
        audit entry in one transaction, once the director token is checked; the game's new state."""
        def body(pipe):
            g = self._game(pipe, gid)
            self.check_director(g, token)
            change(pipe, g)
            if not pipe.explicit_transaction:
                pipe.multi()
            audit.record(pipe, self.table, gid, self.now(), action, detail)

        self.store.transact([keys.game(gid)], body)
        return self.public_state(gid)

    def extend(self, gid: str, token: str | None, seconds: int | None = None, until: float | None = None) -> dict:
        return self._director(gid, token, "extend", {"seconds": seconds, "deadline": iso(until)},
                              lambda pipe, g: self.clock.extend(pipe, g, seconds, until))

    def pause(self, gid: str, token: str | None) -> dict:
        return self._director(gid, token, "pause", {}, self.clock.pause)

    def resume(self, gid: str, token: str | None) -> dict:
        return self._director(gid, token, "resume", {}, self.clock.resume)

    def force(self, gid: str, token: str | None) -> dict:
        def change(pipe, g):
            if g["status"] not in ("open", "paused"):
                raise Conflict(f"game '{gid}' is {g['status']}; there is no open phase to adjudicate")
            pipe.multi()
            self._close(pipe, g, "director")

        return self._director(gid, token, "adjudicate", {}, change)

    # ----------------------------------------------------------------- workers
    def on_deadline(self, gid: str, seq: int, deadline: int, stall: float = 0.0) -> str:
        """The deadline job: close phase ``seq`` if ``deadline`` is still its deadline, then adjudicate it."""
        if not self.close_at_deadline(gid, seq, deadline):
            return JobOutcome.noop("deadline superseded or phase waits for missing orders")
        return self.advance(gid, seq, stall)

    def close_at_deadline(self, gid: str, seq: int, deadline: int) -> bool:
        """Close phase ``seq`` if the deadline this job was scheduled for is still
        the current one.  True when the phase is (now or already) adjudicating."""
        def body(pipe):
            g = pipe.hgetall(keys.game(gid))
            if not g or int(g["seq"]) != seq:
                return False
            if g["status"] == "adjudicating":
                return True  # closed already (e.g. a re-run of this job): adjudicate
            if g["status"] != "open" or g.get("deadline") != str(deadline) or self.now() < deadline:
                return False  # superseded by an extension, a pause or another trigger
            if not self._missed_deadline(pipe, g, deadline):
                return False
            # this job is the deadline job: don't cancel it, and adjudicate in it
            self._close(pipe, {**g, "deadline_job": ""}, "deadline", enqueue=False)
            return True

        return self.store.transact([keys.game(gid)], body)

    def _missed_deadline(self, pipe, g: dict, deadline: int) -> bool:
        """At the deadline of an open phase (reads, then MULTI): move it to the return of an absent
        power without orders (absence effect ``extend``), or tell the late powers
        (``deadline_passed``) and give them the grace period, or apply the missed-orders policy
        (``wait``).  True when the phase closes now (units without orders hold)."""
        gid, seq = g["id"], int(g["seq"])
        settings = json.loads(g["settings"])
        submitted = set(pipe.hkeys(keys.orders(gid, seq)))
        missing = [p for p in json.loads(g["to_order"]) if p not in submitted]
        away = absences.covering(self.r, gid, missing, deadline)
        late = [p for p in missing if p not in away]
        first = not g.get("late")
        pipe.multi()
        if away and absences.policy(settings)["effect"] == "extend":
            self._move_deadline(pipe, g, int(max(away.values())), {})
            return False
        grace = settings.get("grace", 0) if first else 0
        if late and first:
            events.emit(self.store, pipe, self.table, gid, "deadline_passed", str(seq), {
                "seq": seq, "phase": g["phase"], "deadline": iso(deadline), "missing": late,
                "grace_until": iso(deadline + grace) if grace else None, "policy": settings["missed_orders"]})
        if late and grace:
            self._move_deadline(pipe, g, deadline + grace, {"late": json.dumps(late)})
            return False
        if late and settings["missed_orders"] == "wait":
            GAME.set_clock(self.store, pipe, keys.game(gid), g, waiting=1, late=json.dumps(late))
            return False
        return True

    def _move_deadline(self, pipe, g: dict, deadline: int, extra: dict) -> None:
        """Queue (after MULTI, from the deadline job itself) a later deadline for the open phase."""
        pipe.hset(keys.game(g["id"]), mapping={
            "deadline": deadline, **extra,
            "deadline_job": self.store.schedule_deadline(pipe, self.table, g["id"], int(g["seq"]), deadline)})

    def advance(self, gid: str, seq: int, stall: float = 0.0) -> str:
        """Adjudicate phase ``seq`` of game ``gid`` exactly once; returns what happened."""
        g = self.store.claim(keys.game(gid), seq, "adjudicating")  # counts this attempt, before any work
        if g is None:
            return JobOutcome.noop("phase already adjudicated or not closed")
        position = json.loads(g["position"])
        with self.r.pipeline(transaction=False) as reads:  # frozen while adjudicating: one round trip
            submitted, players = reads.hgetall(keys.orders(gid, seq)).hvals(keys.players(gid)).execute()
        orders = {p: json.loads(o) for p, o in submitted.items()}
        request = {"variant": g["variant"], "rules": json.loads(g["rules"]), "phase": position["phase"],
                   "units": position.get("units", {}), "centers": position.get("centers", {}),
                   "dislodged": position.get("dislodged", {}), "contested": position.get("contested", []),
                   "orders": orders}
        if stall:  # fault injection for the test that kills a worker mid-adjudication
            time.sleep(stall)
        response = engine().adjudicate(request)
        seated = [p for player in map(json.loads, players) for p in player["powers"]]

        def body(pipe):
            now = pipe.hgetall(keys.game(gid))
            if int(now["seq"]) != seq or now["status"] != "adjudicating":
                return JobOutcome.noop("another job committed this phase")
            record = {"seq": seq, "phase": position["phase"], "closed_by": now.get("closed_by", ""),
                      "adjudicated_at": iso(self.now()), "attempts": int(now.get("attempts") or 1),
                      "position": {k: v for k, v in request.items() if k not in ("orders", "rules")}
                      | {k: position[k] for k in ("retreat_options", "adjustments") if position.get(k)},
                      "orders": orders, "results": response["results"],
                      "next_phase": (response.get("next") or {}).get("phase")}
            nxt = response.get("next")
            winner = response.get("winner")
            last_year = int(now["last_year"]) if now.get("last_year") else None
            ending = None
            if winner or not nxt:
                ending = ("solo" if winner else "timeout", "solo" if winner else "last_year")
            elif last_year is not None and int(nxt["phase"][1:5]) > last_year:
                ending = ("timeout", "last_year")  # after the last year's winter adjustments
            elif nxt["phase"].endswith("M") and not any(nxt.get("units", {}).get(p) for p in seated):
                # no player has a unit left to move: nothing any player does can change the game,
                # which would otherwise adjudicate phase after phase on its own
                ending = ("timeout", "no_player_left")
            if ending:
                result = self._result(pipe, now, [record["position"], nxt or record["position"]], ending[0])
            lapsing = self.votes.open_proposals(pipe, gid)
            pipe.multi()
            pipe.rpush(keys.history(gid), json.dumps(record))
            pipe.delete(keys.orders(gid, seq), keys.ready(gid, seq))
            self.votes.lapse(pipe, gid, lapsing, f"{position['phase']} was adjudicated")
            events.emit(self.store, pipe, self.table, gid, "phase_adjudicated", str(seq),
                        {"seq": seq, "phase": position["phase"], "results": response["results"],
                         "next_phase": record["next_phase"]})
            if ending:
                self._finish(pipe, now, result, ending[1], nxt, winner=winner)
            else:
                self._open_phase(pipe, now, seq + 1, nxt, seated)
            return JobOutcome.did(f"committed {position['phase']}")

        return self.store.transact([keys.game(gid)], body)

    # ----------------------------------------------------------------- game end
    def _live_positions(self, pipe, gid: str) -> list[dict]:
        """The position at the start of every adjudicated phase of the live branch, oldest first."""
        return [h["position"] for h in map(json.loads, pipe.lrange(keys.history(gid), 0, -1))
                if not h.get("superseded")]

    def _result(self, pipe, g: dict, later: list[dict], end: str, members=(), conceded_to=None) -> dict:
        """Read (before MULTI) what the §2.1 result of ``g`` ending now needs; ``later`` are the
        positions after the live history (the last one is the final position)."""
        info = engine().variant_info(g["variant"])
        return results.build(info["powers"], self._live_positions(pipe, g["id"]) + later, end, members, conceded_to,
                             first_year=int(info["start_phase"][1:5]))

    def _finish(self, pipe, g: dict, result: dict, ended_by: str, position: dict | None = None,
                winner: str | None = None) -> None:
        """Queue (after MULTI) the writes that end game ``g`` with ``result``."""
        gid, seq = g["id"], int(g["seq"])
        pipe.delete(keys.orders(gid, seq), keys.ready(gid, seq))  # never adjudicated: never shown
        fields = {"winner": winner or "", "seq": seq + 1, "to_order": "[]", "waiting": "", "ended_by": ended_by,
                  "ended_at": self.now(), "result": json.dumps(result)}
        if position:
            fields |= {"phase": position["phase"], "position": json.dumps(position)}
        GAME.transition(self.store, pipe, keys.game(gid), g, GameStatus.FINISHED, **fields)
        if not g.get("tournament"):  # a tournament's boards stay as long as its standings need them
            self._keep(pipe, gid, self.store.settings.game_ttl_finished)
        events.emit(self.store, pipe, self.table, gid, "game_ended", f"end-{seq}",
                    {"end": result["end"], "ended_by": ended_by, "winner": winner,
                     "phase": position["phase"] if position else g["phase"], "result": result})

    def result(self, gid: str) -> dict:
        g = self.r.hgetall(keys.game(gid))
        if not g:
            raise NotFound(f"there is no game '{gid}'")
        if g["status"] != "finished":
            raise Conflict(f"game '{gid}' is {g['status']}; it has a result once it is finished")
        return {"game": gid, "ended_by": g["ended_by"], "ended_at": iso(g["ended_at"]), "phase": g["phase"],
                "result": json.loads(g["result"])}

    def scores(self, gid: str, system: str) -> dict:
        if system not in scoring.SYSTEMS:
            raise NotFound(f"path system: unknown scoring system '{system}'; the systems are "
                           f"{', '.join(scoring.SYSTEMS)}")
        found = self.result(gid)
        try:
            scores = scoring.score(system, found["result"])
        except scoring.ResultError as e:
            raise Invalid(f"game '{gid}' cannot be scored under {system}: result.{e.field}: {e.message}")
        return {**found, "system": system, "scores": scoring.as_numbers(scores), "exact": scoring.as_exact(scores)}

    def end_game(self, gid: str, token: str | None, reason: str) -> dict:
        """The director ends the game by hand (time called): a timeout with the centres as they stand."""
        def change(pipe, g):
            if g["status"] not in ("open", "paused"):
                raise Conflict(f"game '{gid}' is {g['status']}; only a game with an open phase can be ended"
                               + (" (the phase is being adjudicated: try again in a moment)"
                                  if g["status"] == "adjudicating" else ""))
            result = self._result(pipe, g, [json.loads(g["position"])], "timeout")
            lapsing = self.votes.open_proposals(pipe, gid)
            pipe.multi()
            self.votes.lapse(pipe, gid, lapsing, "the director ended the game")
            self._finish(pipe, g, result, "director")

        return self._director(gid, token, "end", {"reason": reason}, change)

    def set_last_year(self, gid: str, token: str | None, year: int | None) -> dict:
        """The game ends after ``year``'s winter adjustments (None: no last year)."""
        def change(pipe, g):
            if g["status"] == "finished":
                raise Conflict(f"game '{gid}' is over")
            position = json.loads(g["position"]) if g.get("position") else json.loads(g["start"])
            current = int(position["phase"][1:5])
            if year is not None and year < current:
                raise Invalid(f"body.year: {year} is before the current phase {position['phase']}; "
                              "end the game by hand instead (POST .../end)")
            pipe.multi()
            pipe.hset(keys.game(gid), "last_year", year or "")

        return self._director(gid, token, "last_year", {"year": year}, change)

    # ----------------------------------------------------------------- rollback and fork
    def rollback(self, gid: str, token: str | None, seq: int, reason: str) -> dict:
        """Reopen the start of adjudicated phase ``seq`` with a fresh deadline and no orders; the
        phases after it stay in the history, marked superseded (who, when, why)."""
        def change(pipe, g):
            if g["status"] in ("forming", "adjudicating"):
                raise Conflict(f"game '{gid}' is {g['status']}; " + (
                    "it has no phase to go back to" if g["status"] == "forming"
                    else "a phase is being adjudicated: try again in a moment"))
            history = [json.loads(h) for h in pipe.lrange(keys.history(gid), 0, -1)]
            live = [(i, h) for i, h in enumerate(history) if not h.get("superseded")]
            target = next((h for _i, h in live if h["seq"] == seq), None)
            if target is None:
                raise Invalid(f"body.seq: {seq} is not an adjudicated phase of the live history of game '{gid}'; "
                              f"one of {[h['seq'] for _i, h in live]}")
            players = [json.loads(p) for p in pipe.hvals(keys.players(gid))]
            lapsing = self.votes.open_proposals(pipe, gid)
            mark = {"by": "director", "at": iso(self.now()), "reason": reason, "restored_seq": int(g["seq"]) + 1}
            pipe.multi()
            for i, h in live:
                if h["seq"] >= seq:
                    pipe.lset(keys.history(gid), i, json.dumps({**h, "superseded": mark}))
            self.votes.lapse(pipe, gid, lapsing, "the director rolled the game back")
            self.store.cancel_deadline(pipe, g)
            pipe.delete(keys.orders(gid, int(g["seq"])), keys.ready(gid, int(g["seq"])))
            pipe.hset(keys.game(gid), mapping={"winner": "", "ended_by": "", "ended_at": "", "result": "",
                                                 "branch": int(g.get("branch") or 0) + 1})
            seated = [p for player in players for p in player["powers"]]
            position = {k: target["position"][k] for k in POSITION_FIELDS if k in target["position"]}
            self._open_phase(pipe, g, int(g["seq"]) + 1, position, seated)
            return [h["seq"] for _i, h in live if h["seq"] >= seq]

        detail = {"seq": seq, "reason": reason, "superseded": []}

        def recorded(pipe, g):
            detail["superseded"] = change(pipe, g)

        return self._director(gid, token, "rollback", detail, recorded)

    def fork(self, gid: str, token: str | None, seq: int | None, spec: dict) -> tuple[dict, str]:
        """A new game (a sandbox) starting at the start of phase ``seq`` of this game (None: its current phase)."""
        g = self.r.hgetall(keys.game(gid))
        if not g:
            raise NotFound(f"there is no game '{gid}'")
        if seq is None:
            if not int(g["seq"]):
                raise Conflict(f"game '{gid}' has not started; name an adjudicated phase or wait for the start")
            position, seq, phase = json.loads(g["position"]), int(g["seq"]), g["phase"]
        else:
            found = next((h for h in self.history(gid) if h["seq"] == seq), None)
            if found is None:
                raise Invalid(f"body.seq: game '{gid}' has no adjudicated phase {seq}",
                              errors={"seq": ["not an adjudicated phase of this game"]})
            position, phase = found["position"], found["phase"]
        settings = json.loads(g["settings"])
        origin = {"game": gid, "seq": seq, "phase": phase}
        spec = {"variant": g["variant"], "rules": json.loads(g["rules"]), "deadlines": settings["deadlines"],
                "assignment": "chosen", "missed_orders": settings["missed_orders"],
                "draw_subsets": settings.get("draw_subsets", False),
                "civil_disorder_vote": settings.get("civil_disorder_vote", "yes"),
                "name": f"fork of {g.get('name') or gid} at {phase}", **spec,
                "start": {k: position[k] for k in POSITION_FIELDS if k in position}}
        created, new_token_ = self.create_game(spec, extra={"forked_from": json.dumps(origin)})
        if self.store.is_director(g, token):
            with self.r.pipeline() as pipe:
                audit.record(pipe, self.table, gid, self.now(), "fork", {**origin, "into": created["id"]})
                pipe.execute()
        return created, new_token_

    # ----------------------------------------------------------------- audit
    def audit(self, gid: str, token: str | None) -> list[dict]:
        g = self.r.hgetall(keys.game(gid))
        if not g:
            raise NotFound(f"there is no game '{gid}'")
        self.check_director(g, token)
        return audit.read(self.r, self.table, gid)
