"""A tournament of two rounds of two boards over HTTP, each board ended a different way (draw vote,
concession, solo from a set position, year limit); standings checked against the spec's formulas."""
from __future__ import annotations

import csv
import io
from fractions import Fraction
from itertools import combinations

from tests.service.gamekit import LONG, POWERS, SOLO_START, Game, finished, propose, vote

PLAYERS = [f"Player {i}" for i in range(1, 15)]


def sum_of_squares(result: dict) -> dict[str, Fraction]:
    """tournament-scoring.md §5.2, with a concession scored as a solo by that power (§2.5)."""
    winner = result.get("conceded_to") or (next((p for p, c in result["centers"].items() if c >= 18), None)
                                          if result["end"] == "solo" else None)
    if winner:
        return {p: Fraction(100 if p == winner else 0) for p in POWERS}
    total = sum(c * c for c in result["centers"].values())
    return {p: Fraction(100 * c * c, total) for p, c in result["centers"].items()}


def board_game(api, board: dict, director: str) -> Game:
    return Game(api, board["game"], director, {p: s["token"] for p, s in board["seats"].items()})


def everyone_votes(game: Game, proposer: str, kind: str, **terms) -> None:
    proposal = propose(game, proposer, kind, **terms).json()
    for power in POWERS:
        if power != proposer:
            vote(game, proposal["id"], power, "yes")


def test_two_rounds_of_two_boards_and_the_standings(api):
    made = api.post("/v1/tournaments", json={"name": "Test Cup", "system": "sum_of_squares", "rounds": 2,
                                             "aggregate": {"method": "sum"}, "players": PLAYERS[:13]})
    assert made.status_code == 201, made.text
    tid, director = made.json()["tournament"]["id"], made.json()["director_token"]
    path = f"/v1/tournaments/{tid}"
    assert api.post(f"{path}/players", json={"name": PLAYERS[13]}).status_code == 401
    assert api.post(f"{path}/players", json={"name": PLAYERS[13]}, token="x" * 32).status_code == 401
    assert api.post(f"{path}/players", json={"name": PLAYERS[13]}, token=director).json()["id"] == "t14"

    # round 1: seated by the director
    seating = [dict(zip(POWERS, [f"t{i}" for i in range(1, 8)])), dict(zip(POWERS, [f"t{i}" for i in range(8, 15)]))]
    r1 = api.post(f"{path}/rounds/1/boards", json={"seating": seating, "game": {"deadlines": LONG}}, token=director)
    assert r1.status_code == 201, r1.text
    draw_board, concession_board = (board_game(api, b, director) for b in r1.json()["boards"])
    assert api.post(f"{path}/rounds/1/boards", json={"seating": "draw"}, token=director).status_code == 409
    assert draw_board.state()["status"] == "open" and draw_board.state()["tournament"] == tid
    everyone_votes(draw_board, "ITALY", "draw")
    everyone_votes(concession_board, "ENGLAND", "concession", to="RUSSIA")

    # round 2: drawn, so that as few pairs as possible meet again; a set position on both boards
    r2 = api.post(f"{path}/rounds/2/boards", json={"seating": "draw", "game": {
        "deadlines": LONG, "start": SOLO_START, "last_year": 1905}}, token=director)
    assert r2.status_code == 201, r2.text
    met = {frozenset(p) for board in seating for p in combinations(board.values(), 2)}
    again = sum(frozenset((a["player"], b["player"])) in met for board in r2.json()["boards"]
                for a, b in combinations(board["seats"].values(), 2))
    assert again == 18  # 14 players at two boards after two boards of seven: 2 x (C(4,2) + C(3,2)) at least
    solo_board, limit_board = (board_game(api, b, director) for b in r2.json()["boards"])
    solo_board.submit("FRANCE", ["A PIE - VEN"])
    solo_board.director_action("adjudicate")
    limit_board.director_action("adjudicate")  # F1905M, the last year's Fall
    limit_board.wait_phase("W1905A")
    limit_board.director_action("adjudicate")  # its winter adjustments (nobody builds): the end
    ends = {g.id: finished(g)["ended_by"] for g in (draw_board, concession_board, solo_board, limit_board)}
    assert list(ends.values()) == ["vote", "vote", "solo", "last_year"]

    # the standings, recomputed from each board's result with the spec's formula
    standings = api.get(f"{path}/standings").json()  # anyone reads them
    assert standings["complete"] and "best single game" in standings["tie_break"]
    expected_rounds: dict[str, dict[int, Fraction]] = {f"t{i}": {} for i in range(1, 15)}
    centres: dict[str, int] = {f"t{i}": 0 for i in range(1, 15)}
    for rnd, boards in ((1, r1.json()["boards"]), (2, r2.json()["boards"])):
        for board in boards:
            result = api.get(f"/v1/games/{board['game']}/result").json()["result"]
            scores = sum_of_squares(result)
            for power, seat in board["seats"].items():
                expected_rounds[seat["player"]][rnd] = scores[power]
                centres[seat["player"]] += result["centers"][power]
    ends_seen = [b["end"] for rd in standings["rounds"] for b in rd["boards"]]
    assert ends_seen == ["draw", "concession", "solo", "timeout"]
    totals = {pid: sum(r.values()) for pid, r in expected_rounds.items()}
    key = {pid: (totals[pid], max(expected_rounds[pid].values()), centres[pid]) for pid in totals}
    for row in standings["standings"]:
        pid = row["player"]
        assert row["total_exact"] == str(totals[pid]) and abs(row["total"] - float(totals[pid])) < 1e-9
        assert all(abs(row["rounds"][str(r)] - float(v)) < 1e-9 for r, v in expected_rounds[pid].items())
        assert row["rank"] == 1 + sum(k > key[pid] for k in key.values())
    order = [row["player"] for row in standings["standings"]]
    assert [key[p] for p in order] == sorted(key.values(), reverse=True)

    # CSV export: the same table
    resp = api.get(f"{path}/standings.csv")
    assert resp.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(resp.text)))
    assert [(r["rank"], r["player"], r["total_exact"]) for r in rows] == \
        [(str(s["rank"]), s["player"], s["total_exact"]) for s in standings["standings"]]
    audit = api.get(f"{path}/audit", token=director).json()["entries"]
    assert [a["action"] for a in audit].count("board_created") == 4
    assert api.get(f"{path}/audit").status_code == 401


