"""The command line, run as a real subprocess: python -m adjudicator.scoring SYSTEM."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.scoring import SYSTEMS

from tests.scoring.helpers import load_vectors, result

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "adjudicator.scoring", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_scores_a_batch_and_reports_bad_lines_without_stopping():
    vectors = [v for v in load_vectors() if v["system"] == "tribute"]
    bad_result = result((2, 8, 0, 9, 3, 12, 0), end="draw", draw=("ENGLAND", "FRANCE"),
                        elim={"FRANCE": 1905, "TURKEY": 1904}, year=1906)
    lines = [json.dumps(vectors[0]["result"]),
             "",                                     # blank: skipped, still counted
             "{not json",
             json.dumps(bad_result),
             "[1, 2]",
             json.dumps(vectors[6]["result"])]
    proc = run("tribute", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 5
    first, bad_json, bad, not_object, last = out
    for got, vector in ((first, vectors[0]), (last, vectors[6])):
        assert set(got) == {"scores", "exact"}
        for power, text in vector["scores"].items():
            assert abs(got["scores"][power] - float(text)) <= 1e-9
    assert last["exact"]["ENGLAND"] == "388/15"
    assert bad_json["line"] == 3 and bad_json["field"] is None and bad_json["error"].startswith("bad JSON")
    assert bad == {"error": "FRANCE was eliminated (owns no centre) and cannot share the draw",
                   "line": 4, "field": "draw_members[1]"}
    assert not_object["line"] == 5 and not_object["field"] is None


def test_every_system_runs_its_vectors():
    vectors = load_vectors()
    for system in SYSTEMS:
        mine = [v for v in vectors if v["system"] == system]
        proc = run(system, stdin="".join(json.dumps(v["result"]) + "\n" for v in mine))
        assert proc.returncode == 0, proc.stderr
        out = [json.loads(line) for line in proc.stdout.splitlines()]
        assert len(out) == len(mine)
        for got, vector in zip(out, mine):
            for power, text in vector["scores"].items():
                assert abs(got["scores"][power] - float(text)) <= 1e-9, (vector["id"], power)


@pytest.mark.parametrize("args", [("nope",), ("DSS",), (), ("dss", "extra")])
def test_bad_arguments_exit_2_listing_the_systems(args):
    proc = run(*args, stdin="{}\n")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert all(system in proc.stderr for system in SYSTEMS)
    if args:
        assert (repr(args[0]) in proc.stderr) if len(args) == 1 else "got 2" in proc.stderr


def test_help():
    proc = run("--help")
    assert proc.returncode == 0
    assert "python -m adjudicator.scoring SYSTEM" in proc.stdout
    assert all(system in proc.stdout for system in SYSTEMS)


def test_a_line_too_deeply_nested_is_bad_json_not_a_crash():
    proc = run("dss", stdin="[" * 100000 + "\n" + '{"centers": 1}\n')
    assert proc.returncode == 0, proc.stderr
    deep, shallow = (json.loads(line) for line in proc.stdout.splitlines())
    assert deep["line"] == 1 and deep["field"] is None and deep["error"].startswith("bad JSON")
    assert shallow["line"] == 2 and shallow["field"] == "centers"
