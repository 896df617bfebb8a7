"""``python -m maps``: one map file per interchange-format request, from the command line."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.maps.svg import Picture

GOOD = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        "centers": {}, "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}


def run(args, stdin: str):
    return subprocess.run([sys.executable, "-m", "maps", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_one_svg_per_request_and_bad_lines_reported(tmp_path):
    lines = [json.dumps(GOOD), "not json", json.dumps({**GOOD, "phase": "F1901M"})]
    done = run(["--out", str(tmp_path)], "\n".join(lines) + "\n")
    assert done.returncode == 1 and "line 2:" in done.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["0001-S1901M.svg", "0003-F1901M.svg"]
    assert done.stdout.split() == [str(tmp_path / n) for n in written]
    pic = Picture((tmp_path / "0001-S1901M.svg").read_text())
    assert ("GERMANY", "A MUN - BUR", "fails") in pic.orders()


def test_png_from_a_file(tmp_path):
    source = tmp_path / "requests.jsonl"
    source.write_text(json.dumps(GOOD) + "\n")
    done = run(["--png", "--width", "400", "--out", str(tmp_path / "out"), str(source)], "")
    assert done.returncode == 0, done.stderr
    png = (tmp_path / "out" / "0001-S1901M.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == 400
