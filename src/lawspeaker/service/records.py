"""The service's published record: the history, results posts and maps.

Every secrecy decision about what a processed or a current phase shows is
made here (:class:`Records`), once, for every front end: the public results,
a power's own part, the GM's secret part, and the GM's reveal of every DP
allocation after the game. Processing (:mod:`.processing`) answers with the
record this part builds, so "what was processed" and "what is published"
are one thing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core.board import Position
from ..core.orders import EmbassyOrder, Order
from ..core.results import OrderResult
from ..engine.codec import order_from_dict, result_from_dict
from ..store.models import AdjudicationRow, EventRow, GameRow, PhaseRow
from ..variants import Variant
from .backdrops import Backdrops
from .export import PhaseRecord, format_explanations, format_record, public_map_url
from .loader import GameLoader, LoadedGame, find_phase, log_event, require_gm
from .standing import standing_lines
from .status import turn_status
from .types import GM, PUBLIC, HistoryEntry, ServiceError, Viewer

if TYPE_CHECKING:
    from ..render import Drawing
    from ..render.backdrop import Backdrop

__all__ = ["GM_ONLY_EVENTS", "Records", "dp_secrecy_rule"]

GM_ONLY_EVENTS = ("link", "review")
"""History entries only a GM's history shows: secret links made or revoked, and
previews made or discarded (:mod:`.review`)."""


def dp_secrecy_rule(variant: Variant) -> str:
    """The variant's own rule keeping DP allocations secret until the game ends,
    after which the GM may reveal them: S9 §9.0 (and its equivalents, through
    the variant's section table), Dissolution §5.1.3 ("kept secret (at least
    until the game terminates)"), which the table's §9.0 -> §5.1 does not reach."""
    if variant.rulebook == "Dissolution":
        return "Dissolution §5.1.3"
    return variant.cite("S9 §9.0")


