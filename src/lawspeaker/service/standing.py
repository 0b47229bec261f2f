"""The standing lines of a phase: which of the lines posted so far count.

A power may post many times in a phase; a later post's line replaces an
earlier one for the same slot (a unit, an heir, DP for a unit), and in
adjustment phases a post replaces the power's earlier list of builds and
removals. Every post stays on record; these functions say what stands, for
order entry, the posts page, the map of the current phase and processing,
so they can never disagree about it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ..core.board import PhaseKind
from ..core.orders import HeirOrder, Order
from ..engine.codec import order_from_dict
from ..rules.dp import Allocation
from ..store.models import LineRow, SubmissionRow
from .lines import IGNORED
from .loader import LoadedGame

__all__ = ["Standing", "allocation_of", "by_slot", "merge_lines", "slot_of", "standing_lines"]

Standing = dict[str, dict[str, list[LineRow]]]
"""Each power's standing lines, by slot."""


def standing_lines(s: Session, g: LoadedGame, power: str | None = None) -> Standing:
    """Each power's standing lines this phase, by slot (a unit, an heir,
    DP for a unit): the lines of the latest post that filled the slot."""
    kind = g.position.phase.kind
    out: Standing = {}
    query = select(SubmissionRow).where(SubmissionRow.phase_id == g.phase.id)
    if power is not None:  # one power's lines only (a submission, a report)
        query = query.where(SubmissionRow.power == power)
    subs = s.scalars(query.order_by(SubmissionRow.id)
                     .options(selectinload(SubmissionRow.lines)))  # one query, not N
    for sub in subs:
        mine = out.setdefault(sub.power, {})
        merged = merge_lines(mine, by_slot(sub.lines, str(sub.id)), kind)
        mine.clear()
        mine.update(merged)
    return {p: slots for p, slots in out.items() if slots}


def merge_lines(standing: dict[str, list[LineRow]], new: dict[str, list[LineRow]],
                kind: PhaseKind) -> dict[str, list[LineRow]]:
    """A later post's lines replace the earlier ones for the same slot.
    Two orders for one unit in one post both stand, and the rules option
    ``multiple_orders`` settles them at adjudication (DATC 4.D.3)."""
    if kind is PhaseKind.ADJUSTMENT and any(rs[0].kind == "order" for rs in new.values()):
        # Builds and removals are one list: a new post replaces the old one.
        kept = {k: rs for k, rs in standing.items() if rs[0].kind != "order"}
    else:
        kept = dict(standing)
    kept.update(new)
    return kept


def by_slot(rows: Iterable[LineRow], tag: str) -> dict[str, list[LineRow]]:
    """Standing lines of one post by slot; unreadable and rejected lines stand for nothing."""
    out: dict[str, list[LineRow]] = {}
    for r in rows:
        if r.kind == "order" or (r.kind == "dp" and r.status in ("accepted", IGNORED)):
            out.setdefault(r.slot or f"#{tag}.{r.number}", []).append(r)
    return out


def slot_of(order: Order, kind: PhaseKind) -> str | None:
    """The slot an order fills (None in adjustment phases: one list per power)."""
    if kind is PhaseKind.ADJUSTMENT:
        return None
    if isinstance(order, HeirOrder):
        return f"heir {order.province}"  # an heir shares its centre with a unit
    return f"unit {order.province}" if order.province else None


def allocation_of(row: LineRow, power: str) -> Allocation:
    """A stored DP line as the engine's allocation."""
    return Allocation(power, int(row.points or 0), order_from_dict(row.order or {}))
