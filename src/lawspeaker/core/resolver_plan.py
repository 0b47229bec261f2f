"""The resolver's working record of one unit's order (see :mod:`lawspeaker.core.resolver`):
what the order asks, normalised, which :func:`plan_for` reads from the unit and its order."""

from __future__ import annotations

from .board import Unit
from .geography import GameMap, UnitType
from .legality import move_destination
from .orders import Convoy, Hold, Move, Order, SupportHold, SupportMove

_HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _CONVOY = range(5)
_UNRESOLVED, _GUESSING, _RESOLVED = range(3)


class _Plan:
    """One unit's order, normalised for the resolver."""

    # Slots, every one set at once: a plan is built for every unit in every phase and
    # read many times while deciding, and slot reads are the fastest Python has.
    __slots__ = ("by_convoy", "coast", "dest", "dest_loc", "frm", "illegal", "kind", "ok",
                 "order", "path", "power", "prov", "sortie", "state", "supports", "to", "unit",
                 "void")

    def __init__(self, unit: Unit, order: Order | None) -> None:
        self.unit = unit
        self.order = order
        self.prov = unit.province
        self.power = unit.power
        self.supports: list[_Plan] = []
        self.kind = _HOLD
        self.dest = ""
        self.dest_loc = ""
        self.by_convoy = False
        self.frm = ""
        self.to = ""
        self.coast: str | None = None
        self.void = ""
        self.illegal = False
        self.sortie = False
        self.path: tuple[str, ...] = ()
        # The decision on this order (the resolver's step 3), kept on the plan itself:
        # read and written on every look-up of the recursion, and an attribute is
        # quicker than a table keyed by the province's name (issue 20).
        self.state = _UNRESOLVED
        """Whether ``ok`` is unresolved, a guess inside a cycle, or resolved."""
        self.ok = False
        """The decision: the move succeeds; the support or convoy is given (not cut or
        dislodged); a hold stands."""


_FLEET = UnitType.FLEET  # read once, not per plan


def plan_for(game_map: GameMap, unit: Unit, order: Order | None) -> _Plan:
    """The plan of a unit given a legal ``order``, or none (it holds)."""
    plan = _Plan(unit, order)
    if order is None or type(order) is Hold:
        return plan
    if isinstance(order, Move):
        plan.kind = _MOVE
        plan.dest = plan.dest_loc = order.target_province
        if unit.type is _FLEET:  # armies, and wings, ignore coasts
            target = order.target  # an exact location the fleet borders, or one to settle
            plan.dest_loc = target if target in game_map.fleet_links[unit.location] \
                else move_destination(game_map, unit, target) or target
        if order.via_convoy or order.path:
            plan.by_convoy = True
            plan.path = order.path
        if unit.stationary:
            plan.sortie = True
    elif isinstance(order, SupportHold):
        plan.kind = _SUP_HOLD
        plan.frm = plan.to = order.supported_province
    elif isinstance(order, SupportMove):
        plan.kind = _SUP_MOVE
        plan.frm = order.supported_province
        plan.to = order.target_province
        if order.target != plan.to:
            plan.coast = order.target
    elif isinstance(order, Convoy):
        plan.kind = _CONVOY
        plan.frm = order.army_province
        plan.to = order.target_province
    return plan
