"""Draw interchange-format requests from the command line, one file per request.

    python -m maps [--png] [--width N] [--out DIR] [FILE ...] < requests.jsonl

Each request (one JSON object per line, docs/interchange.md; from
the FILEs, or standard input without any) is adjudicated and drawn with its
orders and their outcomes, as ``DIR/NNNN-PHASE.svg`` (``.png`` with --png), N
counting the requests from 1.  A line that is not a valid request is reported
on standard error as ``line N: why`` and the others are still drawn; the exit
status is 1 if any line failed, else 0.  The files written are listed on
standard output.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from adjudicator.diplomacy import RequestError

from .raster import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH, render_png
from .request import render_request


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m maps", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="JSON Lines files of requests (default: stdin)")
    parser.add_argument("--out", type=Path, default=Path("."), help="where to write the maps (default: here)")
    parser.add_argument("--png", action="store_true", help="write PNGs instead of SVGs")
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH, help="the PNGs' width in pixels")
    args = parser.parse_args(argv)
    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        parser.error(f"--width must be between {MIN_WIDTH} and {MAX_WIDTH}")
    args.out.mkdir(parents=True, exist_ok=True)
    lines = (line for f in args.files for line in f.read_text(encoding="utf-8").splitlines()) \
        if args.files else sys.stdin
    failed, n = False, 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        n += 1
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise RequestError("a request is a JSON object", None)
            svg = render_request(request)
        except (json.JSONDecodeError, RequestError) as err:
            print(f"line {number}: {err}", file=sys.stderr)
            failed = True
            continue
        name = f"{n:04d}-{request.get('phase', 'map')}"
        path = args.out / (name + (".png" if args.png else ".svg"))
        if args.png:
            path.write_bytes(render_png(svg, args.width))
        else:
            path.write_text(svg, encoding="utf-8")
        print(path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
