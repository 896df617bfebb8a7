"""Effect activations: country rewards and UN E2/E3 (spec §2.8, §6.2, §6.6).

One activation is one power executing one list of effect symbols.  Conflict
markers go down only at the end of the activation (§6.2.3), then the FG of
each touched country without a marker is re-evaluated (§6.3.2).  Bribes are
evaluated after each single action.  An effect a power has no token for is
skipped (token scarcity, §3.5.4).
"""
from __future__ import annotations

from adjudicator.procedure import NO_DEFAULT, Decision
from adjudicator.statecraft import bots
from adjudicator.statecraft.rules import bribe, bribe_choices, by_name, reevaluate_fg
from adjudicator.statecraft.state import DEMO, PP_DELTA, SUPPORT_TOP, add, demo_from_supply, resource_value, total

SWAPS = [None, [1, 2], [2, 3], [3, 4]]  # swap the markers on spaces k and k+1 (1 = lowest)


def swap_decision(game: dict, power: str, source: str) -> Decision:
    """The IMF swap or a SWAP_RESOURCES effect: a "may" (A-6), so a human's default is no swap (null);
    a bot's is its §9.5.4 rule."""
    is_bot = game["powers"][power]["is_bot"]
    return Decision(power, "swap_resources", choices=SWAPS, default=bots.imf_choice(game, power) if is_bot else None,
                    bot=is_bot,
                    details={"resource_track": list(game["resource_track"]), "source": source,
                             "answer": "null, or [k, k+1]: swap the markers on adjacent spaces k and k+1"})


def placement_default(game: dict, power: str, legal: list, bot_choice):
    """The default of a placement the rules make compulsory: a bot's is its rule; a human's is the only
    legal answer when there is one, otherwise nothing (the rules give no default; NO_DEFAULT)."""
    if game["powers"][power]["is_bot"]:
        return bot_choice()
    return legal[0] if len(legal) == 1 else NO_DEFAULT


def swap(game: dict, pair: list[int]) -> None:
    track = game["resource_track"]
    low, high = pair[0] - 1, pair[1] - 1
    track[low], track[high] = track[high], track[low]


def activation(game: dict, power: str, effects: list[str], source: str):
    """Execute ``effects`` for ``power`` as one activation; returns a list of event dicts."""
    events: list[dict] = []
    touched: list[str] = []
    for effect in effects:
        yield from _execute(game, power, effect, source, touched, events)
    end_of_activation(game, touched, events)
    return events


def end_of_activation(game: dict, touched: list[str], events: list) -> None:
    """The conflict trigger (§6.2.4), then the FG of each touched country left without a marker (§6.3.2)."""
    for c in game["grid"]:
        if not c["conflict"] and total(c) > c["ct"]:
            c["conflict"] = True
            events.append({"event": "CONFLICT_MARKED", "country": c["name"]})
    for c in game["grid"]:
        if c["name"] in touched and not c["conflict"]:
            reevaluate_fg(c, events)


def _execute(game, power, effect, source, touched, events):
    me = game["powers"][power]
    done = {"event": "EFFECT", "power": power, "effect": effect, "source": source}
    delta = PP_DELTA.match(effect)
    if delta:
        me["pp"] += int(delta.group(1))
    elif effect.startswith("PP_"):
        me["pp"] += resource_value(game, effect[3:])
    elif effect.startswith("COUNT_"):
        resource = effect[6:]
        owned = sum(c["resource_symbols"].count(resource) for c in game["grid"]
                    if c["fg"] == power and not c["conflict"])
        me["pp"] += owned + me["base_market"].count(resource)
    elif effect == "SUPPORT_UP":
        me["support"] = min(SUPPORT_TOP, me["support"] + 1)  # only Press turns a blocked rise into PP
    elif effect == "SUPPORT_DOWN":
        if not me["press_protected"]:
            me["support"] = max(1, me["support"] - 1)
    elif effect in ("SPY", "VOTE_TO_BAG"):
        if me["pool"] == 0:
            done["skipped"] = "no token in the pool"
        else:
            me["pool"] -= 1
            if effect == "SPY":
                me["spy"] += 1
            else:
                add(game["bag"], power, 1)
    elif effect == "SWAP_RESOURCES":
        pair = yield swap_decision(game, power, source)
        if pair is not None:
            swap(game, pair)
        done["choice"] = pair
    elif effect.startswith("PLACE_INFLUENCE"):
        islamic = effect.endswith("ISLAMIC")
        legal = [c["name"] for c in game["grid"] if not c["conflict"] and (c["islamic"] or not islamic)
                 and c["influence"].get(power, 0) + 1 <= c["ct"]]
        if me["pool"] == 0 or not legal:
            done["skipped"] = "no token in the pool" if me["pool"] == 0 else "no legal country"
        else:
            default = placement_default(game, power, legal, lambda: bots.influence_effect_choice(game, power, legal))
            name = yield Decision(power, "place_influence", choices=legal, default=default, bot=me["is_bot"],
                                  details={"effect": effect, "source": source, "pool": me["pool"]})
            me["pool"] -= 1
            add(by_name(game, name)["influence"], power, 1)
            touched.append(name)
            done["country"] = name
    elif effect.startswith("PLACE_DEMO"):
        legal = [c["name"] for c in game["grid"] if not c["conflict"]
                 and c["influence"].get(DEMO, 0) + 1 <= c["ct"]
                 and (c["islamic"] or effect != "PLACE_DEMO_ISLAMIC")
                 and (c["fg"] == power or effect != "PLACE_DEMO_OWN_FG")]
        if not legal or (game["demo_supply"] is not None and game["demo_supply"] == 0):
            done["skipped"] = "no legal country" if not legal else "no demonstrator in the supply"
        else:
            default = placement_default(game, power, legal, lambda: bots.demo_choice(game, power, effect, legal))
            name = yield Decision(power, "place_demo", choices=legal, default=default, bot=me["is_bot"],
                                  details={"effect": effect, "source": source})
            demo_from_supply(game)
            add(by_name(game, name)["influence"], DEMO, 1)
            touched.append(name)
            done["country"] = name
    elif effect == "BRIBE":
        choices = bribe_choices(game, power)
        action = None
        if choices:
            # A human may decline: null.  A bot bribes by §9.4.5 with the one bribe granted (§9.7).
            default = bots.bribe_plan(game, power, 1, from_pool=True)[:1] if me["is_bot"] else [None]
            action = yield Decision(power, "bribe", choices=[None, *choices], default=(default or [None])[0],
                                    bot=me["is_bot"], details={"effect": effect, "source": source, "bribes_left": 1})
        if action is None:
            done["skipped"] = "declined" if choices else "no legal bribe"
        else:
            bribe(game, power, action, events)
            done["action"] = action
    else:  # pragma: no cover - the schema admits only the effects above
        raise AssertionError(effect)
    events.append(done)
