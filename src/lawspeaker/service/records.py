"""The service's published record: the history, results posts and maps.

Part of :class:`lawspeaker.service.GameService` (a mixin, split out to keep
each module to one concern); every secrecy decision about what a processed
or a current phase shows is made here, once, for every front end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core.board import Position
from ..core.orders import EmbassyOrder, Order
from ..engine.codec import order_from_dict, result_from_dict
from ..store.models import AdjudicationRow, EventRow, PhaseRow
from .export import PhaseRecord, format_record
from .status import turn_status
from .types import GM, PUBLIC, HistoryEntry, ServiceError, Viewer, _Loaded

if TYPE_CHECKING:
    from ..store import Store

__all__ = ["RecordsMixin"]


class RecordsMixin:
    """History, results posts, maps and the GM actions the rulebooks name."""

    store: Store
    _load: Any
    _find_phase: Any
    _active: Any
    _log: Any
    _require_gm: Any
    _engine: Any
    _rules: Any
    _power: Any

    # --- history and exports -------------------------------------------------------------

    def history(self, name: str, actor: Viewer = PUBLIC) -> list[HistoryEntry]:
        """The public log: creation, submissions (who, not what), processing,
        rollbacks and GM actions, oldest first. Secret links being made or
        revoked are the GM's business: only a GM's history shows them."""
        with self.store.read() as s:
            g = self._load(s, name)
            labels = {p.id: (p.label, p.undone_at) for p in s.scalars(
                select(PhaseRow).where(PhaseRow.game_id == g.row.id))}
            undone_adjudications = set(s.scalars(select(AdjudicationRow.id).join(
                PhaseRow, AdjudicationRow.phase_id == PhaseRow.id).where(
                PhaseRow.game_id == g.row.id, AdjudicationRow.undone_at.is_not(None))))
            out = []
            query = select(EventRow).where(EventRow.game_id == g.row.id)
            if not actor.gm:
                query = query.where(EventRow.kind != "link")
            for e in s.scalars(query.order_by(EventRow.id)):
                label, undone = labels.get(e.phase_id or -1, (None, None))
                if e.kind == "processed":  # undone when its adjudication was
                    undone = e.detail.get("adjudication") in undone_adjudications or None
                out.append(HistoryEntry(e.at, e.actor, e.kind, e.summary, label,
                                        bool(undone) and e.kind != "undone"))
            return out

    def record(self, name: str, phase: str | None = None, actor: Viewer = PUBLIC
               ) -> PhaseRecord:
        """A processed phase as published: public always; the secret part
        only for the GM, or for everybody once the GM revealed DP after the game."""
        with self.store.read() as s:
            g = self._load(s, name)
            done = [p for p in g.phases if p.id != g.phase.id]
            if not done:
                raise ServiceError("no phase has been processed yet")
            row = done[-1] if phase is None else self._find_phase(g, phase)
            if row.id == g.phase.id:
                raise ServiceError(f"{row.label} has not been processed yet")
            if actor.gm or self._revealed(s, g):
                return self._record(s, g, row, secret_too=True)
            # A power sees its own allocations and what became of them, never others'.
            return self._record(s, g, row, secret_too=actor.power is not None,
                                own=actor.power)

    def export(self, name: str, phase: str | None = None, fmt: str = "text",
               gm: bool = False, actor: Viewer = PUBLIC, mine: bool = False) -> str:
        """The results post: ``gm=True`` (the GM only) adds the secret part as
        its own section, never mixed into the public text; ``mine=True`` adds
        a power's own part (its allocations, counted, rejected or ignored)
        for its player's eyes."""
        if gm:
            self._require_gm(actor)
        record = self.record(name, phase, GM if gm else actor)
        own = mine and record.secret is not None and record.secret.power is not None
        return format_record(record, fmt, secret=gm or record.revealed or own)

    def picture(self, name: str, phase: str | None = None, orders: bool = False,
                fmt: str = "svg", actor: Viewer = PUBLIC, board: str = "map") -> str | bytes:
        """The map of a phase: the position at its start and, with ``orders``,
        the orders given in it. A processed phase shows its public results
        (neutral units' chosen orders included, never DP); the current phase
        shows only the standing orders ``actor`` may see: all of them for the
        GM, a player's own, none for the public. ``board="favor"`` draws the
        Favor Map instead (Dissolution §11), under the same rules of secrecy."""
        from ..render import draw, draw_favor

        if fmt not in ("svg", "png"):
            raise ServiceError(f"unknown picture format '{fmt}' (svg or png)")
        if board not in ("map", "favor"):
            raise ServiceError(f"unknown board '{board}' (map or favor)")
        with self.store.read() as s:
            g = self._load(s, name)
            row = self._find_phase(g, phase)
            position = Position.from_dict(row.position)
            results = None
            pending: list[Order] = []
            if orders and row.id != g.phase.id:
                adj = s.scalar(select(AdjudicationRow).where(
                    AdjudicationRow.phase_id == row.id, AdjudicationRow.undone_at.is_(None)))
                results = [result_from_dict(r) for r in adj.results] if adj else []
            elif orders:
                for power, slots in self._active(s, g).items():
                    if actor.may_act_for(power):
                        pending += [order_from_dict(r.order or {}) for rs in slots.values()
                                    for r in rs if r.kind == "order"]
            if board == "favor":
                if not g.variant.uses("favor_map"):
                    raise ServiceError(f"{g.variant.title} has no Favor Map")
                embassy = [o for o in pending if isinstance(o, EmbassyOrder)]
                drawing = draw_favor(g.variant, position, results=results, rules=g.rules,
                                     orders=embassy if orders and results is None else None)
                return drawing.svg() if fmt == "svg" else drawing.png()
            drawing = draw(g.variant, position, results=results,
                           orders=pending if orders and results is None else None,
                           subtitle=f"{g.row.name}" + ("" if results is not None or not orders
                                                       else f" — orders seen by {actor}"))
            return drawing.svg() if fmt == "svg" else drawing.png()

    # --- GM actions the rulebooks name ------------------------------------------------------

    def force_elimination(self, name: str, power: str, actor: Viewer = GM) -> None:
        """A dropped player's power undergoes early elimination at the next
        Census (S9 §3.4.2; OOD §3.3.2). Recorded in the history."""
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            game = self._engine(g)
            try:
                game.force_elimination(power)
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
            who = g.variant.power_named(power)
            g.phase.position = game.position.to_dict()
            self._log(s, g.row, g.phase, actor, "eliminate",
                      f"GM: {who} dropped; eliminated at the next Census")

    def remove_exile(self, name: str, power: str, actor: Viewer = GM) -> None:
        """Strip a Player in Exile of its DP privileges, removing it from the
        game entirely (Dissolution §5.3). Recorded in the history."""
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            who = self._power(g.variant, power)
            if who not in g.position.exiles:
                raise ServiceError(f"{who} is not a Player in Exile (Dissolution §5.3)")
            position = g.position.replace(exiles=g.position.exiles - {who},
                                          removed=g.position.removed | {who})
            g.phase.position = position.to_dict()
            self._log(s, g.row, g.phase, actor, "remove-exile",
                      f"GM: {who}, in exile, is removed from the game (no more DP)")

    def reveal_dp(self, name: str, actor: Viewer = GM) -> None:
        """After the game, the GM may reveal every DP allocation (S9 §9.0).

        The reveal belongs to the phase it is made in (the game's last): a
        rollback past it makes the allocations secret again, and the history
        keeps the reveal, marked undone."""
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            if not g.position.result:
                raise ServiceError("DP allocations stay secret until the game has ended "
                                   "(S9 §9.0)")
            self._log(s, g.row, g.phase, actor, "reveal-dp", "GM revealed the DP allocations")

    def set_rule(self, name: str, key: str, value: str, actor: Viewer = GM) -> None:
        """Change a house rule; it applies from the current phase on."""
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            rules = {**g.row.rules, key: value}
            self._rules(g.variant, rules)
            old = g.row.rules.get(key, "(variant default)")
            g.row.rules = rules
            self._log(s, g.row, g.phase, actor, "rule", f"house rule {key}: {old} -> {value}")


    @staticmethod
    def _revealed(s: Session, g: _Loaded) -> bool:
        """Whether the GM revealed DP in a phase that still stands (not rolled back)."""
        live = [p.id for p in g.phases]
        return s.scalar(select(EventRow.id).where(
            EventRow.game_id == g.row.id, EventRow.kind == "reveal-dp",
            EventRow.phase_id.in_(live)).limit(1)) is not None

    def rules_in_force(self, name: str) -> list[tuple[str, str, bool]]:
        """Every rules option of the game (public, as a GM's announcement is):
        (option, value, whether a house rule of this game sets it)."""
        from dataclasses import fields

        with self.store.read() as s:
            g = self._load(s, name)
            house = set(g.row.rules)
            out = []
            for f in fields(g.rules):
                value = getattr(g.rules, f.name)
                text = "none" if value is None else "yes" if value is True \
                    else "no" if value is False else str(value)
                out.append((f.name, text, f.name in house))
            return out

    def _record(self, s: Session, g: _Loaded, phase: PhaseRow, secret_too: bool,
                own: str | None = None) -> PhaseRecord:
        adj = s.scalar(select(AdjudicationRow).where(AdjudicationRow.phase_id == phase.id,
                                                     AdjudicationRow.undone_at.is_(None)))
        if adj is None:
            raise ServiceError(f"{phase.label} has not been processed")
        following = next(p for p in g.phases if p.seq > phase.seq)
        before = Position.from_dict(phase.position)
        after = Position.from_dict(following.position)
        secret = adj.secret if secret_too else None
        return PhaseRecord.build(g.variant, g.rules, before, after,
                                 [result_from_dict(r) for r in adj.results],
                                 tuple(adj.events), secret,
                                 revealed=self._revealed(s, g), game=g.row.name,
                                 status=turn_status(g.variant, after, g.rules), own=own)

    def progress(self, name: str) -> tuple[int, str, str | None]:
        """The current phase's id and label and the game's result: what live
        updates watch (public; one light query, polled by every open page)."""
        from ..store.models import GameRow

        with self.store.read() as s:
            game_id = s.scalar(select(GameRow.id).where(GameRow.name == name))
            if game_id is None:
                raise ServiceError(f"no game named '{name}'")
            phase = s.scalars(select(PhaseRow).where(
                PhaseRow.game_id == game_id, PhaseRow.undone_at.is_(None))
                .order_by(PhaseRow.seq.desc()).limit(1)).one()
            return phase.id, phase.label, phase.position.get("result")
