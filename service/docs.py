"""A self-contained, server-rendered documentation page built from the OpenAPI document."""
from __future__ import annotations

from functools import lru_cache
from html import escape

import yaml

METHODS = ("get", "put", "post", "delete", "patch")


def _resolve(spec: dict, obj):
    while isinstance(obj, dict) and "$ref" in obj:
        node = spec
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part]
        obj = node
    return obj


def _type(spec: dict, schema: dict) -> str:
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    kind = schema.get("type", "object")
    if kind == "array":
        return f"array of {_type(spec, schema.get('items', {}))}"
    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"])
    return kind if isinstance(kind, str) else " or ".join(kind)


def _fields(spec: dict, schema: dict) -> str:
    required = set(schema.get("required", []))
    rows = "".join(
        f"<li><code>{escape(name)}</code> ({escape(_type(spec, prop))}{', required' if name in required else ''})"
        f" {escape(_resolve(spec, prop).get('description', '') if '$ref' in prop else prop.get('description', ''))}"
        "</li>" for name, prop in schema.get("properties", {}).items())
    return f"<ul>{rows}</ul>" if rows else ""


@lru_cache(maxsize=1)
def docs_page(document: str) -> str:
    spec = yaml.load(document, Loader=yaml.CSafeLoader)  # libyaml, in the wheel
    info = spec.get("info", {})
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(info.get('title', 'API'))}</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.4}"
           "code,pre{background:#f4f4f4;padding:0 .2em}section{border-top:1px solid #ccc;padding:.5em 0}"
           ".m{font-weight:bold;text-transform:uppercase;display:inline-block;width:5em}</style></head><body>",
           f"<h1>{escape(info.get('title', 'API'))} <small>{escape(str(info.get('version', '')))}</small></h1>",
           f"<p>{escape(info.get('description', ''))}</p>",
           "<p>Machine-readable contract: <a href='/openapi.yaml'>/openapi.yaml</a> (OpenAPI 3.1).</p><h2>Endpoints</h2>"]
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if not op:
                continue
            out.append(f"<section id='{escape(op.get('operationId', ''))}'><h3><span class='m'>{method}</span>"
                       f"<code>{escape(path)}</code></h3><p><b>{escape(op.get('summary', ''))}</b></p>"
                       f"<p>{escape(op.get('description', ''))}</p>")
            params = [_resolve(spec, p) for p in item.get("parameters", []) + op.get("parameters", [])]
            if params:
                out.append("<p>Parameters:</p><ul>" + "".join(
                    f"<li><code>{escape(p.get('name', p.get('$ref', '').rsplit('/', 1)[-1]))}</code> "
                    f"{escape(p.get('in', ''))} {escape(p.get('description', ''))}</li>" for p in params) + "</ul>")
            if "requestBody" in op:
                ref = op["requestBody"]["content"]["application/json"]["schema"].get("$ref", "")
                out.append(f"<p>Body: <code>{escape(ref.rsplit('/', 1)[-1])}</code></p>")
                out.append(_fields(spec, _resolve(spec, {"$ref": ref})))
            if op.get("security"):
                out.append("<p>Needs <code>Authorization: Bearer &lt;token&gt;</code>.</p>")
            out.append("<p>Responses:</p><ul>" + "".join(
                f"<li><code>{escape(str(code))}</code> {escape(_resolve(spec, r).get('description', ''))}</li>"
                for code, r in op.get("responses", {}).items()) + "</ul></section>")
    out.append("<h2>Schemas</h2>")
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        out.append(f"<section id='schema-{escape(name)}'><h3><code>{escape(name)}</code></h3>"
                   f"<p>{escape(schema.get('description', ''))}</p>{_fields(spec, schema)}</section>")
    out.append("</body></html>")
    return "".join(out)
