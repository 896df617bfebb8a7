"""Bot rules used as decision defaults (spec §9.4.4, §9.4.5, §9.5, §9.6, §9.7).

A bot's choices are mechanical, so each one is offered as the ``default`` of
the decision, which is marked ``bot=True``: a service answers a bot's decision
with its default at once.
"""
from __future__ import annotations

import copy

from adjudicator.statecraft.rules import bribe, bribe_choices, pick_winner, successes, tally
from adjudicator.statecraft.state import AGENDA_SPACES, INSTITUTIONS, initiative, sole_majority, update_fg


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


# --- influence and bribes (§9.4.4, §9.4.5; §9.7 for the effects that grant them) ----------

def _blocked(c: dict) -> bool:
    """In conflict, or projected in conflict by this activation's placements (total above CT) [DEF]."""
    return c["conflict"] or sum(c["influence"].values()) > c["ct"]


def _projected_fg(c: dict) -> str | None:
    """The FG the country will have at the end of the activation if nothing else changes (§6.3.1)."""
    if _blocked(c):
        return c["fg"]  # a conflict freezes it (§6.3.3)
    projected = {"fg": c["fg"], "influence": c["influence"]}
    update_fg(projected)
    return projected["fg"]


def influence_plan(game: dict, power: str, tokens: int, allowed: list[str] | None = None) -> dict[str, int]:
    """§9.4.4: where a bot places ``tokens`` influence tokens, as {country: n}; what is left goes back.

    Works on a projected grid: its own placements so far, with projected conflicts and FG changes.
    ``allowed`` restricts the countries (an effect's Islamic requirement).
    """
    grid = {c["name"]: {**c, "influence": dict(c["influence"])} for c in scan_order(game)}
    primary = set(game["powers"][power]["primary_symbols"])
    plan: dict[str, int] = {}
    left = tokens

    def open_(c):
        return ((allowed is None or c["name"] in allowed) and not _blocked(c) and _projected_fg(c) != power
                and c["influence"].get(power, 0) < c["ct"])

    def place(c, k):
        nonlocal left
        c["influence"][power] = c["influence"].get(power, 0) + k
        plan[c["name"]] = plan.get(c["name"], 0) + k
        left -= k
        if not _blocked(c):
            update_fg(c)

    for symbols_only in (True, False):  # pass 1: primary-symbol countries; pass 2: all countries
        for c in grid.values():
            if left == 0:
                return plan
            if not open_(c) or (symbols_only and not primary & set(c["symbols"])):
                continue
            own = c["influence"].get(power, 0)
            rival = max((n for f, n in c["influence"].items() if f != power), default=0)
            now = sum(c["influence"].values())
            k_fg = max(1, rival - own + 1)  # a sole majority without a conflict, which would freeze the FG
            k_cf = max(1, c["ct"] - now + 1)  # else just enough to cause a conflict
            if own + k_fg <= c["ct"] and now + k_fg <= c["ct"] and k_fg <= left:
                place(c, k_fg)
            elif own + k_cf <= c["ct"] and k_cf <= left:
                place(c, k_cf)
    for c in grid.values():  # pass 3: fill the first open country, then the next
        if left == 0:
            break
        if open_(c):
            place(c, min(left, c["ct"] - c["influence"].get(power, 0)))
    return plan


def influence_effect_choice(game: dict, power: str, legal: list[str]) -> str:
    """§9.7: the country of one influence token granted by an effect; a bot acts whenever it can (§9),
    so when §9.4.4 would send the token back it takes the first legal country in scan order [DEF]."""
    plan = influence_plan(game, power, 1, allowed=legal)
    if plan:
        return next(iter(plan))
    return next(c["name"] for c in scan_order(game) if c["name"] in legal)


def _rival_to_bribe(game: dict, c: dict, power: str) -> str | None:
    """§9.4.5: the rival with the most tokens in c; ties to most PP, then the higher initiative."""
    order = initiative(game)
    rivals = [p for p in game["powers"] if p != power and c["influence"].get(p, 0) > 0]
    if not rivals:
        return None
    return min(rivals, key=lambda p: (-c["influence"][p], -game["powers"][p]["pp"], order.index(p)))


