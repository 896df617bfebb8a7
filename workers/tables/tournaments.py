"""Tournaments: a director's rounds of boards (service games), seating, byes, and standings.

A tournament has a scoring system (one of ``adjudicator.scoring.SYSTEMS``),
an aggregation of round scores (``sum`` of every round, or the ``best`` N),
a number of rounds and a bye score.  Its boards are standard games created
in a round with the tournament's director token as their director; the
director seats the players or has them drawn so that no two meet twice where
possible (fewest repeated pairs, by local search from random starts).  The
players a draw leaves over (not a multiple of seven) sit out with a bye, those
with the fewest byes so far first; withdrawn players get no new board.  Where
the tournament asks for power preferences, each board's powers go to its
players so that the sum of the ranks of the powers given is least.  Standings
are computed on reading from the finished boards' results, exactly
(fractions), with two-decimal figures for reading (docs/tournaments.md).
"""
from __future__ import annotations

import csv
import io
import secrets
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

from adjudicator import scoring
from adjudicator.scoring import rounded

from ..core import keys, sessions
from ..core import audit, versions
from ..delivery import mail
from ..core.errors import Conflict, Invalid, NotFound
from ..core.machine import GameStatus
from ..core.outcome import JobOutcome
from ..core.records import Board, GameRecord, PlayerRecord, TournamentPlayer, TournamentRecord
from . import results
from .viewers import who
from ..core.store import hash_token, iso, new_id, new_token

POWERS = scoring.POWERS
# sane bounds: a round of the largest tournament seats 50 boards (each a game started at once)
MAX_PLAYERS = 350
MAX_ROUNDS = 20
TIE_BREAK = ("players are ranked by total score; equal totals are separated by the best single game score, "
             "then by the total of supply centres held at the end of the counted games; players still equal "
             "share the rank")
BYE_SCORES = ("average", "fixed", "zero")  # the round's average seat score, a set value, nothing
DEFAULT_BYE = {"score": "average"}
BEST_COUNTRY = ("the best score earned with the power on a finished board under the tournament's system; "
                "equal scores are separated by the centres held at the end; players still equal share the award")


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


SEATINGS = list(permutations(range(len(POWERS))))  # every way to give a board's powers to its seven players


def assign_powers(table: list[str], preferences: dict[str, list], rng) -> dict[str, str]:
    """{power: player} for one board: the least sum of the ranks of the powers given (0 for a player's
    first choice; a power a player did not list ranks after every listed one; no list: all equal),
    one of the best assignments drawn at random."""
    def rank(pid, power):
        order = preferences.get(pid) or []
        return order.index(power) if power in order else len(order)

    ranks = [[rank(pid, power) for power in POWERS] for pid in table]
    totals = [sum(map(list.__getitem__, ranks, seating)) for seating in SEATINGS]
    least = min(totals)
    seating = rng.choice([s for s, total in zip(SEATINGS, totals) if total == least])
    return {POWERS[i]: pid for i, pid in zip(seating, table)}


def number(value: Fraction | None):
    return None if value is None else scoring.as_numbers({0: value})[0]


def figures(value: Fraction | None) -> dict:
    """A score three ways: a JSON number, the exact fraction, and two decimals for reading."""
    return {"score": number(value), "exact": None if value is None else str(value), "rounded": rounded(value)}


