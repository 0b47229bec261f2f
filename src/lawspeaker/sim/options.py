"""What a unit may order in a position, worked out once: random play's options.

A unit's legal movement orders (hold, moves, supports, convoys) depend on the map,
the unit, for a support or convoy on the type and place of the one unit it backs,
and on whether wings are on the board (Dissolution §3.3); nothing else in the
position matters. So :class:`Tables` keeps those lists per map, each checked once
with :func:`~lawspeaker.core.legality.movement_problem` (convoys are legal by
construction), and a position only puts together the lists of the units that
stand there. :class:`Board` keeps what
random play asks again about the position it is choosing for (each unit's
options, a neutral unit's options under Cohesion and Prejudice, the units DP
rule, the powers' kinds); positions and maps are immutable, so no answer kept
can go stale.
"""

from __future__ import annotations

from ..core.board import Position, Unit
from ..core.geography import GameMap, UnitType, province_of
from ..core.legality import fleet_seas, movement_problem
from ..core.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from ..rules.dp import is_dp_controlled
from ..rules.neutral_limits import order_problem
from ..variants import Variant

__all__ = ["Board", "Tables", "board_of", "checked_options", "unit_options"]


def unit_options(variant: Variant, position: Position, unit: Unit) -> list[Order]:
    """Every legal movement order for one unit: hold, moves, supports, convoys.

    The options of every unit of the position last asked about are kept (random
    play asks again for the same units when it spends DP), so a repeated question
    is answered from memory; positions are immutable, so the answer cannot change.
    """
    known = board_of(variant, position).options_and_moves(unit)[0]
    return list(known)


class Board:
    """What every unit's options share in one position, worked out once, and the
    answers given about it (positions are immutable, so they cannot change)."""

    def __init__(self, variant: Variant, position: Position) -> None:
        self.variant = variant
        self.position = position
        self.map = variant.map
        self.units = position.units
        self.wings = any(u.type is UnitType.WING for u in self.units.values())
        self.tables = tables_of(variant.map)
        self._seas: set[str] | None = None
        self._options: dict[Unit, tuple[list[Order], list[Order]]] = {}
        self._neutral: dict[Unit, list[Order]] = {}
        self._kinds: dict[str, str] = {}
        self._vassals: list[Unit] | None = None
        self._ruled: list[Unit] | None = None

    @property
    def seas(self) -> set[str]:
        """The provinces whose fleets could convoy (only the slow path needs them)."""
        if self._seas is None:
            self._seas = fleet_seas(self.map, self.units)
        return self._seas

    def options_and_moves(self, unit: Unit) -> tuple[list[Order], list[Order]]:
        """The unit's legal orders, and the moves among them (not to be changed)."""
        known = self._options.get(unit)
        if known is None:
            known = self._options[unit] = _options_of(self, unit)
        return known

    def moves(self, unit: Unit) -> list[Order]:
        """The unit's legal moves (not to be changed)."""
        if self.units.get(unit.province) == unit:
            return self.tables.own_orders(unit, self.wings)[1]
        return self.options_and_moves(unit)[1]

    def kind_of(self, power: str) -> str:
        known = self._kinds.get(power)
        if known is None:
            known = self._kinds[power] = self.position.kind_of(power)
        return known

    def ruled(self) -> list[Unit]:
        """The units DP control (S9 §9.0), by province (not to be changed)."""
        if self._ruled is None:
            position = self.position
            self._ruled = [u for _, u in sorted(position.units.items())
                           if is_dp_controlled(position, u)]
        return self._ruled

    def vassal_units(self) -> list[Unit]:
        """The vassals' units among :meth:`ruled` (S9 §10.5.1)."""
        if self._vassals is None:
            self._vassals = [u for u in self.ruled() if self.kind_of(u.power) == "vassal"]
        return self._vassals

    def neutral_options(self, unit: Unit) -> list[Order]:
        """Legal orders for a neutral unit: its options that also keep Cohesion and
        Prejudice and avoid barred spaces (Dissolution §9, §8.5.4; DP on others
        would be ignored), or Hold (not to be changed)."""
        known = self._neutral.get(unit)
        if known is None:
            variant, position = self.variant, self.position
            known = self.options_and_moves(unit)[0]
            if variant.uses("neutral_limits"):  # else order_problem finds nothing
                known = [o for o in known if order_problem(variant, position, o) is None]
            if not known:
                known = [Hold(unit.power, unit.type, unit.location)]
            self._neutral[unit] = known
        return known


