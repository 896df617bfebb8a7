"""§2.5: a concession is scored under every system exactly as a solo by the power conceded
to, with the centres as they stand (PPSC reads that power's own count below 18)."""
from fractions import Fraction

import pytest

from adjudicator.scoring import SYSTEMS, score

CONCEDED = {"centers": {"AUSTRIA": 0, "ENGLAND": 4, "FRANCE": 0, "GERMANY": 16, "ITALY": 0, "RUSSIA": 6,
                        "TURKEY": 8},
            "end": "concession", "conceded_to": "GERMANY", "draw_members": [],
            "eliminated_year": {"AUSTRIA": 1904, "FRANCE": 1906, "ITALY": 1906}, "year": 1908}
# The same board with Germany on 18 (two centres taken from Turkey), as a real solo.
SOLO = {**CONCEDED, "end": "solo", "centers": {**CONCEDED["centers"], "GERMANY": 18, "TURKEY": 6}}
SOLO.pop("conceded_to")


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s != "ppsc"])
def test_the_winner_takes_a_solos_score(system):
    conceded, solo = score(system, CONCEDED), score(system, SOLO)
    assert conceded["GERMANY"] == solo["GERMANY"], system


def test_ppsc_shares_pro_rata_to_the_centres_as_they_stand():
    scores = score("ppsc", CONCEDED)
    assert scores == {"AUSTRIA": 0, "ENGLAND": Fraction(400, 34), "FRANCE": 0, "GERMANY": Fraction(1600, 34),
                      "ITALY": 0, "RUSSIA": Fraction(600, 34), "TURKEY": Fraction(800, 34)}
