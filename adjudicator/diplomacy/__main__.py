"""Batch adjudication: JSON Lines in, JSON Lines out.

    python -m adjudicator.diplomacy < requests.jsonl > responses.jsonl

One contract request per input line; one response per output line, in the
same order, flushed after each line.  Blank (whitespace-only) lines are
skipped and produce no output line.  A line that is not valid JSON, or whose
request is malformed, produces ``{"error": "...", "line": N}`` (with
``"field"`` when known; N counts input lines from 1) and processing goes on.
The exit status is 0 unless stdin/stdout themselves fail.
"""
from __future__ import annotations

import json
import sys

from . import RequestError, adjudicate

try:  # optional: much faster JSON when installed; the stdlib otherwise
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None

HELP = __doc__


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        if argv[0] in ("-h", "--help"):
            sys.stdout.write(HELP.lstrip())
            return 0
        sys.stderr.write(f"unknown argument {argv[0]!r}; see --help\n")
        return 2
    out = sys.stdout
    if orjson is not None:
        def dumps(obj):
            try:
                return orjson.dumps(obj).decode()
            except TypeError:  # e.g. an integer too large for orjson
                return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))

        loads, bad_json = orjson.loads, orjson.JSONDecodeError
    else:
        dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
        loads, bad_json = json.loads, json.JSONDecodeError
    for n, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            req = loads(line)
            resp = adjudicate(req)
        except bad_json as err:
            msg = getattr(err, "msg", None) or str(err)
            resp = {"error": f"bad JSON: {msg}", "line": n}
        except RequestError as err:
            resp = {"error": str(err), "line": n}
            if err.field is not None:
                resp["field"] = err.field
        except Exception as err:  # never crash the batch
            resp = {"error": f"internal error: {type(err).__name__}: {err}", "line": n}
        out.write(dumps(resp))
        out.write("\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
