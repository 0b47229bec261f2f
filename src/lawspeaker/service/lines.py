"""What a line of a post is told when it is sent, beyond legality: an order
for a unit the power does not command (refused), and DP on an order the
rules will ignore (kept, with the reason), so players learn it before the
deadline rather than never. Used by :meth:`lawspeaker.service.entry.OrderEntry.take`."""

from __future__ import annotations

from typing import Any

from ..core.board import PhaseKind, Position, Unit
from ..core.notation import format_order
from ..core.orders import Build, EmbassyOrder, HeirOrder, Order, Waive
from ..core.ruleset import Rules
from ..engine.codec import order_from_dict
from ..rules.dp import Allocation, allocation_problem, ignored_because, is_dp_controlled
from ..store.models import LineRow
from ..variants import Variant

__all__ = ["IGNORED", "foreign_unit", "ignored_allocation", "rejected_allocation"]

IGNORED = "ignored"
"""The status of a DP allocation that stands but, as things stand, counts for
nothing: the order it asks for is illegal, so the rules ignore its DP."""


def _unit_ordered(position: Position, order: Order) -> Unit | None:
    if position.phase.kind is PhaseKind.RETREAT:
        dislodged = position.dislodged.get(order.province)
        return dislodged.unit if dislodged is not None else None
    return position.units.get(order.province)


def foreign_unit(variant: Variant, position: Position, order: Order, power: str) -> str | None:
    """Why ``power`` may not order this unit (or Embassy) at all: it is another
    power's. ``None`` for the power's own units, and for a vassal's retreats and
    adjustments, which its controllers order (S9 §10.5.2)."""
    if isinstance(order, EmbassyOrder):
        owners = sorted(p for p, mine in position.embassies.items()
                        if order.location in mine.values())
        if owners and power not in owners:
            return (f"the Embassy on {order.location} is {' and '.join(owners)}'s: a post "
                    f"for {power} orders only {power}'s Embassies")
        return None
    if isinstance(order, HeirOrder | Build | Waive) or not order.location:
        return None
    unit = _unit_ordered(position, order)
    if unit is None or unit.power == power:
        return None
    name = f"{unit.type.value} {variant.map.name_of(unit.location)}"
    if position.kind_of(unit.power) == "vassal" and power in position.controllers_of(unit.power):
        if position.phase.kind is not PhaseKind.MOVEMENT:
            return None  # S9 §10.5.2: the controllers order its retreats and adjustments
        return variant.cite(f"{name} is {unit.power}'s, a vassal of yours: its orders are "
                            f"set by DP (S9 §9.1 C), e.g. '1 DP to {name} H'")
    if is_dp_controlled(position, unit) and variant.uses("diplomacy_points"):
        return variant.cite(f"{name} is {unit.power}'s, a neutral unit: its orders are set "
                            f"by DP (S9 §9.0), e.g. '1 DP to {name} H'")
    return f"{name} is {unit.power}'s unit: a post for {power} orders only {power}'s units"


def ignored_allocation(variant: Variant, position: Position, allocation: Allocation,
                       rules: Rules) -> str | None:
    """The message for an allocation whose order is illegal: the allocation is
    kept, and will count for nothing unless a later post replaces it."""
    why = ignored_because(variant, position, allocation, rules)
    if why is None:
        return None
    return (f"{why}. The allocation stands and its DP still count against your allotment; "
            "a later allocation to this unit replaces it")


def rejected_allocation(variant: Variant, position: Position, allocation: Allocation,
                        orders: list[Order], others: list[Allocation], rules: Rules
                        ) -> str | None:
    """Why an allocation is refused (not counted, not kept), citing the rule:
    no DP in this variant or phase, the allotment, a cap, Attacking & Allocating."""
    if not variant.uses("diplomacy_points"):
        return f"{variant.title} has no Diplomacy Points"
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return "DP are allocated only in orders phases"
    problem = allocation_problem(variant, position, allocation, orders, others, rules=rules)
    return variant.cite(problem) if problem else None


def _canonical(row: LineRow, game_map: Any) -> str:
    if row.order is None:
        return ""
    text = format_order(order_from_dict(row.order), game_map, long=True)
    return f"{row.points} DP to {text}" if row.kind == "dp" else text
