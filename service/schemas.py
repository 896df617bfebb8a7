"""Marshmallow schemas for every request body and response body of the API.

Requests are loaded (validated) with these schemas; responses are dumped
through them so that nothing leaves the service that the schema (and
openapi.yaml, which mirrors it) does not name.
"""
from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone

from marshmallow import Schema as _Schema
from marshmallow import ValidationError, fields, pre_load, validate, validates, validates_schema

from adjudicator.diplomacy.codes import Code
from workers.core.store import FIRST_MOMENT, LAST_MOMENT
from workers.core.text import CONTROL, ONE_LINE_PATTERN, UNSAFE, unsafe_in
from workers.tables import press
from workers.tables.games import fixed_times


def refuse_unsafe_text(data, pattern=UNSAFE) -> None:
    """The 422 naming where, if a text in ``data`` (a request's body, at any depth, keys too) holds what
    ``pattern`` finds (workers/core/text.py: by default what XML cannot hold, and control characters
    but tab and line breaks)."""
    found = unsafe_in(data, pattern=pattern)
    if found:
        where, why = found[0].lstrip("."), found[1]
        raise ValidationError({where.partition(".")[0].partition("[")[0] or "_schema": [f"{where}: {why}"]})


class Schema(_Schema):
    """The base of every schema: no text a request holds, at any depth (a MILA record's orders too),
    may hold what XML cannot, nor a control character but tab and line breaks (422 naming where)."""

    @pre_load
    def _safe_text(self, data, **kwargs):
        if isinstance(data, dict):
            refuse_unsafe_text(data)
        return data


DAY = 24 * 3600
# The patterns of the contract, each written once here.  They end in \Z, not $ (which also matches
# before a final newline); the generated openapi.yaml writes \Z as $ (service/contract.py).  Digits
# are [0-9] (\d would take any script's digits).  Powers and phases are read case-insensitively.
POWER_NAME = r"^[A-Za-z]+\Z"
PHASE_NAME = r"^(?:[SFsf][0-9]{4}[MRmr]|[Ww][0-9]{4}[Aa])\Z"
ID = r"^[0-9a-f]{12}\Z"  # a game, tournament, resolution, webhook or proposal
ACCOUNT_ID = r"^u[0-9a-f]{12}\Z"
ABSENCE_ID = r"^a[1-9][0-9]*\Z"
TOURNAMENT_PLAYER_ID = r"^t[1-9][0-9]{0,3}\Z"
EVENT_ID = r"^[0-9]+-[0-9]+\Z"
MESSAGE_ID = r"^m[0-9a-f]{1,24}\Z"  # random (docs/security.md); m{n} for a message stored before
TIME_OF_DAY = r"^([01][0-9]|2[0-3]):[0-5][0-9]\Z"  # HH:MM, 24-hour (fixed_times.parse_at reads it)
LOBBY_CURSOR = r"^[0-9]+(\.[0-9]+)?_[0-9a-f]{12}\Z"
VARIANT_NAME = r"^[a-z0-9_]{1,40}\Z"
def json_pattern(pattern: str) -> str:
    r"""A Python pattern as JSON Schema (ECMA 262) reads it: ``\Z`` (the very end) is ``$`` there."""
    return pattern.removesuffix(r"\Z") + "$" if pattern.endswith(r"\Z") else pattern


POWER = validate.Regexp(POWER_NAME, error="a power name in upper case, such as FRANCE")
PHASE = validate.Regexp(PHASE_NAME, error="a phase such as S1901M, F1901R or W1901A")
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
    """A name or title: one line of at most ``max`` characters."""
    return fields.String(validate=[validate.Length(min=min or None, max=max), _one_line],
                         metadata={"pattern": ONE_LINE_PATTERN, **kw.pop("metadata", {})}, **kw)


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

    def openapi(self, ref) -> dict:
        return {"type": "string", "format": "date-time"}

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


def _about(description: str = "", **extra) -> dict:
    return {**({"description": description} if description else {}), **extra}


def Timestamp(description: str = "", **kw) -> fields.String:
    """An RFC 3339 date-time, as the service writes it."""
    return fields.String(metadata=_about(description, format="date-time"), **kw)


def Choice(values, description: str = "", **kw) -> fields.String:
    """A string the service writes as one of ``values``."""
    values = list(values)
    return fields.String(metadata=_about(description, enum=values + [None] * kw.get("allow_none", False)), **kw)


def Strings(description: str = "", **kw) -> fields.List:
    return fields.List(fields.String(), metadata=_about(description), **kw)


def Described(field_class, description: str, **kw):
    return field_class(metadata=_about(description), **kw)


class UnitLists(fields.Dict):
    """Power -> list of strings (units, centres, orders)."""

    component = "UnitLists"

    def __init__(self, **kw):
        super().__init__(keys=fields.String(), values=fields.List(fields.String()), **kw)

    def openapi(self, ref) -> dict:
        return {"type": "object", "description": "Power -> list of strings.",
                "additionalProperties": {"type": "array", "items": {"type": "string"}}}


# ---------------------------------------------------------------- requests
class RulesSchema(Schema):
    convoy_disruption = fields.String(validate=validate.OneOf(["2000", "1971"]), metadata=_about(
        "2000 (default) = a convoy fails only if every route is broken."))
    civil_disorder_distance = fields.String(validate=validate.OneOf(["home", "owned"]), metadata=_about(
        "How forced removals measure distance (home centres by default)."))
    italy_joins = fields.Integer(strict=True, validate=validate.OneOf([1, 2]), metadata=_about(
        "two_player_1914 only: the coin toss (which player Italy joins in 1915). Drawn by the service when left "
        "out, and shown from W1914A on."))


