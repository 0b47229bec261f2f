"""The resolver's working record of one unit's order (see :mod:`lawspeaker.core.resolver`)."""

from __future__ import annotations

from .board import Unit
from .orders import Order

_HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _CONVOY = range(5)
_UNRESOLVED, _GUESSING, _RESOLVED = range(3)


class _Plan:
    """One unit's order, normalised for the resolver."""

    # Slots, every one set at once: a plan is built for every unit in every phase and
    # read many times while deciding, and slot reads are the fastest Python has.
    __slots__ = ("by_convoy", "coast", "dest", "dest_loc", "frm", "illegal", "kind", "order",
                 "path", "power", "prov", "sortie", "supports", "to", "unit", "void")

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
