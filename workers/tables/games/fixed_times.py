"""How long a phase runs: a duration in seconds, or a fixed time of day in a time zone.

A game's ``deadlines`` give each phase type (``first_movement``, ``movement``,
``retreat``, ``adjustment``) either seconds or ``{"at": "20:00", "tz":
"Europe/Paris", "every_days": 2}``, and may list the ``weekdays`` a fixed-time
deadline may fall on.  A fixed-time deadline is the time ``at`` on the first
date in that zone at least ``every_days`` calendar days after the date the phase
opened, whose weekday is allowed.  It is computed with ``zoneinfo`` (the
``tzdata`` package where the system has no zone database), so a daylight-saving
change moves the deadline with the wall clock: 20:00 in Paris is 19:00 UTC in
winter and 18:00 UTC in summer.  A time the clocks skip that day (02:30 on the
night they go forward) is read with the offset before the change, i.e. an hour
later on the wall clock; a time they pass twice is the first one.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MAX_DAYS_AHEAD = 400  # no allowed weekday within this: a bug (the schema asks for at least one)


# the areas of the IANA zone names (Europe/Paris); the database also holds the system's own
# ("localtime", "Factory", "posixrules"), POSIX rules ("EST5EDT") and old aliases, refused here
AREAS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian",
         "Pacific", "Etc")


@lru_cache(maxsize=1)
def zones() -> frozenset[str]:
    """Every IANA zone name ``zoneinfo`` knows (the system's database, or ``tzdata``'s): ``UTC`` and
    the ``Area/Location`` names."""
    return frozenset(z for z in available_timezones() if z == "UTC" or z.partition("/")[0] in AREAS)


def parse_at(text: str) -> time:
    """``HH:MM`` (24-hour, ASCII digits) as a time; ValueError otherwise."""
    hours, sep, minutes = text.partition(":")
    if not sep or len(hours) != 2 or len(minutes) != 2 or not (hours + minutes).isascii() \
            or not (hours + minutes).isdigit():
        raise ValueError("a time of day as HH:MM (24-hour), such as 20:00")
    return time(int(hours), int(minutes))


def fixed_deadline(spec: dict, opened: float, weekdays: list[str] | None = None) -> int:
    """The deadline (whole epoch seconds) of a phase opened at ``opened`` under the fixed-time ``spec``."""
    zone = ZoneInfo(spec["tz"])
    at = parse_at(spec["at"])
    allowed = {WEEKDAYS.index(day) for day in (weekdays or WEEKDAYS)}
    day = datetime.fromtimestamp(opened, zone).date() + timedelta(days=spec.get("every_days", 1))
    for _ in range(MAX_DAYS_AHEAD):
        if day.weekday() in allowed:
            local = datetime.combine(day, at, tzinfo=zone)
            # a wall time the clocks skip: datetime keeps it as written; its UTC offset is the one before
            return int(local.astimezone(timezone.utc).timestamp())
        day += timedelta(days=1)
    raise ValueError(f"no allowed weekday in {weekdays}")


def phase_seconds(deadlines: dict, kind: str, opened: float) -> float:
    """Seconds from ``opened`` to the deadline of a phase of ``kind`` (a key of ``deadlines``).  A fixed
    time comes out half a second short of its whole second, which the store's rounding up lands on."""
    spec = deadlines[kind]
    if isinstance(spec, dict):
        return fixed_deadline(spec, opened, deadlines.get("weekdays")) - opened - 0.5
    return spec
