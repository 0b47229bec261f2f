"""Orders, results and DP allocations as JSON-ready dicts (the store, saved games).

Orders are frozen dataclasses; each is stored as its class name and its
constructor fields, so reading one back gives an equal value. Results keep
the published reason text as it was written at adjudication.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..core import orders as order_types
from ..core.geography import UnitType
from ..core.orders import Order
from ..core.results import OrderResult, Outcome
from ..rules.dp import Allocation

__all__ = ["allocation_from_dict", "allocation_to_dict", "order_from_dict", "order_to_dict",
           "result_from_dict", "result_to_dict"]

_TYPES: dict[str, type[Order]] = {
    name: getattr(order_types, name) for name in order_types.__all__
    if isinstance(getattr(order_types, name), type)
}


def order_to_dict(order: Order) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(order).__name__}
    for f in fields(order):
        if not f.init:
            continue
        value = getattr(order, f.name)
        if isinstance(value, UnitType):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def order_from_dict(data: dict[str, Any]) -> Order:
    cls = _TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if not f.init or f.name not in data:
            continue
        value = data[f.name]
        if f.name in ("unit_type", "supported_type") and value is not None:
            value = UnitType(value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)


def result_to_dict(result: OrderResult, why: bool = False) -> dict[str, Any]:
    """``why``: keep the explanation too (the game service does, so a phase can
    be explained after it was processed; saved games do not)."""
    out: dict[str, Any] = {"order": order_to_dict(result.order), "outcome": result.outcome.value,
           "reason": result.reason, "dislodged": result.dislodged,
           "implicit": result.implicit}
    if why and result.explanation != (result.reason,):
        out["why"] = list(result.explanation)
    return out


def result_from_dict(data: dict[str, Any]) -> OrderResult:
    why = data.get("why")
    return OrderResult(order_from_dict(data["order"]), Outcome(data["outcome"]),
                       data["reason"], bool(data.get("dislodged")), bool(data.get("implicit")),
                       tuple(str(line) for line in why) if isinstance(why, list) else None)


def allocation_to_dict(allocation: Allocation) -> dict[str, Any]:
    return {"power": allocation.power, "points": allocation.points,
            "order": order_to_dict(allocation.order)}


def allocation_from_dict(data: dict[str, Any]) -> Allocation:
    return Allocation(str(data["power"]), int(data["points"]), order_from_dict(data["order"]))
