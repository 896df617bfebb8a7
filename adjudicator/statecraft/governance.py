"""Governance phase: voting from the diplomatic bag, then the institutions (spec §7).

A bag draw is random, so it is an input like dice: ``Dice("draw", 1, sides=n,
faces=[...])`` where n is the number of tokens in the bag and ``faces`` lists
them laid out in the fixed order EU, USA, CHN, RUS, DEMO: value k draws
``faces[k-1]`` (see :func:`bag_faces`, :func:`drawn_token` / :func:`face_of`),
so each token is equally likely and a log can be checked afterwards.

The rules give a drawn vote no abstention: its owner places it on one of the
four institutions at once (§7.2.2).  A human owner's placement therefore has
no default (the step waits for the owner or the director); a bot's is its
§9.5.2 rule.
"""
from __future__ import annotations

import copy
import inspect

from adjudicator.procedure import NO_DEFAULT, Decision, Dice, Outcome, Procedure
from adjudicator.statecraft import bots
from adjudicator.statecraft.effects import activation, swap, swap_decision
from adjudicator.statecraft.state import (
    DEMO, FACTIONS, INSTITUTIONS, POWERS, SUPPORT_TOP, GameSchema, add, initiative, sole_majority,
)

NEUTRALS_TO_END = 3  # the third neutral token drawn ends the voting (§7.2.2)


def drawn_token(bag: dict, face: int) -> str:
    """The faction of the token at ``face`` (1-based) in the bag laid out EU, USA, CHN, RUS, DEMO."""
    for faction in FACTIONS:
        if face <= bag.get(faction, 0):
            return faction
        face -= bag.get(faction, 0)
    raise ValueError("face beyond the bag")


def bag_faces(bag: dict) -> list[str]:
    """The bag's tokens in the engine's stated order (EU, USA, CHN, RUS, DEMO): face k draws the k-th."""
    return [faction for faction in FACTIONS for _ in range(bag.get(faction, 0))]


def face_of(bag: dict, faction: str) -> int:
    """The first face that draws a token of ``faction`` (for injecting a known draw order)."""
    if bag.get(faction, 0) == 0:
        raise ValueError(f"no {faction} token in the bag")
    return 1 + sum(bag.get(f, 0) for f in FACTIONS[:FACTIONS.index(faction)])


def voting(game: dict):
    """§7.2: draw one token at a time; a vote goes where its owner places it; the 3rd neutral ends it."""
    carried = game["options"]["winner_vote_carries"]
    if carried != "counts":  # A-10 alternatives: last round's winning votes leave before the voting
        for votes in game["institutions"].values():
            for power, n in votes.items():
                if carried == "to_bag_before_voting":
                    add(game["bag"], power, n)
                else:
                    game["powers"][power]["pool"] += n
            votes.clear()
    draws = []
    neutrals = 0
    while sum(game["bag"].values()) > 0:  # an empty bag also ends the voting [DEF]
        faces = bag_faces(game["bag"])
        (face,) = yield Dice("draw", 1, sides=len(faces), faces=faces,
                             details={"bag": {f: game["bag"][f] for f in FACTIONS if game["bag"].get(f)},
                                      "order": list(FACTIONS), "draw": len(draws) + 1,
                                      "neutrals_drawn": neutrals, "neutrals_to_end": NEUTRALS_TO_END})
        token = drawn_token(game["bag"], face)
        add(game["bag"], token, -1)
        if token == DEMO:
            game["set_aside_demo"] += 1
            neutrals += 1
            draws.append({"token": DEMO})
            if neutrals == NEUTRALS_TO_END:
                break
            continue
        is_bot = game["powers"][token]["is_bot"]
        place = yield Decision(token, "place_vote", choices=list(INSTITUTIONS),
                               default=bots.vote_choice(game["institutions"], token) if is_bot else NO_DEFAULT,
                               bot=is_bot,
                               details={"institutions": copy.deepcopy(game["institutions"]),
                                        "bag": {f: game["bag"][f] for f in FACTIONS if game["bag"].get(f)},
                                        "neutrals_drawn": neutrals, "neutrals_to_end": NEUTRALS_TO_END})
        add(game["institutions"][place], token, 1)
        draws.append({"token": token, "institution": place})
    return draws


