"""Workers gained or lost through events (spec §4.8.5, §2.2.2-2.2.3).

Gaining takes a worker from the population track (overflow first); losing
returns one to a free space of the track, or to overflow if none is free.
The nation chooses the worker and the section; the section's cost follows
from the track (stability and food upkeep are derived, §2.3).
"""
from __future__ import annotations

from ..procedure import Decision

TAKE_SECTION = "worker_take_section"
WORKER_TO_LOSE = "worker_to_lose"
RETURN_SECTION = "worker_return_section"


def _food_first(nation: dict, sections: list[int]) -> int:
    """[DEF §4.15] the food section first."""
    food = [i for i in sections if nation["population"][i]["kind"] == "food"]
    return (food or sections)[0]


def _section_index(answer) -> str | None:
    # True == 1 and 1.0 == 1 would pass the choices test; only a plain integer names a section.
    if isinstance(answer, bool) or not isinstance(answer, int):
        return "a section is named by its integer index"
    return None


def _track(nation: dict) -> list[dict]:
    return [dict(s) for s in nation["population"]]


def take_worker(state: dict, nation_id: str):
    """Generator: one worker from the track to the resource area.  Returns whether one was taken."""
    nation = state["nations"][nation_id]
    if nation["overflow"]:
        # An overflow worker must be taken first; it vacates no track space, so it costs nothing.
        nation["overflow"] -= 1
        nation["idle_workers"] += 1
        return True
    sections = [i for i, s in enumerate(nation["population"]) if s["present"] > 0]
    if not sections:
        return False
    index = sections[0] if len(sections) == 1 else (
        yield Decision(nation_id, TAKE_SECTION, sections, _food_first(nation, sections),
                       details={"population": _track(nation)}, check=_section_index))
    nation["population"][index]["present"] -= 1
    nation["idle_workers"] += 1
    return True


def lose_worker(state: dict, nation_id: str):
    """Generator: one worker, idle or deployed, back to the track.  Returns whether one was lost."""
    nation = state["nations"][nation_id]
    workers = (["idle"] if nation["idle_workers"] else []) + [
        f"slot:{i}" for i, slot in enumerate(nation["bm_slots"]) if slot["workers"]]
    if not workers:
        return False
    # [DEF, A-26] an idle worker first.
    which = workers[0] if len(workers) == 1 else (
        yield Decision(nation_id, WORKER_TO_LOSE, workers, workers[0],
                       details={"idle_workers": nation["idle_workers"],
                                "slots": [{"card": s["card"]["id"] if s["card"] else None, "workers": s["workers"],
                                           "per_worker": dict(s["card"]["per_worker"]) if s["card"] else None}
                                          for s in nation["bm_slots"]],
                                "population": _track(nation)}))
    if which == "idle":
        nation["idle_workers"] -= 1
    else:
        nation["bm_slots"][int(which.split(":")[1])]["workers"] -= 1
    free = [i for i, s in enumerate(nation["population"]) if s["present"] < s["capacity"]]
    if not free:
        nation["overflow"] += 1
        return True
    index = free[0] if len(free) == 1 else (
        yield Decision(nation_id, RETURN_SECTION, free, _food_first(nation, free),
                       details={"population": _track(nation)}, check=_section_index))
    nation["population"][index]["present"] += 1
    return True
