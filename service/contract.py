"""The API's contract, generated: the OpenAPI document is built from the routes (Flask's url_map),
what each view declares with the decorators below, and the marshmallow schemas it names (apispec
and its MarshmallowPlugin).  openapi.yaml is a snapshot of it (``python3 manage.py openapi``, which
runs service/openapi.py); the service serves it and service/http.py's request-time checks read it.

A view declares, in the spirit of APIFairy::

    @bp.post("/v1/games/<game_id>/press")
    @doc("sendPress", ["press"], "Send press ...", "Longer text ...")
    @authenticate("playerToken")
    @body(schemas.SendPressSchema)
    @response(schemas.SentPressSchema, 201, "The message as its sender sees it.")
    @other_responses("Malformed", "Unauthorized", "NotFound", "Invalid")
    def send(game_id): ...

The decorators only describe: the view still reads its body with ``http.load`` and answers with
``http.reply``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import resolve_schema_cls
from marshmallow import RAISE, Schema

from . import schemas
from .schemas import json_pattern

TITLE = "Diplomacy adjudication service"
VERSION = "0.1.0"
DESCRIPTION = (
    'Play a Diplomacy game by deadline over HTTP, or adjudicate a single position. Orders and positions use '
    'the interchange format (upper-case province ids, orders such as "A PAR - BUR"). Errors are '
    'application/problem+json whose "detail" says what was wrong and where ("body.deadlines.movement: ..."). '
    'Tokens are sent as "Authorization: Bearer <token>": the director token (returned when a game is created) '
    "and each player's token (returned when joining) are shown once and stored only as hashes.")
TAGS = ["games", "orders", "director", "stateless", "service", "resolutions", "scoring", "tournaments",
        "webhooks", "accounts", "press", "maps", "pages"]


# ---------------------------------------------------------------- what a view declares
@dataclass
class Operation:
    operation_id: str = ""
    tags: list[str] = field(default_factory=list)
    summary: str = ""
    description: str = ""
    security: list[dict] | None = None
    body: type[Schema] | None = None
    body_required: bool = True
    parameters: list = field(default_factory=list)
    responses: dict[str, dict] = field(default_factory=dict)


def declared(view) -> Operation | None:
    """What ``view`` declared (None if nothing)."""
    return view.__dict__.get("_operation")


def _declared(view) -> Operation:
    if "_operation" not in view.__dict__:
        view._operation = Operation()
    return view._operation


def doc(operation_id: str, tags: list[str], summary: str, description: str = ""):
    """The operation's id (a generated client's method name), tags, summary and description."""
    def mark(view):
        op = _declared(view)
        op.operation_id, op.tags, op.summary, op.description = operation_id, tags, summary, description
        return view
    return mark


def authenticate(*schemes: str | None):
    """The tokens the operation takes (components.securitySchemes), any one of them; ``None``
    among them: it may be called without a token too."""
    def mark(view):
        _declared(view).security = [{} if s is None else {s: []} for s in schemes]
        return view
    return mark


def body(schema: type[Schema], required: bool = True):
    """The JSON request body, as ``schema`` loads it."""
    def mark(view):
        op = _declared(view)
        op.body, op.body_required = schema, required
        return view
    return mark


def arguments(schema: type[Schema] | None = None, *refs: str, location: str = "query"):
    """Query (or header) parameters: the fields of ``schema``, and shared ones by name
    (components.parameters)."""
    def mark(view):
        op = _declared(view)
        if schema is not None:
            op.parameters.append({"in": location, "schema": schema})
        op.parameters += refs  # components' names, written as references
        return view
    return mark


def response(schema: type[Schema] | str | None, status: int = 200, description: str = "", *,
             many: bool = False, content: dict | None = None, headers: dict | None = None,
             links: dict | None = None):
    """A success response: a JSON body dumped by ``schema`` (``many``: a list of them), or
    ``content`` by media type, or (a string) a shared response by name (components.responses)."""
    def mark(view):
        if isinstance(schema, str):
            answer = _ref("responses", schema)
        else:
            answer = {"description": description}
            if headers:
                answer["headers"] = {name: _ref("headers", ref) if isinstance(ref, str) else ref
                                     for name, ref in headers.items()}
            if schema is not None:
                shape = {"type": "array", "items": schema} if many else schema
                answer["content"] = {"application/json": {"schema": shape}}
            elif content:
                answer["content"] = content
            if links:
                answer["links"] = links
        _declared(view).responses[str(status)] = answer
        return view
    return mark


def links(parameters: dict, **operations: str) -> dict:
    """A response's links: each named operation, called with ``parameters`` (OpenAPI runtime expressions)."""
    return {name: {"operationId": operation_id, "parameters": parameters} for name, operation_id in operations.items()}


