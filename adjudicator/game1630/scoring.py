"""End-of-turn scoring (spec §7.1): each VP counter scores min(influence, prestige)."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from adjudicator.procedure import Outcome, Procedure

from .piles import pile_value
from .state import COUNTRIES, CountriesMixin, PlayersMixin, load_copy


class ScoringState(CountriesMixin, PlayersMixin):
    vp_counters = fields.Dict(keys=fields.String(), values=fields.List(fields.String(validate=validate.OneOf(COUNTRIES))),
                              load_default=dict)
    vp = fields.Dict(keys=fields.String(), values=fields.Integer(validate=validate.Range(min=0)), load_default=dict)

    @validates_schema
    def _known_players(self, data, **kwargs):
        players = data.get("players") or []
        errors = {name: {p: {"key": ["not a player"]} for p in data.get(name, {}) if p not in players}
                  for name in ("vp_counters", "vp")}
        errors = {name: found for name, found in errors.items() if found}
        if errors:
            raise ValidationError(errors)


def turn_score(counters: list[str], piles: dict, countries: dict) -> int:
    """7.1.3; a counter held twice scores twice (7.1.2), declining piles count in full (A-19)."""
    return sum(min(pile_value(piles.get(c)), countries[c]["prestige"]) for c in counters)


def run_scoring(state: dict):
    state = load_copy(state)
    scores = {p: turn_score(state["vp_counters"].get(p, []), state["displays"].get(p, {}), state["countries"])
              for p in state["players"]}
    state["vp"] = {p: state["vp"].get(p, 0) + scores[p] for p in state["players"]}
    return Outcome({"scores": scores, "vp": dict(state["vp"])}, state)
    yield  # a generator with no step: scoring needs no decision and no dice


SCORING = Procedure(
    "1630.scoring", ScoringState, run_scoring, private_fields=("vp_counters", "hands"),
    summary="One end-of-turn scoring (§7.1): each VP counter scores min(influence, prestige); it has no steps.",
    participants="nobody is asked: the players named in players are scored; their VP counters and hands "
                 "are private to each (§2.6)")