class FixedTimeSchema(Schema):
    """A deadline at a time of day in a time zone (workers/tables/games/fixed_times.py)."""

    class Meta:
        description = ('The deadline is the time "at" on the first date in zone "tz" at least "every_days" calendar '
                       "days after the phase opened, on an allowed weekday; daylight-saving changes are respected.")

    at = fields.String(required=True, metadata={"pattern": json_pattern(TIME_OF_DAY),
                                                "description": "HH:MM, 24-hour."})
    tz = fields.String(required=True, validate=validate.Length(min=1, max=64),
                       metadata={"description": "An IANA zone, such as Europe/Paris."})
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
    component = "PhaseDeadline"

    def openapi(self, ref) -> dict:
        return {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 30 * DAY}, ref(FixedTimeSchema)]}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, dict):
            return FixedTimeSchema().load(value)
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 30 * DAY:
            return value
        raise self.make_error("invalid")


class DeadlinesSchema(Schema):
    class Meta:
        description = ("Per phase type, a length in seconds (defaults 2100, 1200, 300, 300) or a fixed time of day "
                       'in a time zone; "weekdays" are the days a fixed-time deadline may fall on (docs/seats.md).')

    first_movement = PhaseDeadline()
    movement = PhaseDeadline()
    retreat = PhaseDeadline()
    adjustment = PhaseDeadline()
    weekdays = fields.List(fields.String(validate=validate.OneOf(fixed_times.WEEKDAYS)),
                           validate=validate.Length(min=1, max=7), metadata={"uniqueItems": True})

    @validates("weekdays")
    def _distinct(self, value, **kwargs):
        if len(set(value)) != len(value):
            raise ValidationError("each weekday at most once")


class StartPositionSchema(Schema):
    """A set starting position (the interchange format's position fields)."""

    class Meta:
        description = "A set starting position, in the interchange format."

    phase = _Upper(required=True, validate=PHASE, metadata={"examples": ["F1905M"]})
    units = UnitLists(required=True)
    centers = UnitLists(required=True)
    dislodged = fields.Dict(keys=fields.String(), values=fields.List(fields.Dict()), load_default=dict)
    contested = fields.List(fields.String(), load_default=list)
    retreat_options = UnitLists()
    adjustments = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True))


class PressRulesObjectSchema(Schema):
    class Meta:
        description = "Fields left out take the defaults (the preset full)."

    private = Bool(metadata=_about("A power may write to any group of the other powers.", default=True))
    public = Bool(metadata=_about("A power may write to every power at once (a broadcast).", default=True))
    grey = fields.String(validate=validate.OneOf(["no", "allowed", "only"]), metadata=_about(
        "Grey press: the recipients do not learn who sent it.", default="no"))
    fake_broadcast = Bool(metadata=_about("A message to a group may look like a broadcast to its recipients.",
                                          default=False))
    phases = fields.String(validate=validate.OneOf(["all", "movement"]), metadata=_about(
        "movement: no press while a retreat or adjustment phase is open (the rulebook's own rule).", default="all"))
    director_reads = Bool(metadata=_about("The director may read private press.", default=False))


class PressRules(fields.Field):
    """A game's press rules: a preset name or an object (the press contract); read as the whole object."""

    component = "PressRulesSpec"

    def openapi(self, ref) -> dict:
        return {"description": "A preset (full: the defaults; public: private false; none: gunboat, private and "
                               "public false; grey: grey only; rulebook: phases movement) or an object.",
                "oneOf": [{"type": "string", "enum": list(press.PRESETS)}, ref(PressRulesObjectSchema)]}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if value not in press.PRESETS:
                raise ValidationError(f"a preset, one of {list(press.PRESETS)}, or an object")
            return press.rules_of(value)
        if isinstance(value, dict):
            return press.rules_of(PressRulesObjectSchema().load(value))
        raise ValidationError(f"a preset, one of {list(press.PRESETS)}, or an object")


LAST_YEAR = "The game ends after this year's winter adjustments."


class GameOptionsSchema(Schema):
    """The settings a game is created with (also for a fork and a tournament's boards)."""

    class Meta:
        description = "Options of the boards' games (as for POST /v1/games)."

    name = Name()
    rules = fields.Nested(RulesSchema)
    deadlines = fields.Nested(DeadlinesSchema)
    missed_orders = fields.String(validate=validate.OneOf(["hold", "wait", "bot"]))
    last_year = fields.Integer(strict=True, validate=validate.Range(1901, 3000))
    draw_subsets = Bool()
    civil_disorder_vote = fields.String(validate=validate.OneOf(["yes", "no"]))
    start = fields.Nested(StartPositionSchema)
    press = PressRules()


class AbsencePolicySchema(Schema):
    approval = fields.String(load_default="director", validate=validate.OneOf(["director", "auto"]), metadata=_about(
        "director = each absence waits for the director's decision; auto = approved when declared."))
    effect = fields.String(load_default="extend", validate=validate.OneOf(["extend", "civil_disorder"]),
                           metadata=_about(
        "extend = a deadline inside an approved absence of a power without orders moves to the absence's end; "
        "civil_disorder = a phase opening during the absence does not ask the power for orders (its units hold)."))


class VariantName(fields.String):
    """A variant's name (checked by the schema that holds it, with its own message)."""

    def openapi(self, ref) -> dict:
        return {"type": "string", "enum": list(_variants())}


