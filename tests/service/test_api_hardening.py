"""Never a 500, and every error honest: the repros of issue 11, each against the
service (in this process on a real Redis; what gunicorn answers itself, 413 and
414, against the real stack), and each over every endpoint of openapi.yaml it
concerns."""
from __future__ import annotations

import re
import signal
import socket

import pytest
import requests

from tests.service.gamekit import new_game
from tests.service.svc_stack import spec as read_spec, wait_for

SAMPLE = {"power": "FRANCE", "system": "dss", "round_number": "1", "player_id": "t1"}


def _operations():
    spec = read_spec()

    def resolve(node):
        while "$ref" in node:
            target = spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in ("get", "put", "post", "patch", "delete"):
                continue
            params = [resolve(p) for p in item.get("parameters", []) + op.get("parameters", [])]
            yield path, method.upper(), op, [p for p in params if p["in"] == "path"]


def _sample_path(path: str, params: list[dict]) -> str:
    """``path`` with each parameter a value of its declared format (not necessarily one that exists)."""
    for p in params:
        pattern = p.get("schema", {}).get("pattern", "")
        value = ("0123456789ab" if pattern == "^[0-9a-f]{12}$" else "a1" if pattern.startswith("^a")
                 else "u0123456789ab" if pattern.startswith("^u")
                 else SAMPLE.get(p["name"], "x"))
        path = path.replace("{" + p["name"] + "}", value)
    return path


JSON_BODIES = [(p, m, op, params) for p, m, op, params in _operations() if "requestBody" in op]
SECURED = [(p, m, op, params) for p, m, op, params in _operations()
           if op.get("security") and all(op["security"])]


def _raw(api, method, path, text: str, token: str | None = "t"):
    return api.call(method, path, data=text.encode(), token=token, headers={"Content-Type": "application/json"})


# ---------------------------------------------------------------- bodies no store can hold
def test_a_lone_surrogate_is_a_422_naming_the_field_not_a_500(api):
    resp = _raw(api, "POST", "/v1/games", '{"name":"\\ud800"}', token=None)
    assert resp.status_code == 422 and resp.headers["Content-Type"] == "application/problem+json"
    assert resp.json()["detail"].startswith("body.name: name: U+D800 at 0: ")
    assert resp.json()["errors"] == {"name": [resp.json()["detail"].removeprefix("body.name: ")]}
    resp = _raw(api, "POST", "/v1/games", '{"rules": {"\\udc00x": 1}}', token=None)
    assert resp.status_code == 422 and resp.json()["detail"].startswith("body.rules: rules.<key>: U+DC00 at 0")
    resp = _raw(api, "POST", "/v1/games", '{"name": "\\ud800', token=None)  # not JSON at all: a 400
    assert resp.status_code == 400 and "malformed JSON" in resp.json()["detail"]
    # a surrogate pair is a character: accepted
    resp = _raw(api, "POST", "/v1/games", '{"name":"\\ud83c\\udfb2 dice"}', token=None)
    assert resp.status_code == 201 and resp.json()["game"]["name"] == "\U0001F3B2 dice"


@pytest.mark.parametrize("path,method,op,params", JSON_BODIES, ids=[f"{m} {p}" for p, m, _o, _q in JSON_BODIES])
def test_every_json_endpoint_refuses_what_no_store_can_hold(api, path, method, op, params):
    url = _sample_path(path, params)
    for text, status, says in (('{"name": "a\\ud800b"}', 422, "body.name: name: U+D800 at 1"),
                               ('{"x": [1, ' + "7" * 4301 + "]}", 400, "an integer of 4301 digits"),
                               ('{"x": NaN}', 400, "NaN is not JSON"), ('{"x": 1e999}', 400, "too large to be read")):
        resp = _raw(api, method, url, text)
        assert resp.status_code == status and says in resp.json()["detail"], (method, url, text[:20], resp.text)


