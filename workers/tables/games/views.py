"""What a game shows: its public state, a player's own orders, its history, its result and scores, its audit."""
from __future__ import annotations


from adjudicator import scoring

from ...core import audit, keys
from ...core.records import GameRecord, HistoryEntry, decode_orders
from ...core.errors import Conflict, Invalid, NotFound
from ...core.machine import GameStatus
from ...core.store import iso
from .. import absences, press, results
from .seats import Seats
from . import mila
from .table import GameTable, engine, played_by_bot

VIEW_POSITION = ("units", "centers", "dislodged", "contested", "retreat_options", "adjustments")


def coin_toss_public(phase: str) -> bool:
    """Whether the two-player game's hidden coin toss (``rules.italy_joins``) is shown at ``phase``."""
    return bool(phase) and (int(phase[1:5]) > 1914 or phase == "W1914A")


def coin_toss_shown(g: GameRecord, before: str | None, phase: str) -> dict | None:
    """The two-player game's coin toss as the event of a phase opening at ``phase`` announces it, the
    first time it is shown (``before``: the phase just played, None at the start): the winning side's
    number and powers (rules 13.6); None when there is none to announce."""
    toss = g.rules.get("italy_joins")
    if not toss or not coin_toss_public(phase) or (before and coin_toss_public(before)):
        return None
    side = engine().variant_info(g.variant)["players"][toss - 1]
    return {"italy_joins": toss, "side": list(side)}


#: Every rule the service draws and hides, with when it is shown (a test of each variant checks
#: that nothing else stored is left out of the public state): a view shows it, a fork copies it,
#: only from then on.
HIDDEN_RULES = {"italy_joins": coin_toss_public}


def public_rules(rules: dict, phase: str) -> dict:
    """``rules`` without what is still hidden at ``phase``."""
    return {k: v for k, v in rules.items() if k not in HIDDEN_RULES or HIDDEN_RULES[k](phase)}


def _shown(position: dict) -> dict:
    """A position as the game view shows it: every part, empty where it has none."""
    return {k: position.get(k, {} if k != "contested" else []) for k in VIEW_POSITION}


