"""The end of a game: its §2.1 result (tournament-scoring.md) and the writes that finish it."""
from __future__ import annotations


from adjudicator import scoring

from ...core import keys, live
from ...core.errors import Invalid
from ...core.machine import GAME, GameStatus
from ...core.records import GameRecord
from ...delivery import events
from .. import lobby, results
from .seats import Seats
from .table import GameTable, engine


class Ending:
    def __init__(self, table: GameTable, seats: Seats):
        self.t, self.seats = table, seats

    @staticmethod
    def _live_positions(pipe, gid: str) -> list[dict]:
        """The position at the start of every adjudicated phase of the live branch, oldest first."""
        return [h.position for h in GameTable.history(pipe, gid) if not h.superseded]

    def result(self, pipe, g: GameRecord, later: list[dict], end: str, members=(), conceded_to=None) -> dict:
        """Read (before MULTI) what the §2.1 result of ``g`` ending now needs; ``later`` are the
        positions after the live history (the last one is the final position)."""
        info = engine().variant_info(g.variant)
        result = results.build(info["powers"], self._live_positions(pipe, g.id) + later, end, members, conceded_to,
                               first_year=int(info["start_phase"][1:5]))
        if any(len(side) > 1 for side in info["players"]):  # players of several powers: each side's total
            seats = [p.powers for p in self.t.players(pipe, g.id) if not p.retired and p.powers]
            result["sides"] = [{"powers": powers, "centers": sum(result["centers"].get(p, 0) for p in powers)}
                               for powers in seats]
        return result

    def recorded(self, pipe, g: GameRecord, at_table: dict) -> tuple[dict, str | None]:
        """Read (before MULTI) the §2.1 result of ``g`` ended with the result its director recorded
        at the table (``at_table``: ``end`` draw, solo, concession or timeout; a draw's ``members``, a
        solo's ``winner``, a concession's ``to``; the ``centers`` counted at the table, when the board
        was not played here phase by phase), and the winner; 422 naming what does not hold."""
        end = at_table.get("end", "timeout")
        result = self.result(pipe, g, [g.position], end, at_table.get("members") or (), at_table.get("to"))
        if "centers" in at_table:
            counts = {p: at_table["centers"].get(p, 0) for p in result["centers"]}
            result = {**result, "centers": counts,
                      "eliminated_year": {p: result["eliminated_year"].get(p, result["year"])
                                          for p, n in counts.items() if n == 0}}
        winner = at_table.get("winner") if end == "solo" else None
        try:
            scoring.load_result(results.scored(result))
        except scoring.ResultError as e:
            raise Invalid(f"body.result.{e.field}: {e.message}", errors={"result": [e.message]})
        if winner is not None and result["centers"].get(winner, 0) < max(result["centers"].values()):
            raise Invalid(f"body.result.winner: {winner} does not own the most centres",
                          errors={"result": ["the winner of a solo owns the most centres"]})
        return result, winner

    def finish(self, pipe, g: GameRecord, result: dict, ended_by: str, position: dict | None = None,
               winner: str | None = None) -> None:
        """Queue (after MULTI) the writes that end game ``g`` with ``result``."""
        gid, seq = g.id, g.seq
        pipe.delete(keys.orders(gid, seq), keys.ready(gid, seq), keys.bot_orders(gid, seq))  # never adjudicated: never shown
        changes = {"winner": winner or "", "seq": seq + 1, "to_order": [], "waiting": False, "ended_by": ended_by,
                   "ended_at": self.t.now(), "result": result}
        if position:
            changes |= {"phase": position["phase"], "position": position}
        GAME.transition(self.t.store, pipe, keys.game(gid), g, GameStatus.FINISHED, **changes)
        lobby.stage(pipe, g, GameStatus.FINISHED)
        self.seats.count_finish(pipe, self.t.players(self.t.r, gid))  # seats change only while it is in play
        if not g.tournament:
            self.t.keep(pipe, gid, self.t.store.settings.game_ttl_finished, g.variant)
        else:  # a tournament's boards expire with it, once its last board has ended
            self.t.store.enqueue(pipe, "workers.runtime.jobs.tournament_board_ended", g.tournament,
                                 job_id=f"tournament-board-ended-{gid}-{seq}")
        live.publish(self.t.store, pipe, self.t.table, gid, "end", {
            "end": result["end"], "ended_by": ended_by, "winner": winner,
            "phase": position["phase"] if position else g.phase, "result": f"/v1/games/{gid}/result"})
        events.emit(self.t.store, pipe, self.t.table, gid, "game_ended", f"end-{seq}",
                    {"end": result["end"], "ended_by": ended_by, "winner": winner,
                     "phase": position["phase"] if position else g.phase, "result": result})
