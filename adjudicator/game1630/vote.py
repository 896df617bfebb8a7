"""The voting resolver (spec §5): one vote in one country, called by the phasing player.

Steps, in order (each a Decision unless said otherwise):

1. ``country``   caller: a country where they have a pile or can place a named card (5.1.2);
2. ``placement`` caller: influence cards for that country, before the call (5.2);
3. ``agenda``    caller: an agenda legal for the country's state (5.3.1, 5.6);
4. ``placement`` one Sealed step of every other player: cards for that country (5.3.2, A-5);
5. ``ballot``    one Sealed step of every participant: RED or BLUE (5.4, 5.7.3);
6. ``loss_choice`` each loser whose pile was already declining: the card to remove (5.8.2);
7. a passed war is resolved by the war engine's own generator (dice steps, §6).

Every other player is in step 4 even with nothing to place, so the step does
not tell the table who holds cards for the country; steps 1, 2 and 4 list
cards of their participant's hand and are private (§2.6).

Nobody may abstain (5.4.2).  A ballot missed at the deadline is the step's
default ``NO_BALLOT``, which counts as the status quo (5.7.5): BLUE for WAR
and REARM, the current colour for CHANGE_SIDE, neither colour (and no loss)
for JOIN_SIDE.  The result lists the ballots cast and, apart, who missed.
"""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from adjudicator.procedure import Decision, Outcome, Procedure, Sealed

from .piles import (default_removal, pile_value, place, placeable, placement_refusal, remove_card,
                    removable)
from .state import (BLUE, COUNTRIES, DECLINING, DOMINANT, INFLUENCE, NEUTRAL, RED, CountriesMixin,
                    PlayersMixin, load_copy)
from .war import run_war

JOIN_SIDE, WAR, REARM, CHANGE_SIDE = "JOIN_SIDE", "WAR", "REARM", "CHANGE_SIDE"
TIE = "TIE"
# 5.7.5: the deadline default of a ballot.  Participants may not abstain (5.4.2):
# a missed ballot is counted as the status quo (neither colour for JOIN_SIDE) and
# reported in the result's "missed", apart from the ballots cast.
NO_BALLOT = "NO_BALLOT"
BALLOTS = (RED, BLUE)
OPPOSITE = {RED: BLUE, BLUE: RED}


class VoteState(CountriesMixin, PlayersMixin):
    caller = fields.String(required=True, validate=validate.Length(min=1))

    @validates_schema
    def _caller_has_a_seat(self, data, **kwargs):
        if data.get("caller") not in (data.get("players") or []):
            raise ValidationError("the caller must be one of the players", "caller")


# --- who may call where, and on what -------------------------------------------------

def callable_countries(piles: dict, hand: list[dict]) -> list[str]:
    """5.1.2: a pile there (dominant or declining, A-32) or a named card they may place (P-6)."""
    return [c for c in COUNTRIES
            if c in piles or any(card["kind"] == INFLUENCE and card["country"] == c for card in hand)]


def agenda_refusal(countries: dict, config: dict, country: str, agenda) -> str | None:
    """Why ``agenda`` cannot be put to a vote in ``country``; the reason names the rule (5.9)."""
    if not isinstance(agenda, dict) or agenda.get("agenda") not in (JOIN_SIDE, WAR, REARM, CHANGE_SIDE):
        return 'an agenda is {"agenda": JOIN_SIDE | WAR | REARM | CHANGE_SIDE} (WAR also names a "target")'
    kind, state = agenda["agenda"], countries[country]
    if set(agenda) - {"agenda", "target"} or (kind != WAR and "target" in agenda):
        return "only a WAR agenda names a target"
    if kind == WAR:
        return war_refusal(countries, config, country, agenda.get("target"))
    if state["side"] == NEUTRAL and kind != JOIN_SIDE:
        return f"5.3.1: {country} is NEUTRAL, so JOIN_SIDE is its only agenda"
    if state["side"] != NEUTRAL and kind == JOIN_SIDE:
        return f"5.3.1: {country} is {state['side']}, JOIN_SIDE is only for neutral countries"
    if kind == REARM and state["army_size"] != 0:
        return f"5.5: REARM needs army size 0, {country} has {state['army_size']}"
    return None


def war_refusal(countries: dict, config: dict, attacker: str, target) -> str | None:
    """W-1..W-5 (§5.6)."""
    if target not in COUNTRIES:
        return f"WAR: the target must be one of {list(COUNTRIES)}"
    if target == attacker:
        return f"WAR: {attacker} cannot attack itself"
    a, t = countries[attacker], countries[target]
    if a["side"] == NEUTRAL:
        return f"W-1: {attacker} is NEUTRAL and cannot declare war"
    if t["side"] != OPPOSITE[a["side"]]:
        why = "neutral" if t["side"] == NEUTRAL else "on the same side"
        return f"W-2: {target} is {why}; {a['side']} may attack only {OPPOSITE[a['side']]}"
    if a["army_size"] < 1:
        return f"W-3: {attacker} has army size 0"
    if a["unrest"]:
        return f"W-4: {attacker} has unrest"
    if t["prestige"] <= config["adjacency_only_prestige_max"] and not adjacent(config, attacker, target):
        return f"W-5: target prestige {t['prestige']}, {attacker} not adjacent to {target}"
    return None


