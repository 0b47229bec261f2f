"""The resolver's working record of one unit's order (see :mod:`lawspeaker.core.resolver`):
what the order asks, normalised, read from the unit and its order by the constructor."""

from __future__ import annotations

from typing import Final

from .board import Unit
from .geography import GameMap, UnitType
from .legality import move_destination
from .orders import Convoy, Hold, Marry, Move, Order, SupportHold, SupportMove

# Final constants: the compiled build reads them as numbers, not as module globals.
_HOLD: Final = 0
_MOVE: Final = 1
_SUP_HOLD: Final = 2
_SUP_MOVE: Final = 3
_CONVOY: Final = 4
_OTHER: Final = 5
"""Not an order for a movement phase: :func:`~lawspeaker.core.legality.movement_problem`
says why, and the unit holds."""
_UNRESOLVED: Final = 0
_GUESSING: Final = 1
_RESOLVED: Final = 2

_ARMY: Final = UnitType.ARMY  # read once, not per plan
_FLEET: Final = UnitType.FLEET


class _Void:
    """Why a support or convoy is void because of what another unit does, put in words
    (``Void: A Paris does not move to Burgundy``) only when read: most never are, and
    naming units was a tenth of matching the orders. ``str()`` gives it."""

    __slots__ = ("map", "place", "text", "unit")

    def __init__(self, game_map: GameMap, text: str, unit: Unit | None, place: str = "") -> None:
        self.map = game_map
        self.text = text
        """The words, with ``{unit}`` and ``{place}`` where the names go."""
        self.unit = unit
        self.place = place

    def __str__(self) -> str:
        name = self.map.name_of
        unit = self.unit
        return self.text.format(
            unit=f"{unit.type.value} {name(unit.location)}" if unit is not None else "",
            place=name(self.place) if self.place else "")

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class _Plan:
    """One unit's order, normalised for the resolver."""

    # Slots, every one set at once: a plan is built for every unit in every phase and
    # read many times while deciding, and slot reads are the fastest Python has.
    __slots__ = ("by_convoy", "coast", "dest", "dest_loc", "frm", "illegal", "kind",
                 "misnamed", "ok", "order", "path", "plain", "power", "prov", "sortie",
                 "state", "supports", "to", "unit", "void")

    def __init__(self, game_map: GameMap, unit: Unit, order: Order | None,
                 units: dict[str, Unit]) -> None:
        """The plan of ``unit`` given ``order``, or none (it holds), on the board
        ``units``. One constructor, with no helper to call, because a plan is made for
        every unit of every phase."""
        self.unit = unit
        self.order = order
        # A unit is a named tuple: one unpacking reads it quicker than five attributes
        # (and, compiled, than five look-ups on a class that stays Python).
        power, utype, location, stationary, prov = unit
        self.prov = prov
        self.power = power
        self.supports: tuple[_Plan, ...] | list[_Plan] = ()
        """The supports that match this order: a list once there is one (most plans have
        none, and an empty tuple costs nothing to make or free)."""
        self.state = _UNRESOLVED
        # The decision on this order (the resolver's step 3), kept on the plan itself:
        # read and written on every look-up of the recursion.
        self.ok = False
        """The decision: the move succeeds; the support or convoy is given (not cut or
        dislodged); a hold stands."""
        self.by_convoy = self.illegal = self.sortie = False
        self.void: str | _Void = ""
        """Why the order is void (or illegal, with ``illegal``), when it is."""
        self.frm = self.to = ""
        self.coast: str | None = None
        self.path: tuple[str, ...] = ()
        # Whether the order is legal by one of the common cases, seen while it is planned:
        # a hold; a plain move to a neighbour; a support, into a space the unit could
        # enter, of a hold or of a unit that could itself move there. The same cases come
        # first in legality.movement_problem (tests check that the two agree), which the
        # resolver asks about every other order (step 1).
        self.plain = False
        named = order.unit_type if order is not None else None
        self.misnamed = named is not None and named is not utype
        """The order names the unit by the wrong type: it is the unit's order all the
        same (DATC 4.C.2), and the results say so."""
        cls = type(order)
        if cls is Move:
            move: Move = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _MOVE
            dest = self.dest = move.target_province
            if move.via_convoy or move.path:
                self.by_convoy = True
                self.path = move.path
            if utype is _FLEET:  # armies, and wings, ignore coasts
                target = move.target  # an exact location the fleet borders, or one to settle
                if target in game_map.fleet_links[location]:
                    self.dest_loc = target
                    self.plain = not self.by_convoy
                else:
                    self.dest_loc = move_destination(game_map, unit, target) or target
            else:
                self.dest_loc = dest
                self.plain = utype is _ARMY and not self.by_convoy \
                    and dest in game_map.army_links[prov]
            if stationary:
                self.sortie = True
            return
        self.dest = self.dest_loc = ""
        if cls is SupportMove:
            sm: SupportMove = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _SUP_MOVE
            frm = self.frm = sm.supported_province
            to = self.to = sm.target_province
            if sm.target != to:
                self.coast = sm.target
            if utype is _FLEET or utype is _ARMY:  # a wing's reach depends on the rules
                supported = units.get(frm)
                self.plain = supported is not None and frm != to and frm != prov \
                    and to != prov and to in game_map.reachable(utype, location) \
                    and (supported.type is not _ARMY or to in game_map.army_links[frm])
        elif cls is SupportHold:
            sh: SupportHold = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _SUP_HOLD
            frm = self.frm = self.to = sh.supported_province
            self.plain = (utype is _FLEET or utype is _ARMY) and frm != prov \
                and frm in game_map.reachable(utype, location)
        elif order is None or cls is Hold or cls is Marry:  # in combat a Marry is a Hold
            self.kind = _HOLD  # (S9 §9.1 A)
            self.plain = True
            self.ok, self.state = True, _RESOLVED  # a hold has no decision of its own
        elif cls is Convoy:
            cv: Convoy = order  # type: ignore[assignment]  # (no cost, unlike a check)
            self.kind = _CONVOY
            self.frm = cv.army_province
            self.to = cv.target_province
        else:
            self.kind = _OTHER

    def add_support(self, support: _Plan) -> None:
        """Count ``support`` for this order (it matches what this unit does)."""
        supports = self.supports
        if supports:
            supports.append(support)  # type: ignore[union-attr]  # a list once not empty
        else:
            self.supports = [support]
