"""Marshmallow schemas for every request body and response body of the API.

Requests are loaded (validated) with these schemas; responses are dumped
through them so that nothing leaves the service that the schema (and
openapi.yaml, which mirrors it) does not name.
"""
from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone

from marshmallow import Schema, ValidationError, fields, validate, validates, validates_schema

from workers.core.store import FIRST_MOMENT, LAST_MOMENT
from workers.core.text import CONTROL
from workers.tables import press
from workers.tables.games import fixed_times

DAY = 24 * 3600
# Patterns end in \Z, not $ (which also matches before a final newline), so that they mean what
# openapi.yaml's patterns mean; digits are [0-9] (\d would take any script's digits).
POWER = validate.Regexp(r"^[A-Z]+\Z", error="a power name in upper case, such as FRANCE")
PHASE = validate.Regexp(r"^(?:[SF][0-9]{4}[MR]|W[0-9]{4}A)\Z", error="a phase such as S1901M, F1901R or W1901A")
DEADLINE_HORIZON = 365 * DAY  # a deadline set by time is at most this far ahead


def _variants() -> tuple[str, ...]:
    from adjudicator.diplomacy import VARIANTS
    return tuple(VARIANTS)


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class _Upper(fields.String):
    """A string read case-insensitively (ASCII letters only, so that ß is not SS) and kept in upper case."""

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).translate(_ASCII_UPPER)


def _one_line(value: str) -> None:
    found = CONTROL.search(value)
    if found:
        raise ValidationError(f"a name or title is one line: no control or line-break character "
                              f"(found U+{ord(found.group()):04X} at {found.start()})")


def Name(min: int = 0, max: int = 100, **kw) -> fields.String:  # noqa: A002  (marshmallow's words)
    """A name or title: one line of at most ``max`` characters (openapi.yaml: the OneLine pattern)."""
    return fields.String(validate=[validate.Length(min=min or None, max=max), _one_line], **kw)


class Bool(fields.Boolean):
    """JSON true or false, nothing else (marshmallow's Boolean also takes 1, "yes", ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value is not True and value is not False:
            raise self.make_error("invalid", input=value)
        return value


_RFC3339 = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
                      r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))")


class Fraction(fields.Float):
    """A JSON number from 0 to 1 (not a string of digits, not true or false)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Moment(fields.Field):
    """An RFC 3339 date-time with its offset (openapi's format: date-time), as an aware datetime."""

    default_error_messages = {"invalid": "not an RFC 3339 date-time with a time zone, such as 2026-11-22T18:00:00Z",
                              "range": "not a time the service can hold (from the year 1 to 9999, in UTC)"}

    def _deserialize(self, value, attr, data, **kwargs):
        m = _RFC3339.fullmatch(value) if isinstance(value, str) else None
        if not m:
            raise self.make_error("invalid")
        year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
        try:
            offset = timedelta(hours=int(m[9]), minutes=int(m[10])) * (-1 if m[8] == "-" else 1) if m[8] else None
            moment = datetime(year, month, day, hour, minute, min(second, 59),
                              int((m[7] or ".0")[1:7].ljust(6, "0")), timezone(offset or timedelta(0)))
            moment += timedelta(seconds=second - min(second, 59))  # a leap second, 23:59:60
            moment.astimezone(timezone.utc)  # every view writes it in UTC: 9999-12-31T23:00-14:00 is year 10000
        except (ValueError, OverflowError):
            raise self.make_error("range")
        if not FIRST_MOMENT <= moment.timestamp() <= LAST_MOMENT:
            raise self.make_error("range")
        return moment


# ---------------------------------------------------------------- requests
class RulesSchema(Schema):
    convoy_disruption = fields.String(validate=validate.OneOf(["2000", "1971"]))
    civil_disorder_distance = fields.String(validate=validate.OneOf(["home", "owned"]))
    italy_joins = fields.Integer(strict=True, validate=validate.OneOf([1, 2]))


