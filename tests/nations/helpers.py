"""Builders for Nations states and a driver that plays a procedure answer by answer."""
from adjudicator.procedure import Decision, Outcome, answer, next_step


def nation(strength=0, stability=0, vp=0, **fields):
    """A nation whose strength and stability come from flat card bonuses (fixtures, spec §5 '*')."""
    resources = {t: fields.pop(t) for t in ("gold", "stone", "food", "knowledge") if t in fields}
    return {"strength_bonus": strength, "stability_bonus": stability, "vp": vp, "resources": resources, **fields}


def game(nations: dict, order=None, **fields):
    return {"nations": nations, "player_order": list(order or nations), **fields}


def event_card(*events, famine=0):
    card = {"id": "event*", "famine": famine}
    for key, event in zip(("event1", "event2"), events):
        card[key] = event
    return card


def part(selector, polarity, *effects, **extra):
    return {"selector": selector, "polarity": polarity, "effects": list(effects), **extra}


def drive(procedure, state, script=()):
    """Answer each expected decision in turn, checking who is asked what; return the outcome.

    ``script`` holds ``(participant, question, answer)``; ``answer`` may be
    ``DEFAULT`` to let the deadline pass.  The log's replay must give the same outcome.
    """
    log = []
    step = next_step(procedure, state, log)
    for participant, question, value in script:
        assert isinstance(step, Decision), f"expected {participant}: {question}, got {step}"
        assert (step.participant, step.question) == (participant, question)
        log, step = answer(procedure, state, log, step.default if value is DEFAULT else value)
    assert isinstance(step, Outcome), f"unexpected further step {step}"
    assert next_step(procedure, state, log) == step
    return step


DEFAULT = object()


def resources(outcome, nid):
    return outcome.state["nations"][nid]["resources"]


def vp(outcome, nid):
    return outcome.state["nations"][nid]["vp"]
