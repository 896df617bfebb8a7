"""The game result (spec §2.1) and its validation (§2.2).

:class:`ResultSchema` is a marshmallow schema: it checks the types of the five
fields and then the cross-field rules of §2.2.  :func:`load_result` runs it and
turns a failure into a :class:`ResultError` naming the offending field with a
path such as ``centers.FRANCE``, ``eliminated_year.TURKEY`` or
``draw_members[1]``.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

import marshmallow
from marshmallow import ValidationError, fields, validate, validates_schema

from .common import ENDS, FIRST_YEAR, POWERS, SOLO_CENTRES, SUPPLY_CENTRES

_POWER_LIST = ", ".join(POWERS)
WHOLE_RESULT = "_schema"     # the key of ResultError.errors for errors about the result as a whole


class ResultError(ValueError):
    """A game result that is not valid under spec §2.2; it is never scored.

    * ``field``: the path of the first offending field (``"centers"``,
      ``"centers.FRANCE"``, ``"draw_members[1]"``, ``"eliminated_year.TURKEY"``,
      ``"year"`` ...), or ``None`` when the result as a whole is wrong (not a
      JSON object);
    * ``message``: why that field is wrong;
    * ``errors``: every problem found, ``{path: [message, ...]}``, the whole
      result's problems under ``"_schema"``.

    ``str(error)`` is ``"<field>: <message>"``.
    """

    def __init__(self, message: str, field: str | None = None,
                 errors: Mapping[str, list[str]] | None = None):
        self.message = message
        self.field = field
        self.errors = dict(errors) if errors else {field or WHOLE_RESULT: [message]}
        super().__init__(f"{field}: {message}" if field else message)

    @classmethod
    def from_messages(cls, messages: Any) -> "ResultError":
        """Build the error from marshmallow's (possibly nested) error messages."""
        errors: dict[str, list[str]] = {}
        for path, message in _flatten(messages, ""):
            errors.setdefault(path or WHOLE_RESULT, []).append(message)
        first_path, first_messages = next(iter(errors.items()))
        field = None if first_path == WHOLE_RESULT else first_path
        return cls(first_messages[0], field, errors)


def _flatten(messages: Any, prefix: str) -> Iterator[tuple[str, str]]:
    if isinstance(messages, Mapping):
        for key, sub in messages.items():
            if key == WHOLE_RESULT:
                path = prefix
            elif isinstance(key, int):
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            yield from _flatten(sub, path)
    elif isinstance(messages, (list, tuple)):
        for message in messages:
            yield from _flatten(message, prefix)
    else:
        yield prefix, str(messages)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _required(invalid: str | None = None) -> dict[str, Any]:
    """Field options: required, not null, with messages that read as sentences."""
    messages = {"required": "missing: a game result needs this field", "null": "must not be null"}
    if invalid:
        messages["invalid"] = invalid
    return {"required": True, "error_messages": messages}


class PowerMap(fields.Field):
    """A JSON object keyed by power id, with whole-number values >= ``minimum``.

    With ``all_powers`` every one of the seven powers must be present.
    Errors are reported per key, so the field path names the power.
    """

    def __init__(self, *, all_powers: bool, minimum: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.all_powers = all_powers
        self.minimum = minimum

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, int]:
        if not isinstance(value, Mapping):
            raise ValidationError("must be an object keyed by power id")
        errors: dict[str, list[str]] = {}
        for key, count in value.items():
            if key not in POWERS:
                errors[str(key)] = [f"unknown power {key!r}; the powers are {_POWER_LIST}"]
            elif not _is_int(count):
                errors[key] = [f"must be a whole number, not {count!r}"]
            elif count < self.minimum:
                errors[key] = [f"must be at least {self.minimum}, not {count}"]
        if self.all_powers:
            for power in POWERS:
                if power not in value:
                    errors[power] = ["missing: every one of the seven powers needs a count"]
        if errors:
            raise ValidationError(errors)
        return {p: value[p] for p in POWERS if p in value}


class ResultSchema(marshmallow.Schema):
    """One finished game on the standard map (spec §2.1), validated per §2.2.

    ``load`` returns a plain dict of the five fields (``centers`` and
    ``eliminated_year`` in the powers' standard order) or raises
    marshmallow's ``ValidationError``; :func:`load_result` wraps it.
    Unknown fields are rejected.
    """

    centers = PowerMap(all_powers=True, minimum=0, **_required())
    end = fields.String(validate=validate.OneOf(ENDS, error="must be one of solo, draw, timeout, concession, "
                                                         "not {input!r}"),
                        **_required(invalid="must be a string: solo, draw, timeout or concession"))
    # §2.5: a concession names the power conceded to (and only a concession does)
    conceded_to = fields.String(validate=validate.OneOf(POWERS, error=f"unknown power {{input!r}}; the powers are "
                                                                      f"{_POWER_LIST}"))
    draw_members = fields.List(
        fields.String(validate=validate.OneOf(POWERS, error=f"unknown power {{input!r}}; the powers are {_POWER_LIST}"),
                      error_messages={"invalid": "must be a power id (a string)"}),
        **_required(invalid="must be an array of power ids"),
    )
    eliminated_year = PowerMap(all_powers=False, minimum=FIRST_YEAR, **_required())
    year = fields.Integer(strict=True, validate=validate.Range(min=FIRST_YEAR, error=f"must be {FIRST_YEAR} or later"),
                          **_required(invalid="must be a whole number"))

    @validates_schema
    def _cross_field_rules(self, data: dict[str, Any], **kwargs: Any) -> None:
        problems = check_rules(data)
        if problems:
            raise ValidationError(problems)


