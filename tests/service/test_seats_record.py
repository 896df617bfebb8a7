"""The reliability record (docs/seats.md, "The record") through a whole game: misses, a seat
opened by missed orders (civil disorder), a takeover, a player leaving, a rollback over a missed
phase, a worker that dies mid-adjudication and replayed jobs; every count checked at every step."""
from __future__ import annotations

import adjudicator.diplomacy as diplomacy
from tests.service.gamekit import POWERS, Game, finished
from tests.service.test_accounts import new_account
from workers.tables.games import Games

HOUR = 3600
DEADLINES = {"first_movement": HOUR, "movement": HOUR, "retreat": HOUR, "adjustment": HOUR}
ZERO = {"games": 0, "finished": 0, "phases_due": 0, "phases_on_time": 0, "missed": 0, "civil_disorder": 0,
        "left": 0, "replaced": 0, "took_over": 0, "reliability": None}


def record(api, account: dict) -> dict:
    return api.get(f"/v1/accounts/{account['id']}").json()["record"]


def expect(api, account: dict, **counts) -> None:
    due, on_time = counts.get("phases_due", 0), counts.get("phases_on_time", 0)
    want = {**ZERO, **counts, "missed": due - on_time, "reliability": round(on_time / due, 3) if due else None}
    assert record(api, account) == want, account["name"]


def test_the_record_through_a_whole_game(api, inproc, monkeypatch):
    ann, ann_token = new_account(api, "Ann")
    bob, bob_token = new_account(api, "Bob")
    tia, tia_token = new_account(api, "Tia")
    cy, cy_token = new_account(api, "Cy")
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": DEADLINES}).json()
    gid = created["game"]["id"]
    accounts = {"FRANCE": ann_token, "ENGLAND": bob_token, "TURKEY": tia_token}
    tokens = {}
    for power in POWERS:
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power},
                          token=accounts.get(power))
        assert joined.status_code == 201, joined.text
        tokens[power] = joined.json()["token"]
    game = Game(api, gid, created["director_token"], tokens)
    for who in (ann, bob, tia):
        expect(api, who, games=1)

    # S1901M: Ann orders, Bob and Tia miss the deadline; the open phase counts for nobody yet
    assert game.submit("FRANCE", ["A MAR - SPA"]).status_code == 200
    expect(api, ann, games=1)
    inproc.advance(HOUR + 1)
    game.wait_phase("F1901M")
    expect(api, ann, games=1, phases_due=1, phases_on_time=1)
    expect(api, bob, games=1, phases_due=1)
    expect(api, tia, games=1, phases_due=1)

    # F1901M: Bob is back; Tia misses a second movement phase in a row: her seat opens (civil disorder)
    game.submit("FRANCE", ["A SPA H"])
    game.submit("ENGLAND", ["F LON H"])
    inproc.advance(HOUR + 1)
    state = game.wait_phase("W1901A")
    turkey = next(s for s in state["seats"] if s["power"] == "TURKEY")
    assert turkey["open"] is True and turkey["player"] is None and turkey["since"]
    assert "TURKEY" not in [p for player in state["players"] for p in player["powers"]]
    expect(api, ann, games=1, phases_due=2, phases_on_time=2)
    expect(api, bob, games=1, phases_due=2, phases_on_time=1)
    expect(api, tia, games=1, phases_due=2, civil_disorder=1)
    assert api.get(f"{game.path}/orders", token=tokens["TURKEY"]).status_code == 401

    # Cy takes TURKEY over: a new token; Tia's is refused for good
    taken = api.post(f"{game.path}/players", json={"name": "Cy", "power": "TURKEY"}, token=cy_token)
    assert taken.status_code == 201, taken.text
    tokens["TURKEY"] = taken.json()["token"]
    assert api.get(f"{game.path}/orders", token=tokens["TURKEY"]).status_code == 200
    expect(api, cy, games=1, took_over=1)
    expect(api, tia, games=1, phases_due=2, civil_disorder=1, replaced=1)

    # W1901A: France builds but Ann misses it (an adjustment phase: no streak)
    assert game.state()["to_order"] == ["FRANCE"]
    inproc.advance(HOUR + 1)
    game.wait_phase("S1902M")
    expect(api, ann, games=1, phases_due=3, phases_on_time=2)

    # S1902M: Bob leaves; his seat opens and counts for nobody; Ann and Cy order in time
    left = api.post(f"{game.path}/seats/ENGLAND/leave", token=tokens["ENGLAND"])
    assert left.status_code == 200, left.text
    assert api.get(f"{game.path}/orders", token=tokens["ENGLAND"]).status_code == 401
    game.submit("FRANCE", ["A PAR - BUR"])
    game.submit("TURKEY", ["F ANK - BLA"])
    inproc.advance(HOUR + 1)
    game.wait_phase("F1902M")
    expect(api, ann, games=1, phases_due=4, phases_on_time=3)
    expect(api, cy, games=1, took_over=1, phases_due=1, phases_on_time=1)
    expect(api, bob, games=1, phases_due=2, phases_on_time=1, left=1)

    # the director rolls back over Ann's missed W1901A: its counts and S1902M's are taken back
    back = api.post(f"{game.path}/rollback", json={"seq": 3, "reason": "Ann's builds were lost"},
                    token=game.director)
    assert back.status_code == 200 and back.json()["phase"] == "W1901A"
    expect(api, ann, games=1, phases_due=2, phases_on_time=2)
    expect(api, cy, games=1, took_over=1)
    expect(api, bob, games=1, phases_due=2, phases_on_time=1, left=1)  # leaving is no phase's count

    # the W1901A played again: its worker dies mid-adjudication; the retry commits, counted once
    real, crashes = diplomacy.adjudicate, []

    def dies_once(request):  # (other tests' games may come due as the shared clock moves: not theirs)
        if not crashes and request["phase"] == "W1901A" and request["orders"].get("FRANCE"):
            crashes.append(request["phase"])
            raise SystemExit("the worker died mid-adjudication")
        return real(request)

    monkeypatch.setattr(diplomacy, "adjudicate", dies_once)
    game.submit("FRANCE", ["A MAR B"])
    inproc.advance(HOUR + 1)
    state = game.wait_phase("S1902M")
    assert crashes == ["W1901A"] and game.history()[-1]["attempts"] == 2
    expect(api, ann, games=1, phases_due=3, phases_on_time=3)

    # a replayed adjudication job, or deadline job, counts nothing twice
    games = Games(inproc.store)
    seq = game.history()[-1]["seq"]
    assert not games.phases.advance(gid, seq).done
    assert not games.phases.on_deadline(gid, seq, 0).done
    expect(api, ann, games=1, phases_due=3, phases_on_time=3)

    # the end: finished for the accounts holding a seat
    assert api.post(f"{game.path}/end", json={"reason": "time"}, token=game.director).status_code == 200
    finished(game)
    expect(api, ann, games=1, finished=1, phases_due=3, phases_on_time=3)
    expect(api, cy, games=1, finished=1, took_over=1)
    expect(api, tia, games=1, phases_due=2, civil_disorder=1, replaced=1)
    expect(api, bob, games=1, phases_due=2, phases_on_time=1, left=1)


