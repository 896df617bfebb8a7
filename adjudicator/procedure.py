"""The one shape shared by every step-by-step procedure (conflicts, votes, uprisings).

A procedure is written as a generator function ``run(state)`` that *yields*
what it needs next and *receives* the answer:

* ``yield Decision(...)`` asks one participant to choose; it receives the choice;
* ``yield Dice(...)`` asks for dice to be rolled; it receives the list of values;
* ``return Outcome(...)`` ends the procedure.

The engine never rolls dice and never keeps anything between calls: the
service stores the *log* (the answers so far, in order) and calls
:func:`next_step` to replay it and learn what comes next.  Replaying the same
state and log always gives the same result, which is what makes a procedure
reproducible and verifiable afterwards.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Mapping, Sequence

import marshmallow


class IllegalDecision(ValueError):
    """An answer the current step does not accept; nothing changes."""


class InvalidState(ValueError):
    """The input state failed its schema; ``errors`` says which field and why."""

    def __init__(self, errors: Mapping[str, Any]):
        super().__init__(f"invalid state: {errors}")
        self.errors = dict(errors)


@dataclass(frozen=True)
class Decision:
    """One participant must choose.

    ``choices`` lists the legal answers when they can be listed; otherwise it is
    ``None`` and ``check`` (answer -> reason or None) says what is legal, with
    ``details`` describing it for clients (e.g. ``{"min": 0, "max": 7}``).
    ``default`` is what applies if the participant lets the deadline pass.
    """

    participant: str
    question: str
    choices: Sequence[Any] | None
    default: Any
    details: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[[Any], str | None] | None = field(default=None, compare=False, repr=False)

    def refusal(self, answer: Any) -> str | None:
        if self.choices is not None and answer not in self.choices:
            return f"{answer!r} is not one of the legal choices {list(self.choices)!r}"
        if self.check is not None:
            return self.check(answer)
        return None

    def to_dict(self) -> dict:
        return {"type": "decision", "participant": self.participant, "question": self.question,
                "choices": None if self.choices is None else list(self.choices),
                "default": self.default, "details": dict(self.details)}


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` sides must be rolled (by the service, never here)."""

    purpose: str
    count: int
    sides: int = 6
    roller: str | None = None

    def refusal(self, answer: Any) -> str | None:
        if not isinstance(answer, (list, tuple)) or len(answer) != self.count:
            return f"expected a list of {self.count} dice"
        if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= self.sides for v in answer):
            return f"every die must be an integer from 1 to {self.sides}"
        return None

    def to_dict(self) -> dict:
        return {"type": "dice", "purpose": self.purpose, "count": self.count,
                "sides": self.sides, "roller": self.roller}


@dataclass(frozen=True)
class Outcome:
    """The procedure is over: ``result`` says what happened, ``state`` is the new state."""

    result: Mapping[str, Any]
    state: Mapping[str, Any]

    def to_dict(self) -> dict:
        return {"type": "outcome", "result": dict(self.result), "state": dict(self.state)}


Step = Decision | Dice | Outcome
Run = Generator[Decision | Dice, Any, Outcome]


@dataclass(frozen=True)
class Procedure:
    """A named procedure: its input schema and its generator."""

    name: str
    schema: type[marshmallow.Schema]
    run: Callable[[dict], Run]

    def load(self, state: Mapping[str, Any]) -> dict:
        """Validate ``state`` and fill in the documented defaults."""
        try:
            return _schema_instance(self.schema).load(state)
        except marshmallow.ValidationError as error:
            raise InvalidState(error.normalized_messages()) from None


@functools.cache
def _schema_instance(schema: type[marshmallow.Schema]) -> marshmallow.Schema:
    # Building a schema is the expensive part of a replay; one instance per class will do.
    return schema()


def next_step(procedure: Procedure, state: Mapping[str, Any], log: Sequence[Any]) -> Step:
    """Replay ``log`` (one answer per step so far) and return what comes next.

    Raises :class:`IllegalDecision` if an answer in the log is not accepted by
    its step, or if the log goes on after the outcome.
    """
    run = procedure.run(procedure.load(state))
    try:
        step = next(run)
        for index, value in enumerate(log):
            reason = step.refusal(value)
            if reason is not None:
                raise IllegalDecision(f"log entry {index} ({_label(step)}): {reason}")
            try:
                step = run.send(value)
            except StopIteration as stop:
                if index + 1 < len(log):
                    raise IllegalDecision(f"log entry {index + 1}: the procedure is already over") from None
                return _outcome(procedure, stop)
    except StopIteration as stop:
        return _outcome(procedure, stop)
    return step


def _outcome(procedure: Procedure, stop: StopIteration) -> Outcome:
    if not isinstance(stop.value, Outcome):
        raise TypeError(f"{procedure.name} ended without an Outcome")
    return stop.value


def _label(step: Decision | Dice) -> str:
    return f"{step.participant}: {step.question}" if isinstance(step, Decision) else f"dice: {step.purpose}"


def answer(procedure: Procedure, state: Mapping[str, Any], log: Sequence[Any], value: Any) -> tuple[list, Step]:
    """Add one answer to the log if the current step accepts it.

    Returns the new log and the step after it; an illegal answer raises
    :class:`IllegalDecision` and the caller's log is left as it was.
    """
    step = next_step(procedure, state, log)
    if isinstance(step, Outcome):
        raise IllegalDecision("the procedure is already over")
    reason = step.refusal(value)
    if reason is not None:
        raise IllegalDecision(reason)
    new_log = [*log, value]
    return new_log, next_step(procedure, state, new_log)


def play(procedure: Procedure, state: Mapping[str, Any], answers: Sequence[Any]) -> tuple[list, Step]:
    """Feed ``answers`` one by one (as a service would); used by tests and replays."""
    log: list = []
    step = next_step(procedure, state, log)
    for value in answers:
        log, step = answer(procedure, state, log, value)
    return log, step
