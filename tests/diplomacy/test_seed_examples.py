"""Spec §16: every seed rulebook example (rules/diplomacy-seed-examples.jsonl).

Read from the copy in tests/diplomacy/data/ when present, else from
../shared/rules relative to the repository root.
"""
import json
from pathlib import Path

import pytest

from adjudicator.diplomacy import adjudicate

NAME = "diplomacy-seed-examples.jsonl"
LOCAL = Path(__file__).resolve().parent / "data" / NAME
SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules" / NAME
SOURCE = LOCAL if LOCAL.exists() else SHARED
EXAMPLES = [json.loads(line) for line in SOURCE.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_all_31_examples_are_present():
    assert len(EXAMPLES) == 31


@pytest.mark.skipif(not SHARED.exists(), reason="../shared not beside the repository")
def test_local_copy_matches_shared():
    assert LOCAL.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8")


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["name"] for e in EXAMPLES])
def test_seed_example(example):
    response = adjudicate(json.loads(json.dumps(example["request"])))
    got = {r["unit"]: r["outcome"] for r in response["results"] if "unit" in r}
    assert got == example["expect"], response["results"]
    units = {p: sorted(us) for p, us in response["next"]["units"].items()}
    assert units == {p: sorted(us) for p, us in example["expect_units_after"].items()}
    # every unit is accounted for, and only once
    assert len(response["results"]) == sum(len(us) for us in example["request"]["units"].values())