def bearer(expression: str) -> dict:
    """A link's Authorization header: the token at ``expression`` (``$response.body#/token``)."""
    return {"header.Authorization": f"Bearer {{{expression}}}"}


def other_responses(*names: str):
    """The error (or not-modified) responses the operation may give, by name (components.responses)."""
    def mark(view):
        for name in names:
            _declared(view).responses[str(RESPONSES[name][0])] = _ref("responses", name)
        return view
    return mark


def declare_as(copy, view, **words: str) -> None:
    """Declare ``copy`` (a view made for one of several routes) as ``view`` is declared, with its
    id, summary and description's ``{word}``s filled in."""
    op = _declared(view)
    copy._operation = replace(op, operation_id=op.operation_id.format(**words), summary=op.summary.format(**words),
                              description=op.description.format(**words))


DOCUMENTED: list[type[Schema]] = []


def documented(schema: type[Schema]) -> type[Schema]:
    """A schema the document holds though no operation names it (what webhooks send, say)."""
    DOCUMENTED.append(schema)
    return schema


def _ref(kind: str, name: str) -> dict:
    return {"$ref": f"#/components/{kind}/{name}"}


# ---------------------------------------------------------------- shared components
def _problem(description: str, **extra) -> dict:
    return {"description": description, **extra,
            "content": {"application/problem+json": {"schema": _ref("schemas", "Problem")}}}


RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}}
ETAG = {"ETag": _ref("headers", "ETag")}
#: shared responses: name -> (status, the response object)
RESPONSES: dict[str, tuple[int, dict]] = {
    "EventStream": (200, {
        "description": "A stream of Server-Sent Events, each with an id, an event type and JSON data; a comment "
                       "every 15 s while nothing happens.",
        "content": {"text/event-stream": {"schema": {"type": "string"}}}}),
    "NotModified": (304, {
        "description": "Nothing this viewer may see has changed since the view whose ETag was sent in "
                       "If-None-Match; no body.",
        "headers": ETAG}),
    "ResolutionView": (200, {
        "description": "The resolution as the caller may see it.", "headers": ETAG,
        "content": {"application/json": {"schema": _ref("schemas", "Resolution")}}}),
    "GameState": (200, {
        "description": "The game's public state after the change.",
        "content": {"application/json": {"schema": _ref("schemas", "Game")}}}),
    "Malformed": (400, _problem("The body is not JSON, not an object, or a header is malformed.")),
    "Unauthorized": (401, _problem("No token, or a token this game does not know.")),
    "Forbidden": (403, _problem("The token is known but does not allow this (another power, not the director).")),
    "NotFound": (404, _problem("No such game (or no such endpoint).")),
    "Conflict": (409, _problem(
        "Not possible in the game's current state: not started, already started, seat taken, phase closed, "
        "deadline passed, orders for another phase.")),
    "TooLarge": (413, _problem("The body is larger than 256 KiB.")),
    "Invalid": (422, _problem(
        'The body is JSON but its content is invalid; "errors" maps each field to its messages, and for orders '
        '"orders" lists how each order was read.')),
    "TooManyRequests": (429, _problem(
        "A quota is spent (contracts/clients.md): a request with a token the service knows counts against that "
        "token (an account's, a player's, a director's, a participant's), one without against its address. "
        '"quota" names it (the RATE_LIMIT_* variable that sets it), "credential" says whose it is, "resets_at" '
        "and Retry-After when it resets.", headers=RETRY_AFTER)),
    "Unavailable": (503, _problem(
        "The service's store (Redis) failed while handling the request, so it may or may not have been applied; "
        '"detail" says whether a retry is safe. Retry-After says when to try again.', headers=RETRY_AFTER)),
}

SECURITY_SCHEMES = {
    "playerToken": {"type": "http", "scheme": "bearer", "description": "The token returned when joining the game."},
    "directorToken": {"type": "http", "scheme": "bearer",
                      "description": "The token returned when creating the game (or the resolution)."},
    "participantToken": {"type": "http", "scheme": "bearer",
                         "description": "A participant's token, returned when the resolution was created."},
    "queryToken": {"type": "apiKey", "in": "query", "name": "token",
                   "description": "A player, director or participant token in the query, taken on the event "
                                  "streams alone (a browser's EventSource cannot send headers). It is redacted "
                                  "in the access logs."},
    "accountToken": {"type": "http", "scheme": "bearer",
                     "description": "An account's token, returned when the account was made."},
}

HEADERS = {"ETag": {
    "description": "The version of this view for this viewer (contracts/clients.md): send it back in "
                   "If-None-Match to get a 304 while nothing this viewer may see has changed.",
    "schema": {"type": "string"}}}


def _string(pattern: str | None = None) -> dict:
    return {"type": "string", **({"pattern": json_pattern(pattern)} if pattern else {})}


