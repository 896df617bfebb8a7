"""openapi.yaml stays true: it is the document generated from the routes (service/contract.py), every
route is specified, every specified path is served."""
from __future__ import annotations

import re

from openapi_spec_validator import validate

from service import openapi
from tests.service.svc_stack import SPEC, read_yaml, spec as read_spec


def _flask_routes(app) -> set[tuple[str, str]]:
    """The API's routes: all but the pages that only a browser uses (service/contract.py's BROWSER_ONLY)."""
    from service.contract import BROWSER_ONLY

    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.partition(".")[0] in BROWSER_ONLY:
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        routes |= {(path, m.lower()) for m in rule.methods - {"HEAD", "OPTIONS"}}
    return routes


def _spec_routes(spec: dict) -> set[tuple[str, str]]:
    return {(path, method) for path, item in spec["paths"].items()
            for method in item if method in ("get", "put", "post", "delete", "patch")}


def test_the_committed_openapi_yaml_is_the_generated_document():
    """``python3 manage.py openapi > openapi.yaml`` after changing a route or a schema."""
    assert openapi.document() == SPEC.read_text(), "openapi.yaml is stale: run python3 manage.py openapi > openapi.yaml"


def test_every_array_has_items_and_no_schema_says_const():
    """What openapi-python-client needs (issue: an array without items left out an operation; a
    const made a generated client raise on an answer it had applied)."""
    def walk(node, where):
        if isinstance(node, dict):
            assert "const" not in node, where
            if node.get("type") == "array" or "array" in (node.get("type") or []):
                assert "items" in node, where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")
    walk(read_spec(), "#")


def test_spec_is_valid_openapi_3_1():
    spec = read_spec()
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_every_route_is_in_the_spec_and_every_spec_path_is_served(redis_url):
    from service.app import create_app

    app = create_app(redis_url)
    spec = read_spec()
    assert _flask_routes(app) == _spec_routes(spec)


def test_every_operation_documents_its_errors_as_problem_json():
    spec = read_spec()
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in ("get", "put", "post", "delete"):
                continue
            if "{game_id}" in path:
                assert "404" in op["responses"], (method, path)
            if "requestBody" in op:
                assert {"400", "422"} <= set(op["responses"]), (method, path)
            if op.get("security"):  # a token that cannot be read is a 400 ("expected 'Bearer <token>'")
                assert {"400", "401"} <= set(op["responses"]), (method, path)


def test_spec_and_docs_are_served(api):
    served = api.get("/openapi.yaml")
    assert served.status_code == 200 and read_yaml(served.text) == read_spec()
    docs = api.get("/docs")
    assert docs.status_code == 200 and docs.headers["Content-Type"].startswith("text/html")
    for path in read_spec()["paths"]:
        assert f"<code>{path}</code>" in docs.text
