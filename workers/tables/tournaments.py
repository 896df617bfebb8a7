"""Tournaments: a director's rounds of boards (service games), seating, and standings.

A tournament has a scoring system (one of ``adjudicator.scoring.SYSTEMS``),
an aggregation of round scores (``sum`` of every round, or the ``best`` N)
and a number of rounds.  Its boards are standard games created in a round
with the tournament's director token as their director; the director seats
the players or has them drawn so that no two meet twice where possible
(fewest repeated pairs, by local search from random starts).  Standings are
computed on reading from the finished boards' results, exactly (fractions).
"""
from __future__ import annotations

import csv
import io
import secrets
from fractions import Fraction
from itertools import combinations

from adjudicator import scoring

from ..core import keys
from ..core import audit, versions
from ..core.errors import Conflict, Invalid, NotFound
from ..core.machine import GameStatus
from ..core.outcome import JobOutcome
from ..core.records import Board, GameRecord, TournamentPlayer, TournamentRecord
from .viewers import who
from ..core.store import hash_token, iso, new_id, new_token

POWERS = scoring.POWERS
# sane bounds: a round of the largest tournament seats 50 boards (each a game started at once)
MAX_PLAYERS = 350
MAX_ROUNDS = 20
TIE_BREAK = ("players are ranked by total score; equal totals are separated by the best single game score, "
             "then by the total of supply centres held at the end of the counted games; players still equal "
             "share the rank")


def repeats(boards: list[list[str]], met: set[frozenset]) -> int:
    """How many pairs of players seated together in ``boards`` have met before."""
    return sum(frozenset(pair) in met for board in boards for pair in combinations(board, 2))


def draw(players: list[str], met: set[frozenset], starts: int = 20) -> list[list[str]]:
    """Boards of seven with the fewest pairs that have met before (``met``)."""
    rng = secrets.SystemRandom()
    best, best_cost = None, None
    for _ in range(starts):
        order = players[:]
        rng.shuffle(order)
        boards = [order[i:i + 7] for i in range(0, len(order), 7)]

        def cost_in(p, board, without=None):
            return sum(frozenset((p, q)) in met for q in board if q != p and q != without)

        improved = True
        while improved:
            improved = False
            for a_i, b_i in combinations(range(len(boards)), 2):
                a_board, b_board = boards[a_i], boards[b_i]
                for x in range(7):
                    for y in range(7):
                        a, b = a_board[x], b_board[y]
                        before = cost_in(a, a_board) + cost_in(b, b_board)
                        after = cost_in(a, b_board, without=b) + cost_in(b, a_board, without=a)
                        if after < before:
                            a_board[x], b_board[y] = b, a
                            improved = True
        cost = repeats(boards, met)
        if best_cost is None or cost < best_cost:
            best, best_cost = [list(b) for b in boards], cost
        if cost == 0:
            break
    return best


