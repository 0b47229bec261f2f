"""One step of a game: adjudicate the current phase, produce the next position.

:func:`adjudicate` is the whole game engine as a pure function:
``(variant, position, orders, allocations) -> (results, next position)``.
It dispatches on the phase kind and then advances through the calendar,
doing the bookkeeping phases that need no orders:

* the **census** (S9 §2.1; in the standard game, the Fall ownership change
  before adjustments), in :mod:`lawspeaker.rules.census`;
* retreat and adjustment phases in which nothing can happen are skipped.

In variants with the ``diplomacy_points`` component, orders for units of
minor powers come from DP allocations (:mod:`lawspeaker.rules.dp`), chosen
before the movement is resolved; the resolver never knows the difference.
With the ``heirs`` component, heirs' orders are judged after the movement
(:mod:`lawspeaker.rules.marriages`): thrall marriages take effect at once, as if
with the retreats (S9 §2.2 1c, 2c), and vassal marriages wait for the Census.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from ..core import orders as o
from ..core.board import Dislodged, Heir, Phase, PhaseKind, Position, PowerState, Unit
from ..core.orders import HeirOrder, Order
from ..core.resolver import MovementResult, resolve_movement
from ..core.results import OrderResult, Outcome
from ..core.ruleset import BuildRule, Rules
from ..rules.census import centre_counts, run_census
from ..rules.dp import Allocation, DPResolution, resolve_allocations
from ..rules.favor import setup_for_rules
from ..rules.favor_orders import resolve_winter
from ..rules.marriages import marry_problem, resolve_heir_orders
from ..rules.violations import Violation, apply_violations
from ..variants import Variant
from .adjustments import (
    adjustments_owed,
    heir_builds_possible,
    minor_rebuilds,
    resolve_adjustments,
)
from .retreats import resolve_retreats

__all__ = ["Adjudication", "adjudicate", "centre_counts", "initial_position", "kind_problem",
           "next_phase"]


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
    events: tuple[str, ...] = ()
    """Public: what the Census did after this phase (captures, executions,
    eliminations, new vassals), in order."""
    dislodged: tuple[Dislodged, ...] = ()
    """Units dislodged in this (movement) phase, including stationary ones,
    which never retreat (S9 §7.2): with only those dislodged, the retreat
    phase is skipped and ``position.dislodged`` is empty."""
    violations: tuple[Violation, ...] = ()
    """Dissolution §11.6: the violations against nuclear powers this orders phase
    (each also an event, with the kicks and Nuclear Retaliation that followed)."""


def initial_position(variant: Variant, rules: Rules | None = None) -> Position:
    """The start of the game, with minor and nuclear powers when the variant
    has them, and the starting Favor values (Dissolution §7) or, with the Favor
    Map, the Embassies of the setup ``rules.favor_setup`` gives (§11.2; a GM's
    own setup raises ``ValueError`` naming what is wrong with it)."""
    season, kind = variant.phases[0]
    owners = {h: p.name for p in variant.powers.values() for h in p.homes}
    units = list(variant.starting_units)
    powers: dict[str, PowerState] = {}
    for nuclear in variant.nuclear.values():  # Dissolution §8: never adjust, never capture
        units.extend(nuclear.units)  # stationary but the US Navy's (§3.7, §8.5.3)
        powers[nuclear.name] = PowerState("nuclear")
    if variant.uses("minor_powers"):
        for prov, utype in sorted(variant.minors.items()):
            name = minor_name(variant, prov)
            loc = variant.starting_location(prov) or prov  # OOD §6.11: F Lübeck (east coast)
            units.append(Unit(name, utype, loc, stationary=True))  # S9 §7.2
            owners[prov] = name
            powers[name] = PowerState("minor")
    heirs = []
    for power, where in variant.heirs.items():  # S9 §6, §7.1; OOD §6: starting thralls
        married = where != variant.powers[power].capital
        heirs.append(Heir(power, where, married))
        if married:
            powers[owners[where]] = PowerState("thrall", (power,))
    embassies = {}
    if variant.uses("favor_map"):  # Dissolution §11.2: Favor values come from the board
        embassies = dict(setup_for_rules(variant, rules or variant.rules))
    return Position.from_units(variant.name, Phase(season, variant.first_year, kind), units,
                               owners, powers_in_play=powers, heirs=heirs,
                               favor={} if embassies else variant.favor, embassies=embassies)


def minor_name(variant: Variant, province: str) -> str:
    """A minor power is named after its centre (S9 §9.0: 'the minor power in X'),
    a paired minor after the pair (Dissolution §3.5.3: Czechoslovakia owns both
    Bratislava and Prague)."""
    for pair, centres in variant.minor_pairs.items():
        if province in centres:
            return pair
    return variant.map.provinces[province].name


_MOVEMENT: Final = PhaseKind.MOVEMENT
_RETREAT: Final = PhaseKind.RETREAT
_ADJUSTMENT: Final = PhaseKind.ADJUSTMENT
_CENSUS: Final = PhaseKind.CENSUS
"""Read once: each use of an enum member is a class look-up."""


def next_phase(variant: Variant, phase: Phase) -> Phase:
    """The calendar's next phase (whether or not anything happens in it)."""
    phases = variant.phases
    index, year = _place(variant, phase) + 1, phase.year
    if index == len(phases):
        index, year = 0, year + 1
    season, kind = phases[index]
    return Phase(season, year, kind)


