"""DATC test cases as data: every tests/diplomacy/datc/*.jsonl, one case per line.

A case is a list of steps. Step 1 holds a full contract request; a later step
holds only `orders` (and optionally `rules`) and is played on the previous
response's `next`, with the first step's variant and rules. Each step checks:

- `expect`: unit -> outcome, keyed by the unit at the start of that phase
  ("F NTH", "F STP/SC"), or "POWER F LON" where the ordering power is not the
  unit's owner (or the unit is not on the board, as for a build). A value may
  also be a list of accepted outcomes, where the spec leaves a choice open.
- `expect_units_after`: the response's next.units (order within a power and
  powers without units are ignored).
- `expect_next`: a subset of the response's next, compared key by key.
- `expect_disbanded`: the response's `disbanded` (dislodged units removed at
  once because they had no retreat), power -> units.
- `expect_results`: every result, in order: a list of objects whose keys
  (`power`, `unit`, `order`, `outcome`, `reason`) must match the result's. It
  checks that each order got its own result, repeats included.

Besides the DATC's own cases (`6.X.N`, in `6X.jsonl`), `extra.jsonl` holds the
project's cases in the same form (`X.N`): positions from bug reports.
"""
import json
import pathlib

import pytest

DATC_DIR = pathlib.Path(__file__).parent / "datc"
POWERS = {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
REQUEST_KEYS = ("phase", "units", "centers", "dislodged", "contested")


def load_cases():
    cases = []
    for path in sorted(DATC_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append(json.loads(line))
    return cases


def sort_key(case):
    parts = case["id"].split(".")
    if parts[0] == "X":  # the project's own cases come last
        return "~", int(parts[1])
    return parts[1], int(parts[2])


CASES = sorted(load_cases(), key=sort_key)


def engine():
    try:
        from adjudicator.diplomacy import adjudicate
    except ImportError as error:
        # Skip only while the package (or its adjudicate) does not exist yet;
        # any other import error inside the engine is a real failure.
        if getattr(error, "name", None) == "adjudicator.diplomacy":
            pytest.skip(f"diplomacy engine not available yet: {error}")
        raise
    return adjudicate


def province(unit):
    """'F STP/SC' -> 'STP'."""
    return unit.split()[1].split("/")[0].upper()


def split_key(key, request):
    """'F NTH' -> (owner, 'F NTH'); 'GERMANY F LON' -> ('GERMANY', 'F LON')."""
    first, _, rest = key.partition(" ")
    if first in POWERS:
        return first, rest
    # In a retreat phase the key names the dislodged unit, which may share its
    # province with the unit that dislodged it.
    dislodged = {entry["unit"]: power for power, entries in (request.get("dislodged") or {}).items() for entry in entries}
    on_board = {unit: power for power, units in request.get("units", {}).items() for unit in units}
    places = (dislodged, on_board) if str(request.get("phase", "")).endswith("R") else (on_board, dislodged)
    for place in places:
        if key in place:
            return place[key], key
    return None, key


def outcomes_by_unit(expect, request, results):
    """Pair each expected key with the outcome(s) the engine reported for it."""
    wanted = {key: split_key(key, request) for key in expect}
    got, used = {}, set()
    for key, (power, unit) in wanted.items():
        for i, result in enumerate(results):
            tokens = result["order"].upper().split()
            if result["power"] == power and len(tokens) >= 2 and province(" ".join(tokens[:2])) == province(unit):
                got.setdefault(key, []).append(result["outcome"])
                used.add(i)
    # An order the engine could not canonicalise comes back as raw text; pair it
    # when it is the only unpaired result and the only unpaired key of its power.
    for key, (power, unit) in wanted.items():
        if key in got:
            continue
        loose_keys = [k for k, (p, _) in wanted.items() if p == power and k not in got]
        loose_results = [i for i, r in enumerate(results) if r["power"] == power and i not in used]
        if len(loose_keys) == 1 and len(loose_results) == 1:
            got[key] = [results[loose_results[0]]["outcome"]]
            used.add(loose_results[0])
    return {key: (values[0] if len(values) == 1 else values) for key, values in got.items()}


def normalise(value):
    """Order-free form: lists sorted, empty lists/dicts inside dicts dropped."""
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items() if v not in ([], {}, None)}
    if isinstance(value, list):
        return sorted((normalise(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def check_step(case, n, step, request, response):
    problems = []
    got = outcomes_by_unit(step.get("expect", {}), request, response.get("results", []))
    for key, expected in step.get("expect", {}).items():
        accepted = expected if isinstance(expected, list) else [expected]
        if got.get(key) not in accepted:
            problems.append(f"  {key:<16} expected {expected!r:<12} got {got.get(key, 'no result')!r}")
    nxt = response.get("next", {})
    if "expect_units_after" in step and normalise(nxt.get("units")) != normalise(step["expect_units_after"]):
        problems.append(f"  next.units       expected {json.dumps(normalise(step['expect_units_after']))}")
        problems.append(f"                   got      {json.dumps(normalise(nxt.get('units')))}")
    for key, expected in step.get("expect_next", {}).items():
        empty = type(expected)() if isinstance(expected, (list, dict)) else None  # missing == empty
        if normalise(nxt.get(key, empty)) != normalise(expected):
            problems.append(f"  next.{key:<11} expected {json.dumps(normalise(expected))}")
            problems.append(f"                   got      {json.dumps(normalise(nxt.get(key)))}")
    if "expect_disbanded" in step:
        expected = normalise(step["expect_disbanded"])
        if normalise(response.get("disbanded")) != expected:
            problems.append(f"  disbanded        expected {json.dumps(expected)}")
            problems.append(f"                   got      {json.dumps(response.get('disbanded'))}")
    if "expect_results" in step:
        results = response.get("results", [])
        wanted = step["expect_results"]
        if len(results) != len(wanted):
            problems.append(f"  results          expected {len(wanted)}, got {len(results)}")
        for i, (want, got_one) in enumerate(zip(wanted, results)):
            if any(got_one.get(k) != v for k, v in want.items()):
                problems.append(f"  result {i + 1:<9} expected {json.dumps(want)}")
    if problems:
        lines = [f"{case['id']} {case['title']} - step {n} ({request.get('phase')}):", *problems, "  results:"]
        lines += [f"    {json.dumps(r)}" for r in response.get("results", [])]
        lines.append(f"  next: {json.dumps(nxt)}")
        if case.get("option"):
            lines.append(f"  option: {case['option']}")
        pytest.fail("\n".join(lines), pytrace=False)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_datc(case):
    adjudicate = engine()
    first = case["steps"][0]["request"]
    response = None
    for n, step in enumerate(case["steps"], 1):
        if n == 1:
            request = json.loads(json.dumps(first))
        else:
            request = {key: response["next"][key] for key in REQUEST_KEYS if key in response["next"]}
            request["variant"] = first["variant"]
            rules = step.get("rules", first.get("rules"))
            if rules is not None:
                request["rules"] = rules
            request["orders"] = step["orders"]
        response = adjudicate(json.loads(json.dumps(request)))
        check_step(case, n, step, request, response)
