"""Pure rule helpers shared by the procedures and the bot rules (spec §6.5, §6.8).

Conflict successes and the winner (§6.8.3, §6.8.5, §6.8.7), and the bribe actions
(§6.5).  conflict.py, effects.py and bots.py all use them; they live here, below all
three, so that the bot rules (the procedures' decision defaults) need import neither
procedure module and the modules import one another one way only.
"""
from __future__ import annotations

from adjudicator.statecraft.state import (
    DEMO, SUPPORT_TOP, add, demo_from_supply, demo_to_supply, initiative, total, update_fg,
)


def successes(faces: list[int]) -> int:
    """A 5 or a 6 is a success (§6.8.3)."""
    return sum(1 for v in faces if v >= 5)


def supported_power(game: dict, participants: list[str]) -> str | None:
    """§6.8.7: the one power on support position 9 whom the demonstrators support, if any."""
    options = game["options"]
    if options["demo_support_mode"] == "off" or DEMO not in participants:
        return None
    scope = participants if options["demo_support_scope"] == "participants" else list(game["powers"])
    top = [p for p in scope if p != DEMO and game["powers"][p]["support"] == SUPPORT_TOP]
    if len(top) == 1 and top[0] in participants:
        return top[0]
    return None


def tally(game: dict, c: dict, dice: dict[str, list[int]]) -> dict[str, int]:
    """Successes per faction that can win; with demonstrator support DEMO's count goes to its power."""
    counts = {f: successes(faces) for f, faces in dice.items()}
    backed = supported_power(game, list(dice))
    if backed is not None:
        counts[backed] += counts.pop(DEMO)  # DEMO still rolled but cannot win (§6.8.7 [DEF])
    return counts


def pick_winner(game: dict, c: dict, counts: dict[str, int]) -> str:
    """§6.8.5: most successes; ties go to the FG holder, then to initiative; DEMO loses ties with powers."""
    best = max(counts.values())
    tied = [f for f, n in counts.items() if n == best]
    if len(tied) == 1:
        return tied[0]
    if c["fg"] in tied:
        return c["fg"]
    for power in initiative(game):  # read at this moment
        if power in tied:
            return power
    return DEMO


# --- bribes (§6.5) ------------------------------------------------------------------------------

def by_name(game, name):
    """The grid country called ``name``."""
    return next(c for c in game["grid"] if c["name"] == name)


def reevaluate_fg(c: dict, events: list) -> None:
    """Re-evaluate the FG of ``c`` (§6.3) and log a change as an FG_CHANGED event."""
    before = c["fg"]
    update_fg(c)
    if c["fg"] != before:
        events.append({"event": "FG_CHANGED", "country": c["name"], "from": before, "to": c["fg"]})


def bribe_choices(game: dict, power: str, from_pool: bool = True) -> list[dict]:
    """Legal bribe actions (§6.5.1) in reading order; an effect's DEMO_TO_OWN needs a pool token (§6.5.6)."""
    me = game["powers"][power]
    supply = game["demo_supply"] is None or game["demo_supply"] > 0
    out = []
    for c in game["grid"]:
        if c["conflict"]:
            continue
        inf = c["influence"]
        if inf.get(DEMO, 0) >= 1 and inf.get(power, 0) + 1 <= c["ct"] and (me["pool"] >= 1 or not from_pool):
            out.append({"kind": "DEMO_TO_OWN", "country": c["name"]})
        if supply and inf.get(DEMO, 0) + 1 <= c["ct"]:
            for rival in game["powers"]:
                if rival != power and inf.get(rival, 0) >= 1:
                    out.append({"kind": "RIVAL_TO_DEMO", "country": c["name"], "target": rival})
    return out


def bribe(game: dict, power: str, action: dict, events: list, token_from: str = "pool") -> None:
    """One bribe action; ``token_from`` is where a DEMO_TO_OWN's new influence comes from (A-8)."""
    c = by_name(game, action["country"])
    if action["kind"] == "DEMO_TO_OWN":
        add(c["influence"], DEMO, -1)
        demo_to_supply(game)
        game["powers"][power][token_from] -= 1
        add(c["influence"], power, 1)
    else:
        target = action["target"]
        add(c["influence"], target, -1)  # the FG token is the holder's last to leave (§3.3.1)
        game["powers"][target]["pool"] += 1
        demo_from_supply(game)
        add(c["influence"], DEMO, 1)
    if total(c) <= c["ct"]:  # a country this activation pushed over CT keeps its FG frozen (§6.3.3)
        reevaluate_fg(c, events)

