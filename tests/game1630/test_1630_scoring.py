"""1630 end-of-turn scoring (spec §7.1) against the §8 test vectors."""
from adjudicator.game1630 import SCORING
from adjudicator.procedure import Outcome, next_step

from tests.game1630.helpers import named_pile


def score(displays, counters, countries, vp=None):
    state = {"players": list(counters), "displays": displays, "vp_counters": counters, "countries": countries}
    if vp is not None:
        state["vp"] = vp
    step = next_step(SCORING, state, [])
    assert isinstance(step, Outcome)  # scoring asks for nothing
    return step


def test_TV_12_scoring_capped_by_prestige():
    step = score({"P": {"SWEDEN": named_pile("P", "SWEDEN", [4, 2])}}, {"P": ["SWEDEN"]}, {"SWEDEN": {"prestige": 2}})
    assert step.result["scores"] == {"P": 2}


def test_TV_13_martins_scoring():
    displays = {"Martin": {"ENGLAND": named_pile("Martin", "ENGLAND", [5]), "SWEDEN": named_pile("Martin", "SWEDEN", [4]),
                           "SPAIN": named_pile("Martin", "SPAIN", [2])}}
    step = score(displays, {"Martin": ["ENGLAND", "SWEDEN", "SPAIN"]},
                 {"ENGLAND": {"prestige": 1}, "SWEDEN": {"prestige": 3}, "SPAIN": {"prestige": 5}}, vp={"Martin": 10})
    assert step.result["scores"] == {"Martin": 6}
    assert step.state["vp"] == {"Martin": 16}


def test_TV_35_scoring_edge_cases():
    displays = {"P": {"SWEDEN": named_pile("P", "SWEDEN", [6]), "DENMARK": named_pile("P", "DENMARK", [3], state="DECLINING")}}
    step = score(displays, {"P": ["SWEDEN", "SWEDEN", "POLAND", "DENMARK"]},
                 {"SWEDEN": {"prestige": 2}, "POLAND": {"prestige": 2}, "DENMARK": {"prestige": 1}})
    assert step.result["scores"] == {"P": 5}
