"""Influence piles (spec §2.3): value, who may place what, which card may be removed."""
from __future__ import annotations

from .state import DECLINING, DOMINANT, INFLUENCE, OPEN


def pile_value(pile: dict | None) -> int:
    """A player's influence (and vote weight) in a country; declining cards count in full (P-8)."""
    return sum(card["value"] for card in pile["cards"]) if pile else 0


def removable(pile: dict, country: str, open_rule: bool = True) -> list[dict]:
    """Cards the owner may remove from ``pile`` (P-11).

    With the Open-card rule, the last named card of a pile that also holds
    Open cards cannot go: one of the Open cards must be taken instead, so a
    pile of Open cards alone never exists.
    """
    cards = pile["cards"]
    if open_rule:
        named = [card for card in cards if card["country"] == country]
        if len(named) == 1 and len(named) < len(cards):
            return [card for card in cards if card["country"] == OPEN]
    return list(cards)


def default_removal(choices: list[dict]) -> dict:
    """G-10: at the deadline, the lowest-value card allowed, ties broken by card id."""
    return min(choices, key=lambda card: (card["value"], card["id"]))


def remove_card(piles: dict, country: str, card_id: str, open_rule: bool = True) -> list[dict]:
    """Take ``card_id`` out of the player's ``country`` pile; returns the cards discarded.

    Without the Open-card rule (config ``open_rule_on_all_removals: false``,
    A-7's alternative) removing the last named card takes the pile's Open
    cards with it.  An emptied pile ceases to exist (P-12).
    """
    pile = piles[country]
    removed = [card for card in pile["cards"] if card["id"] == card_id]
    pile["cards"] = [card for card in pile["cards"] if card["id"] != card_id]
    if not open_rule and not any(card["country"] == country for card in pile["cards"]):
        removed += pile["cards"]
        pile["cards"] = []
    if not pile["cards"]:
        del piles[country]
    return removed


def placeable(hand: list[dict], pile: dict | None, country: str) -> list[dict]:
    """Hand cards that could go onto the player's ``country`` pile now (P-5, P-6, P-10, P-14).

    Open cards are listed whenever a named card could accompany them; the
    placement check (below) enforces P-10 on the whole placement.
    """
    if pile is not None and pile["state"] == DECLINING:
        return []
    named = [card for card in hand if card["kind"] == INFLUENCE and card["country"] == country]
    opens = [card for card in hand if card["kind"] == INFLUENCE and card["country"] == OPEN]
    return named + opens if (pile is not None or named) else []


def placement_refusal(answer, hand: list[dict], pile: dict | None, country: str) -> str | None:
    """Why a list of card ids cannot be placed on the ``country`` pile, or None if it can."""
    if not isinstance(answer, list) or not all(isinstance(card_id, str) for card_id in answer):
        return "a placement is a list of card ids from your hand"
    if len(set(answer)) != len(answer):
        return "a card can be placed only once"
    by_id = {card["id"]: card for card in hand}
    cards = []
    for card_id in answer:
        if card_id not in by_id:
            return f"card {card_id!r} is not in your hand"
        card = by_id[card_id]
        if card["kind"] != INFLUENCE:
            return f"P-14: card {card_id!r} is a special card, only {country} influence cards may be placed"
        if card["country"] not in (country, OPEN):
            return f"P-14: card {card_id!r} is a {card['country']} card, only {country} cards may be placed"
        cards.append(card)
    if cards and pile is not None and pile["state"] == DECLINING:
        return f"P-5/P-6: your {country} pile is declining, no card may be added until it has left play"
    has_named = (pile is not None) or any(card["country"] == country for card in cards)
    if cards and not has_named:
        return f"P-10: an Open card needs a named {country} card in the pile"
    return None


def place(piles: dict, hand: list[dict], country: str, card_ids: list[str]) -> None:
    """Move the cards from hand to the pile; a new pile starts dominant (P-4)."""
    if not card_ids:
        return
    moving = [card for card in hand if card["id"] in card_ids]
    hand[:] = [card for card in hand if card["id"] not in card_ids]
    piles.setdefault(country, {"state": DOMINANT, "cards": []})["cards"].extend(moving)
