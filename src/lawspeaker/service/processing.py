"""The service's processing step: a phase adjudicated with its standing
orders and the game moved on, and the rollback that undoes it.

:meth:`Processing.step` is the one place a phase is processed, whoever
asks: the GM's "Process" and "Publish" and the deadline's scheduler (through
:class:`lawspeaker.service.review.Review`, which decides whether the step runs
now or a preview waits for the GM's review). It runs in the caller's write transaction, with the
game locked: the adjudication, the next phase, the log entry and the new
deadline are written together, or (on any error, or a crash) not at all.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core.board import Position
from ..core.orders import Order
from ..engine.codec import allocation_to_dict, order_from_dict, order_to_dict, result_to_dict
from ..engine.phases import Adjudication, adjudicate
from ..rules.dp import Allocation
from ..store.models import AdjudicationRow, BallotRow, EventRow, now
from .deadlines import restart_deadline
from .export import PhaseRecord
from .loader import GameLoader, LoadedGame, find_phase, log_event, require_gm
from .records import Records
from .standing import allocation_of, standing_lines
from .types import ServiceError, Viewer

__all__ = ["Processing", "secret_part"]


def secret_part(result: Adjudication) -> dict[str, Any]:
    """The secret part of an adjudication, as it is kept: every allocation, the
    DP each proposed order of a neutral unit received, and the allocations
    rejected with why (S9 §9.0: secret until the game ends)."""
    secret: dict[str, Any] = {"allocations": [], "tallies": {}, "rejected": []}
    if result.dp is not None:
        secret["allocations"] = [allocation_to_dict(a) for a in result.allocations]
        secret["tallies"] = {prov: [[order_to_dict(o), n] for o, n in tally]
                             for prov, tally in result.dp.tallies.items()}
        secret["rejected"] = [[allocation_to_dict(a), why] for a, why in result.dp.rejected]
    return secret


class Processing:
    """Process the open phase (:meth:`step`, whoever asks: the GM's Process and
    Publish and the scheduler, through :class:`.review.Review`), and roll back."""

    def __init__(self, games: GameLoader, records: Records) -> None:
        self.games = games
        self.records = records

    def step(self, s: Session, g: LoadedGame, actor: Viewer) -> PhaseRecord:
        """Adjudicate in the caller's transaction (the GM's, or the scheduler's)."""
        result = self.adjudicate(s, g)
        secret = secret_part(result)
        results = [result_to_dict(r, why=True) for r in result.results]  # kept to explain
        adjudication = AdjudicationRow(phase_id=g.phase.id, results=results,
                                       events=list(result.events), secret=secret)
        s.add(adjudication)
        s.flush()
        nxt = self.games.add_phase(s, g.row, g.variant, result.position, g.phase.seq + 1)
        summary = f"{g.phase.label} processed; next: {nxt.label}"
        if result.position.result:
            summary = f"{g.phase.label} processed; game over: {result.position.result}"
        log_event(s, g.row, g.phase, actor, "processed", summary,
                  adjudication=adjudication.id)
        s.flush()
        g.phases.append(nxt)
        restart_deadline(g.row)
        return self.records.build(s, g, g.phase, secret_too=True)

    def adjudicate(self, s: Session, g: LoadedGame) -> Adjudication:
        """The open phase adjudicated with its standing orders, nothing written:
        what :meth:`step` writes, and what a preview for the GM's review shows."""
        if g.position.result:
            raise ServiceError(f"the game is over ({g.position.result})")
        active = standing_lines(s, g)
        orders: list[Order] = []
        allocations: list[Allocation] = []
        for power, slots in sorted(active.items()):
            for rows in slots.values():
                for row in rows:
                    if row.kind == "order":
                        orders.append(order_from_dict(row.order or {}))
                    elif row.kind == "dp":
                        allocations.append(allocation_of(row, power))
        try:
            return adjudicate(g.variant, g.position, orders, g.rules, allocations)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None

    def undo(self, name: str, to: str | None, actor: Viewer, phase: str | None = None) -> str:
        """Roll back to an earlier phase (see :meth:`GameService.undo`)."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            self.games.expect_phase(s, g, phase, "asked to roll back from")
            if to is None and _undo_draw(s, g, actor):
                restart_deadline(g.row)
                return g.phase.label
            if len(g.phases) < 2:
                raise ServiceError("nothing to undo: no phase has been processed")
            target = g.phases[-2] if to is None else find_phase(g, to)
            if target.id == g.phase.id:
                raise ServiceError(f"{target.label} is the current phase")
            stamp = now()
            for old in g.phases:
                if old.seq > target.seq:
                    old.undone_at = stamp
            for adj in s.scalars(select(AdjudicationRow).where(
                    AdjudicationRow.phase_id.in_([p.id for p in g.phases if p.seq >= target.seq]),
                    AdjudicationRow.undone_at.is_(None))):
                adj.undone_at = stamp
            log_event(s, g.row, target, actor, "undone",
                      f"rolled back from {g.phase.label} to {target.label}")
            restart_deadline(g.row)
            return target.label


def _undo_draw(s: Session, g: LoadedGame, actor: Viewer) -> bool:
    """A game ended by a draw vote (:mod:`.ballots`) ends in its open phase, no
    adjudication behind it: undoing it undoes the draw alone. The game goes on in
    that phase and the vote starts over (its ballots are cleared). Whether there
    was such a draw: ``False`` leaves the rollback of the last phase to the caller."""
    result = g.position.result
    if not result:
        return False
    events = list(s.scalars(select(EventRow).where(
        EventRow.game_id == g.row.id, EventRow.phase_id == g.phase.id,
        EventRow.kind.in_(("draw", "reveal-dp", "undone"))).order_by(EventRow.id)))
    draws = [e for e in events if e.kind == "draw"]
    if not draws or draws[-1].summary != result:
        return False
    if any(e.kind == "reveal-dp" for e in events):
        raise ServiceError("the DP allocations were revealed after the draw: undoing only the "
                           "draw would leave them public; roll back to the phase before "
                           "(undo with a phase) to make them secret again")
    position = Position.from_dict(g.phase.position).replace(result=None)
    g.phase.position = position.to_dict()
    for ballot in s.scalars(select(BallotRow).where(BallotRow.phase_id == g.phase.id,
                                                    BallotRow.kind == "draw")):
        s.delete(ballot)
    log_event(s, g.row, g.phase, actor, "undone",
              f"draw undone ({result}): the game continues in {g.phase.label}")
    return True

