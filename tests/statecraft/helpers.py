"""Builders for Statecraft states and a driver that feeds a procedure step by step, as a service would."""
from __future__ import annotations

from adjudicator.procedure import Decision, Dice, Outcome, answer, next_step
from adjudicator.statecraft import face_of


def power(pp=10, leader_value=1, pool=10, support=4, **more):
    return {"pp": pp, "leader_value": leader_value, "pool": pool, "support": support, **more}


def land(name, ct, influence, fg=None, row=1, col=1, conflict=None, **more):
    """A grid country; the conflict marker follows from the total unless given."""
    if conflict is None:
        conflict = sum(influence.values()) > ct
    return {"name": name, "row": row, "col": col, "ct": ct, "influence": dict(influence), "fg": fg,
            "conflict": conflict, **more}


SANCTIONS = {"name": "International Trade Sanctions", "majority": ["SWAP_RESOURCES"], "minority": ["PP_DELTA(-2)"]}


class Driver:
    """Feeds answers one at a time through ``answer(...)``, checking each step is the one expected."""

    def __init__(self, procedure, state):
        self.procedure, self.state = procedure, state
        self.log: list = []
        self.step = next_step(procedure, state, self.log)
        self.bag = dict(state.get("bag", {}))

    def _feed(self, value):
        self.log, self.step = answer(self.procedure, self.state, self.log, value)
        return self

    def expect_dice(self, purpose, roller, count):
        assert isinstance(self.step, Dice), self.step
        assert (self.step.purpose, self.step.roller, self.step.count) == (purpose, roller, count), self.step
        return self

    def expect_decision(self, participant, question):
        assert isinstance(self.step, Decision), self.step
        assert (self.step.participant, self.step.question) == (participant, question), self.step
        return self.step

    def roll(self, roller, faces):
        """The conflict dice of one faction."""
        self.expect_dice("conflict", roller, len(faces))
        return self._feed(list(faces))

    def reroll(self, power, indexes, faces=None):
        """One spy: ``indexes`` to reroll (None declines), then the new ``faces``."""
        self.expect_decision(power, "reroll")
        self._feed(indexes)
        if indexes is not None:
            self.expect_dice("reroll", power, len(indexes))
            self._feed(list(faces))
        return self

    def decline(self, *powers):
        for p in powers:
            self.reroll(p, None)
        return self

    def draw(self, token):
        """Draw a known token from the bag (the face that names it)."""
        assert isinstance(self.step, Dice) and self.step.purpose == "draw", self.step
        assert self.step.sides == sum(self.bag.values())
        face = face_of(self.bag, token)
        self.bag[token] -= 1
        return self._feed([face])

    def decide(self, participant, question, value):
        self.expect_decision(participant, question)
        return self._feed(value)

    def default(self, participant, question):
        step = self.expect_decision(participant, question)
        return self._feed(step.default)

    @property
    def outcome(self) -> Outcome:
        assert isinstance(self.step, Outcome), self.step
        return self.step


def tokens_of(state: dict) -> dict[str, int]:
    """Every token a faction has anywhere the state models (pool, spy, bag, institutions, grid, supply)."""
    out = {}
    for p, pw in state["powers"].items():
        out[p] = (pw["pool"] + pw.get("spy", 0) + pw.get("planned_influence", 0) + pw.get("planned_bribes", 0)
                  + state.get("bag", {}).get(p, 0)
                  + sum(v.get(p, 0) for v in state.get("institutions", {}).values())
                  + sum(c["influence"].get(p, 0) for c in state.get("grid", [])))
    if state.get("demo_supply") is not None:
        out["DEMO"] = (state["demo_supply"] + state.get("bag", {}).get("DEMO", 0) + state.get("set_aside_demo", 0)
                       + sum(c["influence"].get("DEMO", 0) for c in state.get("grid", [])))
    return out