def _place(variant: Variant, phase: Phase) -> int:
    """Where ``phase`` is in the calendar: a look-up in the variant's table, cheaper
    than a search, which :func:`_advance` walks without building the phases it skips."""
    index = variant.phase_index.get((phase.season, phase.kind))
    if index is None:  # a season the calendar does not name: the first of its kind
        index = next(i for i, (_, k) in enumerate(variant.phases) if k is phase.kind)
    return index


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
    if kind is _MOVEMENT:
        step = _movement(variant, position, orders, rules, allocations)
    elif kind is _RETREAT:
        retreated = resolve_retreats(variant, position, orders)
        step = _Step(list(retreated.results), retreated.units, position, orders)
    elif kind is _ADJUSTMENT:
        step = _adjustment(variant, position, orders, rules)
    else:  # a census needs no orders; adjudicating it just runs it
        step = _Step([], position.units, position, orders)
    events = list(step.events)  # _advance adds the Census's after the phase's own
    following = _advance(variant, step.after, rules, events, step.units,
                         {d.unit.province: d for d in step.dislodged}, step.standoffs)
    return Adjudication(position.phase, _for_players(variant, position, step.results,
                                                     step.given, step.misnamed),
                        following, step.dp, allocations,
                        tuple([variant.cite(e) for e in events]) if events else (),
                        step.dislodged, step.violations)