class FixedTimeSchema(Schema):
    """A deadline at a time of day in a time zone (workers/tables/games/fixed_times.py)."""

    at = fields.String(required=True)
    tz = fields.String(required=True, validate=validate.Length(min=1, max=64))
    every_days = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 30))

    @validates("at")
    def _time_of_day(self, value, **kwargs):
        try:
            fixed_times.parse_at(value)
        except ValueError as e:
            raise ValidationError(str(e))

    @validates("tz")
    def _known_zone(self, value, **kwargs):
        if value not in fixed_times.zones():
            raise ValidationError(f"unknown time zone '{value[:64]}'; an IANA name such as Europe/Paris")


class PhaseDeadline(fields.Field):
    """Seconds (1 to 30 days), or a fixed time of day (:class:`FixedTimeSchema`)."""

    default_error_messages = {"invalid": "seconds (an integer from 1 to 2592000) or a fixed time of day, "
                                         "an object with at (HH:MM), tz (a time zone) and every_days"}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, dict):
            return FixedTimeSchema().load(value)
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 30 * DAY:
            return value
        raise self.make_error("invalid")


class DeadlinesSchema(Schema):
    first_movement = PhaseDeadline()
    movement = PhaseDeadline()
    retreat = PhaseDeadline()
    adjustment = PhaseDeadline()
    weekdays = fields.List(fields.String(validate=validate.OneOf(fixed_times.WEEKDAYS)),
                           validate=validate.Length(min=1, max=7))

    @validates("weekdays")
    def _distinct(self, value, **kwargs):
        if len(set(value)) != len(value):
            raise ValidationError("each weekday at most once")


class StartPositionSchema(Schema):
    """A set starting position (the interchange format's position fields)."""

    phase = _Upper(required=True, validate=PHASE)
    units = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True)
    centers = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True)
    dislodged = fields.Dict(keys=fields.String(), values=fields.List(fields.Dict()), load_default=dict)
    contested = fields.List(fields.String(), load_default=list)
    retreat_options = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    adjustments = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True))


class PressRulesObjectSchema(Schema):
    private = Bool()
    public = Bool()
    grey = fields.String(validate=validate.OneOf(["no", "allowed", "only"]))
    fake_broadcast = Bool()
    phases = fields.String(validate=validate.OneOf(["all", "movement"]))
    director_reads = Bool()


class PressRules(fields.Field):
    """A game's press rules: a preset name or an object (the press contract); read as the whole object."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if value not in press.PRESETS:
                raise ValidationError(f"a preset, one of {list(press.PRESETS)}, or an object")
            return press.rules_of(value)
        if isinstance(value, dict):
            return press.rules_of(PressRulesObjectSchema().load(value))
        raise ValidationError(f"a preset, one of {list(press.PRESETS)}, or an object")


class GameOptionsSchema(Schema):
    """The settings a game is created with (also for a fork and a tournament's boards)."""

    name = Name()
    rules = fields.Nested(RulesSchema)
    deadlines = fields.Nested(DeadlinesSchema)
    missed_orders = fields.String(validate=validate.OneOf(["hold", "wait"]))
    last_year = fields.Integer(strict=True, validate=validate.Range(1901, 3000))
    draw_subsets = Bool()
    civil_disorder_vote = fields.String(validate=validate.OneOf(["yes", "no"]))
    start = fields.Nested(StartPositionSchema)
    press = PressRules()


class AbsencePolicySchema(Schema):
    approval = fields.String(load_default="director", validate=validate.OneOf(["director", "auto"]))
    effect = fields.String(load_default="extend", validate=validate.OneOf(["extend", "civil_disorder"]))


class CreateGameSchema(Schema):
    name = Name(load_default="")
    variant = fields.String(load_default="standard")
    rules = fields.Nested(RulesSchema, load_default=dict)
    deadlines = fields.Nested(DeadlinesSchema, load_default=dict)
    assignment = fields.String(load_default="random", validate=validate.OneOf(["random", "chosen"]))
    missed_orders = fields.String(load_default="hold", validate=validate.OneOf(["hold", "wait"]))
    grace = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 30 * DAY))
    reminders = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 30 * DAY)),
                            validate=validate.Length(max=5))
    absences = fields.Nested(AbsencePolicySchema)
    last_year = fields.Integer(strict=True, validate=validate.Range(1901, 3000))
    draw_subsets = Bool(load_default=False)
    civil_disorder_vote = fields.String(load_default="yes", validate=validate.OneOf(["yes", "no"]))
    start = fields.Nested(StartPositionSchema)
    press = PressRules()
    visibility = fields.String(load_default="public", validate=validate.OneOf(["public", "private"]))
    min_reliability = Fraction(allow_none=True, validate=validate.Range(0, 1))
    open_seat_after = fields.Integer(strict=True, allow_none=True, validate=validate.Range(1, 100))

    @validates("variant")
    def _known_variant(self, value, **kwargs):
        if value not in _variants():
            raise ValidationError(f"unknown variant; one of {list(_variants())}")


class LobbyQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(["forming", "started", "finished"]))
    seats = fields.String(validate=validate.OneOf(["open"]))
    variant = fields.String(validate=validate.Length(max=40))
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]+(\.[0-9]+)?_[0-9a-f]{12}\Z",
                                                    error="a cursor as the previous page's 'next' gave it"))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class OpenSeatSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class JoinSchema(Schema):
    name = Name(min=1, max=50, required=True)
    power = _Upper(validate=POWER)
    email = fields.Email(validate=validate.Length(max=254))


class CreateAccountSchema(Schema):
    name = Name(min=1, max=50, required=True)
    email = fields.Email(validate=validate.Length(max=254))


class OrdersSchema(Schema):
    orders = fields.List(fields.String(validate=validate.Length(min=1, max=200)), required=True,
                         validate=validate.Length(max=100))
    phase = _Upper(validate=PHASE)


class ClearOrdersQuerySchema(Schema):
    phase = _Upper(validate=PHASE)


class ReadySchema(Schema):
    ready = Bool(required=True)


class ExtendSchema(Schema):
    seconds = fields.Integer(strict=True, validate=validate.Range(1, 30 * DAY))
    deadline = Moment()

    @validates_schema
    def _one_of(self, data, **kwargs):
        if ("seconds" in data) == ("deadline" in data):
            raise ValidationError("give either 'seconds' (later by) or 'deadline' (a new, later time)")
        if "deadline" in data and data["deadline"].timestamp() < time.time():
            raise ValidationError("the new deadline is in the past", "deadline")
        if "deadline" in data and data["deadline"].timestamp() > time.time() + DEADLINE_HORIZON:
            raise ValidationError(f"the new deadline is more than {DEADLINE_HORIZON // DAY} days away", "deadline")