_memo: Board | None = None
"""The position last asked about (random play asks again when it spends DP)."""


def board_of(variant: Variant, position: Position) -> Board:
    """The :class:`Board` of ``position``: the one last asked about, or a new one."""
    global _memo
    memo = _memo
    if memo is None or memo.variant is not variant or memo.position is not position:
        memo = _memo = Board(variant, position)
    return memo


class Tables:
    """A map's candidate orders, kept because the map is immutable.

    Which orders a unit may give depends on the map, on the unit, and for a
    support or convoy on the type and place of the one unit it backs (not on its
    power), and on whether wings are on the board (Dissolution §3.3); the rest of
    the position never matters. So each list is checked once with
    :func:`~lawspeaker.core.legality.movement_problem` (on a board of just those
    units; convoys are legal by construction, see :meth:`convoy_orders`) and
    reused, the same order objects each time.
    """

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.own: dict[tuple[str, UnitType, str, bool], tuple[list[Order], list[Order]]] = {}
        self.reach: dict[tuple[UnitType, str], tuple[frozenset[str], list[str]]] = {}
        self.supports: dict[tuple[str, UnitType, str, UnitType, str, bool], list[Order]] = {}
        self.convoys: dict[tuple[str, str, str], list[Order]] = {}
        self.touching: dict[str, list[str]] = {}

    def legal(self, orders: list[Order], units: dict[str, Unit], wings: bool) -> list[Order]:
        return [o for o in orders
                if movement_problem(self.map, units, o, None, wings=wings) is None]

    def own_orders(self, unit: Unit, wings: bool) -> tuple[list[Order], list[Order]]:
        """The unit's hold and moves, and its moves alone."""
        key = (unit.power, unit.type, unit.location, wings)
        known = self.own.get(key)
        if known is None:
            power, kind, loc = unit.power, unit.type, unit.location
            orders: list[Order] = [Hold(power, kind, loc)]
            orders += [Move(power, kind, loc, target)
                       for target in sorted(self.map.neighbours(kind, loc))]
            orders = self.legal(orders, {unit.province: unit}, wings)
            known = self.own[key] = (orders, [o for o in orders if isinstance(o, Move)])
        return known

    def reachable(self, kind: UnitType, loc: str) -> tuple[frozenset[str], list[str]]:
        """The provinces a unit could support into, as a set and sorted."""
        key = (kind, loc)
        known = self.reach.get(key)
        if known is None:
            reach = self.map.reachable(kind, loc)
            known = self.reach[key] = (reach, sorted(reach))
        return known

    def support_orders(self, unit: Unit, other: Unit, wings: bool) -> list[Order]:
        """``unit``'s supports of ``other``: to hold, and to each move it could make
        into a province ``unit`` could enter (not ``unit``'s own)."""
        key = (unit.power, unit.type, unit.location, other.type, other.location, wings)
        known = self.supports.get(key)
        if known is None:
            power, kind, loc = unit.power, unit.type, unit.location
            reach = self.reachable(kind, loc)[0]
            orders: list[Order] = [SupportHold(power, kind, loc, other.type, other.location)]
            for target in sorted(self.map.neighbours(other.type, other.location)):
                into = province_of(target)
                if into != unit.province and into in reach:
                    orders.append(SupportMove(power, kind, loc, other.type, other.location,
                                              target))
            units = {unit.province: unit, other.province: other}
            known = self.supports[key] = self.legal(orders, units, wings)
        return known

    def convoy_orders(self, fleet: Unit, army: Unit) -> list[Order]:
        """``fleet``'s convoys of ``army`` to every place it could help it reach: the
        coastal provinces with the fleet's space on a minimal convoy route from the
        army's (``GameMap.convoy_destinations``, DATC 6.G.7, 6.G.19).

        ``fleet`` is a fleet on a space that can convoy. Each of these convoys is
        legal by construction, with wings on the board or not (``_convoy_problem``:
        both ends coastal, not the same, the fleet on a minimal route; with wings,
        Dissolution §3.3, only the ends count), so none is checked again; the
        routes come from one search per army's province (``GameMap.convoy_routes_from``).
        """
        key = (fleet.power, fleet.location, army.location)
        known = self.convoys.get(key)
        if known is None:
            routes = self.map.convoy_routes_from(army.province)
            sea = fleet.province
            known = self.convoys[key] = [
                Convoy(fleet.power, fleet.type, fleet.location, army.location, dst)
                for dst in sorted(routes) if sea in routes[dst]]
        return known

    def touching_sorted(self, province: str) -> list[str]:
        known = self.touching.get(province)
        if known is None:
            known = self.touching[province] = sorted(self.map.touching(province))
        return known


