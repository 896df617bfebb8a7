"""The one shape shared by every step-by-step procedure (conflicts, votes, uprisings).

A procedure is written as a generator function ``run(state)`` that *yields*
what it needs next and *receives* the answer:

* ``yield Decision(...)`` asks one participant to choose; it receives the choice;
* ``yield Sealed(...)`` asks several participants at once, each unseen by the
  others until all have answered; it receives a mapping participant -> answer;
* ``yield Dice(...)`` asks for dice to be rolled; it receives the list of values;
* ``return Outcome(...)`` ends the procedure.

What a service needs to drive a procedure is said here, not guessed there:
who may answer a step (:func:`check_answer`), whether a decision is a bot's
(``Decision.bot``: the service answers it with its default at once), whether
it has a default at all (``NO_DEFAULT``: the step waits for its participant
or the director), whether its details are for its participant's eyes only
(``Decision.private``), and which state fields are private to one participant
(``Procedure.private_fields``, applied by :meth:`Procedure.redact`).

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


class NotYourStep(IllegalDecision):
    """The answer comes from someone the current step does not ask."""


class _NoDefault:
    """The marker of a decision with no default: the deadline cannot answer it."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __reduce__(self):
        return (_NoDefault, ())


NO_DEFAULT = _NoDefault()


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
    ``default`` is what applies if the participant lets the deadline pass
    (``NO_DEFAULT``: nothing does; the step waits for the participant or the
    director).  ``bot`` marks a decision the rules' own bot takes: its default
    is the bot's choice.  ``private`` marks details only the participant (and
    the director) may see, such as the cards of its hand it could place.
    ``default_only_at_deadline`` marks a default that stands for a missed
    deadline and is no answer of the participant's own (a missed ballot where
    nobody may abstain): :func:`check_answer` refuses it from the participant.
    """

    participant: str
    question: str
    choices: Sequence[Any] | None
    default: Any
    details: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[[Any], str | None] | None = field(default=None, compare=False, repr=False)
    bot: bool = False
    private: bool = False
    default_only_at_deadline: bool = False

    @property
    def participants(self) -> tuple[str, ...]:
        return (self.participant,)

    @property
    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    def refusal(self, answer: Any) -> str | None:
        if self.choices is not None and answer not in self.choices:
            return f"{answer!r} is not one of the legal choices {list(self.choices)!r}"
        if self.check is not None:
            return self.check(answer)
        return None

    def to_dict(self) -> dict:
        return {"type": "decision", "participant": self.participant, "question": self.question,
                "choices": None if self.choices is None else list(self.choices),
                "default": self.default if self.has_default else None, "has_default": self.has_default,
                "details": dict(self.details), "bot": self.bot, "private": self.private,
                "default_only_at_deadline": self.default_only_at_deadline}


@dataclass(frozen=True)
class Sealed:
    """Several participants answer one step at once, each unseen by the others.

    The rules make these decisions simultaneous and secret (the 1630 game's
    placements after a call, its ballots).  The answer is a mapping
    participant -> that participant's answer, one per decision; a service
    collects the parts hidden and records the whole once every part is in or
    the deadline passes (then the missing parts take their defaults).
    """

    question: str
    decisions: tuple[Decision, ...]

    def __post_init__(self):
        if not self.decisions:
            raise ValueError("a sealed step asks at least one participant")
        if any(d.question != self.question for d in self.decisions):
            raise ValueError("every decision of a sealed step asks the same question")

    @property
    def participants(self) -> tuple[str, ...]:
        return tuple(d.participant for d in self.decisions)

    def decision_for(self, participant: str) -> Decision:
        for decision in self.decisions:
            if decision.participant == participant:
                return decision
        raise NotYourStep(f"{participant} is not asked in this sealed step ({', '.join(self.participants)} are)")

    @property
    def has_default(self) -> bool:
        return all(d.has_default for d in self.decisions)

    @property
    def default(self) -> Any:
        return {d.participant: d.default for d in self.decisions} if self.has_default else NO_DEFAULT

    def refusal(self, answer: Any) -> str | None:
        if not isinstance(answer, Mapping) or set(answer) != set(self.participants):
            return f"a sealed step's answer maps each of {list(self.participants)} to its answer"
        for decision in self.decisions:
            reason = decision.refusal(answer[decision.participant])
            if reason is not None:
                return f"{decision.participant}: {reason}"
        return None

    def to_dict(self) -> dict:
        return {"type": "sealed", "question": self.question, "participants": list(self.participants),
                "decisions": [d.to_dict() for d in self.decisions]}


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` sides must be rolled (by the service, never here).

    ``details`` says what the roll is for (the country of a conflict, the
    dice so far).  A draw from a bag is a die whose sides are the bag's tokens:
    ``faces`` lists them in the order the die's values count them (value 1 is
    ``faces[0]``).
    """

    purpose: str
    count: int
    sides: int = 6
    roller: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    faces: Sequence[Any] | None = None

    @property
    def participants(self) -> tuple[str, ...]:
        return ()

    def refusal(self, answer: Any) -> str | None:
        if not isinstance(answer, (list, tuple)) or len(answer) != self.count:
            return f"expected a list of {self.count} dice"
        if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= self.sides for v in answer):
            return f"every die must be an integer from 1 to {self.sides}"
        return None

    def to_dict(self) -> dict:
        return {"type": "dice", "purpose": self.purpose, "count": self.count,
                "sides": self.sides, "roller": self.roller, "details": dict(self.details),
                "faces": None if self.faces is None else list(self.faces)}


