"""The board: provinces, coasts and adjacency, built once per process.

The data is :mod:`adjudicator.diplomacy.standard_map` (spec Appendix A).  This
module turns it into plain dicts and frozensets and checks it (every
neighbour exists, adjacency is symmetric, terrain is consistent) at import
time, so nothing about the map is recomputed per request.

Vocabulary:

* a *province* is a three-letter id (``SPA``);
* a *location* is where a unit stands: a province, or for a fleet in a
  two-coast province the coast (``SPA/NC``).
"""
from __future__ import annotations

from collections import deque
from typing import Final, NamedTuple

from . import standard_map


NO_PLACES: Final[frozenset[str]] = frozenset()


def steps_from(graph: dict[str, frozenset[str]], starts: list[str]) -> dict[str, int]:
    """Breadth first: the fewest steps from any of ``starts`` to each place of ``graph`` it reaches
    (a start that is not in ``graph`` reaches nothing)."""
    seen = {start: 0 for start in starts}
    queue = deque(starts)
    while queue:
        cur = queue.popleft()
        for nxt in graph.get(cur, NO_PLACES):
            if nxt not in seen:
                seen[nxt] = seen[cur] + 1
                queue.append(nxt)
    return seen


class Province(NamedTuple):
    id: str
    name: str
    kind: str  # "inland" | "coastal" | "sea"
    supply_center: bool
    home: str | None  # power whose home centre this is