class Records:
    """History, results posts, maps, and the GM's reveal of DP after the game."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    # --- history and exports -------------------------------------------------------------

    def history(self, name: str, actor: Viewer) -> list[HistoryEntry]:
        """The public log: creation, submissions (who, not what), processing,
        rollbacks and GM actions, oldest first. Secret links being made or
        revoked are the GM's business: only a GM's history shows them."""
        with self.games.read(name) as (s, g):
            labels = {p.id: (p.label, p.undone_at) for p in s.scalars(
                select(PhaseRow).where(PhaseRow.game_id == g.row.id))}
            undone_adjudications = set(s.scalars(select(AdjudicationRow.id).join(
                PhaseRow, AdjudicationRow.phase_id == PhaseRow.id).where(
                PhaseRow.game_id == g.row.id, AdjudicationRow.undone_at.is_not(None))))
            out = []
            query = select(EventRow).where(EventRow.game_id == g.row.id)
            if not actor.gm:  # links made and results under review: the GM's business
                query = query.where(EventRow.kind.not_in(GM_ONLY_EVENTS))
            for e in s.scalars(query.order_by(EventRow.id)):
                label, undone = labels.get(e.phase_id or -1, (None, None))
                if e.kind == "processed":  # undone when its adjudication was
                    undone = e.detail.get("adjudication") in undone_adjudications or None
                out.append(HistoryEntry(e.at, e.actor, e.kind, e.summary, label,
                                        bool(undone) and e.kind != "undone"))
            return out

    def record(self, name: str, phase: str | None, actor: Viewer) -> PhaseRecord:
        """A processed phase as published: public always; the secret part
        only for the GM, or for everybody once the GM revealed DP after the game."""
        with self.games.read(name) as (s, g):
            done = [p for p in g.phases if p.id != g.phase.id]
            if not done:
                raise ServiceError("no phase has been processed yet")
            row = done[-1] if phase is None else find_phase(g, phase)
            if row.id == g.phase.id:
                raise ServiceError(f"{row.label} has not been processed yet")
            if actor.gm or _revealed(s, g):
                return self.build(s, g, row, secret_too=True)
            # A power sees its own allocations and what became of them, never others'.
            return self.build(s, g, row, secret_too=actor.power is not None,
                              own=actor.power)

    def export(self, name: str, phase: str | None, fmt: str, gm: bool, actor: Viewer,
               mine: bool, map_base: str | None = None) -> str:
        """The results post: ``gm=True`` (the GM only) adds the secret part as
        its own section, never mixed into the public text; ``mine=True`` adds
        a power's own part (its allocations, counted, rejected or ignored)
        for its player's eyes. ``map_base``, the server's public address,
        embeds the phase's public results map (:func:`.export.public_map_url`):
        a processed phase, so the picture is the same whoever opens it."""
        if gm:
            require_gm(actor)
        record = self.record(name, phase, GM if gm else actor)
        if map_base:
            record = replace(record, map_url=public_map_url(map_base, record.game, record.seq))
        own = mine and record.secret is not None and record.secret.power is not None
        return format_record(record, fmt, secret=gm or record.revealed or own)

    def explain(self, name: str, phase: str | None, actor: Viewer, power: str | None = None,
                fmt: str = "text", gm: bool = False) -> str:
        """Why each result of a processed phase is what it is, for ``actor``:
        the same record as the results post (:meth:`record`), so it reveals
        nothing the post does not; DP behind a neutral unit's order are shown
        as the record's secret part is (``gm``: every allocation, GM only; a
        player's own; after the GM's reveal, everyone's)."""
        if gm:
            require_gm(actor)
        # A GM who does not ask for the secret part gets what may be published.
        record = self.record(name, phase, actor if gm or not actor.gm else PUBLIC)
        if power is not None and power not in {p for p, _ in record.orders}:
            raise ServiceError(f"{power} has no orders in {record.phase}")
        return format_explanations(record, fmt, power)

    def picture(self, name: str, phase: str | None, orders: bool, fmt: str, actor: Viewer,
                board: str, max_width: int | None = None,
                palette: str | None = None, backdrop: Backdrop | None = None
                ) -> str | bytes:
        """The map of a phase: the position at its start and, with ``orders``,
        the orders given in it. A processed phase shows its public results
        (neutral units' chosen orders included, never DP); the current phase
        shows only the standing orders ``actor`` may see: all of them for the
        GM, a player's own, none for the public. ``board="favor"`` draws the
        Favor Map instead (Dissolution §11), under the same rules of secrecy.
        ``max_width``: a PNG is scaled down to at most that many pixels wide
        (forums and Discord refuse or shrink larger images; Dissolution's map
        is 3,915 px wide), never up. ``palette``: a named palette (``colorblind``,
        :data:`lawspeaker.render.palette.PALETTES`), the viewer's choice. ``backdrop``:
        draw over this official map image; without it, over the one the GM uploaded, if any."""
        with self.games.read(name) as (s, g):
            row = find_phase(g, phase)
            position = Position.from_dict(row.position)
            results = None
            pending: list[Order] = []
            if orders and row.id != g.phase.id:
                adj = s.scalar(select(AdjudicationRow).where(
                    AdjudicationRow.phase_id == row.id, AdjudicationRow.undone_at.is_(None)))
                results = [result_from_dict(r) for r in adj.results] if adj else []
            elif orders:
                for power, slots in standing_lines(s, g).items():
                    if actor.may_act_for(power):
                        pending += [order_from_dict(r.order or {}) for rs in slots.values()
                                    for r in rs if r.kind == "order"]
            subtitle = g.row.name + ("" if results is not None or not orders
                                     else f" — orders seen by {actor}")
            return self.draw(s, g, position, results, pending if orders else None, fmt,
                             board, subtitle, max_width, palette, backdrop)

    def draw(self, s: Session, g: LoadedGame, position: Position,
             results: list[OrderResult] | None, pending: list[Order] | None, fmt: str,
             board: str, subtitle: str, max_width: int | None = None,
             palette: str | None = None, backdrop: Backdrop | None = None) -> str | bytes:
        """Draw ``position`` with its ``results`` (a processed phase, or a preview
        for the GM) or the ``pending`` orders the caller may see; the caller has
        decided who sees what."""
        from ..render import draw, draw_favor
        from ..render.palette import style_for

        try:
            style = style_for(palette)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        if fmt not in ("svg", "png"):
            raise ServiceError(f"unknown picture format '{fmt}' (svg or png)")
        if board not in ("map", "favor"):
            raise ServiceError(f"unknown board '{board}' (map or favor)")
        if board == "favor":
            if not g.variant.uses("favor_map"):
                raise ServiceError(f"{g.variant.title} has no Favor Map")
            embassy = [o for o in pending or () if isinstance(o, EmbassyOrder)]
            drawing = draw_favor(g.variant, position, results=results, rules=g.rules,
                                 orders=embassy if pending is not None and results is None
                                 else None, style=style)
            return drawing.svg() if fmt == "svg" else drawing.png(_scale(drawing, max_width))
        if backdrop is None:
            backdrop = Backdrops.stored(s, g)
        drawing = draw(g.variant, position, results=results, backdrop=backdrop,
                       orders=pending if results is None else None, subtitle=subtitle,
                       style=style)
        return drawing.svg() if fmt == "svg" else drawing.png(_scale(drawing, max_width))

    def reveal_dp(self, name: str, actor: Viewer) -> None:
        """After the game, the GM may reveal every DP allocation (S9 §9.0).

        The reveal belongs to the phase it is made in (the game's last): a
        rollback past it makes the allocations secret again, and the history
        keeps the reveal, marked undone."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            if not g.position.result:
                raise ServiceError("DP allocations stay secret until the game has ended "
                                   f"({dp_secrecy_rule(g.variant)})")
            log_event(s, g.row, g.phase, actor, "reveal-dp", "GM revealed the DP allocations")

    def build(self, s: Session, g: LoadedGame, phase: PhaseRow, secret_too: bool,
              own: str | None = None) -> PhaseRecord:
        """A processed phase's record, its secret part if ``secret_too`` (and
        ``own``: that power's part only); the caller has decided who sees what."""
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
                                 revealed=_revealed(s, g), game=g.row.name,
                                 status=turn_status(g.variant, after, g.rules), own=own,
                                 seq=phase.seq)

    def progress(self, name: str) -> tuple[int, str, str | None]:
        """The current phase's id and label and the game's result: what live
        updates watch (public; one light query, polled by every open page)."""
        with self.games.store.read() as s:
            game_id = s.scalar(select(GameRow.id).where(GameRow.name == name))
            if game_id is None:
                raise ServiceError(f"no game named '{name}'")
            phase = s.scalars(select(PhaseRow).where(
                PhaseRow.game_id == game_id, PhaseRow.undone_at.is_(None))
                .order_by(PhaseRow.seq.desc()).limit(1)).one()
            return phase.id, phase.label, phase.position.get("result")


def _scale(drawing: Drawing, max_width: int | None) -> float:
    """Pixels per map unit so the PNG is at most ``max_width`` wide (1: as drawn;
    resvg rounds the scaled width to whole pixels, so this gives exactly ``max_width``)."""
    if max_width is None or drawing.width <= max_width:
        return 1.0
    return max_width / drawing.width


def _revealed(s: Session, g: LoadedGame) -> bool:
    """Whether the GM revealed DP in a phase that still stands (not rolled back)."""
    live = [p.id for p in g.phases]
    return s.scalar(select(EventRow.id).where(
        EventRow.game_id == g.row.id, EventRow.kind == "reveal-dp",
        EventRow.phase_id.in_(live)).limit(1)) is not None
