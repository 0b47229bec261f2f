"""Is an order legal? The checks players want before the deadline.

Each check answers with ``None`` (legal) or the reason it is not, worded for
the player. The resolver uses the same checks, so what a player is told when
submitting is exactly what the adjudication does: an illegal order is kept,
reported with this reason, and the unit holds (DATC 4.E.1).

Coast handling follows the DATC preferences: a fleet moving to a split-coast
province without naming a coast goes to the only coast it can reach, and is
illegal if it could reach both (4.B.1, 4.B.2); a coast it cannot reach makes
the move illegal (4.B.3); a coast given for a province without coasts, or for
an army, is ignored (4.B.6, DATC 6.B.12).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .board import Unit
from .convoys import carrier_is_wing, find_chain, path_problem
from .geography import GameMap, Terrain, UnitType, province_of
from .orders import Convoy, Hold, Marry, Move, Order, SupportHold, SupportMove

__all__ = [
    "fleet_seas",
    "move_destination",
    "movement_problem",
]

_ARMY: Final = UnitType.ARMY  # read once, not per use
_FLEET: Final = UnitType.FLEET
_WING: Final = UnitType.WING
_SEA: Final = Terrain.SEA
_COASTAL: Final = Terrain.COASTAL
_IMPASSABLE: Final = Terrain.IMPASSABLE


def move_destination(game_map: GameMap, unit: Unit, target: str) -> str | None:
    """Where a move by ``unit`` to ``target`` (as written) actually goes.

    Returns the location (with coast for a fleet into a split-coast
    province), or ``None`` when the coast cannot be settled.
    """
    province = province_of(target)
    if unit.type is _ARMY:
        return province
    prov = game_map.provinces[province]
    if not prov.coasts:
        return province
    options = game_map.fleet_targets(unit.location, province)
    if target != province:
        return target if target in options else None
    return options[0] if len(options) == 1 else None


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def fleet_seas(game_map: GameMap, units: Mapping[str, Unit]) -> set[str]:
    """Provinces where a fleet stands and could convoy."""
    seas = game_map.convoy_spaces
    return {p for p, u in units.items() if u.type is _FLEET and p in seas}


def _fleet_seas(units: Mapping[str, Unit]) -> set[str]:
    return {p for p, u in units.items() if u.type is _FLEET}


def movement_problem(game_map: GameMap, units: Mapping[str, Unit], order: Order,
                     fleet_seas: set[str] | None = None,
                     explicit_paths: bool = False, wings: bool | None = None,
                     wing_anywhere: bool = False) -> str | None:
    """Why a movement-phase order is illegal, or ``None`` if it is legal.

    ``units`` maps province keys to the units on the board. A support or
    convoy of a unit that is not there, or that does something else, is not
    illegal: it is void, which the resolver reports. ``fleet_seas``, the
    provinces holding fleets, may be passed when checking many orders.
    ``explicit_paths`` (rules option ``convoy_paths: explicit``, Dissolution
    §3.10.1): an army that needs a convoy must state its path. ``wings``:
    whether any wing is on the board (computed when not given).
    ``wing_anywhere`` (rules option ``wing_support: anywhere``, Dissolution §3.1's
    "Unlimited"): a wing may support into any space, bordering or not.
    """
    unit = units.get(order.province)
    if unit is None:
        return f"there is no unit in {game_map.name_of(order.province)}"
    if order.power and unit.power != order.power:
        return f"the unit in {game_map.name_of(order.province)} belongs to {unit.power}"
    cls = type(order)
    if cls is Hold or cls is Marry:  # in combat a Marry is a Hold (S9 §9.1 A)
        return None
    if isinstance(order, Move):
        if not order.via_convoy and not order.path:
            # The common cases first, for speed: a plain move to a neighbour.
            if unit.type is _ARMY:
                if order.target_province in game_map.army_links[unit.location]:
                    return None
            elif unit.type is _WING:
                if order.target_province in game_map.touching(unit.province):
                    return None  # Dissolution §3.1, §3.7: a wing's move is a sortie
            elif order.target in game_map.fleet_links[unit.location]:
                return None
        return _move_problem(game_map, units, unit, order, fleet_seas, explicit_paths, wings)
    if isinstance(order, SupportHold):
        return _support_problem(game_map, units, unit, order.supported_province,
                                order.supported_province, fleet_seas, explicit_paths, wings,
                                wing_anywhere)
    if isinstance(order, SupportMove):
        return _support_problem(game_map, units, unit, order.supported_province,
                                order.target_province, fleet_seas, explicit_paths, wings,
                                wing_anywhere)
    if isinstance(order, Convoy):
        return _convoy_problem(game_map, unit, order,
                               explicit_paths or _has_wings(units, wings))
    return f"'{order}' is not an order for a movement phase"


def _has_wings(units: Mapping[str, Unit], known: bool | None = None) -> bool:
    if known is not None:
        return known
    return any(u.type is _WING for u in units.values())


def _carriers(game_map: GameMap, units: Mapping[str, Unit]) -> dict[str, bool]:
    """Units that could convoy: fleets on open sea, and wings (Dissolution §3.3)."""
    provs = game_map.provinces
    return {p: u.type is _WING for p, u in units.items()
            if u.type is _WING or (u.type is _FLEET and provs[p].can_convoy)}


def _move_problem(game_map: GameMap, units: Mapping[str, Unit], unit: Unit,
                  order: Move, fleet_seas: set[str] | None,
                  explicit_paths: bool = False, wings: bool | None = None) -> str | None:
    src = unit.province
    dst = order.target_province
    name = game_map.name_of
    if dst == src:
        return "a unit cannot move to the space it is in"
    target = game_map.provinces[dst]
    if target.terrain is _IMPASSABLE:
        return f"{target.name} is impassable"
    if unit.type is _WING:
        if order.via_convoy or order.path:
            return "only armies can be convoyed"
        if dst not in game_map.touching(src):
            return f"a wing in {name(src)} cannot reach {target.name}"
        return None
    if unit.type is _FLEET:
        if order.via_convoy or order.path:
            return "only armies can be convoyed"
        if not game_map.reaches(_FLEET, unit.location, dst):
            return f"a fleet in {name(unit.location)} cannot reach {target.name}"
        if move_destination(game_map, unit, order.target) is None:
            if order.target == dst:
                return f"say which coast of {target.name} the fleet moves to"
            return f"a fleet in {name(unit.location)} cannot reach {name(order.target)}"
        return None
    if target.terrain is _SEA:
        return "an army cannot move to a sea space"
    if order.path and (explicit_paths or _has_wings(units, wings)):
        return path_problem(game_map, units, src, order.path, dst)
    if game_map.can_move(_ARMY, src, dst):
        return None
    if explicit_paths:
        return _unstated_path(game_map, units, src, dst)
    if _has_wings(units, wings):
        if find_chain(game_map, _carriers(game_map, units), src, dst,
                      dst_wing=carrier_is_wing(units, dst)):
            return None  # Dissolution §3.3: wings carry armies across any terrain
        return f"{target.name} is not adjacent to {name(src)} and no convoy could reach it"
    if game_map.convoy_path_exists(src, dst, fleet_seas if fleet_seas is not None
                                   else _fleet_seas(units)):
        return None  # (asked first: a chain of the fleets there is a chain of the map's)
    if not game_map.convoy_path_exists(src, dst):
        return f"{target.name} is not adjacent to {name(src)} and no convoy could reach it"
    # Impossible in this position, though possible in others (DATC 6.D.32).
    return f"no chain of fleets could convoy it from {name(src)} to {target.name}"


def _unstated_path(game_map: GameMap, units: Mapping[str, Unit], src: str,
                   dst: str) -> str:
    """Why an army's move to a space it does not border, with no path, is illegal.

    Dissolution §3.10.1: "convoy paths must be provided as part of the convoyed
    Army's move order", so the move is illegal either way; the reason tells the
    player what to write instead, or that no convoy could carry the army at all
    (say ``A Clu - Ode``: "Odessa is *not* adjacent to Cluj", §6.3.1, and no
    fleet or wing stands between them). A missing chain must never be taken for
    an empty one: the order reaches here from any text a player can submit.
    """
    there, here = game_map.provinces[dst].name, game_map.name_of(src)
    chain = find_chain(game_map, _carriers(game_map, units), src, dst,
                       dst_wing=carrier_is_wing(units, dst))
    if chain is None:
        return (f"{there} is not adjacent to {here}, and no chain of fleets or wings on the "
                "board could convoy an army there (Dissolution §3.10)")
    hops = [p.capitalize() for p in (src, *chain, dst)]  # as the rulebook writes them
    return (f"{there} is not adjacent to {here}: a convoyed army must state its path, naming "
            f"each convoying space in order, like '{' - '.join(['A ' + hops[0], *hops[1:]])}' "
            "(Dissolution §3.10.1)")


def _support_problem(game_map: GameMap, units: Mapping[str, Unit], unit: Unit,
                     supported: str, into: str, fleet_seas: set[str] | None,
                     explicit_paths: bool = False, wings: bool | None = None,
                     wing_anywhere: bool = False) -> str | None:
    army = units.get(supported)
    # Dissolution §3.1 "Unlimited", read literally (wing_support: anywhere)
    reach = wing_anywhere and unit.type is _WING
    if (army is not None and supported != into and supported != unit.province
            and into != unit.province
            and (reach or into in game_map.reachable(unit.type, unit.location))
            and (army.type is not _ARMY or into in game_map.army_links[supported])):
        return None  # the common case, checked first for speed
    if supported == unit.province:
        return "a unit cannot support itself"
    if into == unit.province:
        return "a unit cannot support a move into its own space"
    if not reach and not game_map.reaches(unit.type, unit.location, into):
        return (f"{_a(unit.type.noun)} in {game_map.name_of(unit.location)} cannot reach "
                f"{game_map.provinces[into].name}, so cannot support there")
    if (army is not None and army.type is _ARMY and supported != into
            and not game_map.can_move(_ARMY, supported, into)
            and not explicit_paths and not _has_wings(units, wings)):
        seas = fleet_seas if fleet_seas is not None else _fleet_seas(units)
        where = game_map.provinces[into].name
        named = f"{army.type.value} {game_map.name_of(army.location)}"
        if not game_map.convoy_path_exists(supported, into, seas):
            return f"{named} cannot reach {where}, even by convoy"
        if not game_map.convoy_path_exists(supported, into, seas, avoid=unit.province):
            # The only convoy would need this very fleet (DATC 6.D.31).
            return f"{named} could reach {where} only by a convoy this unit would have to give"
    return None


def _convoy_problem(game_map: GameMap, unit: Unit, order: Convoy,
                    wide: bool = False) -> str | None:
    """``wide``: wings are on the board or paths are explicit, so a chain may
    cross land (Dissolution §3.3) and the army's own path settles the route."""
    if unit.type is _WING:
        wide = True  # Dissolution §3.3 (4): a wing convoys across any terrain
    elif unit.type is not _FLEET:
        return "only fleets and wings can convoy" if wide else "only fleets can convoy"
    elif not game_map.provinces[unit.province].can_convoy:
        return f"a fleet in {game_map.name_of(unit.location)} cannot convoy (not open sea)"
    src, dst = order.army_province, order.target_province
    if wide:
        for p in (src, dst):
            if game_map.provinces[p].terrain is _SEA:
                return f"an army cannot be convoyed from or to {game_map.provinces[p].name}"
        return "a convoy must go somewhere else" if src == dst else None
    for p in (src, dst):
        if game_map.provinces[p].terrain is not _COASTAL:
            return f"an army cannot be convoyed from or to {game_map.provinces[p].name}"
    if src == dst:
        return "a convoy must go somewhere else"
    if unit.province not in game_map.convoy_route_seas(src, dst):
        # Never needed for any convoy route (DATC 6.G.7, 6.G.19).
        return (f"a fleet in {game_map.name_of(unit.location)} is on no convoy route from "
                f"{game_map.provinces[src].name} to {game_map.provinces[dst].name}")
    return None
