"""Uprising step 7: strategy-card selection after the game's first uprising (spec §6.8)."""
from __future__ import annotations

from typing import Generator

from adjudicator.procedure import Decision


def star_total(state: dict, nation: str) -> int:
    """Stars of the issues a nation controls; counters and happiness do not count (§6.8.2)."""
    return sum(issue["stars"] for issue in state["issues"] if issue["controller"] == nation)


def choosing_order(state: dict) -> list[str]:
    """Lowest star total first; ties go to the seat closest clockwise to the active player
    (the active player is at distance 0, so it wins such a tie)."""
    seats = state["seat_order"]          # the 2-player USA faction holds no seat and does not choose
    start = seats.index(state["active_player"])
    return sorted(seats, key=lambda nation: (star_total(state, nation), (seats.index(nation) - start) % len(seats)))


def select_strategy_cards(state: dict) -> Generator:
    """Each player picks one card from the offer; the card nobody picks leaves the game."""
    offer = list(state["strategy_offer"])
    order = choosing_order(state)
    for nation in order:
        # The offer lies face up and every choice is public (§6.8.3).
        card = yield Decision(nation, "choose_strategy_card", list(offer), default=offer[0],
                              details={"order": order, "stars": star_total(state, nation),
                                       "totals": {n: star_total(state, n) for n in order},
                                       "chosen": {n: state["strategy_choice"][n] for n in order
                                                  if n in state["strategy_choice"]},
                                       "cards": {c: state["strategy_cards"][c] for c in offer
                                                 if c in state["strategy_cards"]}})
        offer.remove(card)
        state["strategy_choice"][nation] = card
    state["strategy_offer"] = []
    state["first_uprising_done"] = True
    return {"order": order, "choices": {nation: state["strategy_choice"][nation] for nation in order},
            "removed": offer}
