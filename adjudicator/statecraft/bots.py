"""Bot rules used as decision defaults (spec §9.5, §9.6).

A bot's choices are mechanical, so each one is offered as the ``default`` of
the decision: a service answers a bot's decision with its default.  The
vote-placement rule is also the default for humans (a vote must go somewhere).
"""
from __future__ import annotations

from adjudicator.statecraft.state import INSTITUTIONS, initiative


def _lead(votes: dict, power: str) -> tuple[int, int]:
    """(the power's votes, the most votes of any other power) on one institution."""
    rivals = [n for p, n in votes.items() if p != power]
    return votes.get(power, 0), max(rivals, default=0)


def _leads(votes: dict, power: str) -> bool:
    own, rival = _lead(votes, power)
    return own > rival and own >= 1


def vote_difference(votes: dict, power: str) -> int:
    """§9.5.1: the votes of the rival with the most votes there minus the power's votes."""
    own, rival = _lead(votes, power)
    return rival - own


def vote_choice(institutions: dict, power: str) -> str:
    """§9.5.2: where a drawn vote of ``power`` goes."""
    # Rule 1 [INF]: the first institution it does not lead where this vote gives it the sole majority.
    for i in INSTITUTIONS:
        own, rival = _lead(institutions[i], power)
        if not _leads(institutions[i], power) and own + 1 > rival:
            return i
    # Rule 2: the smallest vote difference (best rival - own) among those it does not lead; leftmost on ties.
    open_ = [i for i in INSTITUTIONS if not _leads(institutions[i], power)]
    if open_:
        return min(open_, key=lambda i: (_lead(institutions[i], power)[1] - _lead(institutions[i], power)[0],
                                         INSTITUTIONS.index(i)))
    # Rule 3 [DEF]: it leads everywhere: the leftmost smallest lead.
    return min(INSTITUTIONS, key=lambda i: (_lead(institutions[i], power)[0] - _lead(institutions[i], power)[1],
                                            INSTITUTIONS.index(i)))


def davos_choice(game: dict, power: str) -> dict | None:
    """§9.5.3: the vote a bot controlling DAVOS removes, or None."""
    institutions = game["institutions"]
    later = INSTITUTIONS[1:]
    # Rule a: a removal that gives the bot the sole majority where it had none.
    for i in later:
        votes = institutions[i]
        if _leads(votes, power):
            continue
        for rival in [p for p in initiative(game) if p != power and votes.get(p, 0) > 0]:
            after = dict(votes, **{rival: votes[rival] - 1})
            if _leads(after, power):
                return {"institution": i, "power": rival}
    # Rule b: the first institution it does not lead (with a rival vote): the rival with the
    # largest difference; ties to most PP, then initiative.
    order = initiative(game)
    for i in later:
        votes = institutions[i]
        rivals = [p for p in votes if p != power and votes[p] > 0]
        if _leads(votes, power) or not rivals:
            continue
        own = votes.get(power, 0)
        target = min(rivals, key=lambda p: (-(votes[p] - own), -game["powers"][p]["pp"], order.index(p)))
        return {"institution": i, "power": target}
    return None


def imf_choice(game: dict, power: str) -> list[int] | None:
    """§9.5.4: raise the first resource of the market priority, else the second; as a [k, k+1] swap."""
    track = game["resource_track"]
    priority = game["powers"][power]["market_priority"][:2]
    for rank, resource in enumerate(priority):
        index = track.index(resource)
        if index == len(track) - 1:
            continue
        above = track[index + 1]
        # A-29 [DEF]: a raise that lowers a resource ranked higher in the priority is "impossible".
        if game["options"]["imf_protect_priority"] and above in priority[:rank]:
            continue
        return [index + 1, index + 2]
    return None


def spy_choice(game: dict, c: dict, power: str, dice: dict[str, list[int]]) -> list[int] | None:
    """§9.6: the dice a bot rerolls with one spy (all its failed dice), or None."""
    from adjudicator.statecraft.conflict import pick_winner, successes, tally

    powers = [p for p in initiative(game) if p in dice]
    if not powers or powers[0] == power or game["powers"][power]["spy"] == 0:
        return None  # first to decide: no spy (§9.6.1)
    counts = {f: successes(v) for f, v in dice.items()}
    best_other = max((n for f, n in counts.items() if f != power), default=0)  # DEMO counts [DEF, A-33]
    gap = best_other - counts[power]
    failed = [i for i, v in enumerate(dice[power]) if v < 5]
    threshold = 2 if c["fg"] == power else 1
    if len(failed) >= 2 and gap <= threshold and pick_winner(game, c, tally(game, c, dice)) != power:
        return failed
    return None


def spy_decision(holds_fg: bool, own_successes: int, best_rival_successes: int, failed: int,
                 first_to_decide: bool = False, winning: bool = False, spies: int = 1) -> bool:
    """§9.6 as a bare test, for examples that give only the numbers (TV-30..32, A-23)."""
    if first_to_decide or spies == 0 or winning:
        return False
    return failed >= 2 and best_rival_successes - own_successes <= (2 if holds_fg else 1)


def scan_order(game: dict) -> list[dict]:
    """§9.4.2: reading order starting at the ``[1]`` country, wrapping after the last card."""
    grid = game["grid"]
    marker = game.get("marker_1")
    if not marker:
        return list(grid)
    start = next((i for i, c in enumerate(grid) if (c["row"], c["col"]) >= (marker["row"], marker["col"])), 0)
    return grid[start:] + grid[:start]


def _upsets(c: dict) -> bool:
    """One more demonstrator causes a conflict or takes the FG from its holder."""
    inf = c["influence"]
    demo = inf.get("DEMO", 0) + 1
    conflict = sum(inf.values()) + 1 > c["ct"]
    loses_fg = c["fg"] is not None and all(demo > n for f, n in inf.items() if f != "DEMO")
    return conflict or loses_fg


def demo_choice(game: dict, power: str, effect: str, legal: list[str]) -> str:
    """§9.7: where a bot places a demonstrator granted by an effect (rules a-d, each a full scan)."""
    me = game["powers"][power]
    primary, secondary = set(me["primary_symbols"]), set(me["secondary_symbols"])
    scan = [c for c in scan_order(game) if c["name"] in legal]
    if effect == "PLACE_DEMO_OWN_FG":
        rules = [lambda c: secondary & set(c["symbols"]) and not _upsets(c),
                 lambda c: primary & set(c["symbols"]) and not _upsets(c),
                 lambda c: secondary & set(c["symbols"]),
                 lambda c: True]  # [DEF] d: the first legal country
    else:
        def rival(c):
            return c["fg"] is not None and c["fg"] != power
        rules = [lambda c: rival(c) and primary & set(c["symbols"]) and _upsets(c),
                 lambda c: rival(c) and primary & set(c["symbols"]),
                 lambda c: rival(c) and secondary & set(c["symbols"]) and _upsets(c),
                 lambda c: c["fg"] != power]
    for rule in rules:
        for c in scan:
            if rule(c):
                return c["name"]
    return scan[0]["name"]
