"""Spec §16: every seed rulebook example, from tests/data/diplomacy-seed-examples.jsonl
(a copy of the reference rules beside the repository, shared/rules/diplomacy-seed-examples.jsonl)."""
import json
from pathlib import Path

import pytest

from adjudicator.diplomacy import adjudicate

NAME = "diplomacy-seed-examples.jsonl"
SOURCE = Path(__file__).resolve().parents[1] / "data" / NAME
EXAMPLES = [json.loads(line) for line in SOURCE.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_all_31_examples_are_present():
    assert len(EXAMPLES) == 31


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["name"] for e in EXAMPLES])
def test_seed_example(example):
    response = adjudicate(json.loads(json.dumps(example["request"])))
    got = {r["unit"]: r["outcome"] for r in response["results"] if "unit" in r}
    assert got == example["expect"], response["results"]
    units = {p: sorted(us) for p, us in response["next"]["units"].items()}
    assert units == {p: sorted(us) for p, us in example["expect_units_after"].items()}
    # every unit is accounted for, and only once
    assert len(response["results"]) == sum(len(us) for us in example["request"]["units"].values())
