"""Deadlines: each phase runs for a set time, then the scheduler processes it.

The GM sets how long a phase runs, a grace period (how long late orders are
still awaited after the deadline) and the time zone deadlines are shown in.
Times are stored in UTC. A paused game keeps the time it had left and the
scheduler leaves it alone; resuming gives that time back. When a deadline
and its grace have passed, or every power due has said it is ready, the
scheduler processes the phase with the standing orders: a unit without an
order holds, and the adjudicator applies civil disorder as the rules say.

The scheduler is a function of the database alone (:meth:`Deadlines.process_due`),
so any number of server workers may call it: the game row is locked (PostgreSQL)
or the write serialised (SQLite), and the deadline is re-read inside that
transaction, so a phase is processed once. It processes with the service's
processing step (:meth:`lawspeaker.service.processing.Processing.step`), which
it is given as a callable: the deadlines know when, never how.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import BallotRow, GameRow, now
from .loader import GameLoader, LoadedGame, log_event, require_gm
from .status import expected_powers
from .types import MAX_MINUTES, SCHEDULER, ServiceError, Viewer

__all__ = ["Deadlines", "ProcessStep", "Schedule", "check_schedule", "check_timezone",
           "restart_deadline"]

ProcessStep = Callable[[Session, LoadedGame, Viewer], object]
"""The service's processing step: process a locked game in the caller's transaction
(None: nothing done yet, a preview waits for the GM's review)."""

log = logging.getLogger("lawspeaker.scheduler")



@dataclass(frozen=True, slots=True)
class Schedule:
    timezone: str
    phase_minutes: int | None
    grace_minutes: int
    deadline: datetime | None
    """The deadline in the game's time zone (aware), or None."""
    paused: bool
    left: timedelta | None = None
    """While paused: the time the phase had left."""

    def deadline_text(self) -> str:
        if self.paused:
            return "paused by the GM"
        if self.deadline is None:
            return "no deadline (the GM processes by hand)"
        return "deadline " + self.deadline.strftime("%a %d %b %Y %H:%M %Z")


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError(f"unknown time zone '{name}' (write e.g. UTC, "
                           "Europe/Berlin, America/New_York)") from None


def check_timezone(name: str) -> None:
    """Refuse an unknown time zone name (a front end checks before creating a game)."""
    _zone(name)


def check_schedule(phase_minutes: int | None, grace_minutes: int, timezone: str) -> None:
    """Refuse what :meth:`Deadlines.set_schedule` would refuse (a front end
    checks before creating a game, so a refused schedule creates nothing)."""
    _zone(timezone)
    _minutes(phase_minutes, "a phase's length", allow_zero=False)
    _minutes(grace_minutes, "the grace period", allow_zero=True)


def _minutes(value: int | None, what: str, allow_zero: bool) -> int | None:
    if value is None:
        return None
    value = int(value)
    if value < (0 if allow_zero else 1) or value > MAX_MINUTES:
        raise ServiceError(f"{what} must be {'0' if allow_zero else '1'} to {MAX_MINUTES} "
                           "minutes")
    return value


class Deadlines:
    """Deadlines, pause and resume, extensions, and the scheduler, which
    processes a due game with ``process`` (the service's processing step)."""

    def __init__(self, games: GameLoader, process: ProcessStep) -> None:
        self.games = games
        self.process = process

    def set_schedule(self, name: str, phase_minutes: int | None, grace_minutes: int,
                     timezone: str, actor: Viewer) -> Schedule:
        """How long each phase runs (None: no deadline), the grace period and
        the time zone; the current phase's deadline starts now."""
        require_gm(actor)
        _zone(timezone)
        phase_minutes = _minutes(phase_minutes, "a phase's length", allow_zero=False)
        grace = _minutes(grace_minutes, "the grace period", allow_zero=True) or 0
        with self.games.write(name) as (s, g):
            row = g.row
            row.phase_minutes, row.grace_minutes, row.timezone = phase_minutes, grace, timezone
            start = row.paused_at or now()
            row.deadline_at = start + timedelta(minutes=phase_minutes) if phase_minutes else None
            length = f"{_length(phase_minutes)} a phase" if phase_minutes else \
                "none (the GM processes by hand)"
            log_event(s, row, g.phase, actor, "deadline",
                      f"deadlines: {length}, grace {grace} min, time zone {timezone}")
        return self.schedule(name)

    def schedule(self, name: str) -> Schedule:
        """The game's deadline settings; public, as a GM's announcement is."""
        with self.games.read(name) as (_s, g):
            return _schedule(g.row)

    def pause(self, name: str, actor: Viewer) -> None:
        require_gm(actor)
        with self.games.write(name) as (s, g):
            if g.row.paused_at is not None:
                raise ServiceError("the game is already paused")
            g.row.paused_at = now()
            log_event(s, g.row, g.phase, actor, "pause", "GM paused the game")

    def resume(self, name: str, actor: Viewer) -> None:
        """Resume a paused game: the deadline moves by the time spent paused."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            if g.row.paused_at is None:
                raise ServiceError("the game is not paused")
            if g.row.deadline_at is not None:
                g.row.deadline_at += now() - g.row.paused_at
            g.row.paused_at = None
            log_event(s, g.row, g.phase, actor, "resume", "GM resumed the game")

    def extend(self, name: str, minutes: int, actor: Viewer) -> Schedule:
        """Move the current deadline later (or set one, ``minutes`` from now)."""
        require_gm(actor)
        minutes = _minutes(minutes, "an extension", allow_zero=False) or 0
        with self.games.write(name) as (s, g):
            base = g.row.deadline_at or (g.row.paused_at or now())
            g.row.deadline_at = base + timedelta(minutes=minutes)
            log_event(s, g.row, g.phase, actor, "deadline",
                      f"GM extended the deadline by {_length(minutes)}")
            return _schedule(g.row)

    def due_games(self, at: datetime | None = None) -> list[str]:
        """Games the scheduler should process now (a cheap query, then a check)."""
        at = at or now()
        with self.games.store.read() as s:
            names = s.scalars(select(GameRow.name).where(
                GameRow.deadline_at.is_not(None), GameRow.paused_at.is_(None))).all()
        return [n for n in names if self._is_due(n, at)]

    def process_due(self, at: datetime | None = None) -> list[str]:
        """Process every game whose deadline (and grace) passed, or whose
        powers are all ready. Safe to call from several workers at once."""
        done = []
        for name in self.due_games(at):
            try:
                with self.games.write(name) as (s, g):
                    if not _due(s, g, at or now()):
                        continue  # another worker processed it meanwhile
                    if self.process(s, g, SCHEDULER) is None:
                        continue  # a preview waits for the GM's review (service/review.py)
                done.append(name)
                log.info("processed %s at its deadline", name)
            except ServiceError as exc:
                log.warning("could not process %s at its deadline: %s", name, exc)
            except Exception as exc:  # a concurrent writer (SQLite busy): next tick
                log.info("skipped %s this tick: %s", name, str(exc).splitlines()[0])
        return done

    def _is_due(self, name: str, at: datetime) -> bool:
        with self.games.read(name) as (s, g):
            return _due(s, g, at)


def _due(s: Session, g: LoadedGame, at: datetime) -> bool:
    row = g.row
    if row.deadline_at is None or row.paused_at is not None or g.position.result:
        return False
    if at >= row.deadline_at + timedelta(minutes=row.grace_minutes or 0):
        return True
    expected = set(expected_powers(g.variant, g.position))
    ready = set(s.scalars(select(BallotRow.power).where(
        BallotRow.phase_id == g.phase.id, BallotRow.kind == "ready",
        BallotRow.value.is_(True))))
    return bool(expected) and expected <= ready


def restart_deadline(row: GameRow) -> None:
    """A new phase (processed, or rolled back to): its deadline starts now."""
    if row.phase_minutes:
        row.deadline_at = (row.paused_at or now()) + timedelta(minutes=row.phase_minutes)


def _schedule(row: GameRow) -> Schedule:
    zone = _zone(row.timezone or "UTC")
    deadline = None
    if row.deadline_at is not None:
        deadline = row.deadline_at.replace(tzinfo=UTC).astimezone(zone)
    left = None
    if row.paused_at is not None and row.deadline_at is not None:
        left = max(row.deadline_at - row.paused_at, timedelta(0))
    return Schedule(row.timezone, row.phase_minutes, row.grace_minutes or 0, deadline,
                    row.paused_at is not None, left)


def _length(minutes: int | None) -> str:
    if not minutes:
        return "no deadline"
    if minutes % (60 * 24) == 0:
        return f"{minutes // (60 * 24)} day(s)"
    if minutes % 60 == 0:
        return f"{minutes // 60} hour(s)"
    return f"{minutes} min"