#: parameters shared by name (components.parameters)
PARAMETERS = {
    "LastEventId": {"name": "Last-Event-ID", "in": "header", "required": False,
                    "description": "The id of the last event received; the stream goes on after it.",
                    "schema": _string(schemas.EVENT_ID)},
    "QueryToken": {"name": "token", "in": "query", "required": False,
                   "description": "The token, for a client that cannot send an Authorization header (EventSource).",
                   "schema": _string()},
    "IfNoneMatch": {"name": "If-None-Match", "in": "header", "required": False,
                    "description": "The ETag of the view the client holds; a 304 without a body while it is "
                                   "still current.",
                    "schema": _string()},
}
#: path parameters by their name in the routes: (shared name or None, description, schema)
PATH_PARAMETERS: dict[str, tuple[str | None, str, dict]] = {
    "game_id": ("GameId", "The game's id (returned when it was created), 12 lowercase hex digits.",
                _string(schemas.ID)),
    "account_id": ("AccountId", 'The account\'s id (returned when it was made), "u" and 12 lowercase hex digits.',
                   _string(schemas.ACCOUNT_ID)),
    "power": ("Power", "One of the caller's powers, e.g. FRANCE (case-insensitive).", _string(schemas.POWER_NAME)),
    "tournament_id": ("TournamentId", "The tournament's id (returned when it was created), 12 lowercase hex digits.",
                      _string(schemas.ID)),
    "hook_id": ("HookId", "The webhook's id (returned when it was registered), 12 lowercase hex digits.",
                _string(schemas.ID)),
    "resolution_id": ("ResolutionId",
                      "The resolution's id (returned when it was created), 12 lowercase hex digits.",
                      _string(schemas.ID)),
    "proposal_id": (None, "The proposal's id, 12 lowercase hex digits.", _string(schemas.ID)),
    "absence_id": (None, "The absence's id (a1, a2, ...).", _string(schemas.ABSENCE_ID)),
    "system": (None, "One of dss, sum_of_squares, ppsc, carnage, cdiplo100, tribute, opentribute, "
                     "world_classic, bangkok.", _string()),
    "round_number": ("RoundNumber", "", {"type": "integer", "minimum": 1}),
    "name": (None, "A variant's name, as GET /v1/variants lists them (standard, two_player_1914, ...).",
             _string(schemas.VARIANT_NAME)),
    "player_id": ("TournamentPlayerId", 'A tournament player\'s id, "t" and a number (t1, t2, ... in the order they '
                                        "were added).", _string(schemas.TOURNAMENT_PLAYER_ID)),
}


def _path_parameter(name: str) -> dict | str:
    shared, description, schema = PATH_PARAMETERS[name]
    if shared:
        return shared  # apispec writes a component's name as a reference
    return {"name": name, "in": "path", "required": True, **({"description": description} if description else {}),
            "schema": schema}


# ---------------------------------------------------------------- marshmallow to JSON Schema
def component_name(schema) -> str:
    """A schema's name in components.schemas: its class's name without "Schema", or the name its own
    ``Meta.component`` gives (a subclass does not inherit it)."""
    cls = resolve_schema_cls(schema)
    return getattr(cls.__dict__.get("Meta"), "component", None) or cls.__name__.removesuffix("Schema")


class Plugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, and what this project's schemas add: a field may give its own
    JSON Schema (``openapi(ref)``, for unions marshmallow cannot say), patterns are written for JSON
    Schema, a request schema (unknown fields raise) says ``additionalProperties: false``, and a
    schema's ``Meta.openapi`` adds what its validators check across fields."""

    def __init__(self):
        super().__init__(schema_name_resolver=component_name)

    def init_spec(self, spec):
        super().init_spec(spec)
        self.converter.add_attribute_function(_own_schema)

    def schema_helper(self, name, definition, schema=None, **kwargs):
        json_schema = super().schema_helper(name, definition, schema=schema, **kwargs)
        if schema is not None:
            cls = resolve_schema_cls(schema)
            if issubclass(cls, schemas.Reply):
                json_schema.pop("additionalProperties", None)
            elif cls().unknown == RAISE:
                json_schema["additionalProperties"] = False
            json_schema.update(getattr(cls.__dict__.get("Meta"), "openapi", {}))
        return json_schema


