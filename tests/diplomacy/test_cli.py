"""The batch command line: python -m adjudicator.diplomacy (JSON Lines)."""
import json
import subprocess
import sys
from pathlib import Path

from adjudicator.diplomacy import adjudicate, initial_position

ROOT = Path(__file__).resolve().parents[2]


def run(stdin: str, *args, env=None):
    return subprocess.run([sys.executable, "-m", "adjudicator.diplomacy", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)


def test_help_explains_the_format():
    p = run("", "--help")
    assert p.returncode == 0
    assert "JSON Lines" in p.stdout and "error" in p.stdout


def test_one_response_per_line_in_order():
    start = initial_position()
    reqs = []
    for order in ("A PAR - BUR", "A PAR - PIC", "A PAR - GAS"):
        r = dict(start, orders={"FRANCE": [order]})
        reqs.append(r)
    p = run("".join(json.dumps(r) + "\n" for r in reqs))
    assert p.returncode == 0, p.stderr
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert out == [adjudicate(r) for r in reqs]
    assert [o["next"]["units"]["FRANCE"][0] for o in out] == ["A BUR", "A PIC", "A GAS"]


def test_bad_lines_get_an_error_line_and_processing_goes_on():
    good = json.dumps(initial_position())
    bad_unit = json.dumps({"phase": "S1901M", "units": {"ENGLAND": ["F LON", "A XXX"]}})
    lines = [good, "{not json", "", "   ", bad_unit, '"a string"', good]
    p = run("\n".join(lines) + "\n")
    assert p.returncode == 0, p.stderr
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(out) == 5  # blank lines are skipped
    assert out[0]["phase"] == "S1901M" and out[4]["phase"] == "S1901M"
    assert out[1]["line"] == 2 and out[1]["error"].startswith("bad JSON")
    assert out[2] == {"error": out[2]["error"], "line": 5, "field": "units.ENGLAND[1]"}
    assert out[3]["line"] == 6 and "error" in out[3]


def test_unknown_argument_is_refused():
    p = run("", "--frobnicate")
    assert p.returncode == 2


def test_works_without_orjson(tmp_path):
    import os
    (tmp_path / "orjson.py").write_text("raise ImportError('not installed')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    good = json.dumps(dict(initial_position(), orders={"FRANCE": ["A PAR - BUR"]}))
    p = run(good + "\n{oops\n", env=env)
    assert p.returncode == 0, p.stderr
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert out[0] == adjudicate(json.loads(good))
    assert out[1]["line"] == 2 and out[1]["error"].startswith("bad JSON")


def test_each_line_is_answered_before_the_next_is_sent():
    """A client may write one request and wait for its answer (stdin left open)."""
    p = subprocess.Popen([sys.executable, "-m", "adjudicator.diplomacy"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, cwd=ROOT)
    try:
        for order in ("A PAR - BUR", "A PAR - PIC"):
            request = dict(initial_position(), orders={"FRANCE": [order]})
            p.stdin.write((json.dumps(request) + "\n").encode())
            p.stdin.flush()
            assert json.loads(p.stdout.readline()) == adjudicate(request)
    finally:
        p.stdin.close()
        p.wait(timeout=60)
    assert p.returncode == 0


def test_bad_bytes_and_a_last_line_without_newline():
    good = json.dumps(dict(initial_position(), orders={"FRANCE": ["A PAR - BUR"]})).encode()
    p = subprocess.run([sys.executable, "-m", "adjudicator.diplomacy"],
                       input=b'{"phase": "S1901M\xff"}\r\n' + good, capture_output=True, cwd=ROOT,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert out[0]["line"] == 1 and out[0]["error"].startswith("bad JSON")
    assert out[1]["next"]["units"]["FRANCE"][0] == "A BUR"


def test_options_a_line_each_for_the_powers_asked_or_all():
    from adjudicator.diplomacy import options_by_power
    start = initial_position()
    lines = [json.dumps(start), json.dumps({**start, "powers": ["FRANCE"]}), "{oops",
             json.dumps({**start, "powers": ["SPAIN"]}), json.dumps({**start, "phase": "W1901A"})]
    p = run("\n".join(lines) + "\n", "--options")
    assert p.returncode == 0, p.stderr
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert out[0] == options_by_power(start) and list(out[0]["powers"]) == sorted(start["units"])
    assert list(out[1]["powers"]) == ["FRANCE"] and "A PAR - BUR" in out[1]["powers"]["FRANCE"]["A PAR"]
    assert out[2]["line"] == 3 and out[2]["error"].startswith("bad JSON")
    assert out[3] == {"error": "unknown power 'SPAIN'", "line": 4, "field": "powers[0]"}
    assert out[4] == {"phase": "W1901A", "powers": {}}  # nobody has builds or disbands
