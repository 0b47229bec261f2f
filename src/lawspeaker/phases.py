"""One step of a game: adjudicate the current phase, produce the next position.

:func:`adjudicate` is the whole game engine as a pure function:
``(variant, position, orders) -> (results, next position)``. It dispatches on
the phase kind, updates centre ownership after the last movement or retreat
phase before an adjustment phase (the standard rules' Fall ownership
change), and skips retreat and adjustment phases in which nothing can
happen, as every GM does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .adjustments import adjustment_counts, resolve_adjustments
from .board import Dislodged, Phase, PhaseKind, Position
from .orders import Order
from .resolver import resolve_movement
from .results import OrderResult
from .retreats import resolve_retreats
from .rules import Rules
from .variants import Variant

__all__ = ["Adjudication", "adjudicate", "initial_position", "next_phase"]


@dataclass(frozen=True)
class Adjudication:
    phase: Phase
    results: tuple[OrderResult, ...]
    position: Position
    """The position at the start of the next phase that needs orders."""


def initial_position(variant: Variant) -> Position:
    season, kind = variant.phases[0]
    owners = {h: p.name for p in variant.powers.values() for h in p.homes}
    return Position.from_units(variant.name, Phase(season, variant.first_year, kind),
                               variant.starting_units, owners)


def next_phase(variant: Variant, phase: Phase) -> Phase:
    """The calendar's next phase (whether or not anything happens in it)."""
    phases = variant.phases
    index = next((i for i, (s, k) in enumerate(phases)
                  if s == phase.season and k is phase.kind), None)
    if index is None:
        index = next(i for i, (_, k) in enumerate(phases) if k is phase.kind)
    year = phase.year
    index += 1
    if index == len(phases):
        index, year = 0, year + 1
    season, kind = phases[index]
    return Phase(season, year, kind)


def adjudicate(variant: Variant, position: Position, orders: Iterable[Order],
               rules: Rules | None = None) -> Adjudication:
    """Adjudicate ``position``'s phase with ``orders`` and advance the game."""
    rules = rules or variant.rules
    orders = list(orders)
    kind = position.phase.kind
    dislodged: list[Dislodged] = []
    standoffs: frozenset[str] = frozenset()
    if kind is PhaseKind.MOVEMENT:
        moved = resolve_movement(variant.map, position.units, orders, rules)
        results, units = moved.results, moved.units
        dislodged = [Dislodged(u, frm) for u, frm in moved.dislodged.values()]
        standoffs = moved.standoffs
    elif kind is PhaseKind.RETREAT:
        retreated = resolve_retreats(variant.map, position, orders)
        results, units = retreated.results, retreated.units
    else:
        adjusted = resolve_adjustments(variant, position, orders, rules)
        results, units = adjusted.results, adjusted.units
    after = Position.from_units(variant.name, position.phase, units.values(),
                                position.owners, dislodged, standoffs)
    return Adjudication(position.phase, tuple(results), _advance(variant, after))


def _advance(variant: Variant, position: Position) -> Position:
    """Move to the next phase in which someone has something to do."""
    phase = position.phase
    while True:
        phase = next_phase(variant, phase)
        if phase.kind is PhaseKind.RETREAT:
            if position.dislodged:
                return _with_phase(position, phase)
            continue
        position = Position.from_units(variant.name, phase, position.units.values(),
                                       position.owners)
        if phase.kind is PhaseKind.ADJUSTMENT:
            position = _with_owners(position, _captures(variant, position))
            if any(adjustment_counts(position).values()):
                return position
            continue
        return position


def _with_phase(position: Position, phase: Phase) -> Position:
    return Position(position.variant, phase, position.units, position.owners,
                    position.dislodged, position.standoffs)


def _with_owners(position: Position, owners: dict[str, str]) -> Position:
    return Position(position.variant, position.phase, position.units, owners)


def _captures(variant: Variant, position: Position) -> dict[str, str]:
    """Centres change hands to whoever occupies them before adjustments."""
    owners = dict(position.owners)
    for prov, unit in position.units.items():
        if variant.map.provinces[prov].is_sc:
            owners[prov] = unit.power
    return owners
