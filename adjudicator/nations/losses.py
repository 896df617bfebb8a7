"""Forced losses, shortages and VP changes (spec §4.1-4.2).

A forced loss a nation cannot pay in full is a *shortage*: it pays what it
has, loses 1 VP (once per resource type per round), and the missing amount of
gold, stone or food is lost as knowledge instead.  Missing knowledge spills
into a resource the nation chooses (the only decision here).
"""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..procedure import Decision, Outcome, Procedure
from .state import MATERIALS, RESOURCES, GameStateSchema, NonNegative, checked, working_copy

SPILL = "shortage_spill"


class Ledger:
    """What one nation lost during one resolution, for the outcome's ``result``."""

    def __init__(self):
        self.lost = {t: 0 for t in RESOURCES}
        self.gained = {t: 0 for t in RESOURCES}
        self.shortage_vp = 0
        self.other_vp = 0
        self.dropped = 0  # owed after the nation held nothing at all

    def to_dict(self) -> dict:
        return {"lost": {t: n for t, n in self.lost.items() if n},
                "gained": {t: n for t, n in self.gained.items() if n},
                "shortage_vp": self.shortage_vp, "vp_lost": self.other_vp, "dropped": self.dropped}


def lose_vp(nation: dict, n: int) -> int:
    """Lose up to ``n`` VP; VP never go below 0 (§1.5.2).  Returns what was really lost."""
    lost = min(n, nation["vp"])
    nation["vp"] -= lost
    return lost


def charge_shortage_vp(nation: dict, resource: str, ledger: Ledger) -> None:
    # At most once per type per round: the flags are reset at the end of the round (§3.5.1).
    if not nation["shortage_vp_charged"][resource]:
        nation["shortage_vp_charged"][resource] = True
        ledger.shortage_vp += lose_vp(nation, 1)


def spill_default(resources: dict, options: list[str]) -> str:
    """§4.1.3: the type held most of; ties go to gold, then stone, then food."""
    return max(options, key=lambda u: (resources[u], -MATERIALS.index(u)))


def force_loss(state: dict, nation_id: str, resource: str, amount: int, ledger: Ledger):
    """Generator: make ``nation_id`` give up ``amount`` of ``resource`` (§4.1.4)."""
    nation = state["nations"][nation_id]
    held = nation["resources"]
    paid = min(amount, held[resource])
    held[resource] -= paid
    ledger.lost[resource] += paid
    missing = amount - paid
    if missing == 0:
        return
    charge_shortage_vp(nation, resource, ledger)
    if resource != "knowledge":
        yield from force_loss(state, nation_id, "knowledge", missing, ledger)
        return
    # Knowledge ran out: the rest spills into another type, chosen by the nation.
    while missing > 0:
        options = [u for u in MATERIALS if held[u] > 0]
        if not options:
            ledger.dropped += missing
            return
        if len(options) == 1:  # a decision with one legal answer is not asked
            into = options[0]
        else:
            # The nation sees what it still owes, what it holds, and which types would cost a shortage VP.
            into = yield Decision(nation_id, SPILL, options, spill_default(held, options),
                                  details={"owed": missing, "resources": dict(held),
                                           "shortage_vp_charged": dict(nation["shortage_vp_charged"]),
                                           "vp": nation["vp"]})
        paid = min(missing, held[into])
        held[into] -= paid
        ledger.lost[into] += paid
        missing -= paid
        if missing:
            # ``into`` ran out too; its missing part becomes knowledge, which is 0, so it spills again.
            charge_shortage_vp(nation, into, ledger)


def ledgers(state: dict) -> dict[str, Ledger]:
    return {nid: Ledger() for nid in state["player_order"]}


def report(books: dict[str, Ledger]) -> dict:
    return {nid: book.to_dict() for nid, book in books.items()}


# --- FORCED_LOSS: a list of forced losses, one after the other --------------

class LossSchema(Schema):
    nation = fields.String(required=True)
    resource = fields.String(required=True, validate=validate.OneOf(RESOURCES))
    amount = fields.Integer(required=True, strict=True, validate=NonNegative)


class ForcedLossStateSchema(GameStateSchema):
    """The game state plus ``losses``: forced losses to apply in the listed order."""

    losses = fields.List(fields.Nested(LossSchema), required=True)

    @validates_schema
    def _known_nations(self, data, **kwargs):
        nations = data.get("nations") or {}
        bad = {i: {"nation": ["unknown nation"]} for i, loss in enumerate(data.get("losses") or [])
               if loss["nation"] not in nations}
        if bad:
            raise ValidationError(bad, "losses")


def run_forced_losses(state: dict):
    state = working_copy(state)
    losses = state.pop("losses")
    books = ledgers(state)
    for loss in losses:
        yield from force_loss(state, loss["nation"], loss["resource"], loss["amount"], books[loss["nation"]])
    return Outcome({"nations": report(books)}, checked(state))


FORCED_LOSS = Procedure(
    "nations.forced_loss", ForcedLossStateSchema, run_forced_losses, version="2",
    summary="The forced losses listed in the state's losses, in order (§4.1): shortages cost 1 VP per resource type "
            "per round and run into knowledge, then spill into a resource the nation chooses.",
    participants="The nations, by their ids in the state's nations; a nation whose knowledge runs out chooses "
                 "where the rest spills. Nothing is rolled.")
