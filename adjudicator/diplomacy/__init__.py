"""The Diplomacy rules engine: pure functions, no I/O.

Public API (see docs/diplomacy.md):

* :func:`adjudicate` -- a contract request in, a contract response out;
* :class:`RequestError` -- the request itself is malformed (``.field`` says where);
* :func:`initial_position`, :func:`variant_info`, :data:`VARIANTS`;
* :func:`check_orders` -- read one power's orders against a position;
* :func:`powers_to_order` -- who has something to order in this phase;
* :func:`options`, :func:`options_by_power` -- every order a power may give;
* :func:`board_data` -- a variant's provinces and adjacency;
* :func:`bot_orders` -- the bot's orders for a power (docs/bots.md).
"""
from __future__ import annotations

from .adjustments import Adjustments
from .board import BOARD
from .engine import adjudicate
from .movement import Legality, canonical
from .options import board_data, options, options_by_power, ordering_powers
from .orders import SEVERAL, OrderError, parse, written
from .position import RequestError, Unit, read_position
from .retreats import Retreats
from .variants import VARIANT_TABLE, VARIANTS

__all__ = ["adjudicate", "RequestError", "initial_position", "variant_info", "VARIANTS",
           "check_orders", "OrderChecker", "powers_to_order", "options", "options_by_power", "board_data",
           "bot_orders"]


def __getattr__(name: str):
    # The bot is imported on first use (PEP 562): the batch CLI, which only
    # adjudicates, starts without it.
    if name == "bot_orders":
        from .bot import bot_orders
        return bot_orders
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _variant(variant: str):
    v = VARIANT_TABLE.get(variant)
    if v is None:
        raise RequestError(f"unknown variant {variant!r}", "variant")
    return v


def variant_info(variant: str) -> dict:
    """{"name", "powers", "players", "neutral", "start_phase", "victory_centers"}."""
    return _variant(variant).info()


def initial_position(variant: str = "standard") -> dict:
    """The request-shaped starting position of a variant (no orders)."""
    v = _variant(variant)
    return {
        "variant": v.name,
        "phase": f"S{v.start_year}M",
        "units": {p: list(BOARD.start_units[p]) for p in BOARD.powers},
        "centers": {p: list(BOARD.home_centers[p]) for p in BOARD.powers},
    }


def check_orders(position: dict, power: str, orders: list[str]) -> list[dict]:
    """Read ``power``'s orders against ``position`` as :func:`adjudicate` would.

    One dict per input order: ``{"input", "order", "valid", "reason"}``.
    Raises :class:`RequestError` if the position or the power is malformed.
    """
    _order_list(orders)
    return OrderChecker(position).check(power, orders)


def _order_list(orders) -> None:
    if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
        raise RequestError("orders must be a list of strings", "orders")


class OrderChecker:
    """:func:`check_orders` with the position read once, for many checks."""

    def __init__(self, position: dict):
        req = dict(position)
        req["orders"] = {}
        self.pos = pos = read_position(req)
        self.rules = (Legality(pos) if pos.type == "M" else Retreats(pos) if pos.type == "R"
                      else Adjustments(pos))
        self._readers: dict[str, object] = {}  # power -> its order reader

    def check(self, power: str, orders: list[str]) -> list[dict]:
        """As :func:`check_orders`."""
        _order_list(orders)
        pos = self.pos
        if not isinstance(power, str) or power.upper() not in pos.variant.powers:
            raise RequestError(f"unknown power {power!r}", "power")
        power = power.upper()
        one = self._readers.get(power)
        if one is None:
            one = self._readers[power] = (
                self._movement_order(power) if pos.type == "M"
                else self._retreat_order(power) if pos.type == "R" else self._adjustment_order(power))
        return _checked(pos, power, orders, one)

    def _movement_order(self, power):
        pos, checker = self.pos, self.rules

        def one(text):
            p = parse(text)
            try:
                o = checker.check(p, power, text)
            except OrderError as err:
                unit = pos.units.get(p.loc[:3]) if p.loc else None
                target = pos.units.get(p.tloc[:3]) if p.tloc else None
                raise _Shown(str(err), written(p, unit, target), unit) from None
            return canonical(o, pos.units), o.prov
        return one

    def _retreat_order(self, power):
        pos, r = self.pos, self.rules

        def one(text):
            try:
                o = r.check(text, power)
            except OrderError as err:
                p = parse(text)
                d = pos.dislodged.get(p.loc[:3]) if p.loc else None
                raise _Shown(str(err), written(p, d[0] if d else None),
                             d[0] if d else None) from None
            return o.canon, o.unit.prov
        return one

    def _adjustment_order(self, power):
        a = self.rules
        n = a.counts.get(power, 0)

        def one(text):
            try:
                (kind, u, canon), _p = a._check(text, power, n)
            except OrderError as err:
                raise _Shown(str(err), written(parse(text)), None) from None
            return canon, (u.prov if kind == "D" else None)
        return one


def _checked(pos, power: str, orders: list[str], one) -> list[dict]:
    """One result per order, ``one(text)`` giving (canonical form, the unit's
    province or None) or raising; different orders for one unit all invalid."""
    out = []
    by_unit: dict[str, dict] = {}
    for raw in orders:
        text = raw.strip()
        item = {"input": raw, "order": text, "valid": False, "reason": None}
        try:
            canon, prov = one(text)
            item["order"], item["valid"] = canon, True
        except _Shown as s:
            item["order"] = s.shown or text
            item["reason"] = s.reason
            prov = s.unit.prov if s.unit is not None and s.unit.power == power else None
            canon = "invalid:" + text
        except OrderError as err:  # unreadable; still one of the unit's orders (7.8f)
            item["reason"] = str(err)
            canon = "invalid:" + text
            prov = err.loc[:3] if err.loc else None
            u: Unit | None = None
            if prov is not None and pos.type == "M":
                u = pos.units.get(prov)
            elif prov is not None and prov in pos.dislodged:
                u = pos.dislodged[prov][0]
            if u is None or u.power != power:
                prov = None
        out.append(item)
        if prov is not None and pos.type != "A":
            by_unit.setdefault(prov, {}).setdefault(canon, []).append(item)
    for prov, groups in by_unit.items():
        if len(groups) > 1:  # spec 7.8f
            for items in groups.values():
                for item in items:
                    item["valid"] = False
                    item["reason"] = SEVERAL
    return out


class _Shown(Exception):
    def __init__(self, reason, shown, unit):
        super().__init__(reason)
        self.reason, self.shown, self.unit = reason, shown, unit


def powers_to_order(position: dict) -> list[str]:
    """Powers with something to order: units (movement), dislodged units
    (retreats), non-zero adjustments (winter).  Neutral powers never order."""
    req = dict(position)
    req["orders"] = {}
    return ordering_powers(read_position(req))


def is_compiled() -> bool:
    """Whether this process runs the compiled build of the engine (mypyc,
    scripts/compiled_engine.py): its modules are then extension modules."""
    from . import engine
    return not engine.__file__.endswith(".py")
