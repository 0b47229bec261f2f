"""Units on the board (see :mod:`lawspeaker.core.board`).

Their own module, left as Python in the compiled build: ``Unit`` is a named-tuple
subclass, which mypyc cannot compile, and everything else about positions can be
compiled (docs/performance.md).
"""

from __future__ import annotations

from typing import NamedTuple

from .geography import UnitType, province_of

__all__ = ["Unit"]


class _UnitFields(NamedTuple):
    power: str
    type: UnitType
    location: str
    """Province key, or ``province/coast`` for a fleet on a split coast."""
    stationary: bool
    """Never moves: a move is a sortie that always bounces, and it cannot
    retreat (the units of minor and thrall powers, S9 §7.2)."""
    province: str
    """The province of ``location``."""


class Unit(_UnitFields):
    """A unit on the board: ``Unit("France", UnitType.ARMY, "par")``.

    An immutable named tuple, because the resolver creates and compares
    many of them; ``province`` is derived from ``location``.
    """

    __slots__ = ()

    def __new__(cls, power: str, type: UnitType, location: str,
                stationary: bool = False) -> Unit:
        return tuple.__new__(cls, (power, type, location, stationary, province_of(location)))

    def moved_to(self, location: str, province: str) -> Unit:
        """This unit at ``location``, whose province is ``province`` (known to the
        resolver, which so saves working it out again for every move)."""
        return tuple.__new__(Unit, (self.power, self.type, location, self.stationary, province))

    def __getnewargs__(self) -> tuple[str, UnitType, str, bool]:  # type: ignore[override]
        return (self.power, self.type, self.location, self.stationary)

    def __repr__(self) -> str:
        extra = ", stationary=True" if self.stationary else ""
        return f"Unit({self.power!r}, UnitType.{self.type.name}, {self.location!r}{extra})"

    def __str__(self) -> str:
        return f"{self.type.value} {self.location}"
