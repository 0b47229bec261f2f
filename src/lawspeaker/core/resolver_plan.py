"""The resolver's working record of one unit's order (see :mod:`lawspeaker.core.resolver`)."""

from __future__ import annotations

from .board import Unit
from .orders import Order

_HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _CONVOY = range(5)
_UNRESOLVED, _GUESSING, _RESOLVED = range(3)


class _Plan:
    """One unit's order, normalised for the resolver."""

    # Class-level defaults: a plan only stores what differs (it is built for
    # every unit in every phase, so this is measurably faster).
    kind = _HOLD
    dest = ""
    dest_loc = ""
    by_convoy = False
    frm = ""
    to = ""
    coast: str | None = None
    void = ""
    illegal = False
    sortie = False
    path: tuple[str, ...] = ()

    def __init__(self, unit: Unit, order: Order | None) -> None:
        self.unit = unit
        self.order = order
        self.prov = unit.province
        self.power = unit.power
        self.supports: list[_Plan] = []
