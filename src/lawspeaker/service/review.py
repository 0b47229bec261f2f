"""Results the GM reviews before the players see them.

GMs who run games by hand work in two steps: adjudicate, look, then publish, so a
mistaken order or house rule is caught before anyone reads the results. With the
house rule ``review=yes`` (:mod:`.house_rules`), **Process** adjudicates the open
phase into a *preview* that only the GM sees: the results post (public and secret
parts), the results map and the next phase. The game stays in its phase; players
see nothing new and may still post.

* **Publish** makes the preview the game's next phase exactly as a Process without
  review would: it runs the one processing step (:meth:`.processing.Processing.step`)
  on the same standing orders, so what is published is what any Process publishes,
  and checks that it is what the GM saw.
* **Discard** drops it.
* A post, a house-rule change, a rollback, a forced elimination or an exile removal
  after the preview was made makes it *stale*: Publish then refuses with
  :class:`PreviewStale` (409 on the API), naming why, and the GM processes again.
  Publish and Discard name the preview's phase as Process does, so a double click
  publishes once (the second finds no open preview and changes nothing).
* At a deadline the scheduler makes the preview (and notes missed deadlines, once);
  if the GM has not published it ``review_hours`` after the first preview of the
  phase, the scheduler processes the phase itself, so an absent GM does not stall a
  game.

A preview lives in its own table (``previews``), apart from the adjudications every
published path reads, so no page, map, export, event or front end that shows
results can show it; only this part reads it, and only for a GM.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..core.board import Position
from ..engine.codec import result_from_dict, result_to_dict
from ..store.models import AdjudicationRow, EventRow, PreviewRow, now
from .export import PhaseRecord, format_record
from .house_rules import review_hours, review_on
from .loader import GameLoader, LoadedGame, log_event, require_gm
from .processing import Processing, secret_part
from .records import Records
from .status import turn_status
from .types import SCHEDULER, PhaseChanged, ServiceError, Viewer

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["STALE_KINDS", "Preview", "PreviewStale", "Review"]

STALE_KINDS = ("submitted", "rule", "undone", "eliminate", "remove-exile", "processed")
"""History entries that change what the phase's adjudication would be: after one of
them, a preview no longer shows what Publish would make."""


class PreviewStale(PhaseChanged):
    """The preview no longer shows what publishing would make; nothing was done."""


@dataclass(frozen=True)
class Preview:
    """A phase adjudicated for the GM's eyes (see the module's docstring)."""

    id: int
    game: str
    phase: str
    """The label of the phase it adjudicates (``Spring 1901 Movement``)."""
    phase_code: str
    next_phase: str
    made_at: datetime
    made_by: str
    record: PhaseRecord
    """The results as Publish would make them, secret part included."""
    stale: str | None = None
    """Why it can no longer be published (None: it can)."""
    publish_by: datetime | None = None
    """When the scheduler publishes it by itself (UTC), if it made it at a deadline."""

    def post(self, fmt: str = "text", secret: bool = True) -> str:
        """The results post it would publish (``secret``: with the DP section)."""
        return format_record(self.record, fmt, secret=secret)

    def as_dict(self) -> dict[str, Any]:
        return {"phase": self.phase_code, "label": self.phase, "next_phase": self.next_phase,
                "made_at": self.made_at.isoformat() + "Z", "made_by": self.made_by,
                "stale": self.stale,
                "publish_by": self.publish_by.isoformat() + "Z" if self.publish_by else None,
                "post": self.post("text", secret=False), "secret_post": self.post("text")}


class Review:
    """Process (into a preview when the game asks for review), publish, discard,
    and the scheduler's part at a deadline."""

    def __init__(self, games: GameLoader, processing: Processing, records: Records,
                 note_missed: Callable[[Session, LoadedGame], None]) -> None:
        self.games = games
        self.processing = processing
        self.records = records
        self.note_missed = note_missed

    # --- the GM's calls ----------------------------------------------------------------

    def process(self, name: str, actor: Viewer, phase: str | None) -> PhaseRecord | Preview:
        """Process the open phase: into a preview with ``review=yes``, else at once."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            self.games.expect_phase(s, g, phase, "asked to process")
            if review_on(g.row.rules):
                return self._make(s, g, actor)
            return self._step(s, g, actor)

    def publish(self, name: str, actor: Viewer, phase: str | None) -> PhaseRecord:
        """Make the open preview the game's next phase; :class:`PreviewStale` if it
        no longer shows what publishing would make."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            row = self._open_for(s, g, phase, "asked to publish")
            why = self._stale(s, g, row)
            if why:
                raise PreviewStale(f"the preview of {g.phase.label} is out of date: {why}. "
                                   "Nothing was published; process again to see the "
                                   "results as they stand now.")
            return self._step(s, g, actor, expect=row)

    def discard(self, name: str, actor: Viewer, phase: str | None) -> str:
        """Drop the open preview; the game stays in its phase. Returns its label."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            row = self._open_for(s, g, phase, "asked to discard")
            row.closed_at, row.outcome = now(), "discarded"
            log_event(s, g.row, g.phase, actor, "review",
                      f"GM discarded the preview of {g.phase.label}")
            return g.phase.label

    def preview(self, name: str, actor: Viewer) -> Preview | None:
        """The open preview (GM only), or None."""
        require_gm(actor)
        with self.games.read(name) as (s, g):
            row = _open(s, g)
            return None if row is None else self._value(s, g, row)

    def claim_notice(self, name: str, preview: int, actor: Viewer) -> bool:
        """Record that the GM is told the open preview ``preview`` waits, unless that
        is recorded already: whether this caller should tell (one locked write, so
        of several bots, or a restarted one, one tells, once)."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            row = _open(s, g)
            if row is None or row.id != preview or row.told_at is not None:
                return False
            row.told_at = now()
            return True

    def pending(self, name: str) -> bool:
        """Whether results are being reviewed (public: a player's page says so,
        never what they are)."""
        with self.games.read(name) as (s, g):
            return _open(s, g) is not None

    def picture(self, name: str, actor: Viewer, fmt: str, board: str,
                max_width: int | None = None, palette: str | None = None) -> str | bytes:
        """The preview's results map (GM only)."""
        require_gm(actor)
        with self.games.read(name) as (s, g):
            row = _open(s, g)
            if row is None:
                raise ServiceError("there is no preview to draw: process the phase first")
            results = [result_from_dict(r) for r in row.results]
            return self.records.draw(s, g, g.position, results, None, fmt, board,
                                     f"{g.row.name} — preview for the GM", max_width, palette)

    # --- the scheduler -----------------------------------------------------------------

    def at_deadline(self, s: Session, g: LoadedGame) -> PhaseRecord | Preview | None:
        """The scheduler's step for a due game (in its transaction): without review,
        missed deadlines noted and the phase processed; with review, a preview made
        (a stale one made again), or after ``review_hours`` the phase processed.
        None: nothing to do yet (a preview waits for the GM)."""
        if not review_on(g.row.rules):
            self.note_missed(s, g)
            return self._step(s, g, SCHEDULER)
        first = s.scalar(select(func.min(PreviewRow.made_at)).where(
            PreviewRow.phase_id == g.phase.id, PreviewRow.made_by == str(SCHEDULER)))
        if first is None:
            self.note_missed(s, g)  # once, when the deadline is first met
        elif now() >= first + timedelta(hours=review_hours(g.row.rules)):
            return self._step(s, g, SCHEDULER)  # the GM did not publish in time
        row = _open(s, g)
        if row is not None and not self._stale(s, g, row):
            return None
        return self._make(s, g, SCHEDULER)

    # --- inside a transaction ------------------------------------------------------------

    def _make(self, s: Session, g: LoadedGame, actor: Viewer) -> Preview:
        result = self.processing.adjudicate(s, g)
        _close(s, g, "replaced")
        row = PreviewRow(game_id=g.row.id, phase_id=g.phase.id, made_by=str(actor),
                         last_event=_last_event(s, g),
                         results=[result_to_dict(r, why=True) for r in result.results],
                         events=list(result.events), secret=secret_part(result),
                         next_position=result.position.to_dict())
        s.add(row)
        s.flush()
        log_event(s, g.row, g.phase, actor, "review",
                  f"{g.phase.label} adjudicated into a preview for the GM's review")
        s.flush()
        row.last_event = _last_event(s, g)  # its own entry does not make it stale
        return self._value(s, g, row)

    def _step(self, s: Session, g: LoadedGame, actor: Viewer,
              expect: PreviewRow | None = None) -> PhaseRecord:
        """The one processing step; an open preview is closed as published (if it
        is what the step made) or replaced."""
        row = _open(s, g)
        record = self.processing.step(s, g, actor)
        if row is not None:
            made = s.scalars(select(AdjudicationRow.results).where(
                AdjudicationRow.phase_id == g.phase.id, AdjudicationRow.undone_at.is_(None))
                .order_by(AdjudicationRow.id.desc()).limit(1)).first()
            same = made == row.results
            if expect is not None and not same:  # cannot happen unless the engine changed
                raise PreviewStale("the preview no longer matches the adjudication; "
                                   "nothing was published, process again")
            row.closed_at, row.outcome = now(), "published" if same else "replaced"
        return record

    def _open_for(self, s: Session, g: LoadedGame, phase: str | None, doing: str
                  ) -> PreviewRow:
        self.games.expect_phase(s, g, phase, doing, "Nothing was done.")
        row = _open(s, g)
        if row is None:
            raise PhaseChanged(f"{doing} the preview of {g.phase.label}, but there is none "
                               "(already published or discarded, or never made: process "
                               "the phase first). Nothing was done.")
        return row

    @staticmethod
    def _stale(s: Session, g: LoadedGame, row: PreviewRow) -> str | None:
        if row.phase_id != g.phase.id:
            return f"the game is now at {g.phase.label}"
        later = s.scalars(select(EventRow).where(
            EventRow.game_id == g.row.id, EventRow.id > row.last_event,
            EventRow.kind.in_(STALE_KINDS)).order_by(EventRow.id).limit(1)).first()
        if later is None:
            return None
        return f"{later.summary} ({later.actor}, {later.at:%Y-%m-%d %H:%M} UTC) after it was made"

    def _value(self, s: Session, g: LoadedGame, row: PreviewRow) -> Preview:
        after = Position.from_dict(row.next_position)
        record = PhaseRecord.build(g.variant, g.rules, g.position, after,
                                   [result_from_dict(r) for r in row.results],
                                   tuple(row.events), row.secret, revealed=False,
                                   game=g.row.name, status=turn_status(g.variant, after, g.rules),
                                   seq=g.phase.seq)
        publish_by = None
        first = s.scalar(select(func.min(PreviewRow.made_at)).where(
            PreviewRow.phase_id == g.phase.id, PreviewRow.made_by == str(SCHEDULER)))
        if first is not None:
            publish_by = first + timedelta(hours=review_hours(g.row.rules))
        return Preview(row.id, g.row.name, g.phase.label, g.phase.code,
                       g.variant.phase_label(after.phase) if not after.result
                       else f"game over: {after.result}",
                       row.made_at, row.made_by, record, self._stale(s, g, row), publish_by)


def _open(s: Session, g: LoadedGame) -> PreviewRow | None:
    return s.scalars(select(PreviewRow).where(
        PreviewRow.game_id == g.row.id, PreviewRow.closed_at.is_(None))
        .order_by(PreviewRow.id.desc()).limit(1)).first()


def _close(s: Session, g: LoadedGame, outcome: str) -> None:
    for row in s.scalars(select(PreviewRow).where(PreviewRow.game_id == g.row.id,
                                                  PreviewRow.closed_at.is_(None))):
        row.closed_at, row.outcome = now(), outcome


def _last_event(s: Session, g: LoadedGame) -> int:
    return s.scalar(select(func.max(EventRow.id)).where(EventRow.game_id == g.row.id)) or 0