def test_integers_as_json_schema_reads_them(api):
    game = new_game(api)
    before = game.state()["deadline"]
    resp = game.director_action("extend", json={"seconds": 80.0})
    assert resp.status_code == 200
    from datetime import datetime
    moved = datetime.fromisoformat(resp.json()["deadline"]) - datetime.fromisoformat(before)
    assert moved.total_seconds() == 80
    for bad in (80.5, "80", True):
        resp = game.director_action("extend", json={"seconds": bad})
        assert resp.status_code == 422 and "body.seconds" in resp.json()["detail"], bad
    assert game.ready("FRANCE", 1).status_code == 422  # a boolean is true or false, not 1


# ---------------------------------------------------------------- extend
def test_extend_to_a_year_out_of_range_is_a_422(api):
    game = new_game(api)
    for deadline in ("9999-12-31T23:59:59-14:00", "0000-01-01T00:00:00Z", "2026-02-30T00:00:00Z"):
        resp = game.director_action("extend", json={"deadline": deadline})
        assert resp.status_code == 422 and resp.json()["detail"].startswith("body.deadline"), resp.text
    resp = game.director_action("extend", json={"deadline": "2026-11-22 18:00Z"})  # not RFC 3339
    assert resp.status_code == 422 and "RFC 3339" in resp.json()["detail"]
    for both_or_none in ({}, {"seconds": 60, "deadline": "2099-01-01T00:00:00Z"}):
        resp = game.director_action("extend", json=both_or_none)
        assert resp.status_code == 422 and "either 'seconds'" in resp.json()["detail"]


# ---------------------------------------------------------------- ids
def test_ids_naming_internal_keys_are_404_on_every_route(api):
    game = new_game(api)
    resolution = "0123456789ab"
    for suffix in (":players", ":tokens", ":orders:1", ":ready:1", ":history", "%3Atokens"):
        for path, method, op, params in _operations():
            ids = [p for p in params if p["name"].endswith("_id")]
            if not ids:
                continue
            url = _sample_path(path, params).replace("0123456789ab", game.id + suffix, 1)
            page = not url.startswith("/v1/")  # a page's errors are HTML pages (docs/pages.md)
            resp = (api.request if page else api.call)(method, url, json={}, token=game.director, check=False)
            assert resp.status_code == 404, (method, url, resp.status_code, resp.text)
            assert resp.headers["Content-Type"] == ("text/html; charset=utf-8" if page else "application/problem+json")
    assert api.get(f"/v1/games/{game.id}:players").json()["detail"] == f"there is no game '{game.id}:players'"
    assert api.get(f"/v1/resolutions/{resolution}:tokens").json()["detail"] == \
        f"there is no resolution '{resolution}:tokens'"


def test_every_path_id_has_a_declared_format():
    for path, method, op, params in _operations():
        for p in params:
            if p["name"].endswith("_id"):
                assert p.get("schema", {}).get("pattern"), (method, path, p["name"])


# ---------------------------------------------------------------- auth before body
@pytest.mark.parametrize("path,method,op,params", SECURED, ids=[f"{m} {p}" for p, m, _o, _q in SECURED])
def test_no_token_is_a_401_before_the_body_is_read(api, path, method, op, params):
    url = _sample_path(path, params)
    for text in ("{not json", '{"unknown": 1}', "[]"):
        resp = _raw(api, method, url, text, token=None)
        assert resp.status_code == 401, (method, url, text, resp.text)
        assert resp.headers["WWW-Authenticate"] == "Bearer"
    resp = api.call(method, url, json={}, headers={"Authorization": "Bearer "})
    assert resp.status_code == 401 and "Authorization: Bearer <token>" in resp.json()["detail"]


def test_an_empty_bearer_token_is_no_token(api):
    game = new_game(api)
    resp = api.get(f"{game.path}/orders", headers={"Authorization": "Bearer "})
    assert resp.status_code == 401
    assert api.get(game.path, headers={"Authorization": "Bearer "}).status_code == 200


