"""Deadlines taken together: several transactions in one WATCH and one MULTI/EXEC
(``Store.transact_together``), and a batch of games' deadlines taken that way
(``Phases.on_deadlines``): every phase committed once, whatever is left out taken alone."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.service.gamekit import LONG, SOLO_START, created_game, new_game
from workers.core import keys
from workers.core.store import ALONE, new_id
from workers.runtime import jobs

FRANCE = ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]


@pytest.fixture
def store(inproc):
    return inproc.store


def writer(key: str, value: str, reads_first: str | None = None):
    """A body that reads ``reads_first`` (if given) and sets field ``v`` of hash ``key`` to ``value``."""
    def body(pipe):
        seen = pipe.hgetall(reads_first) if reads_first else None
        pipe.multi()
        pipe.hset(key, "v", value)
        return seen
    return body


def test_transactions_taken_together_commit_together(store):
    a, b = f"test:together:{new_id()}", f"test:together:{new_id()}"
    store.r.hset(a, "v", "before")
    found = store.transact_together([([a], [("hgetall", a)], writer(a, "1", reads_first=a)),
                                     ([b], [("hgetall", b)], writer(b, "2", reads_first=b))])
    assert found == [{"v": "before"}, {}]  # each read as it was before the EXEC
    assert store.r.hget(a, "v") == "1" and store.r.hget(b, "v") == "2"


def test_a_body_reading_what_was_not_read_ahead_is_left_out_and_writes_nothing(store):
    a, b, elsewhere = (f"test:together:{new_id()}" for _ in range(3))

    def reads_late(pipe):
        pipe.multi()
        pipe.hset(b, "v", "half")
        pipe.hgetall(elsewhere)  # not read ahead: this body cannot be taken with the others
        return "unreachable"

    found = store.transact_together([([a], [("hgetall", a)], writer(a, "1")), ([b], [], reads_late)])
    assert found[0] is None and found[1] is ALONE
    assert store.r.hget(a, "v") == "1" and not store.r.exists(b)


def test_a_watched_key_changed_before_the_exec_commits_none_of_them(store):
    a, b = f"test:together:{new_id()}", f"test:together:{new_id()}"

    def raced(pipe):
        store.r.hset(b, "v", "another client")  # a change between the WATCH and the EXEC
        pipe.multi()
        pipe.hset(b, "v", "2")

    found = store.transact_together([([a], [], writer(a, "1")), ([b], [], raced)])
    assert found == [ALONE, ALONE]
    assert not store.r.exists(a) and store.r.hget(b, "v") == "another client"


def shared_deadline(inproc, games) -> int:
    """Move every game's deadline to the same second, a minute from now; returns it."""
    deadline = int(inproc.clock()) + 60
    when = datetime.fromtimestamp(deadline, timezone.utc).isoformat()
    for game in games:
        assert game.director_action("extend", json={"deadline": when}).status_code == 200
    return deadline


def test_a_batch_of_due_games_is_adjudicated_once_however_often_it_runs(api, inproc):
    """Games due together, one of them ending (its end reads what is not read ahead: taken alone) and
    one whose deadline moved (superseded): every phase committed once, with its orders; the batch
    run again does nothing."""
    short = {**LONG, "first_movement": 30}  # then moved later, to one second for all
    games = [new_game(api, deadlines=short) for _ in range(4)]
    solo = api.post("/v1/games", json={"assignment": "chosen", "deadlines": short, "start": SOLO_START})
    ending = created_game(api, solo.json())
    deadline = shared_deadline(inproc, [*games, ending])
    for game in games:
        assert game.submit("FRANCE", FRANCE).status_code == 200
    assert ending.submit("FRANCE", ["A PIE - VEN"]).status_code == 200
    moved = games.pop()
    assert moved.director_action("extend", json={"seconds": 600}).status_code == 200
    due = [(g.id, 1, deadline) for g in [*games, moved, ending]]
    phases = jobs.runtime().games.phases
    with inproc.holding():  # no job runs: this test takes the batch itself
        inproc.advance(61)
        jobs.runtime().store.count_attempts([(keys.game(gid), seq, d) for gid, seq, d in due])
        first = phases.on_deadlines(due)
        left = [phases.on_deadline(*d) for d, outcome in zip(due, first) if outcome is None]
        again = phases.on_deadlines(due)
    assert [o.done for o in first[:3]] == [True] * 3 and not first[3].done  # the moved one: superseded
    assert first[4] is None and [o.done for o in left] == [True]  # the ending one, taken alone
    assert all(o is not None and not o.done for o in again)
    for game in games:
        [record] = game.history()
        assert record["orders"] == {"FRANCE": FRANCE} and record["attempts"] == 1
        assert record["closed_by"] == "deadline" and game.state()["phase"] == "F1901M"
    assert moved.history() == [] and moved.state()["phase"] == "S1901M"
    assert ending.state()["status"] == "finished" and len(ending.history()) == 1