class Views:
    def __init__(self, table: GameTable, seats: Seats):
        self.t, self.seats = table, seats

    def player_view(self, gid: str, pid: str) -> dict:
        return self.t.seat(self.t.r, gid, pid).public()

    def public_state(self, gid: str) -> dict:
        g = self.t.load(self.t.r, gid)
        players = self.t.players(self.t.r, gid)
        settings, rules = g.settings, public_rules(g.rules, g.phase or (g.start or {}).get("phase", ""))
        state = {
            "id": gid, "name": g.name, "variant": g.variant, "rules": rules,
            "deadlines": settings["deadlines"], "assignment": settings["assignment"],
            "missed_orders": settings["missed_orders"], "seat_count": settings["seats"],
            "status": str(g.status), "created_at": iso(g.created_at),
            "players": [p.public() for p in players if p.holds],
            "seats": self.seats.view(g, players), "visibility": settings.get("visibility", "public"),
            "min_reliability": settings.get("min_reliability"),
            "open_seat_after": settings.get("open_seat_after", 2),
            "phase": g.phase or None, "seq": g.seq, "deadline": None, "remaining_seconds": None,
            "position": None, "to_order": [], "submitted": [], "ready": [], "winner": g.winner or None,
            "grace": settings.get("grace", 0), "reminders": settings.get("reminders", []),
            "absences": absences.policy(settings), "late": [],
            "draw_subsets": settings.get("draw_subsets", False),
            "civil_disorder_vote": settings.get("civil_disorder_vote", "yes"),
            "last_year": g.last_year, "ended_by": g.ended_by or None, "result": g.result,
            "tournament": g.tournament or None, "forked_from": g.forked_from,
            "press": press.in_force(settings), "press_changes": press.changes(settings),
            "bots": sorted(played_by_bot(players)), "bot_vote": settings.get("bot_vote", "members"),
        }
        if not g.seq and g.status == GameStatus.FORMING:  # what its players are joining: the board it starts at
            start = g.start or engine().initial_position(g.variant)
            state |= {"phase": start["phase"], "position": _shown(start)}
        if g.seq:
            position = g.position
            state |= {
                "position": _shown(position),
                "to_order": g.to_order,
                "submitted": sorted(self.t.r.hkeys(keys.orders(gid, g.seq))),
                "ready": sorted(self.t.r.smembers(keys.ready(gid, g.seq))),
                "deadline": iso(g.deadline),
                "remaining_seconds": self.remaining(g),
                "late": (g.late or []) if g.status in (GameStatus.OPEN, GameStatus.PAUSED) else [],
            }
        return state

    def remaining(self, g) -> float | None:
        """Seconds left to the deadline: while open, from now (whole seconds); while paused, as the clock stopped."""
        if g.status == GameStatus.PAUSED:
            return g.remaining
        if g.status == GameStatus.OPEN and g.deadline:
            return float(max(0, round(g.deadline - self.t.now())))
        return None

    def history(self, gid: str) -> list[HistoryEntry]:
        if not self.t.r.exists(keys.game(gid)):
            raise NotFound(f"there is no game '{gid}'")
        return self.t.history(self.t.r, gid)

    def own_orders(self, gid: str, token: str | None) -> dict:
        player = self.t.player_for(gid, token)
        g = self.t.load(self.t.r, gid)
        seq = g.seq
        to_order = g.to_order if seq else []
        submitted = self.t.r.hgetall(keys.orders(gid, seq)) if seq else {}
        ready = self.t.r.smembers(keys.ready(gid, seq)) if seq else set()
        return {"phase": g.phase or None, "seq": seq, "player": player.id, "powers": {
            power: {"must_order": power in to_order, "ready": power in ready,
                    "orders": decode_orders(submitted.get(power))}
            for power in player.powers}}

    def export(self, gid: str) -> dict:
        """The game and its whole history as one JSON document, and when it expires (None: not yet set to)."""
        state, phases, ttl = self.public_state(gid), self.history(gid), self.t.r.ttl(keys.game(gid))
        now = self.t.now()
        return {"game": state, "phases": phases, "exported_at": iso(now),
                "expires_at": iso(now + ttl) if ttl > 0 else None}

    def result(self, gid: str) -> dict:
        g = self.t.load(self.t.r, gid)
        if g.status != GameStatus.FINISHED:
            raise Conflict(f"game '{gid}' is {g.status}; it has a result once it is finished")
        return {"game": gid, "ended_by": g.ended_by, "ended_at": iso(g.ended_at), "phase": g.phase,
                "result": g.result}

    def scores(self, gid: str, system: str) -> dict:
        if system not in scoring.SYSTEMS:
            raise NotFound(f"path system: unknown scoring system '{system}'; the systems are "
                           f"{', '.join(scoring.SYSTEMS)}")
        found = self.result(gid)
        try:
            scores = scoring.score(system, results.scored(found["result"]))
        except scoring.ResultError as e:
            raise Invalid(f"game '{gid}' cannot be scored under {system}: result.{e.field}: {e.message}")
        return {**found, "system": system, "scores": scoring.as_numbers(scores), "exact": scoring.as_exact(scores)}

    def audit(self, gid: str, token: str | None) -> list[dict]:
        self.t.check_director(self.t.load(self.t.r, gid), token)
        return audit.read(self.t.r, self.t.table, gid)

    def options(self, gid: str, token: str | None) -> dict:
        """The orders each power may give in the open phase (``adjudicator.diplomacy.options``): a
        player's own powers that have something to order, or every such power for the director."""
        viewer = self.t.who(gid, token)
        if not viewer.is_director:
            viewer.player()
        g = self.t.load(self.t.r, gid)
        if g.status not in (GameStatus.OPEN, GameStatus.PAUSED):
            raise Conflict(f"game '{gid}' is {g.status}; options are given for an open phase")
        powers = [p for p in (g.to_order if viewer.is_director else viewer.powers) if p in g.to_order]
        return engine().options_by_power(self.t.full(g, g.position), powers)

    def export_mila(self, gid: str) -> dict:
        """The game as a MILA saved-game record (``workers.tables.games.mila``)."""
        return mila.to_mila(self.public_state(gid), self.history(gid))