class Bots(fields.Field):
    """The powers the bot plays from the start: a list of powers, or "fill" (every seat left empty)."""

    def openapi(self, ref) -> dict:
        return {"description": 'Powers the bot plays from the start (each with the rest of its player\'s seat), '
                               'or "fill": every seat left empty when the game starts. A game with bots starts with '
                               "the humans it has (the director's POST .../start, or once every seat left to "
                               "players is taken); anyone may take a bot's seat over later.",
                "oneOf": [{"type": "string", "enum": ["fill"]},
                          {"type": "array", "minItems": 1, "items": {"type": "string"}}]}

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "fill":
            return value
        if isinstance(value, list) and value and all(isinstance(p, str) for p in value):
            return sorted({p.translate(_ASCII_UPPER) for p in value})
        raise ValidationError('a non-empty list of powers, or "fill"')


class CreateGameSchema(Schema):
    name = Name(load_default="")
    variant = VariantName(load_default="standard", metadata=_about("One of GET /v1/variants."))
    rules = fields.Nested(RulesSchema, load_default=dict)
    deadlines = fields.Nested(DeadlinesSchema, load_default=dict)
    assignment = fields.String(load_default="random", validate=validate.OneOf(["random", "chosen"]))
    missed_orders = fields.String(load_default="hold", validate=validate.OneOf(["hold", "wait", "bot"]), metadata=_about(
        "hold = civil disorder at the deadline; wait = the phase waits for every power's orders; bot = the bot "
        "orders, for that phase, each power without orders at the deadline (after any grace period); the miss "
        "still counts on its player's record (docs/bots.md)."))
    grace = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 30 * DAY), metadata=_about(
        "Seconds the phase waits after its deadline for powers without orders (told by a late notice); then "
        "missed_orders applies. 0 = no grace period."))
    reminders = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 30 * DAY)),
                            validate=validate.Length(max=5), metadata=_about(
        "Seconds before each deadline at which powers without orders are reminded (deadline_approaching).",
        default=[86400, 3600]))
    absences = fields.Nested(AbsencePolicySchema)
    last_year = fields.Integer(strict=True, validate=validate.Range(1901, 3000), metadata=_about(LAST_YEAR))
    draw_subsets = Bool(load_default=False, metadata=_about("Draws may name a subset of the survivors."))
    civil_disorder_vote = fields.String(load_default="yes", validate=validate.OneOf(["yes", "no"]), metadata=_about(
        "How a surviving power without a player counts in a vote (yes never blocks; no blocks every proposal)."))
    start = fields.Nested(StartPositionSchema)
    press = PressRules()
    visibility = fields.String(load_default="public", validate=validate.OneOf(["public", "private"]),
                               metadata=_about("public lists the game in the lobby (GET /v1/games); private keeps "
                                               "it out."))
    min_reliability = Fraction(allow_none=True, validate=validate.Range(0, 1), metadata=_about(
        "A join or takeover needs an account at least this reliable (403 otherwise)."))
    open_seat_after = fields.Integer(strict=True, allow_none=True, validate=validate.Range(1, 100), metadata=_about(
        "A seat opens for a replacement when its power misses orders in this many movement phases in a row; "
        "null never.", default=2))
    bots = Bots()
    bot_vote = fields.String(validate=validate.OneOf(["members", "yes", "no"]), metadata=_about(
        "How a power the bot plays votes: members = yes on a draw that includes it (or a concession to it), no "
        "on any other; yes or no = always.", default="members"))

    @validates("variant")
    def _known_variant(self, value, **kwargs):
        if value not in _variants():
            raise ValidationError(f"unknown variant; one of {list(_variants())}")


class LobbyQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(["forming", "started", "finished"]))
    seats = fields.String(validate=validate.OneOf(["open"]))
    variant = fields.String(validate=validate.Length(max=40))
    cursor = fields.String(validate=validate.Regexp(LOBBY_CURSOR,
                                                    error="a cursor as the previous page's 'next' gave it"))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class OpenSeatSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500),
                           metadata=_about("Kept in the audit log."))


class JoinSchema(Schema):
    name = Name(min=1, max=50, required=True)
    power = _Upper(validate=POWER, metadata=_about("Only in games with chosen powers (case-insensitive)."))
    email = fields.Email(validate=validate.Length(max=254), metadata=_about(
        "Where the player gets a welcome (with the token), the results of every phase, reminders and late notices, "
        "each with a signed Reply-To that takes orders by mail."))


class CreateAccountSchema(Schema):
    name = Name(min=1, max=50, required=True)
    email = fields.Email(validate=validate.Length(max=254), metadata=_about("Kept, never shown."))


CURRENT_PHASE = "If given, must be the current phase (case-insensitive)."