def check_rules(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """The rules of §2.2 that relate fields to each other, for a well-typed result.

    Returns ``{path: [message, ...]}``; empty when the result is valid.
    """
    problems: dict[str, list[str]] = {}

    def problem(path: str, message: str) -> None:
        problems.setdefault(path, []).append(message)

    centers, end, year = data["centers"], data["end"], data["year"]
    members, eliminated = data["draw_members"], data["eliminated_year"]

    # Rule 1: at most 34 centres in all.
    owned = sum(centers.values())
    if owned > SUPPLY_CENTRES:
        problem("centers", f"the counts add up to {owned}, more than the {SUPPLY_CENTRES} supply centres")

    # Rule 4: elimination years for exactly the powers with 0 centres, 1901 <= Y <= year.
    for power in POWERS:
        if centers[power] == 0 and power not in eliminated:
            problem(f"eliminated_year.{power}",
                    f"missing: {power} owns no centre, so its year of elimination is required")
    for power, y in eliminated.items():
        if centers[power] > 0:
            problem(f"eliminated_year.{power}",
                    f"{power} owns {centers[power]} centres; only a power with 0 centres has a year of elimination")
        elif y > year:
            problem(f"eliminated_year.{power}", f"{y} is after the year of the result ({year})")

    soloists = [p for p in POWERS if centers[p] >= SOLO_CENTRES]
    survivors = [p for p in POWERS if centers[p] >= 1]
    conceded_to = data.get("conceded_to")
    if end != "concession" and conceded_to is not None:
        problem("conceded_to", "only a concession names the power conceded to")
    if end == "concession":
        # §2.5: rule 5 without the 18-centre requirement, for the power conceded to.
        if conceded_to is None:
            problem("conceded_to", "missing: a concession names the power conceded to")
        elif centers[conceded_to] == 0:
            problem("conceded_to", f"{conceded_to} was eliminated (owns no centre); nobody concedes to it")
        for power in soloists:
            if power != conceded_to:
                problem("end", f"{power} owns {centers[power]} centres, a solo: the game cannot have ended "
                               f"in a concession to {conceded_to}")
        if members:
            problem("draw_members", "must be empty when the game ended in a concession")
    elif end == "solo":
        # Rule 5.
        if not soloists:
            top = max(centers.values())
            problem("centers", f"a solo needs a power with {SOLO_CENTRES} or more centres; the largest count is {top}")
        elif len(soloists) > 1:
            problem("centers", f"only one power can own {SOLO_CENTRES} or more centres: {', '.join(soloists)}")
        if members:
            problem("draw_members", "must be empty when the game ended in a solo")
    else:
        # Rule 6.
        for power in soloists:
            problem("end", f"{power} owns {centers[power]} centres, a solo: the game cannot have ended in a {end}")
        if len(survivors) < 2:
            problem("centers", f"a {end} needs at least two surviving powers (with 1 or more centres); "
                               f"there {'is' if len(survivors) == 1 else 'are'} {len(survivors)}")
        if end == "timeout" and members:
            # Rule 8.
            problem("draw_members", "must be empty for a timeout (all survivors then share as in a DIAS draw)")
        if end == "draw":
            # Rule 7.
            seen: set[str] = set()
            for i, power in enumerate(members):
                if power in seen:
                    problem(f"draw_members[{i}]", f"{power} is named more than once")
                elif centers[power] == 0:
                    problem(f"draw_members[{i}]",
                            f"{power} was eliminated (owns no centre) and cannot share the draw")
                seen.add(power)
            if len(seen) < 2:
                problem("draw_members", "a draw needs at least two members "
                                        "(a one-power draw is a concession: end \"concession\", conceded_to)")
    return problems


_SCHEMA = ResultSchema()


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


def load_result(data: Any) -> dict[str, Any]:
    """Validate a game result (spec §2) and return it as a plain dict.

    Raises :class:`ResultError` naming the first offending field.  Loading an
    already loaded result returns an equal dict.
    """
    if not isinstance(data, Mapping):
        raise ResultError(f"a game result must be a JSON object, not {_json_type(data)}")
    try:
        return _SCHEMA.load(data)
    except ValidationError as err:
        raise ResultError.from_messages(err.messages) from None
