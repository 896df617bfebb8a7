"""Properties of the 1630 war and vote engines over generated states (hypothesis)."""
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.game1630 import VOTE, WAR
from adjudicator.game1630.state import COUNTRIES, INITIAL_COUNTRIES
from adjudicator.procedure import Decision, Dice, Outcome, answer, next_step

die = st.integers(min_value=1, max_value=6)
two_dice = st.lists(die, min_size=2, max_size=2)
country_record = st.fixed_dictionaries({
    "side": st.sampled_from(["NEUTRAL", "RED", "BLUE"]),
    "prestige": st.integers(0, 7), "army_size": st.integers(0, 4), "military_ability": st.integers(0, 4),
    "unrest": st.booleans(), "leader": st.booleans()})


# --- war --------------------------------------------------------------------------

def spec_war(a: dict, d: dict, a_id: str, d_id: str, dice_a, dice_d):
    """§6.5's reference algorithm, written out independently as the oracle."""
    def mods(c, cid, defending):
        m = c["military_ability"] + 2 * c["leader"] - (c["army_size"] == 0) - c["unrest"]
        return m + (defending and cid in ("ENGLAND", "SWEDEN") and c["prestige"] <= 1)
    a, d = dict(a), dict(d)
    ta = abs(dice_a[0] - dice_a[1]) + mods(a, a_id, False)
    td = abs(dice_d[0] - dice_d[1]) + mods(d, d_id, True)
    if ta == td:
        for c in (a, d):
            c["army_size"] = max(0, c["army_size"] - 1)
        return "TIE", a, d
    win, lose = (a, d) if ta > td else (d, a)
    if lose["prestige"] > 0:
        lose["prestige"] -= 1
        win["prestige"] = min(7, win["prestige"] + 1)
    if lose["army_size"] > 0:
        lose["army_size"] -= 1
    else:
        lose["military_ability"] = max(0, lose["military_ability"] - 1)
    return ("ATTACKER" if ta > td else "DEFENDER"), a, d


@settings(max_examples=200, deadline=None)
@given(pair=st.permutations(COUNTRIES).map(lambda c: c[:2]), a=country_record, d=country_record,
       dice_a=two_dice, dice_d=two_dice)
def test_every_war_keeps_every_bound_and_follows_the_spec_algorithm(pair, a, d, dice_a, dice_d):
    attacker, defender = pair
    state = {"attacker": attacker, "defender": defender, "countries": {attacker: a, defender: d}}
    log, final = [], next_step(WAR, state, [])
    for roll in (dice_a, dice_d):
        log, final = answer(WAR, state, log, roll)
    assert isinstance(final, Outcome)
    after = final.state["countries"]
    for record in after.values():
        assert 0 <= record["prestige"] <= 7
        assert record["army_size"] >= 0 and record["military_ability"] >= 0
    winner, want_a, want_d = spec_war(a, d, attacker, defender, dice_a, dice_d)
    assert final.result["winner"] == winner
    assert after[attacker] == want_a and after[defender] == want_d
    for other in set(COUNTRIES) - {attacker, defender}:  # nobody else is touched
        assert (after[other]["prestige"], after[other]["army_size"]) == INITIAL_COUNTRIES[other][:2]
    # prestige only moves between the two, except the point lost at the cap (§6.4.2)
    assert a["prestige"] + d["prestige"] - (after[attacker]["prestige"] + after[defender]["prestige"]) in (0, 1)
    assert next_step(WAR, state, log) == final  # replay


# --- vote -------------------------------------------------------------------------

@st.composite
def vote_states(draw):
    players = [f"P{i}" for i in range(draw(st.integers(1, 4)))]
    counter = iter(range(10_000))

    def cards(country, low, high):
        return [{"id": f"c{next(counter)}", "country": country, "value": draw(st.integers(1, 4))}
                for _ in range(draw(st.integers(low, high)))]

    displays, hands = {}, {}
    for player in players:
        piles = {}
        for country in draw(st.lists(st.sampled_from(COUNTRIES[:4]), max_size=3, unique=True)):
            piles[country] = {"state": draw(st.sampled_from(["DOMINANT", "DECLINING"])),
                              "cards": cards(country, 1, 2) + cards("OPEN", 0, 2)}
        displays[player] = piles
        hand = []
        for country in draw(st.lists(st.sampled_from([*COUNTRIES[:4], "OPEN"]), max_size=4)):
            hand += cards(country, 1, 1)
        if draw(st.booleans()):
            hand.append({"id": f"c{next(counter)}", "kind": "SPECIAL", "special": "VOTE"})
        hands[player] = hand
    countries = {c: draw(country_record) for c in COUNTRIES}
    return {"players": players, "caller": draw(st.sampled_from(players)), "displays": displays, "hands": hands,
            "countries": countries, "config": {"open_rule_on_all_removals": draw(st.booleans())}}