def adjacent(config: dict, a: str, b: str) -> bool:
    return any({a, b} == set(pair) for pair in config["adjacency"])


def legal_agendas(countries: dict, config: dict, country: str) -> list[dict]:
    side = countries[country]["side"]
    if side == NEUTRAL:
        return [{"agenda": JOIN_SIDE}]
    wars = [{"agenda": WAR, "target": t} for t in COUNTRIES
            if war_refusal(countries, config, country, t) is None]
    rearm = [{"agenda": REARM}] if countries[country]["army_size"] == 0 else []
    return [*wars, *rearm, {"agenda": CHANGE_SIDE}]


def status_quo_ballot(agenda: dict, side: str) -> str | None:
    """5.7.5: the colour a missed ballot counts for; None (neither) for JOIN_SIDE."""
    if agenda["agenda"] in (WAR, REARM):
        return BLUE
    if agenda["agenda"] == CHANGE_SIDE:
        return side
    return None


BALLOT_MEANING = {
    JOIN_SIDE: {RED: "the country joins red", BLUE: "the country joins blue"},
    WAR: {RED: "war", BLUE: "peace"},
    REARM: {RED: "rearm (army 0 -> 1)", BLUE: "stay disarmed"},
    CHANGE_SIDE: {RED: "the country should be red", BLUE: "the country should be blue"},
}


# --- the procedure ------------------------------------------------------------------

def run_vote(state: dict):
    state = load_copy(state)
    players, caller = state["players"], state["caller"]
    countries, config = state["countries"], state["config"]
    displays = {p: state["displays"].get(p, {}) for p in players}
    hands = {p: state["hands"].get(p, []) for p in players}
    state["displays"], state["hands"] = displays, hands
    seat = players.index(caller)
    clockwise = players[seat:] + players[:seat]  # caller first, then the next seats

    # 1. Where.  With nowhere to call, the mandatory vote is skipped (3.6.1, A-28).
    options = callable_countries(displays[caller], hands[caller])
    if not options:
        return Outcome({"called": False, "reason": "A-28: the caller has no pile and no named influence card"},
                       state)
    with_pile = [c for c in options if c in displays[caller]]
    # Private: a country listed without a pile tells of a named card in the caller's hand.
    country = yield Decision(caller, "country", options, default=(with_pile or options)[0], private=True,
                             details={"with_pile": with_pile,
                                      "with_named_card": [c for c in options if c not in with_pile]})

    # 2. The caller's own placement, before the call.
    pile, hand = displays[caller].get(country), hands[caller]

    def caller_refusal(answer):
        reason = placement_refusal(answer, hand, pile, country)
        if reason is None and pile is None and not any(
                card["id"] in answer and card["country"] == country for card in hand):
            reason = f"5.1.2: you have no {country} pile, so you must place a named {country} card to call there"
        return reason

    needs_named = pile is None
    named = [card for card in hand if card["kind"] == INFLUENCE and card["country"] == country]
    default = [default_removal(named)["id"]] if needs_named else []  # the cheapest named card (DEF)
    chosen = yield Decision(caller, "placement", None, default=default, check=caller_refusal, private=True,
                            details={**_placement_details(country, hand, pile, must_place_named=needs_named),
                                     "piles": _piles(displays, players, country)})
    place(displays[caller], hand, country, chosen)
    placements = {caller: list(chosen)}

    # 3. The call.  choices stay None so that a refusal names the broken rule (5.9).
    legal = legal_agendas(countries, config, country)
    agenda = yield Decision(
        caller, "agenda", None, default=_default_agenda(legal),
        details={"country": country, "side": countries[country]["side"], "legal": legal},
        check=lambda answer: agenda_refusal(countries, config, country, answer))
    agenda = dict(agenda)

    # 4. Everyone else may place, sealed and at once; the placements are revealed together.
    others = clockwise[1:]
    if others:
        piles_now = _piles(displays, players, country)
        sealed = yield Sealed("placement", tuple(
            Decision(player, "placement", None, default=[], private=True,
                     details={**_placement_details(country, hands[player], displays[player].get(country)),
                              "agenda": agenda, "caller": caller, "piles": piles_now},
                     check=lambda answer, h=hands[player], p=displays[player].get(country):
                         placement_refusal(answer, h, p, country))
            for player in others))
        for player in others:
            chosen = list(sealed[player])
            place(displays[player], hands[player], country, chosen)
            placements[player] = chosen

    # 5. Secret ballots of exactly the players with a pile there (5.4.1), cast at once (5.7.3).
    participants = [p for p in clockwise if country in displays[p]]
    weights = {p: pile_value(displays[p][country]) for p in participants}
    side = countries[country]["side"]
    status_quo = status_quo_ballot(agenda, side)
    details = {"country": country, "agenda": agenda, "side": side, "meaning": BALLOT_MEANING[agenda["agenda"]],
               "choices": list(BALLOTS), "weights": dict(weights), "if_missed": status_quo}
    answered = yield Sealed("ballot", tuple(
        Decision(player, "ballot", None, default=NO_BALLOT, check=_ballot_refusal, default_only_at_deadline=True,
                 details={**details, "weight": weights[player]})
        for player in participants))
    ballots = {p: answered[p] for p in participants if answered[p] in BALLOTS}
    missed = [p for p in participants if answered[p] == NO_BALLOT]
    counted = {p: ballots.get(p, status_quo) for p in participants}  # None: counts for neither colour

    # Tally (5.7.4): only a strict majority wins.
    red = sum(weights[p] for p in participants if counted[p] == RED)
    blue = sum(weights[p] for p in participants if counted[p] == BLUE)
    winner = RED if red > blue else BLUE if blue > red else TIE
    change = _apply_agenda(countries[country], agenda, winner, config)

    # Losing effects (5.8): dominant piles turn declining, declining ones lose a card.
    losers = []
    if winner != TIE:
        for player in participants:
            if counted[player] is not None and counted[player] != winner:
                lost = displays[player][country]
                if lost["state"] == DOMINANT:
                    lost["state"] = DECLINING
                    losers.append({"player": player, "effect": "TURN_DECLINING"})
                    continue
                allowed = removable(lost, country, config["open_rule_on_all_removals"])
                card_id = yield Decision(
                    player, "loss_choice", [card["id"] for card in allowed], default=default_removal(allowed)["id"],
                    details={"country": country, "reason": "5.8.2: your declining pile lost the vote",
                             "cards": [dict(card) for card in lost["cards"]]})
                removed = remove_card(displays[player], country, card_id, config["open_rule_on_all_removals"])
                state["discard"].extend(removed)
                losers.append({"player": player, "effect": "REMOVE_ONE_CARD",
                               "removed": [card["id"] for card in removed]})

    # 5.8.5: a passed war is fought at once, by the war engine itself.
    war = None
    if agenda["agenda"] == WAR and winner == RED:
        fought = yield from run_war({"countries": countries, "config": config,
                                     "attacker": country, "defender": agenda["target"]})
        state["countries"] = countries = fought.state["countries"]
        war = fought.result

    result = {
        "called": True, "caller": caller, "country": country, "agenda": agenda,
        "placements": placements,
        "participants": [{"player": p, "weight": weights[p]} for p in participants],
        "ballots": ballots, "missed": missed, "counted": counted,
        "red": red, "blue": blue, "winner": winner,
        "change": change, "losers": losers, "war": war,
    }
    return Outcome(result, state)