@dataclass(frozen=True)
class Outcome:
    """The procedure is over: ``result`` says what happened, ``state`` is the new state."""

    result: Mapping[str, Any]
    state: Mapping[str, Any]

    def to_dict(self) -> dict:
        return {"type": "outcome", "result": dict(self.result), "state": dict(self.state)}


Step = Decision | Sealed | Dice | Outcome
Run = Generator[Decision | Sealed | Dice, Any, Outcome]


@dataclass(frozen=True)
class Procedure:
    """A named procedure: its input schema and its generator.

    ``private_fields`` names the state fields (at the top level of the state,
    and of an outcome's state) whose value maps each participant to what only
    that participant may see, such as a hand of cards.  ``version`` changes
    whenever a change of the rules code could change a step of a stored log.
    ``summary`` and ``participants`` describe the kind to clients.
    """

    name: str
    schema: type[marshmallow.Schema]
    run: Callable[[dict], Run]
    private_fields: tuple[str, ...] = ()
    version: str = "1"
    summary: str = ""
    participants: str = ""

    def load(self, state: Mapping[str, Any]) -> dict:
        """Validate ``state`` and fill in the documented defaults."""
        try:
            return _schema_instance(self.schema).load(state)
        except marshmallow.ValidationError as error:
            raise InvalidState(error.normalized_messages()) from None

    def redact(self, state: Mapping[str, Any], viewer: str | None) -> dict:
        """``state`` as ``viewer`` may see it: of each private field only the viewer's
        own entry (none for ``None``, a spectator); the director sees the state whole."""
        shown = dict(state)
        for name in self.private_fields:
            if isinstance(shown.get(name), Mapping):
                shown[name] = {k: v for k, v in shown[name].items() if k == viewer}
        return shown


@functools.cache
def _schema_instance(schema: type[marshmallow.Schema]) -> marshmallow.Schema:
    # Building a schema is the expensive part of a replay; one instance per class will do.
    return schema()


class Replay:
    """A procedure being replayed: its generator, the answers fed so far (``values``) and
    every step met (``steps``: the step each answer was given to, then the open step or
    the Outcome).  Feeding the next answer moves it on one step, so a service that keeps
    one need not replay the whole log for each new answer."""

    def __init__(self, procedure: Procedure, state: Mapping[str, Any]):
        self.procedure = procedure
        self._run = procedure.run(procedure.load(state))
        self.values: list[Any] = []
        try:
            self.steps: list[Step] = [next(self._run)]
        except StopIteration as stop:
            self.steps = [_outcome(procedure, stop)]

    @property
    def current(self) -> Step:
        return self.steps[-1]

    def feed(self, value: Any) -> Step:
        """Give ``value`` to the open step and return the next one; raises :class:`IllegalDecision`
        (and stays as it was) if the step refuses it or the procedure is already over."""
        index, step = len(self.values), self.steps[-1]
        if isinstance(step, Outcome):
            raise IllegalDecision(f"log entry {index}: the procedure is already over")
        reason = step.refusal(value)
        if reason is not None:
            raise IllegalDecision(f"log entry {index} ({_label(step)}): {reason}")
        self.values.append(value)
        try:
            self.steps.append(self._run.send(value))
        except StopIteration as stop:
            self.steps.append(_outcome(procedure=self.procedure, stop=stop))
        return self.steps[-1]