class Recipients(fields.Field):
    """``"all"`` (a broadcast) or a list of powers (case-insensitive, kept in upper case)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "all":
            return "all"
        if not isinstance(value, list) or not 1 <= len(value) <= 7:
            raise ValidationError('"all", or a list of 1 to 7 powers')
        if not all(isinstance(p, str) and re.fullmatch(r"[A-Za-z]+", p) for p in value):
            raise ValidationError("each recipient is a power name, such as GERMANY")
        return [p.translate(_ASCII_UPPER) for p in value]


def _text(value: str) -> None:
    problem = press.text_problem(value)
    if problem:
        raise ValidationError(problem)


class SendPressSchema(Schema):
    power = _Upper(validate=POWER)
    to = Recipients(required=True)
    body = fields.String(required=True, validate=[validate.Length(min=1, max=press.MAX_BODY),
                                                  lambda text: _text(press.normal_text(text))])
    grey = Bool()
    fake_broadcast = Bool(load_default=False)


class PressQuerySchema(Schema):
    after = fields.String(validate=validate.Regexp(r"^m[0-9]{1,12}\Z", error="a message id such as m17"))
    limit = fields.Integer(validate=validate.Range(1, 1000))


class PressRulesChangeSchema(Schema):
    press = PressRules(required=True)


class ProposeSchema(Schema):
    power = _Upper(required=True, validate=POWER)
    kind = fields.String(required=True, validate=validate.OneOf(["draw", "concession"]))
    members = fields.List(_Upper(validate=POWER), validate=validate.Length(max=7))
    to = _Upper(validate=POWER)


class VoteSchema(Schema):
    vote = fields.String(required=True, validate=validate.OneOf(["yes", "no"]))


TABLE_TERMS = {"draw": "members", "solo": "winner", "concession": "to"}  # what each end names


class TableResultSchema(Schema):
    """A result recorded at the table: how the game ended, and the centres counted there (a board not
    played on the service); without ``centers``, the centres as they stand on the service's board."""

    end = fields.String(required=True, validate=validate.OneOf(["draw", "solo", "concession", "timeout"]))
    members = fields.List(_Upper(validate=POWER), validate=validate.Length(min=2, max=7))
    winner = _Upper(validate=POWER)
    to = _Upper(validate=POWER)
    centers = fields.Dict(keys=_Upper(validate=POWER), values=fields.Integer(strict=True, validate=validate.Range(0, 34)))

    @validates_schema
    def _terms(self, data, **kwargs):
        for end, name in TABLE_TERMS.items():
            if (data.get("end") == end) != (name in data):
                raise ValidationError(f"'{name}' goes with end {end}, and a {end} names it", name)


class EndSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    result = fields.Nested(TableResultSchema)


class LastYearSchema(Schema):
    year = fields.Integer(strict=True, required=True, allow_none=True, validate=validate.Range(1901, 3000))


class RollbackSchema(Schema):
    seq = fields.Integer(strict=True, required=True, validate=validate.Range(1))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class ForkSchema(GameOptionsSchema):
    seq = fields.Integer(strict=True, validate=validate.Range(1))


class DeclareAbsenceSchema(Schema):
    start = Moment(required=True)
    end = Moment(required=True)


class AbsenceDecisionSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["approved", "rejected"]))


class DislodgedSchema(Schema):
    unit = fields.String(required=True)
    # null when the attacker came by convoy: it does not close its origin (spec §15 E7)
    attacked_from = fields.String(load_default=None, allow_none=True)


class AdjudicateRequestSchema(Schema):
    """The interchange-format request (docs/interchange.md)."""

    variant = fields.String(load_default="standard")
    rules = fields.Nested(RulesSchema, load_default=dict)
    phase = _Upper(required=True, validate=PHASE)
    units = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True)
    centers = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), load_default=dict)
    dislodged = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(DislodgedSchema)),
                            load_default=dict)
    contested = fields.List(fields.String(), load_default=list)
    orders = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), load_default=dict)
    # present when a response's "next" is sent back as the following request
    retreat_options = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    adjustments = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True))


