"""Every vector of tournament-scoring-vectors.jsonl (spec §7), one test each."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from adjudicator.scoring import SYSTEMS, as_numbers, score

from tests.scoring.helpers import POWERS, SPEC, load_vectors, vector_text

VECTORS = load_vectors()


def test_the_vector_file_covers_every_system():
    assert len(VECTORS) == 108
    assert {v["system"] for v in VECTORS} == set(SYSTEMS)
    assert len({v["id"] for v in VECTORS}) == len(VECTORS)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector):
    scores = score(vector["system"], vector["result"])
    assert list(scores) == list(POWERS)
    assert all(isinstance(v, Fraction) for v in scores.values())
    numbers = as_numbers(scores)
    for power, text in vector["scores"].items():
        # the tolerance of §7.1 on the numbers that leave the module ...
        assert abs(numbers[power] - float(text)) <= 1e-9, power
        # ... and the exact value, written as §7.1 writes it
        assert vector_text(scores[power]) == text, power


# §7.4 lists the exact fraction of every score whose decimal does not terminate.
_LETTERS = dict(zip("AEFGIRT", POWERS))


def _exact_values_from_spec() -> dict[str, dict[str, Fraction]]:
    """{vector id: {power: Fraction}} from the '† exact values' lines of §7.4."""
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("### 7.4"):text.index("### 7.5")]
    found: dict[str, dict[str, Fraction]] = {}
    for system, body in re.findall(r"#### `(\w+)`(.*?)(?=#### `|\Z)", section, re.S):
        line = re.search(r"† exact values: (.*)", body)
        if not line:
            continue
        for game, entries in re.findall(r"(G\d\d): (.*?)(?=; G\d\d:|\.?$)", line.group(1).rstrip(".")):
            values = found.setdefault(f"{system}-{game}", {})
            for value, who in re.findall(r"(\d+/\d+) \(([^)]*)\)", entries):
                powers = POWERS if who == "all" else [_LETTERS[letter] for letter in who.split()]
                for power in powers:
                    values[power] = Fraction(value)
    return found


EXACT = _exact_values_from_spec()


def test_the_spec_lists_exact_values():
    # every system but carnage, opentribute and world_classic has a non-terminating score
    assert {vid.split("-")[0] for vid in EXACT} == set(SYSTEMS) - {"carnage", "opentribute", "world_classic"}


@pytest.mark.parametrize("vid", sorted(EXACT))
def test_exact_fractions_of_section_7_4(vid):
    vector = next(v for v in VECTORS if v["id"] == vid)
    scores = score(vector["system"], vector["result"])
    for power, value in EXACT[vid].items():
        assert scores[power] == value, power