def test_grace_counts_as_on_time_and_a_phase_waited_for_does_not(api, inproc):
    """missed_orders wait with a grace period: orders in the grace period are on time; orders the phase
    then waited for are late, though they close it; a phase closed early finds nobody late."""
    (ann, ann_token), (bob, bob_token) = new_account(api, "In grace"), new_account(api, "Waited for")
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": DEADLINES, "grace": 600,
                                          "missed_orders": "wait", "open_seat_after": None}).json()
    gid = created["game"]["id"]
    tokens = {power: api.post(f"/v1/games/{gid}/players", json={"name": power, "power": power},
                              token={"FRANCE": ann_token, "ENGLAND": bob_token}.get(power)).json()["token"]
              for power in POWERS}
    game = Game(api, gid, created["director_token"], tokens)
    for power in POWERS:
        if power not in ("FRANCE", "ENGLAND"):
            assert game.submit(power, []).status_code == 200
    inproc.advance(HOUR + 1)  # the deadline: the grace period begins for FRANCE and ENGLAND
    assert sorted(game.state()["late"]) == ["ENGLAND", "FRANCE"]
    assert game.submit("FRANCE", ["A PAR H"]).status_code == 200  # within the grace period
    inproc.advance(601)  # the grace period ends: the phase waits for ENGLAND
    assert game.state()["status"] == "open" and game.state()["phase"] == "S1901M"
    assert game.submit("ENGLAND", ["F LON H"]).status_code == 200  # closes it, late
    game.wait_phase("F1901M")
    expect(api, ann, games=1, phases_due=1, phases_on_time=1)
    expect(api, bob, games=1, phases_due=1)
    # F1901M closed early by the director: nobody is late, orders or not
    game.director_action("adjudicate")
    game.wait_phase("S1902M")
    expect(api, ann, games=1, phases_due=2, phases_on_time=2)
    expect(api, bob, games=1, phases_due=2, phases_on_time=1)
