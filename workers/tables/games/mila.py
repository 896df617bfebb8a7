"""MILA game records (docs/clients.md, "Game records (MILA)").

The saved-game JSON of the MILA ``diplomacy`` package (``diplomacy.utils.export``'s
``to_saved_game_format`` writes it, ``from_saved_game_format`` reads it) is
``{id, map, rules, phases}``, each phase ``{name, state, orders, results,
messages}``, its ``state`` the position at the start of the phase (``units``,
with a dislodged unit written ``*A PAR``; ``retreats``; ``centers``; ...), and
the last phase the one open (its orders ``null``).

:func:`to_mila` writes a game's live history and its current phase that way;
:func:`replay` reads a record back, adjudicating each phase's orders with our
engine and checking that they give the next phase's position: a record that
does not reproduce its own positions is refused, naming the first phase that
differs.  MILA's known adjudication errors (docs/diplomacy.md) are such
differences.  No I/O here: the game table stores what these return.
"""
from __future__ import annotations

from adjudicator.diplomacy.codes import Code, code_of

from ...core.errors import Invalid
from ...core.records import HistoryEntry
from ...core.store import iso
from .table import engine

MAP = "standard"
RULES = ["NO_PRESS", "POWER_CHOICE"]  # what a game of MILA's made by hand has; the record carries no press
MAX_PHASES = 2000  # a record longer than any game
#: MILA's result codes for ours; every other failure is MILA's "void"
_MILA_CODES = {Code.BOUNCED: "bounce", Code.CUT: "cut", Code.DISLODGED: "dislodged", Code.NO_CONVOY: "no convoy"}


def _state(position: dict, powers: list[str], gid: str) -> dict:
    """MILA's state of the start of a phase, from our position."""
    dislodged = position.get("dislodged") or {}
    options = position.get("retreat_options") or {}
    units = {p: list(position.get("units", {}).get(p, [])) + [f"*{d['unit']}" for d in dislodged.get(p, [])]
             for p in powers}
    return {"name": position["phase"], "units": units,
            "retreats": {p: {d["unit"]: list(options.get(d["unit"], [])) for d in dislodged.get(p, [])}
                         for p in powers},
            "centers": {p: list(position.get("centers", {}).get(p, [])) for p in powers},
            "game_id": gid, "map": MAP, "rules": RULES, "note": ""}


def _results(results: list[dict]) -> dict:
    """MILA's results of a phase (per unit, its result codes; none when the order succeeded)."""
    out: dict[str, list[str]] = {}
    for r in results:
        unit = r.get("unit")
        if not unit:
            continue
        found = out.setdefault(unit, [])
        if r["outcome"] in ("dislodged", "fails", "invalid"):
            found.append(_MILA_CODES.get(code_of(r), "void"))
    return out


def to_mila(game: dict, history: list[HistoryEntry]) -> dict:
    """The saved-game record of ``game`` (its public state) with ``history`` (its adjudicated phases)."""
    if game["variant"] != MAP:
        raise Invalid(f"format mila: MILA's records are of the standard map; game '{game['id']}' is "
                      f"{game['variant']}")
    powers = engine().variant_info(game["variant"])["powers"]
    phases = []
    for h in (h for h in history if not h.superseded):
        phases.append({"name": h.phase, "state": _state(h.position, powers, game["id"]),
                       "orders": {p: list(h.orders.get(p, [])) for p in powers},
                       "results": _results(h.results), "messages": []})
    if game.get("position"):
        phases.append({"name": game["phase"], "state": _state({**game["position"], "phase": game["phase"]},
                                                              powers, game["id"]),
                       "orders": {p: None for p in powers}, "results": {}, "messages": []})
    return {"id": game["id"], "map": MAP, "rules": RULES, "phases": phases}