class Tournaments:
    table = "tournament"

    def __init__(self, games):
        self.games = games
        self.store = games.store
        self.r = games.r

    def what(self, tid: str) -> str:
        return f"tournament '{tid}'"

    def _record(self, tid: str, reader=None) -> TournamentRecord:
        return self.store.record(reader or self.r, TournamentRecord, keys.tournament(tid), self.what(tid))

    def director_record(self, tid: str, token: str | None) -> TournamentRecord:
        t = self._record(tid)
        who(self.r, self.table, tid, token).director()
        return t

    def audit_writes(self, pipe, tid: str, action: str, detail: dict) -> None:
        audit.record(pipe, self.table, tid, self.store.now(), action, detail)

    def _change(self, tid: str, token: str | None, watch: list[str], body):
        """``body(pipe, t)`` in a transaction watching the tournament and ``watch``, for its director."""
        def run(pipe):
            t = self._record(tid, pipe)  # 404, watched
            who(self.r, self.table, tid, token).director()
            return body(pipe, t)

        return self.store.transact([keys.tournament(tid), *watch], run)

    # ------------------------------------------------------------ creating, settings
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
                rounds=spec["rounds"], director=hash_token(token), created_at=self.store.now(),
                bye_score=spec.get("bye_score", DEFAULT_BYE), preferences=spec.get("preferences", False)).save())
            sessions.issued(pipe, sessions.Place("tournament", tid), hash_token(token))
            for i, name in enumerate(spec.get("players", []), 1):
                pipe.hset(keys.tournament_players(tid), f"t{i}", TournamentPlayer(f"t{i}", name).dumps())
            self._keep(pipe, tid, self.store.settings.game_ttl_forming)  # abandoned unless it goes on
            pipe.execute()
        return self.view(tid), token

    def change(self, tid: str, token: str | None, changes: dict) -> dict:
        """The director changes the bye score or whether the draw asks for power preferences."""
        def body(pipe, t):
            pipe.multi()
            pipe.hset(keys.tournament(tid), mapping=TournamentRecord.encode(**changes))
            self.audit_writes(pipe, tid, "settings_changed", changes)

        self._change(tid, token, [], body)
        return self.view(tid)

    def set_round_end(self, tid: str, token: str | None, round_: int, ends_at: float | None) -> dict:
        """The round clock: when the director says round ``round_`` ends (None: no time set).  It is
        shown, not enforced: boards end by their own last year, or by the director."""
        def body(pipe, t):
            self._round_in(t, round_)
            ends = {r: at for r, at in t.round_ends.items() if r != str(round_)}
            if ends_at is not None:
                ends[str(round_)] = ends_at
            pipe.multi()
            pipe.hset(keys.tournament(tid), mapping=TournamentRecord.encode(round_ends=ends))
            self.audit_writes(pipe, tid, "round_clock", {"round": round_, "ends_at": iso(ends_at)})

        self._change(tid, token, [], body)
        return {"round": round_, "ends_at": iso(ends_at)}

    @staticmethod
    def _round_in(t: TournamentRecord, round_: int) -> None:
        if not 1 <= round_ <= t.rounds:
            raise NotFound(f"path round: tournament '{t.id}' has rounds 1 to {t.rounds}")

    # ------------------------------------------------------------ players
    def add_player(self, tid: str, token: str | None, name: str, email: str | None = None,
                   preferences: list | None = None) -> dict:
        def body(pipe, t):
            self._check_preferences(t, preferences)
            count = pipe.hlen(keys.tournament_players(tid))
            if count >= MAX_PLAYERS:
                raise Conflict(f"{self.what(tid)} has {MAX_PLAYERS} players, the most a tournament takes")
            player = TournamentPlayer(f"t{count + 1}", name, email or None, preferences or None)
            boards = pipe.hlen(keys.tournament_boards(tid))
            pipe.multi()
            pipe.hset(keys.tournament_players(tid), player.id, player.dumps())
            self.audit_writes(pipe, tid, "player_added", {"id": player.id, "name": name})
            if not boards:  # still forming: kept as long again
                self._keep(pipe, tid, self.store.settings.game_ttl_forming)
            return self._director_player(player, t)

        return self._change(tid, token, [keys.tournament_players(tid)], body)

    def change_player(self, tid: str, token: str | None, pid: str, changes: dict) -> dict:
        """The director sets a player's address or power preferences (None: none)."""
        def body(pipe, t):
            player = self._player(pipe, tid, pid)
            if "preferences" in changes:
                self._check_preferences(t, changes["preferences"])
            changed = player.changed(**{k: v or None for k, v in changes.items()})
            pipe.multi()
            pipe.hset(keys.tournament_players(tid), pid, changed.dumps())
            self.audit_writes(pipe, tid, "player_changed", {"id": pid, "changed": sorted(changes)})
            return self._director_player(changed, t)

        return self._change(tid, token, [keys.tournament_players(tid)], body)

    def withdraw(self, tid: str, token: str | None, pid: str, reason: str) -> dict:
        """The player keeps the scores earned and gets no new board (nor bye); a board in play goes on:
        the director may open its seat (POST /v1/games/{g}/seats/{power}/open)."""
        def body(pipe, t):
            player = self._player(pipe, tid, pid)
            if player.withdrawn_at is not None:
                raise Conflict(f"player '{pid}' of {self.what(tid)} has already withdrawn")
            changed = player.changed(withdrawn_at=self.store.now())
            pipe.multi()
            pipe.hset(keys.tournament_players(tid), pid, changed.dumps())
            self.audit_writes(pipe, tid, "player_withdrawn", {"id": pid, "name": player.name, "reason": reason})
            return self._director_player(changed, t)

        return self._change(tid, token, [keys.tournament_players(tid)], body)

    def players(self, tid: str, token: str | None) -> list[dict]:
        """Every player as the director sees them: address, preferences, byes so far."""
        t = self.director_record(tid, token)
        return [self._director_player(p, t) for p in self._sorted_players(tid)]

    def _player(self, reader, tid: str, pid: str) -> TournamentPlayer:
        raw = reader.hget(keys.tournament_players(tid), pid)
        if raw is None:
            raise NotFound(f"there is no player '{pid}' in {self.what(tid)}")
        return TournamentPlayer.loads(raw)

    @staticmethod
    def _check_preferences(t: TournamentRecord, preferences: list | None) -> None:
        if preferences and not t.preferences:
            raise Conflict(f"tournament '{t.id}' does not ask for power preferences "
                           "(PATCH /v1/tournaments/{id} with \"preferences\": true first)")

    @staticmethod
    def _public_player(p: TournamentPlayer) -> dict:
        return {"id": p.id, "name": p.name, "withdrawn": p.withdrawn_at is not None,
                **({"withdrawn_at": iso(p.withdrawn_at)} if p.withdrawn_at is not None else {})}

    def _director_player(self, p: TournamentPlayer, t: TournamentRecord) -> dict:
        byes = sorted(int(r) for r, ids in t.byes.items() if p.id in ids)
        return {**self._public_player(p), "email": p.email, "preferences": p.preferences or [], "byes": byes}

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

    def _sorted_players(self, tid: str) -> list[TournamentPlayer]:
        return sorted(self._players(tid).values(), key=lambda p: int(p.id[1:]))

    def _boards(self, tid: str) -> list[Board]:
        return sorted(Board.loads_all(self.r.hvals(keys.tournament_boards(tid))), key=lambda b: (b.round, b.board))

    def view(self, tid: str) -> dict:
        t = self._record(tid)
        return {"id": tid, "name": t.name, "system": t.system, "aggregate": t.aggregate,
                "rounds": t.rounds, "tie_break": TIE_BREAK, "created_at": iso(t.created_at),
                "bye_score": t.bye_score or DEFAULT_BYE, "preferences": t.preferences,
                "round_ends": {r: iso(at) for r, at in sorted(t.round_ends.items(), key=lambda kv: int(kv[0]))},
                "byes": {r: ids for r, ids in sorted(t.byes.items(), key=lambda kv: int(kv[0]))},
                "players": [self._public_player(p) for p in self._sorted_players(tid)],
                "boards": [{**b.as_dict(), "status": self.r.hget(keys.game(b.game), "status")}
                           for b in self._boards(tid)]}

    def audit(self, tid: str, token: str | None) -> list[dict]:
        self.director_record(tid, token)
        return audit.read(self.r, self.table, tid)

    # ------------------------------------------------------------ boards
    def create_boards(self, tid: str, token: str | None, round_: int, seating, options: dict) -> dict:
        """Create round ``round_``'s boards: ``seating`` is "draw" (every player still in, at boards of
        seven, the players left over sitting out with a bye) or a list of boards, each {power: player
        id} (the players still in left out of them sit out with a bye).  Returns each board with its
        seats' player tokens (shown once, for the director to hand out), the slips (each player's
        board, power and token) and the byes; a player with an address is mailed the slip."""
        t = self.director_record(tid, token)
        self._round_in(t, round_)
        players = self._players(tid)
        active = sorted(pid for pid, p in players.items() if p.withdrawn_at is None)
        rng = secrets.SystemRandom()
        if seating == "draw":
            if len(active) < 7:
                raise Conflict(f"a draw seats players at boards of seven; tournament '{tid}' has "
                               f"{len(active)} players still in (add players or seat the boards by hand)")
            so_far = Counter(pid for ids in t.byes.values() for pid in ids)
            sitting_out = sorted(active, key=lambda pid: (so_far[pid], rng.random()))[:len(active) % 7]
            met = {frozenset(pair) for b in self._boards(tid) for pair in combinations(b.seats.values(), 2)}
            wanted = {pid: players[pid].preferences for pid in active} if t.preferences else {}
            boards = [assign_powers(table, wanted, rng)
                      for table in draw([p for p in active if p not in sitting_out], met)]
        else:
            boards = seating
            seen: set[str] = set()
            for i, board in enumerate(boards):
                if sorted(board) != sorted(POWERS):
                    raise Invalid(f"body.seating[{i}]: a board seats each of {', '.join(POWERS)} once")
                for power, pid in board.items():
                    if pid not in players:
                        raise Invalid(f"body.seating[{i}].{power}: '{pid}' is not a player of tournament '{tid}'")
                    if players[pid].withdrawn_at is not None:
                        raise Invalid(f"body.seating[{i}].{power}: '{pid}' has withdrawn from tournament '{tid}'")
                    if pid in seen:
                        raise Invalid(f"body.seating[{i}].{power}: '{pid}' is seated twice in this round")
                    seen.add(pid)
            sitting_out = [pid for pid in active if pid not in seen]

        self._claim(tid, round_, sitting_out)  # one creation per round, given back if no board was made
        made = []
        try:
            for number_, board in enumerate(boards, 1):
                made.append(self._make_board(t, round_, number_, board, players, options, token))
        except Exception:
            if not made:
                self._unclaim(tid, round_)
            raise
        if sitting_out:
            with self.r.pipeline(transaction=True) as pipe:
                pipe.multi()
                for pid in sitting_out:
                    if players[pid].email:
                        mail.tournament_slip(self.store, pipe, players[pid].email, self._slip_about(t, round_),
                                             {"player": pid, "name": players[pid].name})
                pipe.execute()
        byes = [{"player": pid, "name": players[pid].name} for pid in sitting_out]
        slips = sorted(({"player": s["player"], "name": s["name"], "board": b["board"], "game": b["game"],
                         "power": power, "token": s["token"], "signin": s["signin"]}
                        for b in made for power, s in b["seats"].items()),
                       key=lambda s: (s["name"].casefold(), s["player"]))
        return {"boards": made, "byes": byes, "slips": slips}

    def _make_board(self, t: TournamentRecord, round_: int, number_: int, board: dict, players: dict,
                    options: dict, token: str | None) -> dict:
        tid = t.id
        spec = {"variant": "standard", "rules": {}, "deadlines": {}, "assignment": "chosen",
                "missed_orders": "hold", **options,
                "name": options.get("name") or f"{t.name or tid}: round {round_}, board {number_}"}
        game, _none = self.games.setup.create_game(spec, director=t.director, tournament=tid, round_=round_,
                                                   where="body.game")
        seats = {}
        for power in POWERS:
            pid = board[power]
            # a player with an address gets the board's mail (start, results, the end); the slip is the welcome
            _player, player_token = self.games.setup.join(game["id"], players[pid].name, power, players[pid].email,
                                                          sent=token, welcome=False)
            seats[power] = {"player": pid, "name": players[pid].name, "token": player_token}
        record = Board(round_, number_, game["id"], {p: s["player"] for p, s in seats.items()})
        with self.r.pipeline(transaction=True) as pipe:
            pipe.multi()  # explicitly: the mail's job joins this transaction
            pipe.hset(keys.tournament_boards(tid), game["id"], record.dumps())
            self._keep(pipe, tid, None)  # a board in play: kept until the last board ends
            self.audit_writes(pipe, tid, "board_created", record.as_dict())
            for seat in seats.values():  # the printed slip's link; the mail has one of its own (each works once)
                seat["signin"] = mail.signin_url(pipe, game["id"], hash_token(seat["token"]))
            for power, seat in seats.items():
                if players[seat["player"]].email:
                    mail.tournament_slip(self.store, pipe, players[seat["player"]].email,
                                         self._slip_about(t, round_),
                                         {**seat, "board": number_, "game": game["id"], "power": power,
                                          "signin": mail.signin_url(pipe, game["id"], hash_token(seat["token"]))})
            versions.stamp(pipe)
            pipe.execute()
        return {**record.as_dict(), "seats": seats}

    @staticmethod
    def _slip_about(t: TournamentRecord, round_: int) -> dict:
        return {"tournament": t.id, "name": t.name, "round": round_, "ends_at": iso(t.round_ends.get(str(round_)))}

    def _claim(self, tid: str, round_: int, sitting_out: list[str]) -> None:
        """Claim round ``round_`` for one creation, with its byes (atomically)."""
        def body(pipe):
            t = self._record(tid, pipe)
            if pipe.hget(keys.tournament(tid), f"round_{round_}_claimed"):
                raise Conflict(f"round {round_} of tournament '{tid}' already has its boards")
            pipe.multi()
            pipe.hset(keys.tournament(tid), mapping={
                f"round_{round_}_claimed": 1, **TournamentRecord.encode(byes={**t.byes, str(round_): sitting_out})})
            if sitting_out:
                self.audit_writes(pipe, tid, "byes", {"round": round_, "players": sitting_out})

        self.store.transact([keys.tournament(tid)], body)

    def _unclaim(self, tid: str, round_: int) -> None:
        def body(pipe):
            t = self._record(tid, pipe)
            pipe.multi()
            pipe.hdel(keys.tournament(tid), f"round_{round_}_claimed")
            pipe.hset(keys.tournament(tid), mapping=TournamentRecord.encode(
                byes={r: ids for r, ids in t.byes.items() if r != str(round_)}))

        self.store.transact([keys.tournament(tid)], body)

    def _board(self, tid: str, gid: str) -> Board:
        raw = self.r.hget(keys.tournament_boards(tid), gid)
        if raw is None:
            raise NotFound(f"game '{gid}' is not a board of tournament '{tid}'")
        return Board.loads(raw)

    def record_result(self, tid: str, token: str | None, gid: str, result: dict, reason: str) -> dict:
        """A face-to-face board's result typed in without playing its phases here: the board's game
        ends as its director ends it (``Director.end_game``, audited there) and the tournament's audit
        says so.  Returns the board as the standings score it."""
        t = self.director_record(tid, token)
        board = self._board(tid, gid)
        self.games.director.end_game(gid, token, reason, result)
        with self.r.pipeline(transaction=True) as pipe:
            self.audit_writes(pipe, tid, "result_recorded", {"round": board.round, "board": board.board,
                                                              "game": gid, "result": result})
            pipe.execute()
        return self._scored(t.system, board)[0]

    def slips(self, tid: str, token: str | None, round_: int) -> dict:
        """The slips of round ``round_``: each player's board, power and a new one-time sign-in link, and
        the players with a bye.  A player token is shown only once, in the answer that made the boards:
        these slips carry none."""
        t = self.director_record(tid, token)
        self._round_in(t, round_)
        players = self._players(tid)
        slips = []
        with self.r.pipeline(transaction=True) as pipe:
            for b in (b for b in self._boards(tid) if b.round == round_):
                links = self._signin_links(pipe, b.game)
                slips += [{"player": pid, "name": players[pid].name, "board": b.board, "game": b.game,
                           "power": power, "signin": links.get(power)} for power, pid in b.seats.items()]
            pipe.execute()
        return {"tournament": tid, "name": t.name, "round": round_,
                "ends_at": iso(t.round_ends.get(str(round_))),
                "slips": sorted(slips, key=lambda s: (s["name"].casefold(), s["player"])),
                "byes": [{"player": pid, "name": players[pid].name} for pid in t.byes.get(str(round_), [])]}

    def _signin_links(self, pipe, gid: str) -> dict[str, str]:
        """Queue a one-time sign-in link for each seat of board ``gid`` still held by its player: power -> link."""
        digests = mail.token_digests(self.r, gid)
        return {power: mail.signin_url(pipe, gid, digests[p.id])
                for p in PlayerRecord.loads_all(self.r.hvals(keys.players(gid))) if p.id in digests
                for power in p.powers}

    # ------------------------------------------------------------ standings
    def _scored(self, system: str, b: Board) -> tuple[dict, dict[str, tuple[str, Fraction, int]]]:
        """Board ``b`` as the standings show it, and each seat's (power, score, centres) once it has ended."""
        g = GameRecord.restore(self.r.hgetall(keys.game(b.game)))
        entry = {"board": b.board, "game": b.game, "status": str(g.status), "end": None, "scores": {}}
        seats = {}
        if g.status == GameStatus.FINISHED:
            result = g.result
            scores = scoring.score(system, results.scored(result))
            entry["end"] = result["end"]
            for power, pid in b.seats.items():
                centers = result["centers"][power]
                seats[pid] = (power, scores[power], centers)
                entry["scores"][pid] = {"power": power, **figures(scores[power]), "centers": centers}
        return entry, seats

    @staticmethod
    def bye_value(bye_score: dict, seat_scores: list[Fraction]) -> Fraction | None:
        """A bye's score in a round whose finished boards gave ``seat_scores`` (None: not known yet)."""
        kind = (bye_score or DEFAULT_BYE)["score"]
        if kind == "zero":
            return Fraction(0)
        if kind == "fixed":
            return Fraction(str(bye_score["value"]))
        return sum(seat_scores, Fraction(0)) / len(seat_scores) if seat_scores else None

    def standings(self, tid: str) -> dict:
        t = self._record(tid)
        system, aggregate = t.system, t.aggregate
        players = self._players(tid)
        boards = self._boards(tid)
        rounds = []
        per_player: dict[str, dict] = {pid: {"rounds": {}, "centers": {}, "games": [], "byes": []} for pid in players}
        by_power: dict[str, list] = {}
        for r in range(1, t.rounds + 1):
            entries, seat_scores = [], []
            for b in (b for b in boards if b.round == r):
                entry, seats = self._scored(system, b)
                entries.append(entry)
                for pid, (power, score, centers) in seats.items():
                    per_player[pid]["rounds"][r] = score
                    per_player[pid]["centers"][r] = centers
                    per_player[pid]["games"].append(score)
                    seat_scores.append(score)
                    by_power.setdefault(power, []).append((score, centers, pid, r, b.board))
            bye = self.bye_value(t.bye_score, seat_scores)
            for pid in t.byes.get(str(r), []):
                per_player[pid]["byes"].append(r)
                if bye is not None:
                    per_player[pid]["rounds"][r] = bye
                    per_player[pid]["centers"][r] = 0
            rounds.append({"round": r, "complete": bool(entries) and all(e["status"] == "finished" for e in entries),
                           "ends_at": iso(t.round_ends.get(str(r))), "boards": entries,
                           "byes": [{"player": pid, "name": players[pid].name} for pid in t.byes.get(str(r), [])],
                           "bye_score": figures(bye)})
        rows, apart = [], []
        for pid, p in per_player.items():
            withdrawn = players[pid].withdrawn_at is not None
            if withdrawn and not p["rounds"] and not p["byes"]:
                apart.append(self._public_player(players[pid]))  # withdrawn before any result: not ranked
                continue
            played = sorted(p["rounds"].items(), key=lambda kv: (-kv[1], kv[0]))
            counted = played[:aggregate["n"]] if aggregate["method"] == "best" else played
            rows.append({"player": pid, "name": players[pid].name, "withdrawn": withdrawn, "byes": p["byes"],
                         "total": sum((s for _r, s in counted), Fraction(0)),
                         "best_game": max(p["games"], default=Fraction(0)),
                         "centers": sum(p["centers"][r] for r, _s in counted),
                         "counted": sorted(r for r, _s in counted),
                         "rounds": {str(r): p["rounds"].get(r) for r in range(1, t.rounds + 1)}})
        key = lambda row: (row["total"], row["best_game"], row["centers"])  # noqa: E731
        rows.sort(key=lambda row: (key(row), -int(row["player"][1:])), reverse=True)
        for i, row in enumerate(rows):
            row["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(row) else i + 1
        table = [{"rank": row["rank"], "player": row["player"], "name": row["name"], "withdrawn": row["withdrawn"],
                  "total": number(row["total"]), "total_exact": str(row["total"]),
                  "total_rounded": rounded(row["total"]),
                  "best_game": number(row["best_game"]), "best_game_rounded": rounded(row["best_game"]),
                  "centers": row["centers"], "counted_rounds": row["counted"], "byes": row["byes"],
                  "rounds": {r: number(s) for r, s in row["rounds"].items()},
                  "rounds_rounded": {r: rounded(s) for r, s in row["rounds"].items()}} for row in rows]
        return {"tournament": tid, "name": t.name, "system": system, "aggregate": aggregate,
                "tie_break": TIE_BREAK, "bye_score": t.bye_score or DEFAULT_BYE,
                "complete": all(rd["complete"] for rd in rounds), "rounds": rounds, "standings": table,
                "withdrawn": apart, "best_country_rule": BEST_COUNTRY,
                "best_countries": self._best_countries(by_power, players)}

    @staticmethod
    def _best_countries(by_power: dict[str, list], players: dict[str, TournamentPlayer]) -> list[dict]:
        """Each power's best result (``BEST_COUNTRY``), for the powers played on a finished board."""
        awards = []
        for power in POWERS:
            if power not in by_power:
                continue
            score, centers = max((s, c) for s, c, *_ in by_power[power])
            awards.append({"power": power, **figures(score), "centers": centers, "holders": [
                {"player": pid, "name": players[pid].name, "round": r, "board": b}
                for s, c, pid, r, b in by_power[power] if (s, c) == (score, centers)]})
        return awards

    def standings_csv(self, tid: str) -> str:
        found = self.standings(tid)
        rounds = [str(rd["round"]) for rd in found["rounds"]]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "player", "name", "total", "total_exact", *[f"round_{r}" for r in rounds],
                         "best_game", "centers", "withdrawn"])
        for row in found["standings"]:
            writer.writerow([row["rank"], _cell(row["player"]), _cell(row["name"]), row["total"], row["total_exact"],
                             *["" if row["rounds"][r] is None else row["rounds"][r] for r in rounds],
                             _cell(row["best_game"]), row["centers"], "yes" if row["withdrawn"] else ""])
        return out.getvalue()


def _cell(text):
    """A text cell a spreadsheet shows as text: one that starts like a formula gets the usual prefix
    quote (OWASP's CSV injection advice), so a player named "=HYPERLINK(...)" is only a name."""
    return f"'{text}" if isinstance(text, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