class OrdersSchema(Schema):
    orders = fields.List(fields.String(validate=validate.Length(min=1, max=200)), required=True,
                         validate=validate.Length(max=100),
                         metadata={"examples": [["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]]})
    phase = _Upper(validate=PHASE, metadata=_about(CURRENT_PHASE))


class PhaseQuerySchema(Schema):
    """``?phase=`` of a map or a page."""

    phase = _Upper(validate=PHASE, metadata=_about(
        "A phase of the game, e.g. S1902M (case-insensitive); the latest one if left out."))


class ClearOrdersQuerySchema(Schema):
    phase = _Upper(validate=PHASE, metadata=_about(CURRENT_PHASE))


class ReadySchema(Schema):
    ready = Bool(required=True)


class ExtendSchema(Schema):
    class Meta:
        openapi = {"oneOf": [{"required": ["seconds"]}, {"required": ["deadline"]}]}
        description = ('Exactly one of "seconds" (later by) and "deadline" (a new time, not earlier than the current '
                       "deadline, not in the past and at most 365 days away).")

    seconds = fields.Integer(strict=True, validate=validate.Range(1, 30 * DAY))
    deadline = Moment(metadata=_about("With a time zone, e.g. 2026-11-22T18:00:00Z."))

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

    def openapi(self, ref) -> dict:
        return {"oneOf": [{"type": "string", "enum": ["all"]},
                          {"type": "array", "minItems": 1, "maxItems": 7,
                           "items": {"type": "string", "pattern": json_pattern(POWER_NAME)}}]}

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "all":
            return "all"
        if not isinstance(value, list) or not 1 <= len(value) <= 7:
            raise ValidationError('"all", or a list of 1 to 7 powers')
        if not all(isinstance(p, str) and re.fullmatch(POWER_NAME, p) for p in value):
            raise ValidationError("each recipient is a power name, such as GERMANY")
        return [p.translate(_ASCII_UPPER) for p in value]


def _none_of(characters: re.Pattern) -> str:
    """A JSON Schema pattern of a whole string holding none of the character class ``characters``
    (but lone surrogates, which http.parse_json refuses, 422, before any schema reads the body)."""
    inside = characters.pattern.removeprefix("[").removesuffix("]").replace("\ud800-\udfff", "")
    return "^[^" + "".join(c if " " <= c <= "~" else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                           for c in inside) + "]*$"


def _text(value: str) -> None:
    problem = press.text_problem(value)
    if problem:
        raise ValidationError(problem)


class SendPressSchema(Schema):
    power = _Upper(validate=POWER, metadata=_about("The writing power; needed only by a player of several powers."))
    to = Recipients(required=True)
    body = fields.String(required=True, validate=[validate.Length(min=1, max=press.MAX_BODY),
                                                  lambda text: _text(press.normal_text(text))],
                         metadata=_about("The message, 1 to 10,000 characters (a CR LF or CR is read as a line "
                                         "feed first): no control character but tab and line breaks.",
                                         pattern=_none_of(press.FORBIDDEN)))
    grey = Bool(metadata=_about("Grey press (left out: the game's default)."))
    fake_broadcast = Bool(load_default=False, metadata=_about("The recipients see to: all."))


class PressQuerySchema(Schema):
    after = fields.String(validate=validate.Regexp(MESSAGE_ID, error="a message id such as m5f1c09a2e4b7d3c8"),
                          metadata=_about("Only the messages after this one (a message id such as m5f1c09a2e4b7d3c8)."))
    limit = fields.Integer(validate=validate.Range(1, 1000),
                           metadata=_about("At most this many messages (the oldest of them); all if left out."))


class PressRulesChangeSchema(Schema):
    press = PressRules(required=True)


class ProposeSchema(Schema):
    power = _Upper(required=True, validate=POWER, metadata=_about("The caller's proposing power (its vote is yes)."))
    kind = fields.String(required=True, validate=validate.OneOf(["draw", "concession"]))
    members = fields.List(_Upper(validate=POWER), validate=validate.Length(max=7), metadata=_about(
        "A named draw's members (draw_subsets games); all survivors if left out."))
    to = _Upper(validate=POWER, metadata=_about("The power conceded to."))


class VoteSchema(Schema):
    vote = fields.String(required=True, validate=validate.OneOf(["yes", "no"]))


TABLE_TERMS = {"draw": "members", "solo": "winner", "concession": "to"}  # what each end names


class TableResultSchema(Schema):
    class Meta:
        description = ("A result recorded at the table: a draw names its members, a solo its winner, a concession "
                       'the power conceded to; "centers" are the counts at the table (a board not played on the '
                       "service), else those on its board.")

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
    seq = fields.Integer(strict=True, required=True, validate=validate.Range(1), metadata=_about(
        "The adjudicated phase (its history seq) whose start is restored."))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class ForkSchema(GameOptionsSchema):
    seq = fields.Integer(strict=True, validate=validate.Range(1), metadata=_about(
        "An adjudicated phase (history seq); the current phase if left out."))
    press = PressRules(metadata=_about("The forked game's press rules if left out."))


class DeclareAbsenceSchema(Schema):
    start = Moment(required=True, metadata=_about("With a time zone, e.g. 2026-07-01T00:00:00Z."))
    end = Moment(required=True, metadata=_about("Later than start, in the future, at most 30 days after start."))


class AbsenceDecisionSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["approved", "rejected"]))


class DislodgedSchema(Schema):
    unit = fields.String(required=True)
    # null when the attacker came by convoy: it does not close its origin (spec §15 E7)
    attacked_from = fields.String(load_default=None, allow_none=True, metadata=_about(
        "Province the attacker came from; null when it came by convoy (its origin stays open for the retreat)."))


RECOMPUTED = 'Accepted (and recomputed) so that a response\'s "next" can be sent back with orders.'


class AdjudicateRequestSchema(Schema):
    """The interchange-format request (docs/interchange.md)."""

    class Meta:
        component = "AdjudicationRequest"

    variant = fields.String(load_default="standard")
    rules = fields.Nested(RulesSchema, load_default=dict)
    phase = _Upper(required=True, validate=PHASE, metadata=_about("Case-insensitive; the year from the variant's "
                                                                  "first."))
    units = UnitLists(required=True)
    centers = UnitLists(load_default=dict)
    dislodged = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(DislodgedSchema)),
                            load_default=dict)
    contested = fields.List(fields.String(), load_default=list)
    orders = UnitLists(load_default=dict)
    # present when a response's "next" is sent back as the following request
    retreat_options = UnitLists(metadata=_about(RECOMPUTED))
    adjustments = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), metadata=_about(RECOMPUTED))


