"""Score game results from the command line: JSON Lines in, JSON Lines out.

    python -m adjudicator.scoring SYSTEM < results.jsonl > scores.jsonl

SYSTEM is one of: {systems}.

Each non-blank input line is one game result (the JSON object of the spec's
§2.1).  For each, one output line, in the same order, flushed at once:

    {{"scores": {{"AUSTRIA": 0, ..., "TURKEY": 14.285714285714286}},
     "exact": {{"AUSTRIA": "0", ..., "TURKEY": "100/7"}}}}

"scores" holds an integer for a whole score and a float otherwise; "exact"
holds the exact rational as "numerator/denominator" (or an integer string).
A line that is not JSON or not a valid result gives
{{"error": "...", "line": N, "field": "centers.FRANCE"}} instead (N counts
input lines from 1; "field" is null when the whole line is at fault) and the
batch goes on.  Blank lines are skipped.  Exit status: 0; 2 for an unknown or
missing SYSTEM.
"""
from __future__ import annotations

import json
import sys
from typing import TextIO

from . import SYSTEMS, ResultError, as_exact, as_numbers, score

HELP = __doc__.format(systems=", ".join(SYSTEMS))


def _usage() -> str:
    lines = ["usage: python -m adjudicator.scoring SYSTEM < results.jsonl", "systems:"]
    lines += [f"  {sid:15} {desc}" for sid, desc in SYSTEMS.items()]
    return "\n".join(lines) + "\n"


def score_line(system: str, line: str, number: int) -> dict:
    """The output object for one input line."""
    try:
        result = json.loads(line)
    except json.JSONDecodeError as err:
        return {"error": f"bad JSON: {err.msg} (column {err.colno})", "line": number, "field": None}
    except (ValueError, RecursionError) as err:   # e.g. nesting too deep, a number too long
        return {"error": f"bad JSON: {err}", "line": number, "field": None}
    try:
        scores = score(system, result)
    except ResultError as err:
        return {"error": err.message, "line": number, "field": err.field}
    except Exception as err:  # never stop the batch
        return {"error": f"internal error: {type(err).__name__}: {err}", "line": number, "field": None}
    return {"scores": as_numbers(scores), "exact": as_exact(scores)}


def run(system: str, stdin: TextIO, stdout: TextIO) -> None:
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        stdout.write(encode(score_line(system, line, number)))
        stdout.write("\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(HELP.lstrip())
        return 0
    if len(argv) != 1:
        sys.stderr.write(("expected one argument, the scoring system\n" if not argv else
                          f"expected one argument, got {len(argv)}\n") + _usage())
        return 2
    system = argv[0]
    if system not in SYSTEMS:
        sys.stderr.write(f"unknown scoring system {system!r}\n" + _usage())
        return 2
    run(system, sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
