"""The tables' state machines (workers.core.machine): the one way a status changes."""
from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import pytest
import redis

from workers.core import keys
from workers.core.machine import GAME, RESOLUTION, GameStatus, IllegalMove, ResolutionStatus
from workers.core.records import GameRecord, ResolutionRecord, read_json
from workers.core.settings import Settings
from workers.core.store import Store

ROOT = Path(__file__).resolve().parents[2]
TABLE_MODULES = [*sorted((ROOT / "workers" / "tables").rglob("*.py")), ROOT / "workers" / "core" / "clock.py"]
CREATORS = {"create_game", "create"}  # a new record starts in its first status


def test_every_status_of_each_diagram_is_an_enum_member_and_reachable():
    for diagram, statuses, first in ((GAME, GameStatus, GameStatus.FORMING),
                                     (RESOLUTION, ResolutionStatus, ResolutionStatus.OPEN)):
        named = {str(s) for s in statuses}
        assert set(diagram.moves) <= named
        assert all(to <= named for to in diagram.moves.values())
        reached, todo = {str(first)}, [str(first)]
        while todo:
            for to in diagram.moves.get(todo.pop(), ()):
                if to not in reached:
                    reached.add(to)
                    todo.append(to)
        assert reached == named


def _writes_status(call: ast.Call) -> bool:
    """Whether an ``hset`` call names the field "status" (as an argument or a key of its mapping)."""
    named = [a for a in call.args if isinstance(a, ast.Constant)]
    mappings = [k.value for k in call.keywords if k.arg == "mapping"] + [a for a in call.args if isinstance(a, ast.Dict)]
    return any(a.value == "status" for a in named) or any(
        isinstance(k, ast.Constant) and k.value == "status" for m in mappings if isinstance(m, ast.Dict) for k in m.keys)


def test_only_the_transition_function_writes_a_table_status():
    """No table module writes a record's "status" itself, but where a new record is made."""
    for path in TABLE_MODULES:
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef) or function.name in CREATORS:
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "hset":
                    assert not _writes_status(node), \
                        f"{path.name}:{node.lineno} writes a status outside the transition function"


@pytest.fixture()
def store(redis_url):
    return Store(redis_url, Settings(), now=lambda: 1_000_000.0)


def test_a_move_clears_the_clock_and_takes_the_deadline_off_the_schedule(store):
    r = redis.Redis.from_url(store.url, decode_responses=True)
    key = keys.game("0123456789ab")
    with r.pipeline() as pipe:
        entry = store.schedule_deadline(pipe, "game", "0123456789ab", 1, 1_000_060)
        pipe.hset(key, mapping=GameRecord(id="0123456789ab", variant="standard", director="x", seq=1,
                                          status=GameStatus.OPEN, deadline=1_000_060, deadline_job=entry).save())
        pipe.execute()
    record = GameRecord.restore(r.hgetall(key))
    with r.pipeline() as pipe:
        written = GAME.transition(store, pipe, key, record, GameStatus.ADJUDICATING, closed_by="director")
        pipe.execute()
    after = r.hgetall(key)
    assert after["status"] == "adjudicating" and after["closed_by"] == "director"
    assert (after["deadline"], after["deadline_job"], after["remaining"]) == ("", "", "")
    assert GameRecord.restore(after) == written
    assert r.zscore(keys.deadlines(), entry) is None
    r.delete(key)


@pytest.mark.parametrize("here, to", [("forming", "paused"), ("finished", "paused"), ("adjudicating", "paused"),
                                      ("forming", "finished")])
def test_a_game_refuses_a_move_its_diagram_lacks(store, here, to):
    with redis.Redis.from_url(store.url).pipeline() as pipe:
        with pytest.raises(IllegalMove, match=f"no move from {here} to {to}"):
            GAME.transition(store, pipe, keys.game("x"), GameRecord(id="x", variant="standard", director="h",
                                                                    status=GameStatus(here)), to)
        assert len(pipe.command_stack) == 0  # nothing queued


@pytest.mark.parametrize("here", ["resolved", "cancelled", "halted"])
def test_an_ended_resolution_moves_no_more(store, here):
    with redis.Redis.from_url(store.url).pipeline() as pipe:
        for to in ResolutionStatus:
            with pytest.raises(IllegalMove):
                RESOLUTION.transition(store, pipe, keys.resolution("x"),
                                      ResolutionRecord(id="x", kind="k", director="h", status=ResolutionStatus(here)), to)