# ---------------------------------------------------------------- reading a record
def _texts(value, where: str, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Invalid(f"{where}: a list of {what}")
    return list(value)


def _per_power(value, where: str, what: str, read) -> dict:
    """``value`` as an object of power -> ``read(item, where)`` (Invalid naming the field otherwise)."""
    if not isinstance(value, dict):
        raise Invalid(f"{where}: an object of power -> {what}")
    return {power: read(item, f"{where}.{power}") for power, item in value.items()}


def _position(phase, where: str) -> dict:
    """Our position at the start of a record's phase (raises Invalid saying where it is malformed)."""
    if not isinstance(phase, dict) or not isinstance(phase.get("name"), str) or not isinstance(phase.get("state"), dict):
        raise Invalid(f"{where}: a phase is {{name, state: {{units, centers, ...}}, orders}}")
    state, name = phase["state"], phase["name"]
    found = _per_power(state.get("units"), f"{where}.state.units", "a list of units as 'A PAR'",
                       lambda v, at: _texts(v, at, "units as 'A PAR' ('*A PAR' dislodged)"))
    units = {power: [u for u in us if not u.startswith("*")] for power, us in found.items()}
    dislodged = {power: [{"unit": u[1:]} for u in us if u.startswith("*")] for power, us in found.items()}
    centers = _per_power(state.get("centers"), f"{where}.state.centers", "a list of supply centres",
                         lambda v, at: _texts(v, at, "supply centres as 'PAR'"))
    retreats = state.get("retreats") or {}
    retreats = _per_power(retreats, f"{where}.state.retreats", "an object of unit -> provinces",
                          lambda v, at: _per_power(v, at, "provinces", lambda o, at2: _texts(o, at2, "provinces")))
    options = {unit: o for by_unit in retreats.values() for unit, o in by_unit.items()}
    return {"phase": name, "units": units, "centers": centers, "dislodged": {p: d for p, d in dislodged.items() if d},
            "contested": [], "retreat_options": options, "adjustments": {}}


def _orders(phase: dict, where: str) -> dict[str, list[str]]:
    """A record's phase's orders: power -> its orders (none, or null, for a power that gave none)."""
    orders = _per_power(phase.get("orders") or {}, f"{where}.orders", "a list of orders",
                        lambda v, at: _texts(v or [], at, "orders as 'A PAR - BUR'"))
    return {power: found for power, found in orders.items() if found}


def _same(ours: dict, theirs: dict) -> str | None:
    """What differs between two positions of the same phase (None: nothing)."""
    if ours["phase"] != theirs["phase"]:
        return f"the orders lead to {ours['phase']}, the record goes on to {theirs['phase']}"
    for part in ("units", "centers"):
        powers = set(ours[part]) | set(theirs[part])
        for p in sorted(powers):
            a, b = sorted(ours[part].get(p, [])), sorted(theirs[part].get(p, []))
            if a != b:
                return f"{part} of {p}: the orders give {a}, the record has {b}"
    a = sorted(d["unit"] for ds in ours.get("dislodged", {}).values() for d in ds)
    b = sorted(d["unit"] for ds in theirs.get("dislodged", {}).values() for d in ds)
    if a != b:
        return f"dislodged units: the orders give {a}, the record has {b}"
    return None


def replay(saved: dict, rules: dict, now: float) -> tuple[list[dict], dict]:
    """The history records of a MILA record, replayed through our engine, and the position of its last
    phase (where the imported game goes on).  Invalid (422) if it is not a record, or names the first
    phase whose orders do not lead to the next phase's position."""
    if saved.get("map", MAP) != MAP:
        raise Invalid(f"body.game.map: only MILA's standard map is read, not {saved.get('map')!r}")
    phases = saved.get("phases")
    if not isinstance(phases, list) or not phases or len(phases) > MAX_PHASES:
        raise Invalid(f"body.game.phases: a list of 1 to {MAX_PHASES} phases")
    records = []
    current = _position(phases[0], "body.game.phases[0]")
    for i, phase in enumerate(phases[:-1]):
        where = f"body.game.phases[{i}]"
        orders = _orders(phase, where)
        request = {"variant": MAP, "rules": rules, **current, "orders": orders}
        try:
            response = engine().adjudicate(request)
        except engine().RequestError as e:
            raise Invalid(f"{where} ({current['phase']}): {e}") from None
        nxt = _position(phases[i + 1], f"body.game.phases[{i + 1}]")
        ours = response.get("next")
        if ours is None:
            raise Invalid(f"{where} ({current['phase']}): the game ends here by our rules, the record goes on "
                          f"to {nxt['phase']}")
        differs = _same(ours, nxt)
        if differs:
            raise Invalid(f"{where} ({current['phase']}) does not reproduce the record: {differs} "
                          f"(MILA's known adjudication errors: docs/diplomacy.md)", phase=current["phase"])
        records.append(HistoryEntry(i + 1, current["phase"], "imported", 1,
                                    {k: v for k, v in request.items() if k not in ("orders", "rules")},
                                    orders, response["results"], ours["phase"], iso(now)))
        current = ours  # our own position, with the retreat options our rules give
    return records, current
