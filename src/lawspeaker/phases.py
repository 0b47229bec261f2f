"""One step of a game: adjudicate the current phase, produce the next position.

:func:`adjudicate` is the whole game engine as a pure function:
``(variant, position, orders, allocations) -> (results, next position)``.
It dispatches on the phase kind and then advances through the calendar,
doing the bookkeeping phases that need no orders:

* the **census** (S9 §2.1; in the standard game, the Fall ownership change
  before adjustments): centres change hands to the units on them, and the
  victory conditions are checked (S9 §3.1, §3.3);
* retreat and adjustment phases in which nothing can happen are skipped.

In variants with the ``diplomacy_points`` component, orders for units of
minor powers come from DP allocations (:mod:`lawspeaker.dp`), chosen
before the movement is resolved; the resolver never knows the difference.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .adjustments import adjustment_counts, minor_rebuilds, resolve_adjustments
from .board import Dislodged, Phase, PhaseKind, Position, PowerState, Unit
from .dp import Allocation, DPResolution, resolve_allocations
from .orders import Order
from .resolver import resolve_movement
from .results import OrderResult
from .retreats import resolve_retreats
from .rules import Rules
from .variants import Variant

__all__ = ["Adjudication", "adjudicate", "centre_counts", "initial_position", "next_phase"]


@dataclass(frozen=True)
class Adjudication:
    phase: Phase
    results: tuple[OrderResult, ...]
    position: Position
    """The position at the start of the next phase that needs orders (or the
    final position, with ``result`` set, when the game has ended)."""
    dp: DPResolution | None = None
    """How DP allocations were settled (secret parts included: show
    :meth:`DPResolution.public` to players)."""
    allocations: tuple[Allocation, ...] = ()
    """Secret: the allocations submitted for this phase (GM eyes only)."""


def initial_position(variant: Variant) -> Position:
    """The start of the game, with minor powers when the variant has them."""
    season, kind = variant.phases[0]
    owners = {h: p.name for p in variant.powers.values() for h in p.homes}
    units = list(variant.starting_units)
    powers: dict[str, PowerState] = {}
    if variant.uses("minor_powers"):
        for prov, utype in sorted(variant.minors.items()):
            name = minor_name(variant, prov)
            units.append(Unit(name, utype, prov, stationary=True))  # S9 §7.2
            owners[prov] = name
            powers[name] = PowerState("minor")
    return Position.from_units(variant.name, Phase(season, variant.first_year, kind), units,
                               owners, powers_in_play=powers)


def minor_name(variant: Variant, province: str) -> str:
    """A minor power is named after its centre (S9 §9.0: 'the minor power in X')."""
    return variant.map.provinces[province].name


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
               rules: Rules | None = None,
               allocations: Iterable[Allocation] = ()) -> Adjudication:
    """Adjudicate ``position``'s phase with ``orders`` and advance the game.

    Raises ``ValueError`` if the game has already ended. Nothing is changed
    on failure: positions are immutable.
    """
    if position.result:
        raise ValueError(f"the game is over: {position.result}")
    rules = rules or variant.rules
    orders = list(orders)
    allocations = tuple(allocations)
    kind = position.phase.kind
    dislodged: list[Dislodged] = []
    standoffs: frozenset[str] = frozenset()
    dp = None
    if kind is PhaseKind.MOVEMENT:
        if variant.uses("diplomacy_points"):
            dp = resolve_allocations(variant, position, orders, allocations)
            orders = orders + list(dp.orders.values())
        moved = resolve_movement(variant.map, position.units, orders, rules)
        results, units = moved.results, moved.units
        dislodged = [Dislodged(u, frm) for u, frm in moved.dislodged.values()]
        standoffs = moved.standoffs
    elif kind is PhaseKind.RETREAT:
        retreated = resolve_retreats(variant.map, position, orders)
        results, units = retreated.results, retreated.units
    elif kind is PhaseKind.ADJUSTMENT:
        adjusted = resolve_adjustments(variant, position, orders, rules)
        results, units = adjusted.results, adjusted.units
    else:  # a census needs no orders; adjudicating it just runs it
        results, units = (), dict(position.units)
    after = position.replace(units=units, dislodged={d.unit.province: d for d in dislodged},
                             standoffs=standoffs)
    return Adjudication(position.phase, tuple(results), _advance(variant, after, rules), dp,
                        allocations)


def _advance(variant: Variant, position: Position, rules: Rules) -> Position:
    """Move to the next phase in which someone has something to do."""
    phase = position.phase
    has_census = any(k is PhaseKind.CENSUS for _, k in variant.phases)
    while True:
        phase = next_phase(variant, phase)
        if phase.kind is PhaseKind.RETREAT:
            if position.dislodged:
                return position.replace(phase=phase)
            continue
        position = position.replace(phase=phase, dislodged={}, standoffs=frozenset())
        if phase.kind is PhaseKind.CENSUS or (
                phase.kind is PhaseKind.ADJUSTMENT and not has_census):
            position = census(variant, position, rules)
            if position.result:
                return position
        if phase.kind is PhaseKind.ADJUSTMENT:
            if any(adjustment_counts(position).values()) or minor_rebuilds(variant, position):
                return position
            continue
        if phase.kind is PhaseKind.MOVEMENT:
            return position


def census(variant: Variant, position: Position, rules: Rules) -> Position:
    """Captures, then the victory check (S9 §2.2 3a, §3.1, §3.3)."""
    owners = dict(position.owners)
    for prov, unit in position.units.items():
        if variant.map.provinces[prov].is_sc:
            owners[prov] = unit.power
    powers = {name: state for name, state in position.powers_in_play.items()
              if name in owners.values() or any(u.power == name
                                                for u in position.units.values())}
    position = position.replace(owners=owners, powers_in_play=powers)
    return position.replace(result=_victory(variant, position, rules))


def centre_counts(position: Position, variant: Variant) -> dict[str, int]:
    """Supply centres per major power, for victory (S9 §3.1)."""
    counts = {name: 0 for name in variant.powers}
    for prov, owner in position.owners.items():
        if owner in counts:
            counts[owner] += variant.map.provinces[prov].sc_value
    return counts


def _victory(variant: Variant, position: Position, rules: Rules) -> str | None:
    """A solo needs the target and strictly the most centres (S9 §3.1, ex. 3.0.1)."""
    counts = centre_counts(position, variant)
    best = max(counts.values(), default=0)
    leaders = [p for p, n in counts.items() if n == best]
    if best >= rules.victory_centres and len(leaders) == 1:
        return f"Solo: {leaders[0]}"
    survivors = sorted(p for p, n in counts.items() if n > 0)
    years = position.phase.year - variant.first_year + 1
    if rules.max_years is not None and years >= rules.max_years:
        return "Draw: " + ", ".join(survivors)  # S9 §3.3
    return None