class OptionsRequestSchema(AdjudicateRequestSchema):
    """A position in the interchange format, and the powers whose options are wanted (default: every
    power with something to order)."""

    powers = fields.List(_Upper(validate=POWER), validate=validate.Length(min=1, max=7),
                         metadata=_about("The powers whose options are wanted; default every power with "
                                         "something to order."))

    class Meta:
        component = "OptionsRequest"
        exclude = ("orders",)


class Seed(fields.Field):
    """What makes the bot repeatable: an integer or a string."""

    def openapi(self, ref) -> dict:
        return {"description": "The same seed gives the same orders; left out, one is drawn.",
                "oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 100}]}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, str)) or len(str(value)) > 100:
            raise ValidationError("an integer or a string of at most 100 characters")
        return value


class BotOrdersRequestSchema(AdjudicateRequestSchema):
    """A position in the interchange format (its orders, if any, are ignored), the power and a seed."""

    class Meta:
        component = "BotOrdersRequest"

    power = _Upper(required=True, validate=validate.Length(max=40), metadata=_about("Case-insensitive."))
    seed = Seed()


# ---------------------------------------------------------------- responses
# Dumped, never loaded: "required" says what every answer holds, and the metadata (formats,
# descriptions, enums of values the service writes) is for the contract alone.
class Reply(Schema):
    """A response body, only ever dumped: the contract lets a client take fields it does not know
    (no ``additionalProperties: false``, which a request schema says as it refuses unknown fields)."""


class OrderReadingSchema(Reply):
    input = fields.String(required=True)
    order = Described(fields.String, "Canonical form, when the order could be read.", allow_none=True)
    valid = fields.Boolean(required=True)
    reason = fields.String(allow_none=True)


class ProblemSchema(Reply):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = Described(fields.String, "What was wrong and where (body.field, header ..., path ...).", required=True)
    instance = fields.String()
    errors = Described(fields.Dict, "Field -> messages, for invalid content.")
    orders = fields.List(fields.Nested(OrderReadingSchema),
                         metadata=_about("How each submitted order was read, for rejected orders."))
    open_step = Described(fields.Integer, "For a stale or early answer, the index of the open step.")
    phase = Described(fields.String, "For an imported record that does not reproduce itself, the first phase "
                                     "that differs.")
    quota = Described(fields.String, "For a 429, the quota spent (the variable that sets it, e.g. "
                                     "RATE_LIMIT_CREATE_GAME).")
    credential = Choice(["account", "player", "director", "participant", "address"],
                        "For a 429, whose quota it is (a token's, or the address of a request without one).")
    resets_at = Timestamp("For a 429, when the quota resets.")


class WorkerSchema(Reply):
    name = fields.String()
    state = fields.String()
    current_job = fields.String(allow_none=True)
    last_heartbeat = Timestamp(allow_none=True)


class SchedulerSchema(Reply):
    class Meta:
        description = "The scheduler holding the queue's lock, if any."

    running = fields.Boolean()
    name = fields.String(allow_none=True)
    lock_expires_in = Described(fields.Integer, "Seconds.", allow_none=True)


class WaitingJobSchema(Reply):
    class Meta:
        description = "The job that has waited longest (queued, or due on the schedule)."

    id = fields.String()
    since = Timestamp()
    seconds = fields.Float()


class QueueSchema(Reply):
    waiting = Described(fields.Integer, "Jobs queued for a worker.")
    scheduled = Described(fields.Integer, "Deadline jobs on the schedule.")
    due = Described(fields.Integer, "Scheduled jobs past their time and not yet queued.")
    started = Described(fields.Integer, "Jobs being run.")
    oldest_waiting = fields.Nested(WaitingJobSchema, allow_none=True)


class HealthSchema(Reply):
    status = Choice(["ok", "degraded"], "degraded: no worker or no scheduler is running.", required=True)
    redis = fields.Boolean(required=True)
    workers = fields.List(fields.Nested(WorkerSchema), required=True,
                          metadata=_about("The workers registered on the queue."))
    scheduler = fields.Nested(SchedulerSchema, required=True)
    queue = fields.Nested(QueueSchema, required=True)


class VariantSchema(Reply):
    name = fields.String(required=True)
    powers = Strings(required=True)
    players = fields.List(fields.List(fields.String()), required=True,
                          metadata=_about("One entry per seat, the powers that seat plays."))
    neutral = Strings()
    start_phase = fields.String()
    victory_centers = fields.Integer()


class OptionsSchema(Reply):
    class Meta:
        component = "Options"
        description = ("Every order each power may give, in the canonical form the orders endpoint answers with: "
                       "per unit, {unit: [order, ...]} in movement and retreat phases (first what the unit does "
                       "with no order); in adjustment phases {builds, sites, disbands, waive, orders} "
                       "(docs/clients.md, Options).")

    phase = fields.String(required=True)
    powers = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)


class ProvinceSchema(Reply):
    id = fields.String(required=True)
    name = fields.String(required=True)
    type = Choice(["land", "coast", "sea", "impassable"], required=True)
    centre = Described(fields.Boolean, "A supply centre.", required=True)
    home = Described(fields.String, "The power whose home centre it is.", required=True, allow_none=True)
    coasts = Strings("A split-coast province's coasts (NC, SC); else empty.", required=True)
    terrain = Choice(["land", "coast", "sea"], "An impassable province's own type.")
    passable_from = Described(fields.String, "The phase from which an impassable province is open.")


class AdjacencySchema(Reply):
    army = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                       metadata=_about("Province -> the provinces an army there moves to."))
    fleet = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True,
                        metadata=_about("Location (STP/SC, NTH) -> the locations a fleet there moves to."))


