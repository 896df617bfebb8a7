"""Properties: tokens are conserved, a replay of the log gives the same outcome, defaults always terminate."""
import json

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from tests.budget import examples

from adjudicator.procedure import Decision, Dice, Outcome, Sealed, answer, next_step
from adjudicator.statecraft import (AGENDA, BRIBES, CONFLICT, COUNTRY_GRID, EFFECT, FINAL_SCORING, GOVERNANCE,
                                    INFLUENCE)
from adjudicator.statecraft.state import AGENDA_SPACES, INSTITUTIONS, POWERS, RESOURCES

from tests.statecraft.helpers import tokens_of

EFFECTS = ["PP_METALS", "COUNT_CROPS", "PLACE_INFLUENCE", "PLACE_INFLUENCE_ISLAMIC", "PLACE_DEMO",
           "PLACE_DEMO_OWN_FG", "BRIBE", "SPY", "SWAP_RESOURCES", "SUPPORT_UP", "SUPPORT_DOWN", "VOTE_TO_BAG",
           "PP_DELTA(-2)"]
SETTINGS = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw, min_countries=1):
    names = draw(st.lists(st.sampled_from(POWERS), min_size=1, max_size=4, unique=True))
    powers = {p: {"pp": draw(st.integers(0, 6)), "leader_value": i, "pool": draw(st.integers(0, 4)),
                  "spy": draw(st.integers(0, 2)), "support": draw(st.integers(1, 9)),
                  "planned_influence": draw(st.integers(0, 3)), "planned_bribes": draw(st.integers(0, 3)),
                  "is_bot": draw(st.booleans()),
                  "market_priority": draw(st.permutations(list(RESOURCES)))[:2],
                  "primary_symbols": ["P"], "secondary_symbols": ["S"]}
              for i, p in enumerate(names)}
    grid = []
    for col in range(1, draw(st.integers(min_countries, 4)) + 1):
        ct = draw(st.integers(2, 5))
        influence = {f: draw(st.integers(0, ct)) for f in names + ["DEMO"]}
        holders = [p for p in names if influence[p] > 0]
        fg = draw(st.sampled_from(holders + [None])) if holders else None
        grid.append({"name": f"C{col}", "row": 1, "col": col, "ct": ct, "influence": influence, "fg": fg,
                     "conflict": sum(influence.values()) > ct, "islamic": draw(st.booleans()),
                     "reward": draw(st.lists(st.sampled_from(EFFECTS), max_size=3)),
                     "symbols": draw(st.lists(st.sampled_from(["P", "S"]), max_size=2, unique=True)),
                     "resource_symbols": draw(st.lists(st.sampled_from(RESOURCES), max_size=2))})
    return {"powers": powers, "grid": grid, "demo_supply": draw(st.integers(0, 6)),
            "marker_1": {"row": 1, "col": draw(st.integers(1, len(grid)))},
            "bag": {f: draw(st.integers(0, 2)) for f in names + ["DEMO"]},
            "institutions": {i: {p: draw(st.integers(0, 2)) for p in names} for i in INSTITUTIONS},
            "un_card": {"name": "fixture", "majority": draw(st.lists(st.sampled_from(EFFECTS), max_size=2)),
                        "minority": draw(st.lists(st.sampled_from(EFFECTS), max_size=2))}}


def random_plan(data, step):
    """A legal influence plan: exactly ``must_place`` tokens, one at a time into countries with room."""
    room = dict(step.details["room"])
    plan: dict = {}
    for _ in range(step.details["must_place"]):
        name = data.draw(st.sampled_from(sorted(n for n, free in room.items() if free)))
        plan[name] = plan.get(name, 0) + 1
        room[name] -= 1
    return plan


def random_agenda_plan(data, tokens):
    cuts = sorted(data.draw(st.lists(st.integers(0, tokens), min_size=3, max_size=3)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, tokens])]
    return dict(zip(AGENDA_SPACES, parts))


def random_answer(data, step):
    if isinstance(step, Sealed):
        return {d.participant: random_answer(data, d) for d in step.decisions}
    if isinstance(step, Dice):
        return data.draw(st.lists(st.integers(1, step.sides), min_size=step.count, max_size=step.count))
    if step.question == "place_influence_plan":
        return random_plan(data, step)
    if step.question == "agenda_plan":
        return random_agenda_plan(data, step.details["tokens"])
    if step.choices is not None:
        return data.draw(st.sampled_from(list(step.choices)))
    top = step.details["indexes"]["max"]  # a reroll: decline or a non-empty set of own dice
    return data.draw(st.one_of(st.none(), st.sets(st.integers(0, top), min_size=1).map(sorted)))


