"""How long a map takes to draw: the SVG of every DATC position (with its orders and outcomes) and
of a full board mid-game, and the PNG of that board.

    .venv/bin/python benchmarks/maps_bench.py [--repeat 5] [--png 3]

Prints the median, 95th percentile and worst time of one SVG map (the budget is 50 ms), and the
median time of one 1200-pixel PNG.  Rendering only: the adjudication of each position is done
before the clock starts.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.diplomacy import adjudicate  # noqa: E402
from maps import render_png, render_svg  # noqa: E402

BUDGET_MS = 50.0
BUSY = {  # a crowded Spring: every power moves, supports and convoys
    "variant": "standard", "phase": "S1902M",
    "units": {"AUSTRIA": ["A GAL", "A SER", "F ALB", "A BUD"], "ENGLAND": ["F NTH", "F NWG", "A NWY", "F ENG"],
              "FRANCE": ["A BUR", "F MAO", "A SPA", "A BEL"], "GERMANY": ["A RUH", "F DEN", "A KIE", "A HOL"],
              "ITALY": ["A PIE", "A APU", "F ION", "F TUN"], "RUSSIA": ["A UKR", "A WAR", "F BLA", "F BOT", "A SWE"],
              "TURKEY": ["F CON", "A BUL", "A ARM", "F AEG"]},
    "centers": {"AUSTRIA": ["VIE", "BUD", "TRI", "SER"], "ENGLAND": ["LON", "EDI", "LVP", "NWY"],
                "FRANCE": ["PAR", "MAR", "BRE", "SPA", "BEL"], "GERMANY": ["BER", "MUN", "KIE", "DEN", "HOL"],
                "ITALY": ["ROM", "VEN", "NAP", "TUN"], "RUSSIA": ["MOS", "WAR", "SEV", "STP", "SWE", "RUM"],
                "TURKEY": ["ANK", "CON", "SMY", "BUL", "GRE"]},
    "orders": {"AUSTRIA": ["A GAL - WAR", "A BUD S A GAL - WAR", "A SER - RUM", "F ALB - GRE"],
               "ENGLAND": ["F NTH C A NWY - BEL", "A NWY - BEL", "F ENG S A NWY - BEL", "F NWG - BAR"],
               "FRANCE": ["A BUR - MUN", "A BEL H", "F MAO - POR", "A SPA - MAR"],
               "GERMANY": ["A RUH - BUR", "A KIE - MUN", "F DEN S A KIE - BER", "A HOL S A BEL"],
               "ITALY": ["A PIE - MAR", "A APU - VEN", "F ION - GRE", "F TUN S F ION - GRE"],
               "RUSSIA": ["A UKR - RUM", "A WAR H", "F BLA S A UKR - RUM", "F BOT - STP/SC", "A SWE - NWY"],
               "TURKEY": ["F CON - BLA", "A BUL - RUM", "A ARM - SEV", "F AEG S F ION - GRE"]},
}


def positions() -> list[tuple[dict, list]]:
    out = [(BUSY, adjudicate(BUSY)["results"])]
    for path in sorted((ROOT / "tests" / "diplomacy" / "datc").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                request = json.loads(line)["steps"][0]["request"]
                out.append((request, adjudicate(request)["results"]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--png", type=int, default=3, help="how many PNGs of the busy board to time")
    args = parser.parse_args()
    cases = positions()
    render_svg(*cases[0])  # the geometry is read once per process: not timed
    times = []
    for _ in range(args.repeat):
        for position, results in cases:
            start = time.perf_counter()
            render_svg(position, results)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"SVG: {len(times)} maps ({len(cases)} positions x {args.repeat}); median {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, worst {times[-1]:.1f} ms; budget {BUDGET_MS:.0f} ms: "
          f"{'within' if p95 < BUDGET_MS else 'OVER'}")
    svg = render_svg(*cases[0])
    pngs = []
    for _ in range(args.png):
        start = time.perf_counter()
        render_png(svg, 1200)
        pngs.append((time.perf_counter() - start) * 1000)
    if pngs:
        print(f"PNG (1200 px, the busy board): median {statistics.median(pngs):.0f} ms of {len(pngs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