def _own_schema(converter, field, ret, **kwargs) -> dict:
    """What a field says of itself: ``openapi(ref)`` gives its JSON Schema (``ref(SchemaClass)`` is a
    reference to a schema's component), and ``component`` names it in components.schemas."""
    if hasattr(field, "openapi"):
        own = field.openapi(converter.resolve_nested_schema)
        name = getattr(field, "component", None)
        if name:
            if name not in converter.spec.components.schemas:
                converter.spec.components.schema(name, own)
            own = {"$ref": f"#/components/schemas/{name}"}
        if field.allow_none and "oneOf" in own:
            own["oneOf"] = [*own["oneOf"], {"type": "null"}]
        elif field.allow_none and "$ref" in own:
            own = {"anyOf": [own, {"type": "null"}]}
        elif field.allow_none and isinstance(own.get("type"), str):
            own["type"] = [own["type"], "null"]
        for key in ("type", "additionalProperties", "items", "format", "enum"):  # the field's own say wins
            ret.pop(key, None)
        return own
    own = {"pattern": json_pattern(ret["pattern"])} if "pattern" in ret else {}
    key = getattr(field, "key_field", None)  # a map's keys: JSON Schema's propertyNames
    if key is not None and (names := converter.field2property(key)).keys() - {"type"}:
        own["propertyNames"] = {k: v for k, v in names.items() if k != "type"}
    return own


# ---------------------------------------------------------------- the document
PATH_ARGUMENT = re.compile(r"<(?:[^:>]+:)?([^>]+)>")  # <game_id>, <int:round_number>


def flask_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path: ``/v1/games/<game_id>`` is ``/v1/games/{game_id}``."""
    return PATH_ARGUMENT.sub(r"{\1}", rule)


def _operation(op: Operation) -> dict:
    out: dict = {"operationId": op.operation_id, "tags": op.tags, "summary": op.summary}
    if op.description:
        out["description"] = op.description
    if op.security is not None:
        out["security"] = op.security
    if op.parameters:
        out["parameters"] = list(op.parameters)
    if op.body is not None:
        out["requestBody"] = {"required": op.body_required,
                              "content": {"application/json": {"schema": op.body}}}
    out["responses"] = dict(sorted(op.responses.items()))
    return out


#: blueprints of pages that only a browser uses (forms with CSRF, a session cookie): not the API's contract
BROWSER_ONLY = frozenset({"play", "direct", "static", "static_pages"})


def generate(app) -> dict:
    """The OpenAPI 3.1 document of ``app``'s routes."""
    spec = APISpec(TITLE, VERSION, "3.1.0", plugins=[Plugin()], info={"description": DESCRIPTION},
                   servers=[{"url": "/"}], tags=[{"name": tag} for tag in TAGS])
    for name, scheme in SECURITY_SCHEMES.items():
        spec.components.security_scheme(name, scheme)
    for name, header in HEADERS.items():
        spec.components.header(name, header)
    spec.components.schema("Problem", schema=schemas.ProblemSchema)
    for name, (_status, answer) in RESPONSES.items():
        spec.components.response(name, answer)
    for name, parameter in PARAMETERS.items():
        spec.components.parameter(name, parameter["in"], parameter)
    for name, (shared, description, schema) in PATH_PARAMETERS.items():
        if shared:
            spec.components.parameter(shared, "path", {"name": name, "required": True, "schema": schema,
                                                       **({"description": description} if description else {})})
    for extra in DOCUMENTED:
        spec.components.schema(component_name(extra), schema=extra)
    missing = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.endpoint.partition(".")[0] in BROWSER_ONLY:
            continue
        view = app.view_functions[rule.endpoint]
        op = declared(view)
        if op is None or not op.operation_id:
            missing.append(rule.endpoint)
            continue
        operations = {method.lower(): _operation(op) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})}
        spec.path(flask_path(rule.rule), operations=operations,
                  parameters=[_path_parameter(name) for name in PATH_ARGUMENT.findall(rule.rule)] or None)
    if missing:
        raise LookupError(f"views without @doc: {', '.join(missing)}")
    document = spec.to_dict()
    document["paths"] = {path: {key: item[key] for key in ORDER if key in item}
                         for path, item in document["paths"].items()}
    return {"openapi": document.pop("openapi"), **document}


ORDER = ("parameters", "get", "put", "post", "delete", "patch")  # of a path's entries in the document


def to_yaml(document: dict) -> str:
    # libyaml's emitter (PyYAML's wheels carry it): the pure-Python one takes seconds on this document
    return yaml.dump(document, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                     allow_unicode=True, width=110)


_documents: dict[tuple, dict] = {}
_texts: dict[tuple, str] = {}


def _routes(app) -> tuple:
    return tuple(sorted((r.rule, r.endpoint, tuple(sorted(r.methods))) for r in app.url_map.iter_rules()))


def document(app) -> dict:
    """``app``'s document, made once per process for the same routes."""
    key = _routes(app)
    if key not in _documents:
        _documents[key] = generate(app)
    return _documents[key]


def document_yaml(app) -> str:
    """``app``'s document as YAML (GET /openapi.yaml, /docs, ``python3 manage.py openapi``), written
    when first asked for."""
    key = _routes(app)
    if key not in _texts:
        _texts[key] = to_yaml(document(app))
    return _texts[key]