def drive(procedure, state, data, use_defaults=False, limit=500):
    """Answer every step as a service would, each answer passed through JSON (the stored log is JSON).

    Dice come from hypothesis.  Decisions take their default (``use_defaults``; a step without a
    default, which waits for its participant or the director, takes a random legal answer) or a
    random legal answer.  Every default must itself be legal, and a bot's decisions, and only a
    bot's, are marked bot.
    """
    log = []
    step = next_step(procedure, state, log)
    while not isinstance(step, Outcome):
        assert json.loads(json.dumps(step.to_dict())) == step.to_dict()  # every step is JSON for the service
        for decision in step.decisions if isinstance(step, Sealed) else [step] if isinstance(step, Decision) else []:
            assert decision.participant in state["powers"]
            assert decision.bot == state["powers"][decision.participant].get("is_bot", False)
            if decision.has_default:
                assert decision.refusal(decision.default) is None, (decision, decision.default)
        if isinstance(step, Dice) and step.faces is not None:
            assert len(step.faces) == step.sides
        if isinstance(step, Sealed):  # each part: its default if it has one and it is taken, else an answer
            value = {d.participant: d.default if (use_defaults or d.bot) and d.has_default
                     else random_answer(data, d) for d in step.decisions}
        elif not isinstance(step, Dice) and (use_defaults or step.bot) and step.has_default:
            value = step.default
        else:
            value = random_answer(data, step)
        log, step = answer(procedure, state, log, json.loads(json.dumps(value)))
        assert len(log) < limit
    assert next_step(procedure, state, log) == step  # the replay of the log gives the same outcome
    json.dumps(step.to_dict())
    return step


@SETTINGS
@given(games(), st.data())
def test_a_conflict_conserves_tokens_and_leaves_one(game, data):
    target = next((c["name"] for c in game["grid"] if c["conflict"]), None)
    assume(target)
    state = {**game, "country": target}
    out = drive(CONFLICT, state, data)
    assert tokens_of(out.state) == tokens_of(game)
    c = next(c for c in out.state["grid"] if c["name"] == target)
    assert sum(c["influence"].values()) == 1 and not c["conflict"]
    assert c["fg"] == (None if "DEMO" in c["influence"] else out.result["winner"])


@SETTINGS
@given(games(), st.data())
def test_the_grid_phase_conserves_tokens(game, data):
    out = drive(COUNTRY_GRID, game, data)
    assert tokens_of(out.state) == tokens_of(game)
    for c in out.state["grid"]:  # the invariants still hold afterwards
        assert all(n <= c["ct"] for n in c["influence"].values())
        assert c["conflict"] == (sum(c["influence"].values()) > c["ct"])


@SETTINGS
@given(games(), st.data())
def test_governance_conserves_tokens(game, data):
    out = drive(GOVERNANCE, game, data)
    assert tokens_of(out.state) == tokens_of(game)
    assert all(sum(v.values()) <= 1 for v in out.state["institutions"].values())


def every_procedure(game, data):
    actor = data.draw(st.sampled_from(sorted(game["powers"])))
    effects = data.draw(st.lists(st.sampled_from(EFFECTS), min_size=1, max_size=3))
    conflicts = [c["name"] for c in game["grid"] if c["conflict"]]
    runs = [(COUNTRY_GRID, game), (GOVERNANCE, game), (COUNTRY_GRID, {**game, "game_end": True}),
            (FINAL_SCORING, game), (INFLUENCE, {**game, "actor": actor}), (BRIBES, {**game, "actor": actor}),
            (EFFECT, {**game, "actor": actor, "effects": effects})]
    if conflicts:
        runs.append((CONFLICT, {**game, "country": conflicts[0]}))
    runs.append((AGENDA, at_the_agenda(game, data)))
    return runs


def at_the_agenda(game, data):
    """The game at an agenda phase: empty Influence and Bribe spaces; bots with a card and an agenda row."""
    tables = st.lists(st.lists(st.sampled_from(AGENDA_SPACES), min_size=1, max_size=3), min_size=1, max_size=2)
    powers = {p: {**v, "planned_influence": 0, "planned_bribes": 0, "action_table": data.draw(tables)}
              for p, v in game["powers"].items()}
    row = data.draw(st.lists(st.fixed_dictionaries({"actions": st.lists(st.sampled_from(AGENDA_SPACES), max_size=2)}),
                             max_size=2))
    return {**game, "powers": powers, "solo_agenda_row": row}


@SETTINGS
@given(games(), st.data())
def test_taking_every_default_terminates(game, data):
    for procedure, state in every_procedure(game, data):
        assert isinstance(drive(procedure, state, data, use_defaults=True), Outcome)


@SETTINGS
@given(games(), st.data())
def test_random_legal_answers_through_json_terminate(game, data):
    for procedure, state in every_procedure(game, data):
        out = drive(procedure, state, data)
        assert tokens_of(out.state) == tokens_of(state)


@SETTINGS
@given(games(), st.data())
def test_final_scoring_leaves_no_conflict_and_adds_up(game, data):
    out = drive(FINAL_SCORING, game, data)
    assert not any(c["conflict"] for c in out.state["grid"])
    assert tokens_of(out.state) == tokens_of(game)
    for p, item in out.result["scores"].items():
        parts = ("in_play", "support", "governments", "spies", "votes_in_bag")
        assert item["total"] == sum(item[k] for k in parts) == out.state["powers"][p]["pp"]
        assert item["governments"] == 2 * sum(1 for c in out.state["grid"] if c["fg"] == p)
    assert out.result["ranking"][0] in out.result["winners"]


@SETTINGS
@given(games(), st.data())
def test_influence_and_bribes_conserve_tokens_and_keep_the_invariants(game, data):
    actor = data.draw(st.sampled_from(sorted(game["powers"])))
    for procedure in (INFLUENCE, BRIBES):
        out = drive(procedure, {**game, "actor": actor}, data)
        assert tokens_of(out.state) == tokens_of(game)
        for c in out.state["grid"]:
            assert all(n <= c["ct"] for n in c["influence"].values())
            assert c["conflict"] == (sum(c["influence"].values()) > c["ct"])
