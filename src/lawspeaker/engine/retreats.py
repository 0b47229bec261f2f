"""The retreat phase.

A dislodged unit may retreat to an adjacent space it could move to that is
empty, was not left vacant by a standoff, and is not where its attacker came
from overland (a unit dislodged by a convoyed attack may retreat there: 2023
rulebook, DATC 4.A.5). No supports or convoys are given (DATC 6.H.1-6.H.4).
Two or more retreats to one space all fail and those units are disbanded
(DATC 6.H.7); a unit without a legal retreat order is disbanded.

A vassal's dislodged unit may be ordered by either controller; when both
order it, a legal order beats an illegal one, then the dowry receiver's
order wins (S9 §10.5.2). Stationary units never retreat (S9 §7.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..core.board import Dislodged, Position, Unit, thawed
from ..core.geography import GameMap, Terrain, UnitType
from ..core.legality import move_destination
from ..core.orders import Disband, Order, Retreat
from ..core.results import OrderResult, Outcome
from ..rules.favor import closed_territory
from ..variants import Variant

__all__ = ["RetreatResult", "resolve_retreats", "retreat_options"]


@dataclass(frozen=True)
class RetreatResult:
    results: tuple[OrderResult, ...]
    units: dict[str, Unit]
    """Province -> unit after the retreats."""


def retreat_options(variant: Variant, position: Position, dislodged: Dislodged) -> list[str]:
    """Every location the dislodged unit may legally retreat to."""
    game_map = variant.map
    unit = dislodged.unit
    if unit.stationary:
        return []
    out = []
    closed = closed_territory(variant, position, unit.power)
    for loc in sorted(game_map.neighbours(unit.type, unit.location)):
        if _retreat_problem(game_map, position, dislodged, loc, closed) is None:
            out.append(loc)
    return out


def _retreat_problem(game_map: GameMap, position: Position, dislodged: Dislodged,
                     target: str, closed: Mapping[str, str] | None = None) -> str | None:
    unit = dislodged.unit
    dest = move_destination(game_map, unit, target)
    province = game_map.provinces[target.split("/")[0]]
    if dest is None or not game_map.can_move(unit.type, unit.location, dest):
        if unit.type is UnitType.FLEET and game_map.reaches(unit.type, unit.location,
                                                            province.key):
            return f"say which coast of {province.name} the fleet retreats to"
        return f"{province.name} is not adjacent"
    if province.terrain is Terrain.IMPASSABLE:
        return f"{province.name} is impassable"
    if province.key in position.units:
        return f"{province.name} is occupied"
    if province.key == dislodged.attacker_from:
        return f"the attacker came from {province.name}"
    if province.key in position.standoffs:
        return f"{province.name} was left vacant by a standoff"
    if closed and province.key in closed:
        return (f"{unit.power} has zero Favor with {closed[province.key]}, so may not retreat "
                "into its territory (Dissolution §11.4.2)")
    return None


def _controller_preference(game_map: GameMap, position: Position, orders: list[Order]
                           ) -> tuple[list[Order], list[OrderResult]]:
    """S9 §10.5.2: when both controllers order one vassal unit, keep one's."""
    by_unit: dict[str, dict[str, list[Order]]] = {}
    kept: list[Order] = []
    for order in orders:
        dislodged = position.dislodged.get(order.province)
        owner = dislodged.unit.power if dislodged else ""
        if position.kind_of(owner) == "vassal" and order.power in position.controllers_of(owner):
            by_unit.setdefault(order.province, {}).setdefault(order.power, []).append(order)
        else:
            kept.append(order)
    overridden: list[OrderResult] = []
    for prov, by_power in by_unit.items():
        dislodged = position.dislodged[prov]
        if len(by_power) > 1:
            receiver = position.controllers_of(dislodged.unit.power)[-1]

            def legal(order: Order, dislodged: Dislodged = dislodged) -> bool:
                if isinstance(order, Retreat):
                    return _retreat_problem(game_map, position, dislodged, order.target) is None
                return isinstance(order, Disband)

            winner = max(by_power, key=lambda p: (all(map(legal, by_power[p])), p == receiver))
            for power, given in by_power.items():
                if power != winner:
                    overridden.extend(OrderResult(
                        o, Outcome.FAILS, f"Overridden: {winner}'s order for "
                        f"{dislodged.unit.power} stands (S9 §10.5.2)") for o in given)
            by_power = {winner: by_power[winner]}
        for given in by_power.values():
            kept.extend(given)
    return kept, overridden