def _placement_details(country, hand, pile, must_place_named=False) -> dict:
    return {"country": country,
            "placeable": [card["id"] for card in placeable(hand, pile, country)],
            "pile": None if pile is None else {"state": pile["state"], "value": pile_value(pile)},
            "must_place_named": must_place_named}


def _piles(displays: dict, players: list, country: str) -> dict:
    """Every player's pile in ``country`` as the table sees it (displays are public, §2.6)."""
    return {p: {"state": displays[p][country]["state"], "value": pile_value(displays[p][country])}
            for p in players if country in displays[p]}


def _default_agenda(legal: list[dict]) -> dict:
    """DEF: at the deadline, the least consequential agenda: JOIN_SIDE or CHANGE_SIDE, never a war."""
    return legal[-1]


def _ballot_refusal(answer) -> str | None:
    """RED or BLUE; NO_BALLOT is the deadline default, refused from a participant
    (``default_only_at_deadline``) but accepted when the log is replayed."""
    if answer in (RED, BLUE, NO_BALLOT):
        return None
    return f"{answer!r} is not one of the legal choices ['RED', 'BLUE'] (5.7.1: no abstention, no split)"


def _apply_agenda(country: dict, agenda: dict, winner: str, config: dict) -> dict | None:
    """The 5.5 table; returns the change made, if any."""
    kind = agenda["agenda"]
    if winner == TIE:
        return None
    if kind in (JOIN_SIDE, CHANGE_SIDE) and country["side"] != winner:
        before, country["side"] = country["side"], winner
        return {"side": [before, winner]}
    if kind == REARM and winner == RED:
        country["army_size"] = 1
        return {"army_size": [0, 1]}
    return None


VOTE = Procedure(
    "1630.vote", VoteState, run_vote, private_fields=("hands",), version="2",
    summary="One vote in one country (§5): the caller's country, placement and agenda, the other players' "
            "sealed placements, the sealed ballots, the tally, losing effects and any war the vote passes.",
    participants="the players (seats) named in players: the caller and every other player, who may place "
                 "cards and then vote if they have a pile in the country; the war dice, if any, are rolled "
                 "by the service")
