"""Every procedure of the four seed games, by kind (``<game>.<procedure>``).

A kind is what a client names to start a resolution; this is the one list of
them.  A game package adds a procedure here by exporting it in its
``__all__`` (any :class:`~adjudicator.procedure.Procedure` there is a kind).
"""
from __future__ import annotations

from adjudicator import game1630, nations, statecraft, versailles
from adjudicator.procedure import Procedure

GAMES = {"versailles": versailles, "statecraft": statecraft, "1630": game1630, "nations": nations}


def _collect() -> dict[str, Procedure]:
    kinds = {}
    for package in GAMES.values():
        for name in package.__all__:
            value = getattr(package, name)
            if isinstance(value, Procedure):
                kinds[value.name] = value
    return dict(sorted(kinds.items()))


KINDS: dict[str, Procedure] = _collect()


def game_of(kind: str) -> str:
    return kind.split(".", 1)[0]
