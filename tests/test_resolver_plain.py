"""The resolver judges the common legal orders as it plans them (``_Plan.plain``, issue
20) and asks :func:`lawspeaker.movement_problem` about every other. The two must agree:
every order the plan calls plainly legal is legal by the full check. Checked on boards of
seeded random games of every bundled variant, for every move of every unit to every
space, with and without a convoy or a coast, and every support of every unit by every
unit into every space next to either."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import lawspeaker as L
from lawspeaker import Move, Order, PhaseKind, SupportHold, SupportMove
from lawspeaker.core.resolver_plan import _Plan
from lawspeaker.sim.randomplay import random_allocations, random_orders


def boards(name: str, games: int = 2, phases: int = 8) -> Iterator[L.Position]:
    variant = L.load_variant(name)
    for seed in range(games):
        rng = random.Random(seed)
        position = L.initial_position(variant)
        for _ in range(phases):
            if position.result is not None:
                break
            if position.phase.kind is PhaseKind.MOVEMENT:
                yield position
            orders = random_orders(variant, position, rng)
            allocations = random_allocations(variant, position, orders, rng)
            position = L.adjudicate(variant, position, orders, variant.rules,
                                    allocations).position


def candidates(game_map: L.GameMap, position: L.Position) -> Iterator[Order]:
    units = position.units
    for unit in units.values():
        here = unit.province
        near = game_map.touching(here)
        for target in game_map.provinces:
            for coast in (target, *(f"{target}/{c}" for c in game_map.provinces[target].coasts)):
                yield Move(unit.power, unit.type, unit.location, coast)
            yield Move(unit.power, unit.type, unit.location, target, via_convoy=True)
        for other in units.values():
            if other.province not in near and other.province != here:
                continue
            yield SupportHold(unit.power, unit.type, unit.location, other.type, other.location)
            for into in game_map.touching(other.province) | near:
                yield SupportMove(unit.power, unit.type, unit.location, other.type,
                                  other.location, into)
                for c in game_map.provinces[into].coasts:
                    yield SupportMove(unit.power, unit.type, unit.location, other.type,
                                      other.location, f"{into}/{c}")


@pytest.mark.parametrize("name", ["standard", "s9-complete", "ood", "dissolution"])
def test_plainly_legal_orders_are_legal(name: str) -> None:
    variant = L.load_variant(name)
    game_map = variant.map
    rules = variant.rules
    plain = checked = 0
    for position in boards(name):
        units = dict(position.units)
        wings = any(u.type is L.UnitType.WING for u in units.values())
        for order in candidates(game_map, position):
            plan = _Plan(game_map, units[order.province], order, units)
            checked += 1
            if plan.plain:
                plain += 1
                problem = L.movement_problem(
                    game_map, units, order, explicit_paths=rules.convoy_paths == "explicit",
                    wings=wings, wing_anywhere=rules.wing_support == "anywhere")
                assert problem is None, f"{order} planned as legal, but: {problem}"
    # The candidates are mostly illegal; enough are plainly legal to mean something.
    assert plain > 500 and checked > 10 * plain


def test_plain_move_is_planned_to_its_place() -> None:
    """A fleet's plain move to a split coast it borders keeps the coast as its place."""
    variant = L.load_variant("standard")
    unit = L.Unit("France", L.UnitType.FLEET, "mid")
    units = {"mid": unit}
    plan = _Plan(variant.map, unit, Move("France", L.UnitType.FLEET, "mid", "spa/nc"), units)
    assert plan.plain and plan.dest == "spa" and plan.dest_loc == "spa/nc"
    plan = _Plan(variant.map, unit, Move("France", L.UnitType.FLEET, "mid", "spa"), units)
    assert not plan.plain  # which coast: the full check says