class Board:
    """The standard map.  Immutable after construction; one instance per process."""

    def __init__(self, rows, start_units):
        self.provinces: dict[str, Province] = {}
        self.army_adj: dict[str, frozenset[str]] = {}
        self.fleet_adj: dict[str, frozenset[str]] = {}
        self.coasts: dict[str, tuple[str, ...]] = {}
        for pid, name, kind, sc, army, fleet in rows:
            self.provinces[pid] = Province(
                pid, name, kind, bool(sc), sc if sc not in ("", "neutral") else None
            )
            self.army_adj[pid] = frozenset(army.split())
            if ":" in fleet:  # two coasts: "SPA/NC: GAS MAO POR; SPA/SC: ..."
                locs = []
                for part in fleet.split(";"):
                    loc, nbrs = part.split(":")
                    loc = loc.strip()
                    locs.append(loc)
                    self.fleet_adj[loc] = frozenset(nbrs.split())
                self.coasts[pid] = tuple(locs)
            elif fleet:
                self.fleet_adj[pid] = frozenset(fleet.split())
        self.start_units = {p: tuple(u) for p, u in start_units.items()}
        self.powers = tuple(sorted(start_units))
        self.home_centers = {
            p: tuple(sorted(u.split()[1][:3] for u in units))
            for p, units in start_units.items()
        }
        self.supply_centers = frozenset(p for p, v in self.provinces.items() if v.supply_center)
        #: every location a unit may stand on
        self.locations = frozenset(
            [p for p, v in self.provinces.items() if p not in self.coasts]
            + [c for cs in self.coasts.values() for c in cs]
        )
        #: fleet reach by province: the provinces a fleet at ``loc`` can reach
        self.fleet_reach_prov = {
            loc: frozenset(n[:3] for n in nbrs) for loc, nbrs in self.fleet_adj.items()
        }
        self._check()
        self._sea_graph = self._mixed_graph()

    # -- queries ---------------------------------------------------------
    def kind(self, prov: str) -> str:
        return self.provinces[prov].kind

    def is_sea(self, prov: str) -> bool:
        return self.provinces[prov].kind == "sea"

    def is_coastal(self, prov: str) -> bool:
        return self.provinces[prov].kind == "coastal"

    def can_reach(self, unit_type: str, loc: str, prov: str) -> bool:
        """Could a unit of this type at ``loc`` move to province ``prov`` (any coast)?"""
        if unit_type == "A":
            return prov in self.army_adj.get(loc[:3], ())
        return prov in self.fleet_reach_prov.get(loc, ())

    def fleet_targets(self, loc: str, prov: str) -> list[str]:
        """The locations in ``prov`` that a fleet at ``loc`` can move to."""
        return [n for n in self.fleet_adj.get(loc, ()) if n[:3] == prov]

    # -- distances (civil disorder, spec 12.4) ---------------------------
    def distances(self, unit_type: str, loc: str, mode: str = "home") -> dict[str, int]:
        """Moves needed from ``loc`` to each province.

        ``mode`` "home" (spec 12.4a): armies move over land and may cross
        seas as if convoyed, one move per sea; fleets move as fleets.
        ``mode`` "owned" (DATC v3.0 / 2023 rulebook): both unit types move
        over land and sea alike.
        """
        key = (unit_type, loc, mode)
        hit = _distance_cache.get(key)
        if hit is not None:
            return hit
        if mode == "owned" or unit_type == "A":
            graph = self._sea_graph if mode == "owned" else self._army_graph
            result = steps_from(graph, [loc[:3]])
        else:
            seen_loc = steps_from(self.fleet_adj, [loc])
            result = {}
            for l, d in seen_loc.items():
                p = l[:3]
                if p not in result or d < result[p]:
                    result[p] = d
        _distance_cache[key] = result
        return result

    def home_distances(self, power: str, unit_type: str) -> dict[str, int]:
        """Moves a unit of this type needs from each place (a fleet's location,
        an army's province) to the nearest home centre of ``power``: the
        ``distances`` of mode "home" from every home centre at once (the
        graphs are symmetric), one search a power and unit type."""
        key = (power, unit_type)
        hit = _home_distance_cache.get(key)
        if hit is not None:
            return hit
        homes = self.home_centers[power]
        if unit_type == "A":
            graph = self._army_graph
            starts = list(homes)
        else:
            graph = self.fleet_adj
            starts = [loc for loc in graph if loc[:3] in homes]
        seen = steps_from(graph, starts)
        _home_distance_cache[key] = seen
        return seen

    def _mixed_graph(self):
        # "owned" reading: any border, army or fleet, ignoring coasts.
        mixed = {p: set(self.army_adj[p]) for p in self.provinces}
        for loc, nbrs in self.fleet_adj.items():
            for n in nbrs:
                mixed[loc[:3]].add(n[:3])
        # "home" reading for armies: land borders, plus coast<->sea and
        # sea<->sea steps as if convoyed (each sea counts one move), but an
        # army never walks from a sea onto the sea's coast except as the
        # end of a convoy, which is the same graph.
        army = {p: set(self.army_adj[p]) for p in self.provinces}
        for loc, nbrs in self.fleet_adj.items():
            p = loc[:3]
            for n in nbrs:
                q = n[:3]
                if self.is_sea(p) or self.is_sea(q):
                    army[p].add(q)
        self._army_graph = {p: frozenset(v) for p, v in army.items()}
        return {p: frozenset(v) for p, v in mixed.items()}

    # -- self check ------------------------------------------------------
    def _check(self):
        provs = self.provinces
        for p, nbrs in self.army_adj.items():
            for n in nbrs:
                assert n in provs, (p, n)
                assert p in self.army_adj[n], f"army adjacency not symmetric: {p}-{n}"
                assert provs[p].kind != "sea" and provs[n].kind != "sea", (p, n)
        for loc, nbrs in self.fleet_adj.items():
            assert loc[:3] in provs and provs[loc[:3]].kind != "inland", loc
            for n in nbrs:
                assert n in self.fleet_adj, f"fleet neighbour {n} of {loc} is not a fleet location"
                assert loc in self.fleet_adj[n], f"fleet adjacency not symmetric: {loc}-{n}"
        for p, v in provs.items():
            if v.kind == "sea":
                assert not self.army_adj[p] and p in self.fleet_adj, p
            elif v.kind == "inland":
                assert p not in self.fleet_adj and p not in self.coasts, p
            else:
                assert p in self.fleet_adj or p in self.coasts, p
        for power, homes in self.home_centers.items():
            for h in homes:
                assert provs[h].home == power, (power, h)


_distance_cache: Final[dict] = {}
_home_distance_cache: Final[dict[tuple[str, str], dict[str, int]]] = {}

BOARD: Final = Board(standard_map.PROVINCES, standard_map.START_UNITS)