class Tournaments:
    table = "tournament"

    def __init__(self, games):
        self.games = games
        self.store = games.store
        self.r = games.r

    def what(self, tid: str) -> str:
        return f"tournament '{tid}'"

    def _record(self, tid: str) -> TournamentRecord:
        return self.store.record(self.r, TournamentRecord, keys.tournament(tid), self.what(tid))

    def director_record(self, tid: str, token: str | None) -> TournamentRecord:
        t = self._record(tid)
        who(self.r, self.table, tid, token).director()
        return t

    def audit_writes(self, pipe, tid: str, action: str, detail: dict) -> None:
        audit.record(pipe, self.table, tid, self.store.now(), action, detail)

    # ------------------------------------------------------------ creating
    def create(self, spec: dict) -> tuple[dict, str]:
        if spec["system"] not in scoring.SYSTEMS:
            raise Invalid(f"body.system: unknown scoring system '{spec['system']}'; one of {', '.join(scoring.SYSTEMS)}",
                          errors={"system": [f"one of {list(scoring.SYSTEMS)}"]})
        aggregate = spec["aggregate"]
        if aggregate["method"] == "best" and not 1 <= aggregate.get("n", 0) <= spec["rounds"]:
            raise Invalid(f"body.aggregate.n: best N needs 1 <= N <= rounds ({spec['rounds']})")
        tid, token = new_id(), new_token()
        with self.r.pipeline(transaction=True) as pipe:
            pipe.hset(keys.tournament(tid), mapping=TournamentRecord(
                id=tid, name=spec.get("name", ""), system=spec["system"],
                aggregate={"method": aggregate["method"], "n": aggregate.get("n")},
                rounds=spec["rounds"], director=hash_token(token), created_at=self.store.now()).save())
            for i, name in enumerate(spec.get("players", []), 1):
                pipe.hset(keys.tournament_players(tid), f"t{i}", TournamentPlayer(f"t{i}", name).dumps())
            self._keep(pipe, tid, self.store.settings.game_ttl_forming)  # abandoned unless it goes on
            pipe.execute()
        return self.view(tid), token

    def add_player(self, tid: str, token: str | None, name: str) -> dict:
        def body(pipe):
            self.store.record(pipe, TournamentRecord, keys.tournament(tid), self.what(tid))  # 404, watched
            who(self.r, self.table, tid, token).director()
            count = pipe.hlen(keys.tournament_players(tid))
            if count >= MAX_PLAYERS:
                raise Conflict(f"{self.what(tid)} has {MAX_PLAYERS} players, the most a tournament takes")
            pid = f"t{count + 1}"
            player = TournamentPlayer(pid, name)
            boards = pipe.hlen(keys.tournament_boards(tid))
            pipe.multi()
            pipe.hset(keys.tournament_players(tid), pid, player.dumps())
            self.audit_writes(pipe, tid, "player_added", player.as_dict())
            if not boards:  # still forming: kept as long again
                self._keep(pipe, tid, self.store.settings.game_ttl_forming)
            return player.as_dict()

        return self.store.transact([keys.tournament(tid), keys.tournament_players(tid)], body)

    # ------------------------------------------------------------ expiry, like a game's
    @staticmethod
    def _keep(pipe, tid: str, seconds: int | None) -> None:
        """Queue: the tournament's keys expire in ``seconds`` (None: kept)."""
        for key in keys.tournament_keys(tid):
            pipe.persist(key) if seconds is None else pipe.expire(key, seconds)

    def expire_when_over(self, tid: str) -> JobOutcome:
        """Once every board of ``tid`` has ended, the tournament and its boards expire in
        ``GAME_TTL_FINISHED`` seconds, as a finished game does (the job each board's end queues)."""
        boards = list(self.r.hkeys(keys.tournament_boards(tid)))
        statuses = [self.r.hget(keys.game(gid), "status") for gid in boards]
        if not boards or any(s not in (GameStatus.FINISHED, None) for s in statuses):
            return JobOutcome.noop("a board is still in play")
        seconds = self.store.settings.game_ttl_finished
        with self.r.pipeline(transaction=True) as pipe:
            for gid, status in zip(boards, statuses):
                if status is not None:
                    self.games.core.keep(pipe, gid, seconds)
            self._keep(pipe, tid, seconds)
            pipe.execute()
        return JobOutcome.did(f"tournament and {len(boards)} boards expire in {seconds} s")

    # ------------------------------------------------------------ reading
    def _players(self, tid: str) -> dict[str, TournamentPlayer]:
        return {p.id: p for p in TournamentPlayer.loads_all(self.r.hvals(keys.tournament_players(tid)))}

    def _boards(self, tid: str) -> list[Board]:
        return sorted(Board.loads_all(self.r.hvals(keys.tournament_boards(tid))), key=lambda b: (b.round, b.board))

    def view(self, tid: str) -> dict:
        t = self._record(tid)
        players = [p.as_dict() for p in sorted(self._players(tid).values(), key=lambda p: int(p.id[1:]))]
        return {"id": tid, "name": t.name, "system": t.system, "aggregate": t.aggregate,
                "rounds": t.rounds, "tie_break": TIE_BREAK, "created_at": iso(t.created_at),
                "players": players,
                "boards": [{**b.as_dict(), "status": self.r.hget(keys.game(b.game), "status")}
                           for b in self._boards(tid)]}

    def audit(self, tid: str, token: str | None) -> list[dict]:
        self.director_record(tid, token)
        return audit.read(self.r, self.table, tid)

    # ------------------------------------------------------------ boards
    def create_boards(self, tid: str, token: str | None, round_: int, seating, options: dict) -> list[dict]:
        """Create round ``round_``'s boards: ``seating`` is "draw" (every player, or ``options`` aside)
        or a list of boards, each {power: player id}.  Returns each board with its seats' player
        tokens (shown once, for the director to hand out)."""
        t = self.director_record(tid, token)
        if not 1 <= round_ <= t.rounds:
            raise NotFound(f"path round: tournament '{tid}' has rounds 1 to {t.rounds}")
        players = self._players(tid)
        if seating == "draw":
            if not players or len(players) % 7:
                raise Conflict(f"a draw seats every player at boards of seven; tournament '{tid}' has "
                               f"{len(players)} players (add players or seat the boards by hand)")
            met = {frozenset(pair) for b in self._boards(tid) for pair in combinations(b.seats.values(), 2)}
            rng = secrets.SystemRandom()
            boards = []
            for table in draw(sorted(players), met):
                powers = list(POWERS)
                rng.shuffle(powers)
                boards.append(dict(zip(powers, table)))
        else:
            boards = seating
            seen: set[str] = set()
            for i, board in enumerate(boards):
                if sorted(board) != sorted(POWERS):
                    raise Invalid(f"body.seating[{i}]: a board seats each of {', '.join(POWERS)} once")
                for power, pid in board.items():
                    if pid not in players:
                        raise Invalid(f"body.seating[{i}].{power}: '{pid}' is not a player of tournament '{tid}'")
                    if pid in seen:
                        raise Invalid(f"body.seating[{i}].{power}: '{pid}' is seated twice in this round")
                    seen.add(pid)

        # one creation per round: the claim is atomic, and given back if no board was made
        if not self.r.hsetnx(keys.tournament(tid), f"round_{round_}_claimed", 1):
            raise Conflict(f"round {round_} of tournament '{tid}' already has its boards")
        made = []
        try:
            for number, board in enumerate(boards, 1):
                spec = {"variant": "standard", "rules": {}, "deadlines": {}, "assignment": "chosen",
                        "missed_orders": "hold", **options,
                        "name": options.get("name") or f"{t.name or tid}: round {round_}, board {number}"}
                game, _none = self.games.setup.create_game(spec, director=t.director, tournament=tid, round_=round_,
                                                     where="body.game")
                seats = {}
                for power in POWERS:
                    pid = board[power]
                    player, player_token = self.games.setup.join(game["id"], players[pid].name, power)
                    seats[power] = {"player": pid, "name": players[pid].name, "token": player_token}
                record = Board(round_, number, game["id"], {p: s["player"] for p, s in seats.items()})
                with self.r.pipeline(transaction=True) as pipe:
                    pipe.hset(keys.tournament_boards(tid), game["id"], record.dumps())
                    self._keep(pipe, tid, None)  # a board in play: kept until the last board ends
                    self.audit_writes(pipe, tid, "board_created", record.as_dict())
                    versions.stamp(pipe)
                    pipe.execute()
                made.append({**record.as_dict(), "seats": seats})
        except Exception:
            if not made:
                self.r.hdel(keys.tournament(tid), f"round_{round_}_claimed")
            raise
        return made

    # ------------------------------------------------------------ standings
    def standings(self, tid: str) -> dict:
        t = self._record(tid)
        system, aggregate = t.system, t.aggregate
        players = self._players(tid)
        rounds = []
        per_player: dict[str, dict] = {pid: {"rounds": {}, "centers": {}} for pid in players}
        for r in range(1, t.rounds + 1):
            boards = []
            for b in (b for b in self._boards(tid) if b.round == r):
                g = GameRecord.restore(self.r.hgetall(keys.game(b.game)))
                entry = {"board": b.board, "game": b.game, "status": str(g.status), "end": None, "scores": {}}
                if g.status == GameStatus.FINISHED:
                    result = g.result
                    scores = scoring.score(system, result)
                    entry["end"] = result["end"]
                    for power, pid in b.seats.items():
                        entry["scores"][pid] = {"power": power, "score": scoring.as_numbers({0: scores[power]})[0],
                                                "exact": str(scores[power]), "centers": result["centers"][power]}
                        per_player[pid]["rounds"][r] = scores[power]
                        per_player[pid]["centers"][r] = result["centers"][power]
                boards.append(entry)
            rounds.append({"round": r, "boards": boards})
        rows = []
        for pid, p in per_player.items():
            played = sorted(p["rounds"].items(), key=lambda kv: (-kv[1], kv[0]))
            counted = played[:aggregate["n"]] if aggregate["method"] == "best" else played
            total = sum((s for _r, s in counted), Fraction(0))
            best = max((s for _r, s in played), default=Fraction(0))
            centers = sum(p["centers"][r] for r, _s in counted)
            rows.append({"player": pid, "name": players[pid].name, "total": total, "best_game": best,
                         "centers": centers, "counted": sorted(r for r, _s in counted),
                         "rounds": {str(r): p["rounds"].get(r) for r in range(1, t.rounds + 1)}})
        key = lambda row: (row["total"], row["best_game"], row["centers"])  # noqa: E731
        rows.sort(key=lambda row: (key(row), -int(row["player"][1:])), reverse=True)
        for i, row in enumerate(rows):
            row["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(row) else i + 1
        number = lambda f: None if f is None else scoring.as_numbers({0: f})[0]  # noqa: E731
        table = [{"rank": row["rank"], "player": row["player"], "name": row["name"], "total": number(row["total"]),
                  "total_exact": str(row["total"]), "best_game": number(row["best_game"]),
                  "centers": row["centers"], "counted_rounds": row["counted"],
                  "rounds": {r: number(s) for r, s in row["rounds"].items()}} for row in rows]
        return {"tournament": tid, "name": t.name, "system": system, "aggregate": aggregate,
                "tie_break": TIE_BREAK, "complete": all(b["status"] == "finished" for rd in rounds for b in rd["boards"]),
                "rounds": rounds, "standings": table}

    def standings_csv(self, tid: str) -> str:
        found = self.standings(tid)
        rounds = [str(rd["round"]) for rd in found["rounds"]]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "player", "name", "total", "total_exact", *[f"round_{r}" for r in rounds],
                         "best_game", "centers"])
        for row in found["standings"]:
            writer.writerow([row["rank"], _cell(row["player"]), _cell(row["name"]), row["total"], row["total_exact"],
                             *["" if row["rounds"][r] is None else row["rounds"][r] for r in rounds],
                             _cell(row["best_game"]), row["centers"]])
        return out.getvalue()


def _cell(text):
    """A text cell a spreadsheet shows as text: one that starts like a formula gets the usual prefix
    quote (OWASP's CSV injection advice), so a player named "=HYPERLINK(...)" is only a name."""
    return f"'{text}" if isinstance(text, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
