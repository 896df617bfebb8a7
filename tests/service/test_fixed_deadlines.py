"""Deadlines at fixed local times (docs/seats.md, "Deadlines at fixed times"): a time of day in a time zone,
every N days, on allowed weekdays, across the daylight-saving changes of two zones (Paris on
28 March 2027, New York on 14 March 2027), mixed with durations, grace and an extension; the service
on a fake clock set to March 2027."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.service.gamekit import POWERS
from tests.service.inprocess import FakeClock, InProcessApi, InProcessStack

START = datetime(2027, 3, 10, 12, 0, tzinfo=timezone.utc).timestamp()  # a Wednesday


@pytest.fixture(scope="module")
def march(tmp_path_factory):
    """The service in this process on a Redis of its own, its fake clock at noon UTC on 10 March 2027."""
    from service.launch import start_redis, stop

    proc, url = start_redis(tmp_path_factory.mktemp("march-redis"), persist=False)
    stack = InProcessStack(url, clock=FakeClock(start=START))
    with stack.driving():
        yield stack, InProcessApi(stack)
    stack.close()
    stop(proc)


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def seated(api, deadlines: dict, **settings) -> str:
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": deadlines, "open_seat_after": None,
                                          **settings})
    assert created.status_code == 201, created.text
    gid = created.json()["game"]["id"]
    for power in POWERS:
        assert api.post(f"/v1/games/{gid}/players", json={"name": power, "power": power}).status_code == 201
    return gid, created.json()["director_token"]


def test_fixed_times_across_daylight_saving_in_two_zones_with_weekdays(march):
    stack, api = march
    paris = {"at": "20:00", "tz": "Europe/Paris", "every_days": 1}
    new_york = {"at": "09:30", "tz": "America/New_York", "every_days": 2}
    a, _ = seated(api, {"first_movement": paris, "movement": paris, "retreat": 3600, "adjustment": 3600},
                  grace=600)
    b, b_director = seated(api, {"first_movement": new_york, "movement": new_york, "retreat": 3600,
                                 "adjustment": 3600, "weekdays": ["mon", "wed", "fri"]})
    assert api.get(f"/v1/games/{a}").json()["deadlines"]["movement"] == paris
    seen: dict[str, list[str]] = {a: [], b: []}
    extended = False
    while stack.clock() < datetime(2027, 3, 31, tzinfo=timezone.utc).timestamp():
        states = {gid: api.get(f"/v1/games/{gid}").json() for gid in (a, b)}
        for gid, state in states.items():
            if state["deadline"] and (not seen[gid] or seen[gid][-1] != state["deadline"]):
                seen[gid].append(state["deadline"])
        if len(seen[b]) == 3 and not extended:  # the director moves one fixed deadline by an hour
            moved = api.post(f"/v1/games/{b}/extend", json={"seconds": 3600}, token=b_director).json()
            assert moved["deadline"] == "2027-03-17T14:30:00Z"
            extended = True
            continue
        due = min(ts(s["deadline"]) for s in states.values())
        stack.advance(due - stack.clock() + 1)
    closed = {gid: [h["adjudicated_at"][:16] for h in api.get(f"/v1/games/{gid}/history").json()["phases"]]
              for gid in (a, b)}

    # Paris, every day at 20:00: 19:00 UTC in winter time, 18:00 UTC from 28 March on; the grace
    # period (nobody orders) moves each close ten minutes on, and the next deadline is the next day's
    paris_days = [f"2027-03-{d:02d}T19:00:00Z" for d in range(11, 28)] + \
                 [f"2027-03-{d:02d}T18:00:00Z" for d in range(28, 32)]
    assert [d for d in seen[a] if d.endswith(":00:00Z")] == paris_days
    assert [d for d in seen[a] if d.endswith(":10:00Z") and d < "2027-03-31"] == \
        [d.replace(":00:00Z", ":10:00Z") for d in paris_days if d < "2027-03-31"]
    assert closed[a][:2] == ["2027-03-11T19:10", "2027-03-12T19:10"] and "2027-03-28T18:10" in closed[a]
    # New York at 09:30, at least two days on, Monday, Wednesday or Friday only: 14:30 UTC in winter,
    # 13:30 UTC from 14 March on; the extension moved one by an hour
    assert seen[b][:3] == ["2027-03-12T14:30:00Z", "2027-03-15T13:30:00Z", "2027-03-17T13:30:00Z"]
    assert seen[b][3:] == ["2027-03-17T14:30:00Z", "2027-03-19T13:30:00Z", "2027-03-22T13:30:00Z",
                           "2027-03-24T13:30:00Z", "2027-03-26T13:30:00Z", "2027-03-29T13:30:00Z",
                           "2027-03-31T13:30:00Z"]
    for day in seen[b]:
        assert datetime.fromisoformat(day.replace("Z", "+00:00")).strftime("%a") in ("Mon", "Wed", "Fri")


def test_a_paused_fixed_deadline_resumes_with_the_time_it_had(march):
    stack, api = march
    at = {"at": "06:00", "tz": "Asia/Tokyo", "every_days": 1}
    gid, director = seated(api, {"first_movement": at, "movement": 3600})
    before = ts(api.get(f"/v1/games/{gid}").json()["deadline"])
    assert iso(before).endswith("T21:00:00Z")  # 06:00 in Tokyo (no daylight saving)
    api.post(f"/v1/games/{gid}/pause", token=director)
    stack.advance(7200)
    resumed = api.post(f"/v1/games/{gid}/resume", token=director).json()
    assert ts(resumed["deadline"]) == pytest.approx(before + 7200, abs=1)


@pytest.mark.parametrize("deadlines,where", [
    ({"movement": {"at": "20:00", "tz": "Europe/Pariss"}}, "body.deadlines.movement.tz"),
    ({"movement": {"at": "20:00", "tz": "../../etc/passwd"}}, "body.deadlines.movement.tz"),
    ({"retreat": {"at": "25:00", "tz": "Europe/Paris"}}, "body.deadlines.retreat.at"),
    ({"movement": {"at": "8pm", "tz": "Europe/Paris"}}, "body.deadlines.movement.at"),
    ({"movement": {"at": "20:00", "tz": "UTC", "every_days": 0}}, "body.deadlines.movement.every_days"),
    ({"movement": {"at": "20:00"}}, "body.deadlines.movement.tz"),
    ({"movement": {"at": "20:00", "tz": "UTC", "hour": 1}}, "body.deadlines.movement.hour"),
    ({"movement": "20:00"}, "body.deadlines.movement"),
    ({"weekdays": ["mon", "funday"]}, "body.deadlines.weekdays"),
    ({"weekdays": ["mon", "mon"]}, "body.deadlines.weekdays"),
    ({"weekdays": []}, "body.deadlines.weekdays"),
])
def test_invalid_zones_times_and_weekdays_are_422s_naming_the_field(march, deadlines, where):
    _stack, api = march
    resp = api.post("/v1/games", json={"deadlines": deadlines})
    assert resp.status_code == 422 and where in resp.json()["detail"], resp.text