# ---------------------------------------------------------------- responses
class ProblemSchema(Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    instance = fields.String()
    errors = fields.Dict()
    orders = fields.List(fields.Dict())
    open_step = fields.Integer()
    quota = fields.String()
    credential = fields.String()
    resets_at = fields.String()
    phase = fields.String()


class HealthSchema(Schema):
    status = fields.String()
    redis = fields.Boolean()
    workers = fields.List(fields.Dict())
    scheduler = fields.Dict()
    queue = fields.Dict()


class VariantSchema(Schema):
    name = fields.String()
    powers = fields.List(fields.String())
    players = fields.List(fields.List(fields.String()))
    neutral = fields.List(fields.String())
    start_phase = fields.String()
    victory_centers = fields.Integer()


class PlayerSchema(Schema):
    id = fields.String()
    name = fields.String()
    powers = fields.List(fields.String())


class SeatSchema(Schema):
    power = fields.String()
    player = fields.String(allow_none=True)
    open = fields.Boolean()
    since = fields.String(allow_none=True)


class GameSchema(Schema):
    id = fields.String()
    name = fields.String()
    variant = fields.String()
    rules = fields.Dict()
    deadlines = fields.Dict(keys=fields.String(), values=fields.Raw())
    assignment = fields.String()
    missed_orders = fields.String()
    seat_count = fields.Integer()
    seats = fields.List(fields.Nested(SeatSchema))
    visibility = fields.String()
    min_reliability = fields.Float(allow_none=True)
    open_seat_after = fields.Integer(allow_none=True)
    status = fields.String()
    created_at = fields.String()
    players = fields.List(fields.Nested(PlayerSchema))
    phase = fields.String(allow_none=True)
    seq = fields.Integer()
    deadline = fields.String(allow_none=True)
    remaining_seconds = fields.Float(allow_none=True)
    position = fields.Dict(allow_none=True)
    to_order = fields.List(fields.String())
    submitted = fields.List(fields.String())
    ready = fields.List(fields.String())
    winner = fields.String(allow_none=True)
    grace = fields.Integer()
    reminders = fields.List(fields.Integer())
    absences = fields.Dict()
    late = fields.List(fields.String())
    draw_subsets = fields.Boolean()
    civil_disorder_vote = fields.String()
    last_year = fields.Integer(allow_none=True)
    ended_by = fields.String(allow_none=True)
    result = fields.Dict(allow_none=True)
    tournament = fields.String(allow_none=True)
    forked_from = fields.Dict(allow_none=True)
    press = fields.Dict()


class AbsenceSchema(Schema):
    id = fields.String()
    player = fields.String()
    powers = fields.List(fields.String())
    start = fields.String()
    end = fields.String()
    status = fields.String()
    declared_at = fields.String()


class AbsencesSchema(Schema):
    game = fields.String()
    absences = fields.List(fields.Nested(AbsenceSchema))


class CreatedGameSchema(Schema):
    game = fields.Nested(GameSchema)
    director_token = fields.String()


class JoinedSchema(Schema):
    player = fields.Nested(PlayerSchema)
    token = fields.String()
    game = fields.Nested(GameSchema)


class OrderReadingSchema(Schema):
    input = fields.String()
    order = fields.String(allow_none=True)
    valid = fields.Boolean()
    reason = fields.String(allow_none=True)


class SubmissionSchema(Schema):
    phase = fields.String()
    power = fields.String()
    stored = fields.Boolean()
    orders = fields.List(fields.Nested(OrderReadingSchema))


class PowerOrdersSchema(Schema):
    must_order = fields.Boolean()
    ready = fields.Boolean()
    orders = fields.List(fields.String(), allow_none=True)


class OwnOrdersSchema(Schema):
    phase = fields.String(allow_none=True)
    seq = fields.Integer()
    player = fields.String()
    powers = fields.Dict(keys=fields.String(), values=fields.Nested(PowerOrdersSchema))


class ReadyStateSchema(Schema):
    phase = fields.String()
    ready = fields.List(fields.String())
    powers = fields.List(fields.String())
    without_orders = fields.List(fields.String())


class HistoryEntrySchema(Schema):
    seq = fields.Integer()
    phase = fields.String()
    closed_by = fields.String()
    attempts = fields.Integer()
    adjudicated_at = fields.String()
    position = fields.Dict()
    orders = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    results = fields.List(fields.Dict())
    next_phase = fields.String(allow_none=True)
    superseded = fields.Dict(allow_none=True)


class HistorySchema(Schema):
    game = fields.String()
    phases = fields.List(fields.Nested(HistoryEntrySchema))


class GameExportSchema(Schema):
    game = fields.Nested(GameSchema)
    phases = fields.List(fields.Nested(HistoryEntrySchema))
    exported_at = fields.String()
    expires_at = fields.String(allow_none=True)


class ResultSchema(Schema):
    """One order's result (docs/diplomacy.md): every key the engine writes."""
    power = fields.String()
    unit = fields.String()
    order = fields.String()
    outcome = fields.String()
    reason = fields.String()
    code = fields.String()  # beside every reason, for programs
    route = fields.List(fields.String())
    disbanded = fields.Boolean()


class AdjudicationSchema(Schema):
    phase = fields.String()
    results = fields.List(fields.Nested(ResultSchema))
    next = fields.Dict(allow_none=True)
    winner = fields.String()
    disbanded = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))