_NO_STANDOFFS: Final[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class _Step:
    """What adjudicating one phase left, before the calendar moves on."""

    results: list[OrderResult]
    units: Mapping[str, Unit]
    after: Position
    """The position adjudicated, with what the phase changed but its units."""
    given: list[Order]
    """The orders as written, and any the engine added (DP), for the results' wording."""
    dislodged: tuple[Dislodged, ...] = ()
    standoffs: frozenset[str] = _NO_STANDOFFS
    dp: DPResolution | None = None
    events: tuple[str, ...] = ()
    violations: tuple[Violation, ...] = ()
    misnamed: bool | None = None
    """Whether an order names the wrong unit type, if known (see :func:`_for_players`)."""


def _movement(variant: Variant, position: Position, orders: list[Order], rules: Rules,
              allocations: tuple[Allocation, ...]) -> _Step:
    """An orders (movement) phase: the orders the resolver does not take screened out,
    the neutral units' orders that DP bought added, the movement resolved, then the
    heirs' orders and, with a Favor Map, the violations judged."""
    given = orders
    results: list[OrderResult] = []
    heir_orders: list[HeirOrder] = []  # the common case: nothing to screen out
    whole = _UNIT_ORDERS.issuperset(map(type, orders))
    if not whole:
        orders, results = _screen_kinds(orders, _MOVEMENT)
        heir_orders = [order for order in orders if isinstance(order, HeirOrder)]
        orders, screened = _screen_marry_orders(variant, position, orders)
        results += screened
    dp = None
    if variant.uses("diplomacy_points"):
        dp = resolve_allocations(variant, position, orders, allocations, rules)
        dp = replace(dp, rejected=tuple((a, variant.cite(why)) for a, why in dp.rejected))
        orders = orders + list(dp.orders.values())
        given = given + list(dp.orders.values())
    moved = resolve_movement(variant.map, position.units, orders, rules,
                             variant.invulnerable_powers)  # Dissolution §3.8
    results += moved.results
    dislodged = tuple([Dislodged(u, frm) for u, frm in moved.dislodged.values()]) \
        if moved.dislodged else ()
    after = position
    if heir_orders or variant.uses("heirs"):
        followed = {r.order.province: r.order for r in moved.results
                    if r.outcome is not Outcome.ILLEGAL}
        wed = resolve_heir_orders(variant, position, heir_orders, followed, moved.dislodged)
        results += wed.results
        after = position.replace(heirs=wed.heirs, powers_in_play=wed.powers_in_play,
                                 marriages=wed.marriages)
    step = _Step(results, moved.units, after, given, dislodged, moved.standoffs, dp,
                 # with every order sent to the resolver, it saw any that misnames its unit
                 misnamed=moved.misnamed if whole else None)
    if variant.uses("favor_map"):  # Dissolution §11.6-§11.7, §11.4.2: before retreats
        return _with_violations(variant, position, step, moved, rules)
    return step


def _with_violations(variant: Variant, position: Position, step: _Step,
                     moved: MovementResult, rules: Rules) -> _Step:
    """``step`` after the violations against nuclear powers, with the kicks and
    Nuclear Retaliation that follow (Dissolution §11.6-§11.7)."""
    done = apply_violations(variant, position, step.after.replace(
        units=step.units, dislodged={d.unit.province: d for d in step.dislodged}), moved, rules)
    after = step.after.replace(embassies=done.position.embassies, kicked=done.position.kicked,
                               retaliated=done.position.retaliated)
    return _Step(step.results, dict(done.position.units), after, step.given,
                 tuple(done.position.dislodged.values()), step.standoffs, step.dp,
                 tuple(done.events), done.violations, step.misnamed)


def _adjustment(variant: Variant, position: Position, orders: list[Order], rules: Rules
                ) -> _Step:
    """An adjustment phase: builds, removals and waives, then the Embassies' orders
    where there is a Favor Map (Dissolution §11.5, §2.2.3)."""
    embassy_orders = [order for order in orders if isinstance(order, o.EmbassyOrder)]
    unit_orders = [order for order in orders if not isinstance(order, o.EmbassyOrder)]
    adjusted = resolve_adjustments(variant, position, unit_orders, rules)
    results = list(adjusted.results)
    after = position.replace(heirs=adjusted.heirs, heir_built=adjusted.heir_built or {},
                             built_in=_built_in(position, results, rules))
    events: tuple[str, ...] = ()
    if variant.uses("favor_map") and position.embassies:
        winter = resolve_winter(variant, position, embassy_orders, rules)
        results += winter.results
        events = tuple(winter.events)
        after = after.replace(embassies=winter.embassies, kicked={}, retaliated={})
    else:
        results += [OrderResult(order, Outcome.ILLEGAL, "Illegal: there is no Favor Map in "
                                "this game") for order in embassy_orders]
    return _Step(results, adjusted.units, after, orders, events=events)


def _built_in(position: Position, results: list[OrderResult], rules: Rules
              ) -> dict[str, tuple[str, ...]]:
    """Where each power has ever built, for Emergent Builds (Dissolution §4.3):
    kept only under ``builds: emergent``, the one rule that needs it."""
    history = {p: list(c) for p, c in position.built_in.items()}
    if rules.builds is BuildRule.EMERGENT:
        for r in results:
            if isinstance(r.order, o.Build) and r.outcome is Outcome.SUCCEEDS and not r.implicit:
                history.setdefault(r.order.power, []).append(r.order.province)
    return {p: tuple(c) for p, c in history.items()}


def kind_problem(order: Order, kind: PhaseKind) -> str | None:
    """Why ``order`` is not an order for a phase of ``kind``, or ``None``:
    ``a build is not an order for an orders (movement) phase, ...``."""
    if isinstance(order, _PHASE_ORDERS[kind]):
        return None
    what = _WHAT.get(type(order), "this order")
    return f"{what} is not an order for {_PHASE_WORDS[kind]}, which takes {_EXPECTED[kind]}"


_PHASE_ORDERS: dict[PhaseKind, tuple[type[Order], ...]] = {
    PhaseKind.MOVEMENT: (o.Hold, o.Move, o.SupportHold, o.SupportMove, o.Convoy, o.Marry,
                         o.HeirHold, o.HeirMarry),
    PhaseKind.RETREAT: (o.Retreat, o.Disband),
    PhaseKind.ADJUSTMENT: (o.Build, o.BuildHeir, o.Remove, o.Waive, o.EmbassyOrder),
    PhaseKind.CENSUS: (),
}
_UNIT_ORDERS = frozenset({o.Hold, o.Move, o.SupportHold, o.SupportMove, o.Convoy})
"""Orders of a movement phase that are neither heirs' orders nor a Marry: the resolver
takes them as they are."""
_WHAT = {o.EmbassyOrder: "an Embassy's order",
         o.Build: "a build", o.BuildHeir: "a build", o.Remove: "a removal", o.Waive: "a waive",
         o.Retreat: "a retreat", o.Disband: "a disband", o.Move: "a move", o.Hold: "a hold",
         o.SupportHold: "a support", o.SupportMove: "a support", o.Convoy: "a convoy",
         o.Marry: "a marriage", o.HeirHold: "an heir's order", o.HeirMarry: "a marriage"}
_PHASE_WORDS = {PhaseKind.MOVEMENT: "an orders (movement) phase",
                PhaseKind.RETREAT: "a retreat phase", PhaseKind.ADJUSTMENT: "an adjustment phase",
                PhaseKind.CENSUS: "the Census"}
_EXPECTED = {PhaseKind.MOVEMENT: "moves, holds, supports, convoys and heirs' orders",
             PhaseKind.RETREAT: "retreats and disbands",
             PhaseKind.ADJUSTMENT: "builds, removals and waives",
             PhaseKind.CENSUS: "no orders"}


def _screen_kinds(orders: list[Order], kind: PhaseKind) -> tuple[list[Order], list[OrderResult]]:
    """Orders of the wrong kind for the phase are illegal and never carried out."""
    kept: list[Order] = []
    results: list[OrderResult] = []
    for order in orders:
        problem = kind_problem(order, kind)
        if problem is None:
            kept.append(order)
        else:
            results.append(OrderResult(order, Outcome.ILLEGAL, f"Illegal: {problem}"))
    return kept, results


def _for_players(variant: Variant, position: Position, results: list[OrderResult],
                 given: list[Order], misnamed: bool | None = None) -> tuple[OrderResult, ...]:
    """Results as players read them: citing the variant's own rulebook, and
    saying when an order named the wrong unit type (it is read as the unit's
    order all the same, DATC 4.C.2). ``given``: the orders as written;
    ``misnamed``: whether one of them names the wrong type, when already known
    (the resolver sees it, when every order went to it)."""
    own_words = variant.cite("S9 §1") == "S9 §1"  # the texts already cite this rulebook
    board = position.units if position.phase.kind is not _RETREAT else {
        p: d.unit for p, d in position.dislodged.items()}
    if misnamed is None:
        misnamed = _misnamed(board, given)
    if not misnamed:
        # No order names the wrong type (the orders the engine makes itself, a unit's
        # implicit hold or disband, a removal by civil disorder, name the unit's own):
        # the results stand as they are, without the cost of a look at each.
        if own_words:
            return tuple(results)
        cite = variant.cite
        return tuple([r.cited(cite) for r in results])
    out = []
    for r in results:
        order = r.order
        unit = board.get(order.province)
        note = None if unit is None or order.unit_type is None or unit.type is order.unit_type \
            else _wrong_type(variant, position, order)  # the rare case, worded there
        if note is None:
            out.append(r if own_words else r.cited(variant.cite))
            continue

        def reason(r: OrderResult = r, note: str | None = note) -> str:
            text = variant.cite(r.reason)
            return f"{text} ({note})" if note else text

        out.append(r.reworded(reason, variant.cite))
    return tuple(out)


def _misnamed(board: Mapping[str, Unit], orders: list[Order]) -> bool:
    """Whether any of ``orders`` names a unit on ``board`` by the wrong type."""
    get = board.get
    for order in orders:
        unit_type = order.unit_type
        if unit_type is not None:
            unit = get(order.province)
            if unit is not None and unit.type is not unit_type:
                return True
    return False


def _wrong_type(variant: Variant, position: Position, order: Order) -> str | None:
    """``the unit in London is a fleet, not an army``, or ``None``."""
    if order.unit_type is None or isinstance(order, o.Build):
        return None
    unit = position.units.get(order.province)
    if position.phase.kind is _RETREAT:
        dislodged = position.dislodged.get(order.province)
        unit = dislodged.unit if dislodged else None
    if unit is None or unit.type is order.unit_type:
        return None
    return (f"the unit in {variant.map.name_of(unit.location)} is {_a(unit.type.noun)}, "
            f"not {_a(order.unit_type.noun)}")


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def _screen_marry_orders(variant: Variant, position: Position, orders: list[Order]
                         ) -> tuple[list[Order], list[OrderResult]]:
    """Unit orders for the resolver; a Marry given to a unit that may not
    marry is illegal and the unit holds (S9 §10.3)."""
    kept: list[Order] = []
    results: list[OrderResult] = []
    for order in orders:
        if isinstance(order, HeirOrder):
            continue
        problem = marry_problem(variant, position, order) if isinstance(order, o.Marry) else None
        if problem is not None and order.province in position.units:
            results.append(OrderResult(order, Outcome.ILLEGAL, f"Illegal: {problem}"))
        else:
            kept.append(order)
    return kept, results


def _advance(variant: Variant, position: Position, rules: Rules, events: list[str],
             units: Mapping[str, Unit], dislodged: Mapping[str, Dislodged],
             standoffs: frozenset[str]) -> Position:
    """Move to the next phase in which someone has something to do.

    ``position`` is the phase just adjudicated; ``units``, ``dislodged`` and
    ``standoffs`` are what it left, put into the next position together with its
    phase, in one copy rather than one per change. The phases skipped are walked in
    the variant's calendar table without being built."""
    phases = variant.phases
    places = variant.phase_index
    index, year = _place(variant, position.phase), position.phase.year
    while True:
        index += 1
        if index == len(phases):
            index, year = 0, year + 1
        season, kind = phases[index]
        if kind is _RETREAT:
            # Stationary units never retreat (S9 §7.2): with only those dislodged,
            # nobody has anything to order, and they are simply gone.
            for d in dislodged.values():
                if not d.unit.stationary:
                    return position.replace(phase=Phase(season, year, kind), units=units,
                                            dislodged=dislodged, standoffs=standoffs)
        else:
            position = position.replace(phase=Phase(season, year, kind), units=units,
                                        dislodged={}, standoffs=frozenset())
            if kind is _MOVEMENT:
                return position
            dislodged = position.dislodged
            if kind is _CENSUS or not variant.has_census:
                report = run_census(variant, position, rules)
                position = report.position
                events.extend(report.events)
                if position.result:
                    return position
            units = position.units
            if kind is _ADJUSTMENT and _anything_to_adjust(variant, position):
                return position
        index = places[season, kind]  # the first of its name, as next_phase reads it


def _anything_to_adjust(variant: Variant, position: Position) -> bool:
    """Whether anyone has something to do in this adjustment phase; if not, it is skipped."""
    return adjustments_owed(variant, position) \
        or bool(minor_rebuilds(variant, position)) \
        or bool(heir_builds_possible(variant, position)) \
        or (variant.uses("favor_map") and bool(position.embassies))  # Dissolution §11.5