def all_cards(state) -> Counter:
    found = Counter()
    for piles in state["displays"].values():
        for pile in piles.values():
            found.update(card["id"] for card in pile["cards"])
    for hand in state["hands"].values():
        found.update(card["id"] for card in hand)
    found.update(card["id"] for card in state.get("discard", []))
    return found


def choose(step, data):
    """A random legal answer for ``step`` (the default when a random pick is refused)."""
    if isinstance(step, Dice):
        return data.draw(st.lists(die, min_size=step.count, max_size=step.count))
    if step.choices is not None:
        return data.draw(st.sampled_from(list(step.choices)))
    if step.question == "agenda":
        return data.draw(st.sampled_from(step.details["legal"]))
    if step.question == "ballot":
        return data.draw(st.sampled_from(["RED", "BLUE", "NO_BALLOT"]))
    pick = data.draw(st.lists(st.sampled_from(step.details["placeable"]), unique=True)
                     if step.details["placeable"] else st.just([]))
    return pick if step.refusal(pick) is None else step.default


def play_out(state, pick, limit=60):
    """Like ``answer`` in a loop, with one replay per step instead of two (they are slow to run by the hundred)."""
    log, step = [], next_step(VOTE, state, [])
    while not isinstance(step, Outcome):
        assert len(log) < limit, "the vote did not terminate"
        value = pick(step)
        assert step.refusal(value) is None
        log = [*log, value]
        step = next_step(VOTE, state, log)
    return log, step


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=vote_states(), data=st.data())
def test_a_vote_conserves_cards_keeps_pile_rules_and_replays(state, data):
    log, final = play_out(state, lambda step: choose(step, data))
    after, result = final.state, final.result
    assert all_cards(after) == all_cards(state)  # every card is still somewhere, exactly once
    for player, piles in after["displays"].items():
        for country, pile in piles.items():
            assert pile["cards"] and any(card["country"] == country for card in pile["cards"])  # P-3, P-12
            if state["displays"][player].get(country, {}).get("state") == "DECLINING":
                assert pile["state"] == "DECLINING"  # P-7
    assert next_step(VOTE, state, log) == final  # a replay of the log gives the same outcome
    if not result["called"]:
        return
    weights = {p["player"]: p["weight"] for p in result["participants"]}
    assert set(weights) == {p for p, piles in after["displays"].items()
                            if result["country"] in piles} | {l["player"] for l in result["losers"]
                                                              if l["effect"] == "REMOVE_ONE_CARD"}
    assert result["red"] == sum(w for p, w in weights.items() if result["ballots"][p] == "RED")
    assert result["blue"] == sum(w for p, w in weights.items() if result["ballots"][p] == "BLUE")
    expected_losers = [] if result["winner"] == "TIE" else [
        p for p in weights if result["ballots"][p] in ("RED", "BLUE") and result["ballots"][p] != result["winner"]]
    assert [l["player"] for l in result["losers"]] == expected_losers
    assert (result["war"] is not None) == (result["agenda"]["agenda"] == "WAR" and result["winner"] == "RED")
    for record in after["countries"].values():
        assert 0 <= record["prestige"] <= 7 and record["army_size"] >= 0 and record["military_ability"] >= 0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=vote_states(), data=st.data())
def test_taking_the_default_at_every_decision_always_terminates(state, data):
    def default(step):
        if isinstance(step, Dice):
            return data.draw(st.lists(die, min_size=2, max_size=2))
        assert step.refusal(step.default) is None  # a default is always a legal answer
        return step.default

    log, final = play_out(state, default)
    if final.result["called"]:
        # the default agenda and the status-quo ballots change nothing and start no war
        assert final.result["war"] is None and final.result["change"] is None
        assert final.state["countries"] == {c: {**r} for c, r in state["countries"].items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=vote_states(), data=st.data())
def test_no_step_before_the_tally_depends_on_another_players_ballot_or_placement(state, data):
    """Secret ballots and sealed placements: whatever one player answers, the next player's step is the same."""
    log, step = [], next_step(VOTE, state, [])
    while isinstance(step, Decision) and step.question in ("country", "placement", "agenda", "ballot"):
        nxt = []
        if step.question in ("placement", "ballot") and (step.question == "ballot" or log):
            options = [step.default] + ([] if step.choices is None else list(step.choices))
            for value in options:
                if step.refusal(value) is None:
                    nxt.append(next_step(VOTE, state, [*log, value]))
            following = [s for s in nxt if isinstance(s, Decision) and s.question == step.question
                         and s.participant != step.participant]
            if len(following) == len(nxt) and following:
                assert all(s.to_dict() == following[0].to_dict() for s in following)
        log, step = answer(VOTE, state, log, choose(step, data))