def resolve_retreats(variant: Variant, position: Position,
                     orders: Iterable[Order]) -> RetreatResult:
    game_map = variant.map
    orders, results = _controller_preference(game_map, position, list(orders))
    chosen: dict[str, Order] = {}
    for order in orders:
        dislodged = position.dislodged.get(order.province)
        if dislodged is None:
            results.append(OrderResult(order, Outcome.ILLEGAL,
                                       "Illegal: only dislodged units move in a retreat phase"))
            continue
        if order.power and dislodged.unit.power != order.power and \
                order.power not in position.controllers_of(dislodged.unit.power):
            results.append(OrderResult(order, Outcome.ILLEGAL,
                                       f"Illegal: the unit belongs to {dislodged.unit.power}"))
            continue
        if dislodged.unit.stationary and isinstance(order, Retreat):
            results.append(OrderResult(order, Outcome.ILLEGAL,
                                       "Illegal: stationary units cannot retreat (S9 §7.2)"))
            continue
        if not isinstance(order, Retreat | Disband):
            results.append(OrderResult(order, Outcome.ILLEGAL,
                                       "Illegal: a dislodged unit may only retreat or disband"))
            continue
        if isinstance(order, Retreat):
            problem = _retreat_problem(game_map, position, dislodged, order.target,
                                       closed_territory(variant, position, dislodged.unit.power))
            if problem is not None:
                results.append(OrderResult(order, Outcome.ILLEGAL, f"Illegal: {problem}"))
                continue
        if order.province in chosen and _differ(chosen[order.province], order):
            results.append(OrderResult(order, Outcome.ILLEGAL,
                                       "Illegal: the unit already has a retreat order"))
            continue
        chosen[order.province] = order
    targets: dict[str, list[str]] = {}
    for prov, order in chosen.items():
        if isinstance(order, Retreat):
            unit = position.dislodged[prov].unit
            dest = move_destination(game_map, unit, order.target) or order.target
            targets.setdefault(dest.split("/")[0], []).append(prov)
    units = thawed(position.units)
    for prov, dislodged in sorted(position.dislodged.items()):
        decided = chosen.get(prov)
        unit = dislodged.unit
        if decided is None:
            why = ("Destroyed: stationary units cannot retreat" if unit.stationary
                   else "Disbanded: no retreat ordered")
            results.append(OrderResult(Disband(unit.power, unit.type, unit.location),
                                       Outcome.SUCCEEDS, why, implicit=True))
        elif isinstance(decided, Disband):
            results.append(OrderResult(decided, Outcome.SUCCEEDS, "Disbanded"))
        else:
            assert isinstance(decided, Retreat)
            dest = move_destination(game_map, unit, decided.target) or decided.target
            rivals = [p for p in targets[dest.split("/")[0]] if p != prov]
            if rivals:
                others = ", ".join(str(position.dislodged[p].unit) for p in rivals)
                results.append(OrderResult(decided, Outcome.FAILS,
                                           f"Disbanded: bounced with {others}"))
            else:
                units[dest.split("/")[0]] = Unit(unit.power, unit.type, dest)
                results.append(OrderResult(decided, Outcome.SUCCEEDS,
                                           f"Retreats to {game_map.name_of(dest)}"))
    return RetreatResult(tuple(results), units)


def _differ(a: Order, b: Order) -> bool:
    """Two orders for one unit that say different things (whoever gave them)."""
    return replace(a, power="") != replace(b, power="")  # type: ignore[type-var]