def test_best_n_counts_only_the_best_rounds(api):
    made = api.post("/v1/tournaments", json={"system": "dss", "rounds": 2, "aggregate": {"method": "best", "n": 1},
                                             "players": PLAYERS[:7]}).json()
    tid, director = made["tournament"]["id"], made["director_token"]
    seat = [dict(zip(POWERS, [f"t{i}" for i in range(1, 8)]))]
    for rnd, options in ((1, {"deadlines": LONG}), (2, {"deadlines": LONG, "start": SOLO_START})):
        board = api.post(f"/v1/tournaments/{tid}/rounds/{rnd}/boards", json={"seating": seat, "game": options},
                         token=director).json()["boards"][0]
        assert api.post(f"/v1/games/{board['game']}/end", json={"reason": "time"}, token=director).status_code == 200
    rows = {r["player"]: r for r in api.get(f"/v1/tournaments/{tid}/standings").json()["standings"]}
    # round 1: 7 survivors share 100; round 2 (timeout, 5 survivors): 20 each, ENGLAND and GERMANY 0
    assert rows["t1"]["rounds"] == {"1": 100 / 7, "2": 20} and rows["t1"]["total"] == 20
    assert rows["t2"]["total_exact"] == "100/7" and rows["t2"]["counted_rounds"] == [1]
    assert api.post("/v1/tournaments", json={"system": "nope", "rounds": 1}).status_code == 422
    assert api.post("/v1/tournaments", json={"system": "dss", "rounds": 1,
                                             "aggregate": {"method": "best", "n": 3}}).status_code == 422
