"""How hard the randomised tests try.

Every test runs in every run; what changes is the size of the random campaigns
(Hypothesis examples, the schemathesis run). A newcomer's ``python3 manage.py
test`` runs each campaign at a tenth of its size, so that the whole suite stays
quick; CI sets ``DEEP_TESTS=1`` and runs them whole (.ci/run).
"""
from __future__ import annotations

import os

DEEP = os.environ.get("DEEP_TESTS") == "1"


def examples(full: int) -> int:
    """A campaign's number of examples: ``full`` in CI, a tenth of it (at least 5) otherwise."""
    return full if DEEP else max(5, full // 10)
