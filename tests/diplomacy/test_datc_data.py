"""Sanity checks on the DATC case files, independent of the engine.

Catches transcription mistakes: malformed lines, duplicate or missing ids,
expectations about units that are not on the board, bad unit notation.
"""
import json
import pathlib
import re

import pytest

DATC_DIR = pathlib.Path(__file__).parent / "datc"
FILES = sorted(DATC_DIR.glob("*.jsonl"))

POWERS = {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
PROVINCES = set(
    "ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BOT BRE BUD BUL BUR CLY CON "
    "DEN EAS EDI ENG FIN GAL GAS GRE HEL HOL ION IRI KIE LON LVN LVP LYO MAO MAR "
    "MOS MUN NAF NAO NAP NTH NWG NWY PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL "
    "SKA SMY SPA STP SWE SYR TRI TUN TUS TYR TYS UKR VEN VIE WAL WAR WES YOR".split()
)
COASTS = {"STP/NC", "STP/SC", "SPA/NC", "SPA/SC", "BUL/EC", "BUL/SC"}
OUTCOMES = {"succeeds", "fails", "dislodged", "invalid"}
NEXT_KEYS = {"phase", "units", "centers", "dislodged", "contested", "retreat_options", "adjustments", "winner"}
# Number of test cases in each section of DATC v3.0 chapter 6.
SECTION_SIZES = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}


def read(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def is_unit(text):
    match = re.fullmatch(r"([AF]) ([A-Z]{3}(?:/[NESC]C)?)", text)
    if not match:
        return False
    where = match.group(2)
    if "/" in where:
        return match.group(1) == "F" and where in COASTS
    return where in PROVINCES


def check_units(where, units):
    assert isinstance(units, dict), f"{where}: units must be a dict"
    seen = {}
    for power, listed in units.items():
        assert power in POWERS, f"{where}: unknown power {power}"
        for unit in listed:
            assert is_unit(unit), f"{where}: bad unit {unit!r}"
            place = unit.split()[1].split("/")[0]
            assert place not in seen, f"{where}: two units in {place}"
            seen[place] = power


def owners(units):
    return {unit: power for power, listed in units.items() for unit in listed}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_case_file(path):
    cases = read(path)
    extra = path.stem == "extra"  # the project's own cases, "X.1", "X.2", ...
    section = path.stem[1:]  # "6A" -> "A"
    ids = [case["id"] for case in cases]
    assert len(ids) == len(set(ids)), f"duplicate ids in {path.name}"
    numbers = []
    for case in cases:
        cid = case["id"]
        # "6.F.9", or a variant of a case under another rule option: "6.F.9.1971"
        pattern = r"X\.\d+(\.[\w-]+)*" if extra else rf"6\.{section}\.\d+(\.[\w-]+)*"
        assert re.fullmatch(pattern, cid), f"{cid} does not belong in {path.name}"
        numbers.append(int(cid.split(".")[1 if extra else 2]))
        assert set(case) <= {"id", "title", "steps", "option"}, f"{cid}: unknown keys"
        assert case.get("title"), f"{cid}: no title"
        steps = case["steps"]
        assert steps, f"{cid}: no steps"
        known = None  # units (and dislodged units) known at the start of the step
        for n, step in enumerate(steps, 1):
            where = f"{cid} step {n}"
            assert set(step) <= {"request", "orders", "rules", "expect", "expect_units_after", "expect_next",
                                 "expect_disbanded", "expect_results"}, where
            if n == 1:
                request = step["request"]
                for key in ("variant", "phase", "units", "centers", "orders"):
                    assert key in request, f"{where}: request lacks {key}"
                assert "orders" not in step, f"{where}: orders belong in the request"
                phase = request["phase"]
                check_units(where, request["units"])
                known = owners(request["units"])
                known.update(owners({p: [e["unit"] for e in es] for p, es in request.get("dislodged", {}).items()}))
                orders = request["orders"]
            else:
                assert "request" not in step, f"{where}: only step 1 has a request"
                assert "orders" in step, f"{where}: no orders"
                orders = step["orders"]
                phase = (steps[n - 2].get("expect_next") or {}).get("phase")
            assert phase is None or re.fullmatch(r"[SFW]\d{4}[MRA]", phase), f"{where}: bad phase {phase!r}"
            for power, listed in orders.items():
                assert power in POWERS, f"{where}: unknown power {power}"
                assert all(isinstance(o, str) and o.strip() for o in listed), f"{where}: bad order"
            for key, outcome in step.get("expect", {}).items():
                accepted = outcome if isinstance(outcome, list) else [outcome]
                assert accepted and set(accepted) <= OUTCOMES, f"{where}: bad outcome {outcome!r} for {key}"
                first, _, rest = key.partition(" ")
                power, unit = (first, rest) if first in POWERS else (None, key)
                assert is_unit(unit), f"{where}: bad unit key {key!r}"
                if power:
                    assert power in orders, f"{where}: {key} but {power} gives no orders"
                if phase and phase.endswith("A") and power:
                    continue  # a build names a unit that is not on the board yet
                if known is not None:
                    assert unit in known, f"{where}: {key} is not a unit in the position"
                    assert power is None or power != known[unit], f"{where}: write {key} without the power"
            if "expect_units_after" in step:
                check_units(f"{where} expect_units_after", step["expect_units_after"])
            if "expect_disbanded" in step:
                check_units(f"{where} expect_disbanded", step["expect_disbanded"])
            for result in step.get("expect_results", []):
                assert set(result) <= {"power", "unit", "order", "outcome", "reason"}, where
                assert result.get("outcome", "succeeds") in OUTCOMES, f"{where}: bad outcome in {result}"
                assert result.get("power", "ENGLAND") in POWERS, f"{where}: bad power in {result}"
            nxt = step.get("expect_next", {})
            assert set(nxt) <= NEXT_KEYS, f"{where}: unknown expect_next keys {set(nxt) - NEXT_KEYS}"
            # The position of the next step, where the case states it.
            known = None
            if "expect_units_after" in step:
                known = owners(step["expect_units_after"])
                known.update(owners({p: [e["unit"] for e in es] for p, es in nxt.get("dislodged", {}).items()}))
    last = max(numbers) if extra else SECTION_SIZES[section]
    assert sorted(set(numbers)) == list(range(1, last + 1)), (
        f"{path.name}: cases {sorted(set(numbers))}, expected 1..{last}"
    )