class BoardSchema(VariantSchema):
    class Meta:
        component = "VariantBoard"
        description = ("A variant's board as the adjudicator uses it: its powers and sides, every province, and "
                       "where armies and fleets move.")

    year = Described(fields.Integer, "The first year.", required=True)
    sides = fields.List(fields.List(fields.String()), required=True,
                        metadata=_about("The player sides, one entry per seat."))
    side_victory = Described(fields.Boolean, "Whether a side wins together.", required=True)
    provinces = fields.List(fields.Nested(ProvinceSchema), required=True)
    adjacency = fields.Nested(AdjacencySchema, required=True)


class PlayerSchema(Reply):
    id = fields.String(required=True)
    name = fields.String(required=True)
    powers = Strings("Empty until powers are drawn.", required=True)


class SeatSchema(Reply):
    power = fields.String(required=True)
    player = Described(fields.String, "The name of the seat's player; null while none (open, or not yet taken).",
                       required=True, allow_none=True)
    open = Described(fields.Boolean, "Open to take over (POST /v1/games/{id}/players with the power).",
                     required=True)
    bot = Described(fields.Boolean, "The bot plays it (an open seat) until someone takes it over.")
    since = Timestamp("When it opened, or when its player took it.", required=True, allow_none=True)


class PositionSchema(Reply):
    class Meta:
        description = "A position in the interchange format (the request shape without orders)."

    phase = fields.String()
    units = UnitLists()
    centers = UnitLists()
    dislodged = fields.Dict()
    contested = Strings()
    retreat_options = fields.Dict()
    adjustments = fields.Dict(keys=fields.String(), values=fields.Integer())


class ResultSchema(Reply):
    """One order's result (docs/diplomacy.md): every key the engine writes."""

    power = fields.String(required=True)
    unit = fields.String()
    order = fields.String(required=True)
    outcome = Choice(["succeeds", "fails", "dislodged", "invalid"], required=True)
    reason = fields.String()
    code = Choice([code.value for code in Code],
                  "Beside every reason, the same for programs (docs/diplomacy.md lists them).")
    route = Strings("A move by convoy that had a route, the seas it went through in order.")
    disbanded = Described(fields.Boolean, "A dislodged unit with no retreat, disbanded at once.")


class SideSchema(Reply):
    powers = Strings(required=True)
    centers = fields.Integer(required=True)


class ServiceResultSchema(Reply):
    class Meta:
        description = ('The result of tournament-scoring.md section 2.1, with the service\'s "concession" end '
                       "(section 2.5).")

    centers = fields.Dict(keys=fields.String(), values=fields.Integer(validate=validate.Range(min=0)),
                          required=True)
    end = Choice(["solo", "draw", "concession", "timeout"], required=True)
    draw_members = Strings(required=True)
    eliminated_year = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    year = fields.Integer(required=True)
    conceded_to = fields.String()
    sides = fields.List(fields.Nested(SideSchema), metadata=_about(
        "In a variant whose players hold several powers: each seat's powers and their centres together "
        "(the two-player game's Italy counts for the coin toss's winner from 1915)."))


class ForkedFromSchema(Reply):
    game = fields.String()
    seq = fields.Integer()
    phase = fields.String()


class PressRulesViewSchema(Reply):
    class Meta:
        component = "PressRules"
        description = "The press rules in force, as the whole object."

    private = fields.Boolean(required=True)
    public = fields.Boolean(required=True)
    grey = Choice(["no", "allowed", "only"], required=True)
    fake_broadcast = fields.Boolean(required=True)
    phases = Choice(["all", "movement"], required=True)
    director_reads = fields.Boolean(required=True)


class PressChangeSchema(Reply):
    at = Timestamp(required=True)
    press = fields.Nested(PressRulesViewSchema, required=True)


GAME_STATUSES = ["forming", "open", "adjudicating", "paused", "halted", "finished"]
ENDINGS = ["solo", "vote", "last_year", "director", "no_player_left"]


class GameSchema(Reply):
    id = fields.String(required=True)
    name = fields.String()
    variant = fields.String(required=True)
    rules = fields.Dict()
    deadlines = fields.Nested(DeadlinesSchema)
    assignment = Choice(["random", "chosen"])
    missed_orders = Choice(["hold", "wait", "bot"])
    seat_count = Described(fields.Integer, "How many players the game seats.")
    seats = fields.List(fields.Nested(SeatSchema), required=True, metadata=_about(
        "Every power of the variant, with its player (null if none) and whether its seat is open to take over."))
    visibility = Choice(["public", "private"])
    min_reliability = fields.Float(allow_none=True)
    open_seat_after = fields.Integer(allow_none=True)
    status = Choice(GAME_STATUSES, required=True)
    created_at = Timestamp()
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    phase = fields.String(required=True, allow_none=True)
    seq = Described(fields.Integer, "Phase number: 1 for the first phase, 0 before the start.", required=True)
    deadline = Timestamp(required=True, allow_none=True)
    remaining_seconds = Described(fields.Float, "Seconds left until the deadline: counting down while the phase is open, held while paused.", allow_none=True)
    position = fields.Nested(PositionSchema, allow_none=True)
    to_order = Strings("Powers with a player and something to order.", required=True)
    submitted = Strings("Powers that have orders stored (never what).", required=True)
    ready = Strings(required=True)
    winner = fields.String(allow_none=True)
    grace = Described(fields.Integer, "Grace period after a deadline, in seconds.")
    reminders = fields.List(fields.Integer(), metadata=_about("Reminder offsets, seconds before the deadline."))
    absences = fields.Nested(AbsencePolicySchema)
    late = Strings("Powers without orders when the deadline passed, while the phase waits for them (grace "
                   "period, or missed_orders wait); the deadline is then the grace period's end.")
    draw_subsets = fields.Boolean()
    civil_disorder_vote = Choice(["yes", "no"])
    last_year = fields.Integer(allow_none=True)
    ended_by = Choice(ENDINGS, allow_none=True)
    result = fields.Nested(ServiceResultSchema, allow_none=True)
    tournament = Described(fields.String, "The tournament this game is a board of.", allow_none=True)
    forked_from = fields.Nested(ForkedFromSchema, allow_none=True)
    press = fields.Nested(PressRulesViewSchema)
    press_changes = fields.List(fields.Nested(PressChangeSchema), metadata=_about(
        "When the director changed the press rules, and to what: director_reads shows the director only the "
        "private press sent while it is on."))
    bots = Strings("Powers whose seat the bot plays now (the history says in which phases it gave orders).")
    bot_vote = Choice(["members", "yes", "no"])