def resolution(game: dict):
    """§7.3: each institution in board order; a sole majority keeps one vote and acts."""
    results = {}
    for name in INSTITUTIONS:
        votes = game["institutions"][name]  # tallied now, so a Davos removal counts (§7.3.1)
        winner = sole_majority(votes)
        result: dict = {"votes": dict(votes), "controller": winner}
        to_bag = {p: n for p, n in votes.items() if p != winner}
        for power, n in to_bag.items():
            add(game["bag"], power, n)
        if winner is not None:
            game["powers"][winner]["pool"] += votes[winner] - 1
            result["to_pool"] = {winner: votes[winner] - 1}
            game["institutions"][name] = {winner: 1}  # the winning vote stays (§7.3.4)
        else:
            game["institutions"][name] = {}
        result["to_bag"] = to_bag
        game["controller"][name] = winner
        effect = EFFECTS[name](game, winner)  # Press needs no decision, so it is a plain function
        result["effect"] = (yield from effect) if inspect.isgenerator(effect) else effect
        results[name] = result
    return results


def _davos(game, controller):
    if controller is None:
        return None
    choices = [{"institution": i, "power": p} for i in INSTITUTIONS[1:] for p in POWERS
               if game["institutions"][i].get(p, 0) > 0]
    if not choices:
        return {"removed": None}
    is_bot = game["powers"][controller]["is_bot"]
    default = bots.davos_choice(game, controller) if is_bot else None  # None: remove nothing (a "may", A-6)
    removal = yield Decision(controller, "davos_remove", choices=[None, *choices], default=default, bot=is_bot,
                             details={"institutions": copy.deepcopy(game["institutions"])})
    if removal is not None:  # the removed vote goes to its owner's pool, not the bag (§7.4.1)
        add(game["institutions"][removal["institution"]], removal["power"], -1)
        game["powers"][removal["power"]]["pool"] += 1
    return {"removed": removal}


def _imf(game, controller):
    if controller is None:
        return None
    pair = yield swap_decision(game, controller, source="IMF")
    if pair is not None:
        swap(game, pair)
    return {"swap": pair}


def _press(game, controller):
    if controller is None:
        return None
    me = game["powers"][controller]
    if me["support"] < SUPPORT_TOP:
        me["support"] += 1
    else:
        me["pp"] += 2  # already on the top space (§7.4.3)
    me["press_protected"] = True
    return {"support": me["support"], "pp": me["pp"]}


def _un(game, controller):
    card = game["un_card"]
    if card is None:
        return None
    if controller is None and game["options"]["un_no_majority"] == "no_effect":
        return None  # no E2 and no E3 for anyone
    events = {}
    if controller is not None:
        events[controller] = yield from activation(game, controller, card["majority"], source="UN E2")
    for power in initiative(game):  # every other power in play, in initiative order
        if power != controller:
            events[power] = yield from activation(game, power, card["minority"], source="UN E3")
    return {"card": card["name"], "events": events}


EFFECTS = {"DAVOS": _davos, "IMF": _imf, "PRESS": _press, "UN": _un}


def run_voting(state: dict):
    game = copy.deepcopy(state)
    draws = yield from voting(game)
    return Outcome({"draws": draws}, game)


def run_resolution(state: dict):
    game = copy.deepcopy(state)
    results = yield from resolution(game)
    return Outcome({"institutions": results}, game)


def run_governance(state: dict):
    game = copy.deepcopy(state)
    draws = yield from voting(game)
    results = yield from resolution(game)
    return Outcome({"draws": draws, "institutions": results}, game)


_VOTERS = ("The powers in play (EU, USA, CHN, RUS): each drawn vote's owner places it (a bot's placement is "
           "marked bot)")
_RESOLVERS = ("the controllers of DAVOS and IMF choose a removal and a swap, and the UN card's effects may ask "
              "the powers to choose countries, bribes or swaps (a bot's decisions are marked bot)")
VOTING = Procedure(
    "statecraft.voting", GameSchema, run_voting, version="2",
    summary="Draws votes from the diplomatic bag one at a time (spec §7.2): each drawn vote goes on the "
            "institution its owner chooses, and the third neutral token drawn ends the voting.",
    participants=_VOTERS + "; the service draws from the bag (a die whose faces are the bag's tokens).")
INSTITUTION_RESOLUTION = Procedure(
    "statecraft.institution_resolution", GameSchema, run_resolution, version="2",
    summary="Resolves DAVOS, IMF, PRESS and UN in board order (spec §7.3, §7.4): sole majorities, the "
            "votes returned to pools and the bag, and each controller's effect.",
    participants="The powers in play (EU, USA, CHN, RUS): " + _RESOLVERS + "; nothing is rolled.")
GOVERNANCE = Procedure(
    "statecraft.governance", GameSchema, run_governance, version="2",
    summary="The governance phase (spec §7): the voting from the diplomatic bag, then the resolution of the "
            "four institutions.",
    participants=_VOTERS + ", then " + _RESOLVERS + "; the service draws from the bag (a die whose faces are "
                 "the bag's tokens).")