def test_a_record_reads_back_what_it_wrote():
    g = GameRecord(id="0123456789ab", variant="standard", director="h", status=GameStatus.OPEN, seq=3,
                   rules={"italy_joins": 1}, position={"phase": "S1901M"}, to_order=["FRANCE"], deadline=1_000_060,
                   remaining=12.5, waiting=True, late=["FRANCE"], last_year=1910)
    assert GameRecord.restore({k: str(v) for k, v in g.save().items()}) == g
    # a field the hash lacks (a record older than the field) takes its default
    assert GameRecord.restore({"id": "a", "variant": "standard", "director": "h"}).branch == 0


def test_a_stored_value_only_the_stdlib_reads_still_reads():
    # read_json reads with orjson, which refuses NaN and integers past 64 bits; json.dumps writes both
    value = {"score": float("nan"), "big": 2 ** 70, "name": "Łódź"}
    back = read_json(json.dumps(value))
    assert back["big"] == 2 ** 70 and math.isnan(back["score"]) and back["name"] == "Łódź"
    assert read_json(json.dumps({"a": [1, 2.5, None]})) == {"a": [1, 2.5, None]}
    g = GameRecord(id="0123456789ab", variant="standard", director="h", rules={"tiebreak": float("inf")})
    assert GameRecord.restore({k: str(v) for k, v in g.save().items()}).rules == {"tiebreak": float("inf")}


def test_a_deadline_set_again_to_the_same_second_stays_on_the_schedule(store):
    """An extension to the deadline it already has (a director aligning many games) keeps it."""
    r = redis.Redis.from_url(store.url, decode_responses=True)
    key = keys.game("00000000000a")
    with r.pipeline() as pipe:
        entry = store.schedule_deadline(pipe, "game", "00000000000a", 1, 1_000_060)
        record = GameRecord(id="00000000000a", variant="standard", director="x", seq=1, status=GameStatus.OPEN,
                            deadline=1_000_060, deadline_job=entry)
        pipe.hset(key, mapping=record.save())
        pipe.execute()
    with r.pipeline() as pipe:
        again = store.schedule_deadline(pipe, "game", "00000000000a", 1, 1_000_060)
        GAME.set_clock(store, pipe, key, record, deadline=1_000_060, deadline_job=again)
        pipe.execute()
    assert again == entry and r.zscore(keys.deadlines(), entry) == 1_000_060
    r.delete(key)
    r.zrem(keys.deadlines(), entry)


def test_a_step_opens_and_its_deadline_comes_due_the_same_way_for_games_and_resolutions(redis_url):
    """Clock.open schedules the step's deadline; Clock.due says when that deadline's job has work."""
    from workers.core.clock import Clock

    now = [1_000_000.0]
    store = Store(redis_url, Settings(), now=lambda: now[0])
    r = redis.Redis.from_url(store.url, decode_responses=True)
    cases = [(GAME, keys.game, GameRecord(id="00000000000b", variant="standard", director="x", seq=1,
                                          status=GameStatus.ADJUDICATING)),
             (RESOLUTION, keys.resolution,
              ResolutionRecord(id="00000000000c", kind="k", director="x", seq=1, status=ResolutionStatus.OPEN))]
    for diagram, key, record in cases:
        now[0] = 1_000_000.0
        clock = Clock(store, diagram, key, str)
        r.hset(key(record.id), mapping=record.save())
        with r.pipeline() as pipe:
            pipe.multi()
            opened = clock.open(pipe, record, 60, seq=2)
            pipe.execute()
        assert (opened.status, opened.seq, opened.deadline) == ("open", 2, 1_000_060)
        assert r.zscore(keys.deadlines(), opened.deadline_job) == 1_000_060
        assert clock.due(opened, 2, 1_000_060) == "too early"
        now[0] = 1_000_060.0
        assert clock.due(opened, 2, 1_000_060) is None
        assert clock.due(opened, 1, 1_000_060) == "deadline superseded"  # an earlier step's job
        assert clock.due(opened, 2, 1_000_030) == "deadline superseded"  # the deadline was moved
        assert clock.due(opened.changed(status="paused"), 2, 1_000_060) == "deadline superseded"
        r.delete(key(record.id))
        r.zrem(keys.deadlines(), opened.deadline_job)
