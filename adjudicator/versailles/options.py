"""Applying a chosen issue option (settle step 1e, uprising step 6; spec §5)."""
from __future__ import annotations

from typing import Generator

from adjudicator.procedure import Decision

from .happiness import change_happiness
from .tracks import change_unrest


def apply_option(state: dict, issue: dict, option: dict, chooser: str, decider: str, log: list) -> Generator:
    """Apply ``option``'s effects in printed order.

    ``chooser`` is the nation choosing the option (it picks the flag of a
    "UK/USA naval"-style icon); ``decider`` is the seat that answers for it
    (the active player when the chooser is the 2-player USA faction).
    """
    for effect in option["effects"]:
        kind = effect["type"]
        if kind == "happiness":
            yield from change_happiness(state, effect["nation"], effect["delta"], log)
        elif kind == "unrest":
            change_unrest(state["tracks"][effect["region"]], effect["delta"])
        elif kind == "counter":
            issue["counters"].extend({"type": effect["counter"], "flag": effect["flag"]} for _ in range(effect["count"]))
        else:  # counter_choice: the chooser picks one of the printed flags for each counter
            for _ in range(effect["count"]):
                flag = yield Decision(decider, "choose_flag", list(effect["flags"]), default=effect["flags"][0],
                                      details={"issue": issue["id"], "counter": effect["counter"], "for": chooser})
                issue["counters"].append({"type": effect["counter"], "flag": flag})
