"""A power's own posts this phase, every version as written, and the limits on
its DP allocations (the allotment, and in Dissolution the Favor cap per
nuclear power), for a front end to show beside the order box.

Both are secrets of the power: its player and the GM see them, nobody else.
The limits are the engine's own (:func:`lawspeaker.rules.dp.allotment`,
:func:`lawspeaker.rules.neutral_limits.favor`), counted here once so no page or
template does arithmetic on the rules.

:class:`Posts` is this part of :class:`lawspeaker.service.GameService`; order
entry (:mod:`.entry`) uses :func:`dp_limits` for the limits in its reports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..core.board import PhaseKind, Position
from ..store.models import SubmissionRow
from ..variants import Variant
from .lines import _canonical
from .loader import GameLoader, checked_power
from .standing import standing_lines
from .types import DPCap, DPLimits, Forbidden, LineReport, Viewer

__all__ = ["PostRecord", "Posts", "dp_limits"]


@dataclass(frozen=True, slots=True)
class PostRecord:
    """One post as it was sent, with each line's status when it was checked."""

    number: int
    """1 for the power's first post this phase, 2 for the next, ..."""
    power: str
    author: str
    """Who sent it: the power itself or ``gm``."""
    at: datetime
    text: str
    """The post exactly as written."""
    lines: tuple[LineReport, ...]
    standing: tuple[int, ...]
    """Numbers of this post's lines that still stand (no later post replaced them)."""


def dp_limits(variant: Variant, position: Position, power: str,
              spent: Iterable[tuple[str, int]]) -> DPLimits | None:
    """The DP ``power`` may spend this phase and how much is left: the allotment
    (S9 §9.2; Dissolution §5.2) and, with ``neutral_limits``, the Favor cap on
    each nuclear power's units together (Dissolution §11.4.1). ``spent``: the
    power's standing allocations as (the unit's power, DP). ``None`` when the
    variant has no DP or the phase takes none."""
    from ..rules.dp import allotment
    from ..rules.neutral_limits import favor

    if not variant.uses("diplomacy_points") or position.phase.kind is not PhaseKind.MOVEMENT:
        return None
    spent = list(spent)
    total = allotment(variant, position, power)
    used = sum(points for _owner, points in spent)
    caps: list[DPCap] = []
    if variant.uses("neutral_limits"):
        present = {u.power for u in position.units.values()}
        for nuclear in sorted(variant.nuclear):
            if nuclear not in present:
                continue
            cap = favor(variant, position, power, nuclear)
            on_it = sum(points for owner, points in spent if owner == nuclear)
            caps.append(DPCap(nuclear, cap, on_it, max(cap - on_it, 0),
                              "Dissolution §11.4.1"))
    rule = "Dissolution §5.2" if variant.dp_allotment else "S9 §9.2"
    return DPLimits(total, used, total - used, rule, tuple(caps))


class Posts:
    """A power's posts this phase as they were sent."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def posts(self, name: str, power: str | None, actor: Viewer) -> list[PostRecord]:
        """Every post of ``power`` this phase, oldest first (its player and the
        GM); ``power`` None: every power's posts (the GM only)."""
        with self.games.read(name) as (s, g):
            if power is None:
                if not actor.gm:
                    raise Forbidden("only the GM sees every power's posts")
            else:
                power = checked_power(g.variant, power)
                if not actor.may_act_for(power):
                    raise Forbidden(f"{actor} may not see {power}'s posts before they are "
                                    "adjudicated")
            query = select(SubmissionRow).where(SubmissionRow.phase_id == g.phase.id)
            if power is not None:
                query = query.where(SubmissionRow.power == power)
            rows = list(s.scalars(query.order_by(SubmissionRow.id)
                                  .options(selectinload(SubmissionRow.lines))))
            active = standing_lines(s, g, power)
            standing_ids = {r.id for slots in active.values() for rs in slots.values()
                            for r in rs}
            counts: dict[str, int] = {}
            out = []
            game_map = g.variant.map
            for sub in rows:
                counts[sub.power] = counts.get(sub.power, 0) + 1
                lines = tuple(LineReport(r.number, r.text, r.status, r.message,
                                         _canonical(r, game_map)) for r in sub.lines)
                out.append(PostRecord(counts[sub.power], sub.power, sub.author,
                                      _utc(sub.submitted_at), sub.text, lines,
                                      tuple(r.number for r in sub.lines
                                            if r.id in standing_ids)))
            return out


def _utc(at: datetime) -> datetime:
    """Stored times are UTC; SQLite gives them back without a zone."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
