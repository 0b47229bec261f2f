"""Starting units as a variant file writes them (``A par``, ``F stp/sc``, ``W asw``).

Both the powers' units and the nuclear powers' units (Dissolution §8) are read
here, by one :class:`UnitReader` per folder, because it remembers the first wing
it met: wings need the ``wings`` component, and that can only be checked once the
components are read, after the units.
"""

from __future__ import annotations

from ..core.board import Unit
from ..core.geography import GameMap, UnitType
from .loader_yaml import Reader

__all__ = ["UnitReader"]


class UnitReader:
    """Reads starting units on one map, reporting through the folder's reader."""

    def __init__(self, reader: Reader, game_map: GameMap) -> None:
        self.reader = reader
        self.map = game_map
        self.wings_used: int | None = None
        """Line of the first starting wing, when there is one (-1: line unknown)."""

    def parse(self, f: str, line: int | None, power: str, text: str,
              stationary: bool = False) -> Unit | None:
        parts = text.split()
        if len(parts) != 2 or parts[0].upper() not in ("A", "F", "W"):
            self.reader.problem(f, line, f"{power}: unit '{text}' must look like 'A par' or "
                                "'F stp/sc' (or 'W asw' with wings)")
            return None
        utype = UnitType(parts[0].upper())
        if utype is UnitType.WING:
            self.wings_used = self.wings_used or line or -1
            stationary = True  # Dissolution §3.3 (1): wings are stationary units
        unit = Unit(power, utype, parts[1].lower(), stationary)
        if not self.map.is_valid_location(unit.type, unit.location):
            article = "an" if unit.type is UnitType.ARMY else "a"
            self.reader.problem(f, line, f"{power}: {article} {unit.type.noun} cannot stand at "
                                f"'{unit.location}'")
            return None
        return unit
