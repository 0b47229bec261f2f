"""What happened in the phase before a case: attackers' origins and standoff spaces.

A retreat case needs to know where each dislodged unit's attacker came from (it
may not retreat there) and which spaces were left empty by a standoff (no unit
may retreat into one); the case gives them only as ``PRESTATE_RESULTS``, the
orders of the movement phase before. :func:`previous_moves` replays those orders
when they reproduce the case's position, and otherwise infers the two from the
SUCCESS and FAILURE marks. Both the plain runner and the runner for variants with
heirs ask it, with the :class:`~lawspeaker.cases.context.CaseContext` to read the
lines.
"""

from __future__ import annotations

from ..core.board import PhaseKind, Unit
from ..core.geography import UnitType, province_of
from ..core.orders import Convoy, HeirOrder, Move
from ..core.resolver import resolve_movement
from ..core.ruleset import Edition
from .context import CaseContext

__all__ = ["previous_moves"]


def previous_moves(ctx: CaseContext, units: list[Unit], dislodged: list[Unit]
                   ) -> tuple[dict[str, str | None], set[str]]:
    """Attackers' origins and standoff spaces, from ``PRESTATE_RESULTS``.

    The previous movement phase is rebuilt from its orders and adjudicated
    again; if that reproduces PRESTATE and PRESTATE_DISLODGED, its
    attackers and standoffs are used. Otherwise (incomplete results) they
    are inferred from the SUCCESS and FAILURE marks.
    """
    replayed = _replay(ctx, units, dislodged)
    if replayed is not None:
        return replayed
    return _infer(ctx, units, dislodged)


def _replay(ctx: CaseContext, units: list[Unit], dislodged: list[Unit]
            ) -> tuple[dict[str, str | None], set[str]] | None:
    """The previous phase adjudicated again, if its orders reproduce the position."""
    if not ctx.case.prestate_results:
        return None
    orders = [o for o in (ctx.order(e, PhaseKind.MOVEMENT)
                          for e in ctx.case.prestate_results)
              if not isinstance(o, HeirOrder)]
    after = {u.province: u for u in units}
    beaten = {u.province: u for u in dislodged}
    before: dict[str, Unit] = {}
    moved_from: dict[str, str] = {}
    for order in orders:
        if isinstance(order, Move):
            moved_from[order.target_province] = order.province
    for order in orders:
        prov = order.province
        unit = beaten.get(prov) or after.get(prov)
        if isinstance(order, Move) and moved_from.get(order.target_province) == prov:
            unit = after.get(order.target_province) if unit is None or (
                unit.power != order.power) else unit
        if unit is None or unit.power != order.power or prov in before:
            return None
        location = order.location if "/" in order.location else unit.location
        if province_of(location) != prov:
            location = prov
        before[prov] = Unit(order.power, order.unit_type or unit.type, location,
                            unit.stationary)
    for u in [*units, *dislodged]:
        if u.province not in before and u not in before.values():
            if u.province in before:
                return None
            before[u.province] = u
    try:
        moved = resolve_movement(ctx.variant.map, before, orders, ctx.rules)
    except (KeyError, ValueError):
        return None
    got_units = sorted(str(u) + u.power for u in moved.units.values())
    got_beaten = sorted(str(u) + u.power for u, _ in moved.dislodged.values())
    if got_units != sorted(str(u) + u.power for u in units) or \
            got_beaten != sorted(str(u) + u.power for u in dislodged):
        return None
    return {p: frm for p, (_, frm) in moved.dislodged.items()}, set(moved.standoffs)


def _infer(ctx: CaseContext, units: list[Unit], dislodged: list[Unit]
           ) -> tuple[dict[str, str | None], set[str]]:
    """Read from the marks: a successful move's origin (unless convoyed), and the
    empty targets of failed moves, but for a head-to-head lost (DATC 6.E.1)."""
    occupied = {u.province for u in units}
    moves: list[tuple[Move, bool]] = []
    convoys: set[tuple[str, str, str]] = set()
    for entry in ctx.case.prestate_results:
        order = ctx.order(entry, PhaseKind.MOVEMENT)
        if isinstance(order, Move):
            moves.append((order, entry.outcome == "SUCCESS"))
        elif isinstance(order, Convoy):
            convoys.add((order.power, province_of(order.army), province_of(order.target)))
    attackers: dict[str, str | None] = {}
    for move, ok in moves:
        if not ok:
            continue
        src, dst = move.province, move.target_province
        overland = ctx.variant.map.can_move(UnitType.ARMY, src, dst) or \
            move.unit_type is UnitType.FLEET
        convoyed = move.via_convoy or not overland or (
            ctx.rules.edition is Edition.R2023 and (move.power, src, dst) in convoys)
        attackers[dst] = None if convoyed else src
    beaten = {u.province for u in dislodged}
    standoffs = set()
    for move, ok in moves:
        dst = move.target_province
        if ok or dst in occupied:
            continue
        if move.province in beaten and attackers.get(move.province) == dst:
            continue  # lost a head-to-head battle: no standoff (DATC 6.E.1)
        standoffs.add(dst)
    return attackers, standoffs