_TABLES: dict[int, tuple[GameMap, Tables]] = {}
"""The tables of the maps last played on, by identity (a few; maps are few)."""


def tables_of(game_map: GameMap) -> Tables:
    """The map's :class:`Tables` (a few maps' are kept, by identity)."""
    kept = _TABLES.get(id(game_map))
    if kept is not None and kept[0] is game_map:
        return kept[1]
    if len(_TABLES) >= 8:
        _TABLES.pop(next(iter(list(_TABLES))), None)  # the oldest
    tables = Tables(game_map)
    _TABLES[id(game_map)] = (game_map, tables)
    return tables


def _options_of(board: Board, unit: Unit) -> tuple[list[Order], list[Order]]:
    """The unit's legal orders, and the moves among them."""
    units = board.units
    here = units.get(unit.province)
    if here != unit:  # not this position's unit: check every candidate on the board
        checked = checked_options(board, unit)
        return checked, [o for o in checked if isinstance(o, Move)]
    tables, wings = board.tables, board.wings
    own, moves = tables.own_orders(unit, wings)
    options = list(own)
    for prov in tables.reachable(unit.type, unit.location)[1]:
        other = units.get(prov)
        if other is not None and prov != unit.province:
            options += tables.support_orders(unit, other, wings)
    if unit.type is UnitType.FLEET and board.map.provinces[unit.province].can_convoy:
        for prov in tables.touching_sorted(unit.province):
            army = units.get(prov)
            if army is not None and army.type is UnitType.ARMY:
                options += tables.convoy_orders(unit, army)
    return options, moves


def checked_options(board: Board, unit: Unit) -> list[Order]:
    """Every candidate order of ``unit``, each checked against the whole board."""
    game_map = board.map
    units = board.units
    options: list[Order] = [Hold(unit.power, unit.type, unit.location)]
    for target in sorted(game_map.neighbours(unit.type, unit.location)):
        options.append(Move(unit.power, unit.type, unit.location, target))
    reach = game_map.reachable(unit.type, unit.location)
    for prov in sorted(reach):  # in the order of the units' provinces, as before
        other = units.get(prov)
        if other is None or other is unit:
            continue
        options.append(SupportHold(unit.power, unit.type, unit.location, other.type,
                                   other.location))
        for target in sorted(game_map.neighbours(other.type, other.location)):
            into = province_of(target)
            if into != unit.province and into in reach:
                options.append(SupportMove(unit.power, unit.type, unit.location, other.type,
                                           other.location, target))
    if unit.type is UnitType.FLEET and game_map.provinces[unit.province].can_convoy:
        for prov in sorted(game_map.touching(unit.province)):
            army = units.get(prov)
            if army is not None and army.type is UnitType.ARMY:
                for dst in game_map.convoy_destinations(prov, unit.province):
                    options.append(Convoy(unit.power, unit.type, unit.location,
                                          army.location, dst))
    return [o for o in options
            if movement_problem(game_map, units, o, board.seas, wings=board.wings) is None]
