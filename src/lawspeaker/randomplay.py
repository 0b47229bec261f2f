"""Random legal play, for simulations, soak tests and bot baselines.

:func:`random_orders` gives every unit of the major powers a legal order
for the current phase; :func:`random_allocations` spends each major power's
DP on legal proposals for neutral units without breaking the Attacking &
Allocating rule; :func:`play` runs a whole game with them. Everything is
driven by the ``random.Random`` passed in, so a seed replays a game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .adjustments import adjustment_counts
from .board import PhaseKind, Position, Unit
from .dp import Allocation, allocation_problem, allotment, is_dp_controlled
from .geography import Terrain, UnitType
from .legality import movement_problem
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from .phases import Adjudication, adjudicate, initial_position
from .retreats import retreat_options
from .rules import BuildRule, Rules
from .variants import Variant

__all__ = ["play", "random_allocations", "random_orders", "unit_options"]


def unit_options(variant: Variant, position: Position, unit: Unit) -> list[Order]:
    """Every legal movement order for one unit: hold, moves, supports, convoys."""
    game_map = variant.map
    units = position.units
    options: list[Order] = [Hold(unit.power, unit.type, unit.location)]
    for target in sorted(game_map.neighbours(unit.type, unit.location)):
        options.append(Move(unit.power, unit.type, unit.location, target))
    for prov, other in units.items():
        if other is unit or not game_map.reaches(unit.type, unit.location, prov):
            continue
        options.append(SupportHold(unit.power, unit.type, unit.location, other.type,
                                   other.location))
        for target in sorted(game_map.neighbours(other.type, other.location)):
            into = target.split("/")[0]
            if into != unit.province and game_map.reaches(unit.type, unit.location, into):
                options.append(SupportMove(unit.power, unit.type, unit.location, other.type,
                                           other.location, target))
    if unit.type is UnitType.FLEET and game_map.provinces[unit.province].can_convoy:
        for prov in sorted(game_map.touching(unit.province)):
            army = units.get(prov)
            if army is not None and army.type is UnitType.ARMY:
                for dst, p in sorted(game_map.provinces.items()):
                    if p.terrain is Terrain.COASTAL and dst != prov and \
                            unit.province in game_map.convoy_route_seas(prov, dst):
                        options.append(Convoy(unit.power, unit.type, unit.location,
                                              army.location, dst))
    return [o for o in options if movement_problem(game_map, units, o) is None]


def random_orders(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    """A random legal order for every unit the major powers must order."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement(variant, position, rng)
    if kind is PhaseKind.RETREAT:
        return _retreats(variant, position, rng)
    if kind is PhaseKind.ADJUSTMENT:
        return _adjustments(variant, position, rng)
    return []


def _movement(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    orders: list[Order] = []
    for unit in position.units.values():
        if position.kind_of(unit.power) != "major":
            continue
        options = unit_options(variant, position, unit)
        moves = [o for o in options if isinstance(o, Move)]
        # Mostly moves, so that games are lively; otherwise anything legal.
        orders.append(rng.choice(moves if moves and rng.random() < 0.6 else options))
    return orders


def _retreats(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    orders: list[Order] = []
    for dislodged in position.dislodged.values():
        unit = dislodged.unit
        if position.kind_of(unit.power) != "major":
            continue
        options = retreat_options(variant.map, position, dislodged)
        if options and rng.random() < 0.85:
            orders.append(Retreat(unit.power, unit.type, unit.location, rng.choice(options)))
        else:
            orders.append(Disband(unit.power, unit.type, unit.location))
    return orders


def _adjustments(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    orders: list[Order] = []
    rules = variant.rules
    for power, owed in sorted(adjustment_counts(position).items()):
        if owed < 0:
            units = sorted(position.units_of(power), key=lambda u: u.province)
            for unit in rng.sample(units, min(-owed, len(units))):
                orders.append(Remove(power, unit.type, unit.location))
        elif owed > 0:
            major = variant.powers.get(power)
            sites = [p for p in position.centres_of(power) if p not in position.units
                     and (rules.builds is BuildRule.OWNED or (major and p in major.homes))]
            for prov in rng.sample(sorted(sites), min(owed, len(sites))):
                province = variant.map.provinces[prov]
                if province.terrain is Terrain.LAND or rng.random() < 0.5:
                    orders.append(Build(power, UnitType.ARMY, prov))
                else:
                    orders.append(Build(power, UnitType.FLEET, rng.choice(province.locations)))
    return orders


def random_allocations(variant: Variant, position: Position, orders: list[Order],
                       rng: random.Random) -> list[Allocation]:
    """Each major spends its DP on random legal proposals for neutral units."""
    neutral = [u for u in position.units.values() if is_dp_controlled(position, u)]
    out: list[Allocation] = []
    if position.phase.kind is not PhaseKind.MOVEMENT or not neutral:
        return out
    for power in sorted(variant.powers):
        mine: list[Allocation] = []
        budget = allotment(variant, position, power)
        for _ in range(budget * 2):
            if sum(a.points for a in mine) >= budget:
                break
            unit = rng.choice(neutral)
            order = rng.choice(unit_options(variant, position, unit))
            allocation = Allocation(power, 1, order)
            if allocation_problem(variant, position, allocation, orders, mine) is None:
                mine.append(allocation)
        out.extend(mine)
    return out


def play(variant: Variant, rng: random.Random, years: int, rules: Rules | None = None,
         check: Callable[[Position, Adjudication], None] | None = None) -> Position:
    """Play random legal orders (and DP) for up to ``years`` game years.

    ``check`` is called after every phase with the new position and the
    adjudication, so tests can assert invariants throughout.
    """
    rules = rules or variant.rules
    position = initial_position(variant)
    last_year = variant.first_year + years - 1
    while position.result is None and position.phase.year <= last_year:
        orders = random_orders(variant, position, rng)
        allocations = random_allocations(variant, position, orders, rng) \
            if variant.uses("diplomacy_points") else []
        result = adjudicate(variant, position, orders, rules, allocations)
        position = result.position
        if check is not None:
            check(position, result)
    return position
