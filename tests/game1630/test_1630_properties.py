"""Properties of the 1630 war and vote engines over generated states (hypothesis)."""
import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples

from adjudicator.game1630 import SCORING, VOTE, WAR
from adjudicator.game1630.state import COUNTRIES, INITIAL_COUNTRIES
from adjudicator.procedure import Decision, Dice, Outcome, Sealed, answer, next_step

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


@settings(max_examples=examples(200), deadline=None)
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


def as_stored(value):
    """What the service keeps of an answer: its JSON form (lists, string keys)."""
    return json.loads(json.dumps(value))


def choose(step, data):
    """A random legal answer for ``step`` (the default when a random pick is refused)."""
    if isinstance(step, Dice):
        return data.draw(st.lists(die, min_size=step.count, max_size=step.count))
    if isinstance(step, Sealed):
        return {d.participant: choose(d, data) for d in step.decisions}
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
    """Like ``answer`` in a loop, with one replay per step instead of two (they are slow to run by the hundred).

    Every step and every answer goes through JSON, as the service stores them.
    """
    log, step = [], next_step(VOTE, state, [])
    while not isinstance(step, Outcome):
        assert len(log) < limit, "the vote did not terminate"
        json.dumps(step.to_dict())
        value = as_stored(pick(step))
        assert step.refusal(value) is None
        log = [*log, value]
        step = next_step(VOTE, state, log)
    assert as_stored(step.to_dict()) == step.to_dict()  # the outcome is JSON as it stands
    return log, step


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    # every participant either cast a ballot or missed it, never both
    assert set(result["ballots"]) | set(result["missed"]) == set(weights)
    assert not set(result["ballots"]) & set(result["missed"])
    assert set(result["ballots"].values()) <= {"RED", "BLUE"}
    counted = result["counted"]
    assert result["red"] == sum(w for p, w in weights.items() if counted[p] == "RED")
    assert result["blue"] == sum(w for p, w in weights.items() if counted[p] == "BLUE")
    expected_losers = [] if result["winner"] == "TIE" else [
        p for p in weights if counted[p] is not None and counted[p] != result["winner"]]
    assert [l["player"] for l in result["losers"]] == expected_losers
    assert (result["war"] is not None) == (result["agenda"]["agenda"] == "WAR" and result["winner"] == "RED")
    for record in after["countries"].values():
        assert 0 <= record["prestige"] <= 7 and record["army_size"] >= 0 and record["military_ability"] >= 0


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=vote_states(), data=st.data())
def test_taking_the_default_at_every_decision_always_terminates(state, data):
    def default(step):
        if isinstance(step, Dice):
            return data.draw(st.lists(die, min_size=2, max_size=2))
        assert step.has_default and step.refusal(as_stored(step.default)) is None  # a default is a legal answer
        return step.default

    log, final = play_out(state, default)
    if final.result["called"]:
        # the default agenda and the missed (status-quo) ballots change nothing and start no war
        assert final.result["war"] is None and final.result["change"] is None
        assert final.result["ballots"] == {} and len(final.result["missed"]) == len(final.result["participants"])
        assert final.state["countries"] == {c: {**r} for c, r in state["countries"].items()}


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=vote_states(), data=st.data())
def test_sealed_steps_and_private_details_keep_hands_and_ballots_secret(state, data):
    """Placements after the call and ballots are each one sealed step; a step listing a hand is private."""
    loaded = VOTE.load(state)
    hand_ids = {p: {card["id"] for card in loaded["hands"].get(p, [])} for p in loaded["players"]}
    log, step = [], next_step(VOTE, state, [])
    questions = []
    while not isinstance(step, Outcome):
        questions.append(step.question if not isinstance(step, Dice) else "dice")
        for decision in (step.decisions if isinstance(step, Sealed) else [step] if isinstance(step, Decision) else []):
            if decision.question in ("country", "placement"):
                assert decision.private
                assert set(decision.details["placeable"] if decision.question == "placement" else []) \
                    <= hand_ids[decision.participant]  # only its own cards
            else:
                assert not decision.private
        if isinstance(step, Decision):
            assert step.question in ("country", "placement", "agenda", "loss_choice")
        if isinstance(step, Sealed):
            others = [p for p in loaded["players"] if p != loaded["caller"]]
            if step.question == "placement":
                assert set(step.participants) == set(others)
            else:
                assert step.question == "ballot"
        value = as_stored(choose(step, data))
        log = [*log, value]
        step = next_step(VOTE, state, log)
    if step.result["called"]:
        assert questions.count("ballot") == 1 and questions.count("placement") == 1 + (len(loaded["players"]) > 1)
        ballot_at = questions.index("ballot")
        assert all(q in ("loss_choice", "dice") for q in questions[ballot_at + 1:])


@settings(max_examples=examples(100), deadline=None)
@given(pair=st.permutations(COUNTRIES).map(lambda c: c[:2]), a=country_record, d=country_record,
       dice_a=two_dice, dice_d=two_dice)
def test_a_war_through_json_always_ends_with_a_json_outcome(pair, a, d, dice_a, dice_d):
    state = as_stored({"attacker": pair[0], "defender": pair[1], "countries": {pair[0]: a, pair[1]: d}})
    log, step = [], next_step(WAR, state, [])
    for roll, role in ((dice_a, pair[0]), (dice_d, pair[1])):
        assert isinstance(step, Dice) and step.details["country"] == role
        assert as_stored(step.to_dict()) == step.to_dict()
        log, step = answer(WAR, state, log, as_stored(roll))
    assert isinstance(step, Outcome) and as_stored(step.to_dict()) == step.to_dict()


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=vote_states(), data=st.data())
def test_scoring_ends_at_once_with_a_json_outcome(state, data):
    counters = {p: data.draw(st.lists(st.sampled_from(COUNTRIES), max_size=4)) for p in state["players"]}
    scoring_state = as_stored({"players": state["players"], "displays": state["displays"],
                               "countries": state["countries"], "vp_counters": counters})
    step = next_step(SCORING, scoring_state, [])
    assert isinstance(step, Outcome) and as_stored(step.to_dict()) == step.to_dict()
    assert all(score >= 0 for score in step.result["scores"].values())