class AbsenceSchema(Reply):
    id = fields.String(required=True)
    player = fields.String(required=True)
    powers = Strings(required=True)
    start = Timestamp(required=True)
    end = Timestamp(required=True)
    status = Choice(["pending", "approved", "rejected", "cancelled"], required=True)
    declared_at = Timestamp()


class AbsencesSchema(Reply):
    game = fields.String(required=True)
    absences = fields.List(fields.Nested(AbsenceSchema), required=True)


class CreatedGameSchema(Reply):
    game = fields.Nested(GameSchema, required=True)
    director_token = fields.String(required=True)


class JoinedSchema(Reply):
    player = fields.Nested(PlayerSchema, required=True)
    token = fields.String(required=True)
    game = fields.Nested(GameSchema, required=True)


class SubmissionSchema(Reply):
    phase = fields.String(required=True)
    power = fields.String(required=True)
    stored = fields.Boolean(required=True)
    orders = fields.List(fields.Nested(OrderReadingSchema), required=True)


class PowerOrdersSchema(Reply):
    must_order = fields.Boolean(required=True)
    ready = fields.Boolean(required=True)
    orders = fields.List(fields.String(), required=True, allow_none=True)


class OwnOrdersSchema(Reply):
    phase = fields.String(required=True, allow_none=True)
    seq = fields.Integer(required=True)
    player = fields.String(required=True)
    powers = fields.Dict(keys=fields.String(), values=fields.Nested(PowerOrdersSchema), required=True)


class ReadyStateSchema(Reply):
    phase = fields.String(required=True)
    ready = Strings("All powers ready in this phase.", required=True)
    powers = Strings("The caller's powers this changed.", required=True)
    without_orders = Strings("Those of them marked ready with no orders stored (they will hold, or "
                             "be ordered as the game's missed_orders says).", required=True)


class SupersededSchema(Reply):
    class Meta:
        description = ("Set when a rollback superseded this phase (who, when, why, and the phase number that "
                       "reopened).")

    by = fields.String()
    at = Timestamp()
    reason = fields.String()
    restored_seq = fields.Integer()


class HistoryEntrySchema(Reply):
    seq = fields.Integer(required=True)
    phase = fields.String(required=True)
    closed_by = Described(fields.String, "deadline, every power was ready, director, ...")
    attempts = Described(fields.Integer, "Adjudication attempts (more than 1 after a worker died).")
    adjudicated_at = Timestamp()
    position = fields.Nested(PositionSchema)
    orders = UnitLists(required=True)
    results = fields.List(fields.Nested(ResultSchema), required=True)
    next_phase = fields.String(allow_none=True)
    superseded = fields.Nested(SupersededSchema, allow_none=True)
    bots = Strings("Powers whose orders the bot gave in this phase (null when none).", allow_none=True)


class HistorySchema(Reply):
    game = fields.String(required=True)
    phases = fields.List(fields.Nested(HistoryEntrySchema), required=True)


class GameExportSchema(Reply):
    game = fields.Nested(GameSchema, required=True)
    phases = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    exported_at = Timestamp(required=True)
    expires_at = Timestamp("When the game expires; null while it is being played.", required=True, allow_none=True)


class BotOrdersSchema(Reply):
    orders = Strings("The power's orders: one a unit, or its retreats, builds or disbands; [] if none.",
                     required=True)


class AdjudicationSchema(Reply):
    class Meta:
        component = "AdjudicationResponse"

    phase = fields.String(required=True)
    results = fields.List(fields.Nested(ResultSchema), required=True)
    next = fields.Nested(PositionSchema, allow_none=True)
    winner = fields.String()
    disbanded = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), metadata=_about(
        "Units dislodged in this movement phase and removed at once, because they had no retreat (no retreat "
        "phase opens for them) or were neutral; power -> units."))


VOTES = ["yes", "no"]


class ProposalSchema(Reply):
    id = fields.String(required=True)
    kind = Choice(["draw", "concession"], required=True)
    members = fields.List(fields.String(), allow_none=True)
    to = fields.String(allow_none=True)
    phase = fields.String(required=True)
    status = Choice(["open", "passed", "lapsed"], required=True)
    # the director's view only
    proposed_by = Described(fields.String, "Director only.")
    proposed_at = Timestamp("Director only.")
    closed_at = Timestamp("Director only.", allow_none=True)
    closed_because = Described(fields.String, "Director only.", allow_none=True)
    # the caller's own ballots (player token)
    your_votes = fields.Dict(keys=fields.String(), values=Choice(VOTES),
                             metadata=_about("Player token only: the caller's own ballots."))


