"""The resolver's working record of one unit's order (see :mod:`lawspeaker.core.resolver`):
what the order asks, normalised, read from the unit and its order by the constructor."""

from __future__ import annotations

from .board import Unit
from .geography import GameMap, UnitType
from .legality import move_destination
from .orders import Convoy, Hold, Marry, Move, Order, SupportHold, SupportMove

_HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _CONVOY = range(5)
_OTHER = 5
"""Not an order for a movement phase: :func:`~lawspeaker.core.legality.movement_problem`
says why, and the unit holds."""
_UNRESOLVED, _GUESSING, _RESOLVED = range(3)

_FLEET = UnitType.FLEET  # read once, not per plan


class _Plan:
    """One unit's order, normalised for the resolver."""

    # Slots, every one set at once: a plan is built for every unit in every phase and
    # read many times while deciding, and slot reads are the fastest Python has.
    __slots__ = ("by_convoy", "coast", "dest", "dest_loc", "frm", "illegal", "kind", "ok",
                 "order", "path", "power", "prov", "sortie", "state", "supports", "to", "unit",
                 "void")

    def __init__(self, game_map: GameMap, unit: Unit, order: Order | None) -> None:
        """The plan of ``unit`` given ``order``, or none (it holds). The order is taken
        as given; whether it is legal is the resolver's question (step 1), asked before
        the plan is used. One constructor, with no helper to call, because a plan is made
        for every unit of every phase (issue 20)."""
        self.unit = unit
        self.order = order
        self.prov = unit.province
        self.power = unit.power
        self.supports: list[_Plan] = []
        self.state = _UNRESOLVED
        # The decision on this order (the resolver's step 3), kept on the plan itself:
        # read and written on every look-up of the recursion.
        self.ok = False
        """The decision: the move succeeds; the support or convoy is given (not cut or
        dislodged); a hold stands."""
        self.by_convoy = self.illegal = self.sortie = False
        self.void = self.frm = self.to = ""
        self.coast: str | None = None
        self.path: tuple[str, ...] = ()
        cls = type(order)
        if cls is Move:
            move: Move = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _MOVE
            dest = self.dest = move.target_province
            if unit.type is _FLEET:  # armies, and wings, ignore coasts
                target = move.target  # an exact location the fleet borders, or one to settle
                self.dest_loc = target if target in game_map.fleet_links[unit.location] \
                    else move_destination(game_map, unit, target) or target
            else:
                self.dest_loc = dest
            if move.via_convoy or move.path:
                self.by_convoy = True
                self.path = move.path
            if unit.stationary:
                self.sortie = True
            return
        self.dest = self.dest_loc = ""
        if cls is SupportMove:
            sm: SupportMove = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _SUP_MOVE
            self.frm = sm.supported_province
            to = self.to = sm.target_province
            if sm.target != to:
                self.coast = sm.target
        elif cls is SupportHold:
            sh: SupportHold = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _SUP_HOLD
            self.frm = self.to = sh.supported_province
        elif order is None or cls is Hold or cls is Marry:  # in combat a Marry is a Hold
            self.kind = _HOLD  # (S9 §9.1 A)
        elif cls is Convoy:
            cv: Convoy = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _CONVOY
            self.frm = cv.army_province
            self.to = cv.target_province
        else:
            self.kind = _OTHER