class ProposalSchema(Schema):
    id = fields.String()
    kind = fields.String()
    members = fields.List(fields.String(), allow_none=True)
    to = fields.String(allow_none=True)
    phase = fields.String()
    status = fields.String()
    # the director's view only
    proposed_by = fields.String()
    proposed_at = fields.String()
    closed_at = fields.String(allow_none=True)
    closed_because = fields.String(allow_none=True)
    # the caller's own ballots (player token)
    your_votes = fields.Dict(keys=fields.String(), values=fields.String())


class ProposalsSchema(Schema):
    game = fields.String()
    proposals = fields.List(fields.Nested(ProposalSchema))


class VotedSchema(Schema):
    proposal = fields.String()
    power = fields.String()
    vote = fields.String()
    status = fields.String()


class AuditEntrySchema(Schema):
    at = fields.String()
    action = fields.String()
    by = fields.String()
    detail = fields.Dict()


class AuditSchema(Schema):
    game = fields.String()
    entries = fields.List(fields.Nested(AuditEntrySchema))


class GameResultSchema(Schema):
    game = fields.String()
    ended_by = fields.String()
    ended_at = fields.String()
    phase = fields.String()
    result = fields.Dict()


class GameScoresSchema(GameResultSchema):
    system = fields.String()
    scores = fields.Dict(keys=fields.String(), values=fields.Raw())
    exact = fields.Dict(keys=fields.String(), values=fields.String())


class AccountRecordSchema(Schema):
    games = fields.Integer()
    finished = fields.Integer()
    phases_due = fields.Integer()
    phases_on_time = fields.Integer()
    missed = fields.Integer()
    civil_disorder = fields.Integer()
    left = fields.Integer()
    replaced = fields.Integer()
    took_over = fields.Integer()
    reliability = fields.Float(allow_none=True)


class AccountSchema(Schema):
    id = fields.String()
    name = fields.String(allow_none=True)
    created_at = fields.String()
    deleted = fields.Boolean()
    record = fields.Nested(AccountRecordSchema)


class CreatedAccountSchema(Schema):
    account = fields.Nested(AccountSchema)
    token = fields.String()


class MessageSchema(Schema):
    id = fields.String()
    phase = fields.String()
    sent_at = fields.String()
    from_ = fields.String(allow_none=True, data_key="from", attribute="from")
    to = fields.Raw(allow_none=True)
    body = fields.String()
    grey = fields.Boolean()
    fake_broadcast = fields.Boolean()
    in_reply_to = fields.String()


class SentPressSchema(Schema):
    message = fields.Nested(MessageSchema)


class PressSchema(Schema):
    messages = fields.List(fields.Nested(MessageSchema))


class LobbySeatsSchema(Schema):
    taken = fields.Integer()
    total = fields.Integer()
    open = fields.List(fields.String())


class LobbyGameSchema(Schema):
    id = fields.String()
    name = fields.String()
    variant = fields.String()
    status = fields.String()
    phase = fields.String(allow_none=True)
    seats = fields.Nested(LobbySeatsSchema)
    deadlines = fields.Dict(keys=fields.String(), values=fields.Raw())
    press = fields.Raw(allow_none=True)
    min_reliability = fields.Float(allow_none=True)
    created_at = fields.String()


class LobbySchema(Schema):
    games = fields.List(fields.Nested(LobbyGameSchema))
    next = fields.String(allow_none=True)
