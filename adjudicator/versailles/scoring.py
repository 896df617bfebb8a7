"""Final scoring and the winner (spec §8.2-§8.5).

Scoring needs no decisions and no dice: :func:`final_scoring` is a pure
function of the state.  :data:`FINAL_SCORING` wraps it in the shared
procedure shape (it returns its Outcome at once) for services that run
everything as procedures.
"""
from __future__ import annotations

from typing import Generator, Mapping

from marshmallow import ValidationError, validates_schema

from adjudicator.procedure import Outcome, Procedure

from .state import (FLAGGED_COUNTERS, HAPPINESS_VP, SIGNING_HAPPINESS, ZERO_BOX_PENALTY, GameState)


class ScoringState(GameState):
    @validates_schema
    def _cards_known(self, data, **kwargs):
        cards = data.get("strategy_cards", {})
        unknown = sorted(card for card in data.get("strategy_choice", {}).values() if card not in cards)
        if unknown:
            raise ValidationError(f"chosen cards without data in strategy_cards: {unknown}", "strategy_choice")
        strangers = sorted(set(data.get("strategy_choice", {})) - set(data.get("seat_order", [])))
        if strangers:
            raise ValidationError(f"not players who choose strategy cards: {strangers}", "strategy_choice")


def happiness_points(state: dict) -> dict[str, int]:
    """Rank points among the player nations with standard competition ranking (§8.4.3).

    Tied players all take the higher place's points and the next places are skipped.
    """
    seats = state["seat_order"]       # never Japan, a non-player Italy or the 2-player USA
    table = HAPPINESS_VP[len(seats)]
    h = state["happiness"]
    return {nation: table[sum(h[other] > h[nation] for other in seats)] for nation in seats}


def flag_points(state: dict, nation: str) -> int:
    """+1 per Naval Squadron or Empire counter with the nation's flag on an issue it controls."""
    return sum(1 for issue in state["issues"] if issue["controller"] == nation
               for counter in issue["counters"]
               if counter["type"] in FLAGGED_COUNTERS and counter["flag"] == nation)


def term_points(state: dict, nation: str, term: dict) -> int:
    """One strategy-card term (§8.3); counters count on every controlled issue, whoever controls it."""
    condition, vp = term["condition"], term["vp"]
    unrest = [state["tracks"][region]["unrest"] for region in state["regions"]]
    if condition == "counter":
        return vp * sum(1 for issue in state["issues"] if issue["controller"] is not None
                        for counter in issue["counters"]
                        if counter["type"] == term["counter"] and term["flag"] in (None, counter["flag"]))
    if condition == "region_unrest_low":
        return vp * sum(1 for column in unrest if column <= 3)
    if condition == "region_unrest_high":
        return vp * sum(1 for column in unrest if column >= 4)
    if condition == "military":
        player = state["players"][nation]
        deployed = sum(nation in state["tracks"][region]["units"].values() for region in state["regions"])
        return vp * (player["units_available"] + player["units_exhausted"] + deployed)
    if condition in ("signs", "refuses"):
        signs = state["happiness"][term["nation"]] >= SIGNING_HAPPINESS
        return vp if signs == (condition == "signs") else 0
    return 0    # happiness_x2 changes the happiness points instead


def score_player(state: dict, nation: str, rank_points: int) -> dict:
    card_id = state["strategy_choice"].get(nation)
    terms = state["strategy_cards"][card_id]["terms"] if card_id is not None else []
    doubled = any(term["condition"] == "happiness_x2" for term in terms)
    penalty = ZERO_BOX_PENALTY if state["happiness"][nation] == 0 else 0
    if doubled and state["rules"]["double_happiness_includes_zero_penalty"]:
        happiness = 2 * (rank_points + penalty)
    else:
        happiness = (2 if doubled else 1) * rank_points + penalty
    issues = [issue for issue in state["issues"] if issue["controller"] == nation]
    parts = {"issues": sum(issue["stars"] for issue in issues),
             "flags": flag_points(state, nation),
             "strategy_card": sum(term_points(state, nation, term) for term in terms),
             "happiness": happiness}
    return {**parts, "total": sum(parts.values()), "happiness_level": state["happiness"][nation],
            "issues_controlled": len(issues), "strategy_card_id": card_id}


def winners(scores: Mapping[str, dict]) -> list[str]:
    """Highest total; then highest happiness; then most controlled issues; else shared (§8.5.2)."""
    def key(nation):
        return (scores[nation]["total"], scores[nation]["happiness_level"], scores[nation]["issues_controlled"])
    best = max(key(nation) for nation in scores)
    return [nation for nation in scores if key(nation) == best]


def score(state: dict) -> dict:
    """Score a loaded state.  In the 2-player game the USA scores nothing and cannot win (§8.5.3)."""
    ranks = happiness_points(state)
    scores = {nation: score_player(state, nation, ranks[nation]) for nation in state["seat_order"]}
    return {"scores": scores, "winners": winners(scores)}


def final_scoring(state: Mapping) -> dict:
    """Validate a raw state (raises :class:`~adjudicator.procedure.InvalidState`) and score it."""
    return score(FINAL_SCORING.load(state))


def _run(state: dict) -> Generator:
    return Outcome(score(state), state)
    yield  # pragma: no cover - makes this a generator that ends at once


FINAL_SCORING = Procedure(
    "versailles.final_scoring", ScoringState, _run,
    summary="Final scoring (§8.2-§8.5): stars, flagged counters, strategy cards and happiness rank points, "
            "and the winner with its tie-breaks; it has no steps.",
    participants="nobody is asked: the seated nations are scored (the 2-player USA faction scores nothing)")
