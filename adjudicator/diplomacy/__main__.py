"""Batch adjudication: JSON Lines in, JSON Lines out.

    python -m adjudicator.diplomacy < requests.jsonl > responses.jsonl
    python -m adjudicator.diplomacy --options < positions.jsonl > options.jsonl

One contract request per input line; one response per output line, in the
same order.  Output is flushed whenever every complete line read so far has
been answered, so a client that writes one line and waits gets its answer at
once, while a large batch is written in large blocks.  Blank
(whitespace-only) lines are skipped and produce no output line.  A line that
is not valid JSON (or not UTF-8), or whose request is malformed, produces
``{"error": "...", "line": N}`` (with ``"field"`` when known; N counts input
lines from 1) and processing goes on.  The exit status is 0 unless
stdin/stdout themselves fail.

With ``--options`` each line is a position (orders, if any, are ignored) with
an optional ``"powers"`` list, and each answer is ``{"phase", "powers":
{power: options}}``: every order each power may give (docs/clients.md,
"Options"), for the powers listed or every power with something to order.
"""
from __future__ import annotations

import gc
import io
import os
import sys

from . import RequestError, adjudicate, options_by_power

try:  # optional: much faster JSON when installed; the stdlib otherwise
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None  # type: ignore[assignment]

HELP = __doc__


def _batches(stdin):
    """Lists of input lines (bytes): each list is what one read brought in.

    A read returns as soon as some input is there, so nothing waits for more
    input than has been sent.  Streams without a file descriptor are read line
    by line.
    """
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        for line in stdin:
            yield [line.encode("utf-8") if isinstance(line, str) else line]
        return
    tail = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if tail:
                yield [tail]
            return
        lines = (tail + chunk).split(b"\n")
        tail = lines.pop()
        yield lines


def _stdlib_dumps(obj) -> bytes:
    import json
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _codec():
    """(loads, dumps, the exceptions of bad JSON): orjson's when installed, the
    stdlib's otherwise (imported only then: it costs start-up time)."""
    if orjson is None:  # pragma: no cover - depends on the environment
        import json
        return json.loads, _stdlib_dumps, (json.JSONDecodeError, UnicodeDecodeError)

    def dumps(obj) -> bytes:
        try:
            return orjson.dumps(obj)
        except TypeError:  # e.g. an integer too large for orjson
            return _stdlib_dumps(obj)

    return orjson.loads, dumps, orjson.JSONDecodeError


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    answer = adjudicate
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(HELP.lstrip())
        return 0
    if argv and argv[0] == "--options":
        answer, argv = _options, argv[1:]
    if argv:
        sys.stderr.write(f"unknown argument {argv[0]!r}; see --help\n")
        return 2
    loads, dumps, bad_json = _codec()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a text-only stream
        def write(data: bytes) -> None:
            sys.stdout.write(data.decode("utf-8"))
    else:
        sys.stdout.flush()
        write = out.write
    flush = sys.stdout.flush if out is None else out.flush
    n = 0
    for batch in _batches(sys.stdin):
        answers = []
        for line in batch:
            n += 1
            if not line.strip():
                continue
            try:
                req = loads(line)
                resp = answer(req)
            except bad_json as err:
                msg = getattr(err, "msg", None) or str(err)
                resp = {"error": f"bad JSON: {msg}", "line": n}
            except RequestError as err:
                resp = {"error": str(err), "line": n}
                if err.field is not None:
                    resp["field"] = err.field
            except Exception as err:  # never crash the batch
                resp = {"error": f"internal error: {type(err).__name__}: {err}", "line": n}
            answers.append(dumps(resp))
        if answers:
            answers.append(b"")
            write(b"\n".join(answers))
            flush()
        gc.freeze()  # what outlived the block is the engine's caches (see below)
    return 0


def _options(req) -> dict:
    return options_by_power(req, req.get("powers") if isinstance(req, dict) else None)


if __name__ == "__main__":
    # What is loaded by now lives as long as the process, so the cycle collector
    # need not walk it again and again.  (The engine leaves no reference cycles:
    # a phase is freed as soon as it is answered.)
    gc.freeze()
    sys.exit(main())