class ProposalsSchema(Reply):
    game = fields.String(required=True)
    proposals = fields.List(fields.Nested(ProposalSchema), required=True)


class VotedSchema(Reply):
    proposal = fields.String(required=True)
    power = fields.String(required=True)
    vote = fields.String(required=True)
    status = Choice(["open", "passed"], required=True)


class AuditEntrySchema(Reply):
    at = Timestamp(required=True)
    action = Described(fields.String, "start, extend, pause, resume, adjudicate, end, last_year, rollback, fork, "
                                      "webhook_added, webhook_removed, press_rules, ...", required=True)
    by = fields.String(required=True)
    detail = fields.Dict(required=True)


class AuditSchema(Reply):
    game = fields.String(required=True)
    entries = fields.List(fields.Nested(AuditEntrySchema), required=True)


class GameResultSchema(Reply):
    class Meta:
        component = "FinishedGame"

    game = fields.String(required=True)
    ended_by = Choice(ENDINGS, required=True)
    ended_at = Timestamp(required=True)
    phase = fields.String(required=True)
    result = fields.Nested(ServiceResultSchema, required=True)


class GameScoresSchema(GameResultSchema):
    class Meta:
        component = "GameScores"

    system = fields.String(required=True)
    scores = fields.Dict(keys=fields.String(), values=fields.Raw(metadata={"type": "number"}), required=True)
    exact = fields.Dict(keys=fields.String(), values=fields.String(),
                        metadata=_about('Each score as an exact fraction ("100/7").'))


class AccountRecordSchema(Reply):
    class Meta:
        description = ("Counts of adjudicated phases only: a phase counts once it is adjudicated, a rollback takes "
                       "back the phases it removes.")

    games = Described(fields.Integer, "Games in which the account held a seat.", required=True)
    finished = Described(fields.Integer, "Of those, the games that ended while it held the seat.", required=True)
    phases_due = Described(fields.Integer, "Adjudicated phases in which one of its powers had to act.",
                           required=True)
    phases_on_time = Described(fields.Integer, "Of those, the ones with its orders in before the deadline, grace "
                                               "included.", required=True)
    missed = Described(fields.Integer, "phases_due - phases_on_time", required=True)
    civil_disorder = Described(fields.Integer, "Seats opened because its power missed open_seat_after movement "
                                               "phases in a row.", required=True)
    left = Described(fields.Integer, "Seats it gave up (leave).", required=True)
    replaced = Described(fields.Integer, "Seats it no longer held that another player took over.", required=True)
    took_over = Described(fields.Integer, "Open seats it took over.", required=True)
    reliability = Described(fields.Float, "phases_on_time / phases_due; null with no phase due yet.",
                            required=True, allow_none=True)


class AccountSchema(Reply):
    id = fields.String(required=True)
    name = Described(fields.String, "null once the account is deleted.", required=True, allow_none=True)
    created_at = Timestamp()
    deleted = fields.Boolean()
    record = fields.Nested(AccountRecordSchema, required=True)


class CreatedAccountSchema(Reply):
    account = fields.Nested(AccountSchema, required=True)
    token = Described(fields.String, "The account token, shown only this once.", required=True)


class MessageSchema(Reply):
    id = Described(fields.String, "`m` and 16 random hex digits, such as m5f1c09a2e4b7d3c8: it tells nothing of "
                   "the other messages of the game (docs/security.md).", required=True)
    phase = Described(fields.String, "The phase it was sent in (kept through a rollback).", required=True)
    sent_at = Timestamp(required=True)
    from_ = fields.String(allow_none=True, data_key="from", attribute="from", required=True,
                          metadata=_about("null for grey press, except in its sender's own view."))
    to = Recipients(allow_none=True, required=True, metadata=_about(
        'The recipients, or "all" for a broadcast (and for a fake broadcast, except in its sender\'s view); null '
        "for a reply to grey press, except in its recipient's view."))
    body = fields.String(required=True)
    grey = fields.Boolean(required=True)
    fake_broadcast = Described(fields.Boolean, "Only in its sender's view.")
    in_reply_to = Described(fields.String, "The message this one answers (a reply by mail).")


class SentPressSchema(Reply):
    message = fields.Nested(MessageSchema, required=True)


class PressSchema(Reply):
    messages = fields.List(fields.Nested(MessageSchema), required=True)


class LobbySeatsSchema(Reply):
    taken = fields.Integer(required=True)
    total = fields.Integer(required=True)
    open = Strings("Powers whose seat is open to take over.", required=True)


class LobbyGameSchema(Reply):
    id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    status = Choice(GAME_STATUSES, required=True)
    phase = fields.String(required=True, allow_none=True)
    seats = fields.Nested(LobbySeatsSchema, required=True)
    deadlines = fields.Nested(DeadlinesSchema, required=True)
    press = fields.Raw(allow_none=True, required=True,
                       metadata=_about("The game's press rules (null where the game has none set)."))
    min_reliability = fields.Float(required=True, allow_none=True)
    created_at = Timestamp()


class LobbySchema(Reply):
    games = fields.List(fields.Nested(LobbyGameSchema), required=True)
    next = Described(fields.String, "The cursor of the next page (?cursor=), null on the last.", required=True,
                     allow_none=True)


class OpenApiDocumentSchema(Reply):
    """openapi.yaml itself (GET /openapi.yaml)."""

    class Meta:
        component = "OpenApiDocument"

    openapi = Choice(["3.1.0"], required=True)
    info = fields.Dict(required=True)
    paths = fields.Dict(required=True)
    components = fields.Dict(required=True)
