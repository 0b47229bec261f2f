"""How the tactician values a board: centres, and how close each unit is to
centres worth taking.

* :func:`distances` — for each unit type, the number of moves from every
  location to every supply centre (breadth-first over the map's adjacency,
  computed once per map and unit type);
* :class:`Valuation` — one power's view of one position: what each centre is
  worth to it (centres it does not control; its own when an enemy stands
  next to them), a unit's *potential* at a location (the centres within reach,
  nearer ones worth more), and :meth:`Valuation.score` of a position after
  adjudication, which the tactician maximises.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from ...core.board import Position
from ...core.geography import GameMap, UnitType
from ...rules.census import centre_counts
from ...variants import Variant

__all__ = ["Valuation", "distances"]

DECAY = 0.55
"""A centre one move further away is worth this much as much."""
FAR = 99


_TABLES: dict[tuple[int, UnitType], tuple[GameMap, Mapping[str, Mapping[str, int]]]] = {}


def _distances(game_map: GameMap, unit_type: UnitType) -> Mapping[str, Mapping[str, int]]:
    key = (id(game_map), unit_type)
    kept = _TABLES.get(key)
    if kept is not None and kept[0] is game_map:
        return kept[1]
    out: dict[str, dict[str, int]] = {}
    for prov, province in sorted(game_map.provinces.items()):
        if not province.is_sc:
            continue
        starts = [loc for loc in (prov, *province.locations)
                  if game_map.is_valid_location(unit_type, loc)]
        seen = {loc: 0 for loc in starts}
        queue = deque(starts)
        while queue:
            here = queue.popleft()
            for there in game_map.neighbours(unit_type, here):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        out[prov] = seen
    _TABLES[key] = (game_map, out)  # the map is kept, so its id is never reused
    return out


def distances(variant: Variant, unit_type: UnitType) -> Mapping[str, Mapping[str, int]]:
    """``distances(v, t)[centre][location]``: moves for a unit of type ``t``
    from ``location`` to ``centre`` (absent when it cannot get there)."""
    return _distances(variant.map, unit_type)


class Valuation:
    """``power``'s view of ``position`` (see the module's docstring)."""

    def __init__(self, variant: Variant, position: Position, power: str) -> None:
        self.variant = variant
        self.power = power
        self.mine = self._mine(position)
        provinces = variant.map.provinces
        threatened = self._threatened(position)
        self.worth: dict[str, float] = {}
        for prov, province in provinces.items():
            if not province.is_sc:
                continue
            owner = position.owners.get(prov)
            if owner not in self.mine:
                self.worth[prov] = float(province.sc_value)
            elif prov in threatened:
                self.worth[prov] = 0.5 * province.sc_value
        self._cache: dict[tuple[UnitType, str], float] = {}

    def _mine(self, position: Position) -> frozenset[str]:
        """The power and the thralls and vassals it controls, whose centres count for it
        (S9 §3.2)."""
        out = {self.power}
        for name, state in position.powers_in_play.items():
            if state.kind in ("thrall", "vassal") and self.power in state.controllers:
                out.add(name)
        return frozenset(out)

    def _threatened(self, position: Position) -> set[str]:
        game_map = self.variant.map
        out = set()
        for unit in position.units.values():
            if unit.power in self.mine or unit.stationary:
                continue
            for loc in game_map.neighbours(unit.type, unit.location):
                out.add(loc.split("/")[0])
        return out

    def potential(self, unit_type: UnitType, location: str) -> float:
        """What being at ``location`` is worth to a unit of ``unit_type``: the best
        centre within reach, discounted by distance, plus a little for the rest."""
        key = (unit_type, location)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        table = distances(self.variant, unit_type)
        best = total = 0.0
        for prov, worth in self.worth.items():
            d = table[prov].get(location, FAR)
            if d >= FAR:
                continue
            value = worth * DECAY ** d
            best = max(best, value)
            total += value
        self._cache[key] = result = best + 0.1 * total
        return result

    def score(self, position: Position) -> float:
        """How good ``position`` (after an adjudication) is for the power: its centres
        most, then centres its units stand on, its units, and their potential."""
        provinces = self.variant.map.provinces
        value = 10.0 * centre_counts(self.variant, position).get(self.power, 0)
        for prov, unit in position.units.items():
            sc = provinces[prov].sc_value
            owner = position.owners.get(prov)
            if unit.power == self.power:
                value += 1.0 + 2.0 * self.potential(unit.type, unit.location)
                if sc and owner not in self.mine:
                    value += 4.0 * sc  # taken at the next Census (S9 §2.1)
            elif sc and owner in self.mine and not unit.stationary:
                value -= 4.0 * sc
        for dislodged in position.dislodged.values():
            if dislodged.unit.power == self.power:
                value -= 2.0
        return value