def _greedy_bribe(game: dict, c: dict, power: str, from_pool: bool) -> dict | None:
    """The next bribe of the greedy sequence in c (demonstrators first), or None if none is legal."""
    legal = [a for a in bribe_choices(game, power, from_pool) if a["country"] == c["name"]]
    own_demo = {"kind": "DEMO_TO_OWN", "country": c["name"]}
    if own_demo in legal:
        return own_demo
    rival = _rival_to_bribe(game, c, power)
    action = {"kind": "RIVAL_TO_DEMO", "country": c["name"], "target": rival}
    return action if rival is not None and action in legal else None


def bribe_plan(game: dict, power: str, bribes: int, from_pool: bool = False) -> list[dict]:
    """§9.4.5: the bribe actions a bot takes with ``bribes`` bribes, in order (it may use fewer).

    ``from_pool``: a bribe granted by an effect, whose DEMO_TO_OWN takes the new token from the pool.
    """
    sim = copy.deepcopy(game)
    sim["powers"][power]["planned_bribes"] = bribes
    primary = set(sim["powers"][power]["primary_symbols"])
    actions: list[dict] = []

    def candidate(c):
        return not _blocked(c) and c["fg"] != power

    def execute(target, action):
        bribe(target, power, action, [], token_from="pool" if from_pool else "planned_bribes")
        if not from_pool and action["kind"] == "RIVAL_TO_DEMO":
            target["powers"][power]["planned_bribes"] -= 1
            target["powers"][power]["pool"] += 1

    def majority_run(c_name, budget):
        """The greedy sequence in one country until the bot has the sole majority, within ``budget``."""
        trial = copy.deepcopy(sim)
        run = []
        while len(run) < budget:
            c = next(x for x in trial["grid"] if x["name"] == c_name)
            if sole_majority(c["influence"]) == power:
                break
            action = _greedy_bribe(trial, c, power, from_pool)
            if action is None:
                return None
            execute(trial, action)
            run.append(action)
        c = next(x for x in trial["grid"] if x["name"] == c_name)
        return run if run and sole_majority(c["influence"]) == power else None

    for symbols_only in (True, False):  # passes 1 and 2
        for name in [c["name"] for c in scan_order(sim)]:
            c = next(x for x in sim["grid"] if x["name"] == name)
            if len(actions) == bribes or not candidate(c) or (symbols_only and not primary & set(c["symbols"])):
                continue
            run = majority_run(name, bribes - len(actions))
            for action in run or []:
                execute(sim, action)
                actions.append(action)
    for name in [c["name"] for c in scan_order(sim)]:  # pass 3: keep bribing after a majority
        c = next(x for x in sim["grid"] if x["name"] == name)
        if len(actions) == bribes or not candidate(c) or _greedy_bribe(sim, c, power, from_pool) is None:
            continue
        while len(actions) < bribes:
            action = _greedy_bribe(sim, c, power, from_pool)
            if action is None:
                break
            execute(sim, action)
            actions.append(action)
    return actions


# --- agenda planning (§9.3) ------------------------------------------------------------------

def agenda_plan(game: dict, power: str, tokens: int) -> dict[str, int]:
    """§9.3: the solo agenda cards of the row, left to right, then the bot card's action table.

    The table starts at row 1 unless the bot controls every grid country showing one of its primary
    symbols (then row 2 [INF]); slots are filled in reading order, cycling from the starting row when
    the table runs out [DEF, A-34].  Stops when the tokens run out.
    """
    plan = dict.fromkeys(AGENDA_SPACES, 0)
    left = tokens
    for card in game["solo_agenda_row"]:
        for space in card["actions"]:
            if left == 0:
                return plan
            plan[space] += 1
            left -= 1
    me = game["powers"][power]
    primary = set(me["primary_symbols"])
    showing = [c for c in game["grid"] if primary & set(c["symbols"])]
    # With no primary-symbol country on the grid it controls "every" one of them: row 2 [DEF].
    start = 1 if all(c["fg"] == power for c in showing) and len(me["action_table"]) > 1 else 0
    slots = [space for row in me["action_table"][start:] for space in row]
    while left and slots:
        for space in slots:
            if left == 0:
                break
            plan[space] += 1
            left -= 1
    return plan