# ---------------------------------------------------------------- what gunicorn answers itself
def _exchange(port: int, request: bytes, then: bytes | None = None) -> tuple[bytes, bytes | None]:
    """Send ``request``, read one response; then send ``then`` on the same connection and read
    what comes back (b"" if the server closed the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the whole body went out
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(65536)
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
        while len(rest) < length:
            rest += s.recv(65536)
        if then is None:
            return data, None
        try:
            s.sendall(then)
            second = s.recv(65536)
        except (BrokenPipeError, ConnectionResetError):
            second = b""
        return head + b"\r\n\r\n" + rest, second


def test_after_a_413_the_connection_is_closed_and_says_so(stack):
    body = b'{"orders": ["' + b"x" * 400_000 + b'"]}'
    request = (b"POST /v1/adjudicate/diplomacy HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % len(body)) + body
    first, second = _exchange(stack.port, request, b"GET /v1/variants HTTP/1.1\r\nHost: t\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 413") and b"Connection: close" in first
    assert b"application/problem+json" in first and b"body: larger than" in first
    assert second == b""  # closed, as announced
    # a request the API reads whole keeps the connection, and says so
    small = b'{"phase": "S1901M", "units": {}}'
    request = (b"POST /v1/adjudicate/diplomacy HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % len(small)) + small
    first, second = _exchange(stack.port, request, b"GET /v1/variants HTTP/1.1\r\nHost: t\r\n\r\n")
    assert b"Connection: keep-alive" in first and second.startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("length", [5_000, 20_000])
def test_a_very_long_path_is_a_414_problem(stack, length):
    resp = requests.get(f"{stack.base}/v1/games/{'a' * length}", timeout=10)
    assert resp.status_code == 414
    assert resp.headers["Content-Type"] == "application/problem+json"
    problem = resp.json()
    assert problem["status"] == 414 and problem["detail"].startswith("path: the request line")


# ---------------------------------------------------------------- the store fails
@pytest.fixture()
def own_service(tmp_path):
    """The service in this process on a Redis of its own, which the test may kill and restart on its
    data (the service drives the time while the test runs, as the ``api`` fixture's does)."""
    from service.launch import free_port, start_redis, stop
    from tests.service.inprocess import InProcessApi, InProcessStack

    redis_port = free_port()
    data = tmp_path / "redis"
    proc, url = start_redis(data, port=redis_port)
    stack = InProcessStack(url)
    service = {"api": InProcessApi(stack), "redis": proc, "data": data, "redis_port": redis_port}
    with stack.driving():
        yield service
    stack.close()
    stop(service["redis"])


def test_store_down_is_a_503_that_says_it_may_have_been_applied(own_service):
    from service.launch import start_redis

    api = own_service["api"]
    game = new_game(api)
    assert game.ready("FRANCE").status_code == 200
    own_service["redis"].send_signal(signal.SIGKILL)
    own_service["redis"].wait()

    def unavailable(method, path, **kw):
        resp = api.request(method, path, check=False, **kw)
        assert resp.status_code == 503 and resp.headers["Retry-After"].isdigit(), resp.text
        assert resp.headers["Content-Type"] == "application/problem+json"
        api.validate(resp)
        return resp.json()["detail"]

    ready = {"json": {"ready": False}, "headers": {"Authorization": f"Bearer {game.tokens['FRANCE']}"}}
    detail = unavailable("PUT", f"{game.path}/ready", **ready)
    assert "may or may not have been applied" in detail and "Retrying it is safe" in detail
    assert "nothing was changed" not in detail
    assert "takes another seat" in unavailable("POST", f"{game.path}/players", json={"name": "late"})
    assert "creates another" in unavailable("POST", "/v1/tournaments", json={"system": "dss", "rounds": 1})
    unavailable("GET", "/v1/health")
    own_service["redis"], _ = start_redis(own_service["data"], port=own_service["redis_port"])
    resp = wait_for(lambda: (r := game.ready("FRANCE", False)).status_code == 200 and r, 20, "the retry")
    assert "FRANCE" not in resp.json()["ready"]
