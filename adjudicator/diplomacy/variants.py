"""Variants (spec 13): who plays which powers, who is neutral, what is closed.

All variants use the standard map.  A variant is data; the rules consult it
through three questions: which powers are neutral in this phase, which
provinces are impassable in this phase, and how victory is counted.
"""
from __future__ import annotations

from typing import Final, NamedTuple

from .board import BOARD

ITALIAN_PROVINCES: Final = frozenset({"PIE", "VEN", "TUS", "ROM", "APU", "NAP"})


class Variant(NamedTuple):
    name: str
    players: tuple[tuple[str, ...], ...]  # powers per player
    neutral: tuple[str, ...]  # powers nobody plays (hold, never build)
    start_year: int
    victory_centers: int  # per power, or per player side if side_victory
    side_victory: bool = False
    #: two-player game: Italy neutral and impassable before this year's spring
    italy_opens: int | None = None

    @property
    def powers(self) -> tuple[str, ...]:
        return BOARD.powers

    def neutral_in(self, year: int, season: str) -> frozenset[str]:
        if self.italy_opens is not None and year >= self.italy_opens:
            return frozenset(p for p in self.neutral if p != "ITALY")
        return frozenset(self.neutral)

    def impassable_in(self, year: int, season: str) -> frozenset[str]:
        if self.italy_opens is not None and year < self.italy_opens:
            return ITALIAN_PROVINCES
        return frozenset()

    def sides(self, italy_joins: int | None) -> tuple[tuple[str, ...], ...]:
        """Player sides for victory counting; Italy added to the coin toss
        winner (player number ``italy_joins``)."""
        if self.italy_opens is None or italy_joins is None:
            return self.players
        return tuple(side + ("ITALY",) if i == italy_joins else side
                     for i, side in enumerate(self.players, 1))

    def info(self) -> dict:
        return {
            "name": self.name,
            "powers": list(BOARD.powers),
            "players": [list(p) for p in self.players],
            "neutral": list(self.neutral),
            "start_phase": f"S{self.start_year}M",
            "victory_centers": self.victory_centers,
        }


_ALL = tuple((p,) for p in BOARD.powers)

VARIANT_TABLE: Final[dict[str, Variant]] = {
    v.name: v
    for v in (
        Variant("standard", _ALL, (), 1901, 18),
        # spec 13.2: six players, Italy neutral
        Variant("six_player", tuple(p for p in _ALL if p != ("ITALY",)), ("ITALY",), 1901, 18),
        # spec 13.3: five players, Italy and Germany neutral
        Variant("five_player", tuple(p for p in _ALL if p not in (("ITALY",), ("GERMANY",))),
                ("GERMANY", "ITALY"), 1901, 18),
        # spec 13.4: England alone; Austria/France, Germany/Turkey, Italy/Russia
        Variant("four_player", (("ENGLAND",), ("AUSTRIA", "FRANCE"), ("GERMANY", "TURKEY"),
                                ("ITALY", "RUSSIA")), (), 1901, 18),
        # spec 13.5 (a): Russia; England/France/Germany; Austria/Italy/Turkey
        Variant("three_player_a", (("RUSSIA",), ("ENGLAND", "FRANCE", "GERMANY"),
                                   ("AUSTRIA", "ITALY", "TURKEY")), (), 1901, 18),
        # spec 13.5 (b): England/Germany/Austria; Russia/Italy; France/Turkey
        Variant("three_player_b", (("AUSTRIA", "ENGLAND", "GERMANY"), ("ITALY", "RUSSIA"),
                                   ("FRANCE", "TURKEY")), (), 1901, 18),
        # spec 13.6: World War I.  Italy neutral and impassable until Spring 1915,
        # then joins the side named by rules.italy_joins (the service's coin toss).
        Variant("two_player_1914", (("ENGLAND", "FRANCE", "RUSSIA"),
                                    ("AUSTRIA", "GERMANY", "TURKEY")), ("ITALY",), 1914, 24,
                side_victory=True, italy_opens=1915),
    )
}

VARIANTS: tuple[str, ...] = tuple(VARIANT_TABLE)