def replay(procedure: Procedure, state: Mapping[str, Any], log: Sequence[Any]) -> list[Step]:
    """Replay ``log`` and return every step met: the step each answer was given
    to, then what comes next (``len(log) + 1`` steps; the last may be the Outcome).

    Raises :class:`IllegalDecision` if an answer in the log is not accepted by
    its step, or if the log goes on after the outcome.
    """
    run = Replay(procedure, state)
    for value in log:
        run.feed(value)
    return run.steps


def next_step(procedure: Procedure, state: Mapping[str, Any], log: Sequence[Any]) -> Step:
    """Replay ``log`` (one answer per step so far) and return what comes next."""
    return replay(procedure, state, log)[-1]


def _outcome(procedure: Procedure, stop: StopIteration) -> Outcome:
    if not isinstance(stop.value, Outcome):
        raise TypeError(f"{procedure.name} ended without an Outcome")
    return stop.value


def _label(step: Decision | Sealed | Dice) -> str:
    if isinstance(step, Decision):
        return f"{step.participant}: {step.question}"
    if isinstance(step, Sealed):
        return f"sealed: {step.question}"
    return f"dice: {step.purpose}"


def check_answer(step: Step, value: Any, participant: str | None = None) -> None:
    """Raise unless ``participant`` may give ``value`` to ``step``.

    ``participant`` ``None`` is the director (or the service), who may answer
    any step, a sealed one as a whole.  A participant answers only a decision
    that asks it, and in a sealed step gives only its own part.  Raises
    :class:`NotYourStep` for the wrong participant, :class:`IllegalDecision`
    for an answer the rules refuse.
    """
    if isinstance(step, Outcome):
        raise IllegalDecision("the procedure is already over")
    if participant is not None and isinstance(step, Sealed):
        step = step.decision_for(participant)
    elif participant is not None and participant not in step.participants:
        asked = "the dice" if isinstance(step, Dice) else step.participant
        raise NotYourStep(f"this step is for {asked}, not {participant}")
    if participant is not None and isinstance(step, Decision) and step.default_only_at_deadline \
            and value == step.default:
        raise IllegalDecision(f"{value!r} is what a missed deadline gives; it is not an answer you can give")
    reason = step.refusal(value)
    if reason is not None:
        raise IllegalDecision(reason)


def answer(procedure: Procedure, state: Mapping[str, Any], log: Sequence[Any], value: Any,
           participant: str | None = None) -> tuple[list, Step]:
    """Add one answer to the log if the current step accepts it from ``participant``.

    ``participant`` ``None`` is the director or the service; a named
    participant must be the one the step asks (:class:`NotYourStep`).  A
    sealed step is answered whole (participant ``None``, or its only
    participant).  Returns the new log and the step after it; an illegal
    answer raises :class:`IllegalDecision` and the caller's log is left as it was.
    """
    step = next_step(procedure, state, log)
    if participant is not None and isinstance(step, Sealed):
        if step.participants != (participant,):
            raise NotYourStep("a sealed step is recorded whole once every participant's part is in")
        participant = None
    check_answer(step, value, participant)
    new_log = [*log, value]
    return new_log, next_step(procedure, state, new_log)


def play(procedure: Procedure, state: Mapping[str, Any], answers: Sequence[Any]) -> tuple[list, Step]:
    """Feed ``answers`` one by one (as a service would); used by tests and replays."""
    log: list = []
    step = next_step(procedure, state, log)
    for value in answers:
        log, step = answer(procedure, state, log, value)
    return log, step
