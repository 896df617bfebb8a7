"""Builders for 1630 test states, and a driver that answers step by step through the engine."""
from __future__ import annotations

from adjudicator.procedure import Decision, Dice, Outcome, Sealed

from tests import procedure_driver


def card(card_id: str, country: str, value: int) -> dict:
    return {"id": card_id, "kind": "INFLUENCE", "country": country, "value": value}


def special(card_id: str, kind: str = "ASSASSIN") -> dict:
    return {"id": card_id, "kind": "SPECIAL", "special": kind}


def pile(state: str, *cards: dict) -> dict:
    return {"state": state, "cards": list(cards)}


def named_pile(owner: str, country: str, values, state: str = "DOMINANT") -> dict:
    """A pile of named cards with ids like ``Tim-ENGLAND-0`` (values illustrative, as in the spec)."""
    return pile(state, *(card(f"{owner}-{country}-{i}", country, v) for i, v in enumerate(values)))


def label(step) -> str:
    if isinstance(step, Decision):
        return f"{step.participant}:{step.question}"
    if isinstance(step, Sealed):
        return f"sealed:{step.question}"
    if isinstance(step, Dice):
        return f"dice:{step.purpose}"
    return "outcome"


def drive(procedure, state, script):
    """``script`` is a list of (expected step label, answer); returns (log, final step)."""
    return procedure_driver.drive(procedure, state, script, label)


def outcome(procedure, state, script) -> Outcome:
    _, step = drive(procedure, state, script)
    assert isinstance(step, Outcome), f"expected the outcome, got {label(step)}"
    return step
