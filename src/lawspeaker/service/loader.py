"""Loading a game from the store, and locking it: the one way every other
part of the service reaches a game.

A write to a game is one transaction that first locks the game (PostgreSQL:
the game's row, ``SELECT ... FOR UPDATE``; SQLite: the write lock taken at
``BEGIN IMMEDIATE``) and only then reads it, so it writes against what it
read (docs/server.md, "Acknowledged means kept"). :meth:`GameLoader.write`
is that transaction; :meth:`GameLoader.read` is a read-only snapshot that
never waits for a writer. Kept in one place so no part of the service can
read a game before it holds the lock.

Beside the loader are the small checks every part shares: a power's name,
the house rules, "only the GM", a phase by name, and the log of events.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core.board import Position
from ..core.ruleset import Rules
from ..engine.game import Game
from ..store import Store
from ..store.models import EventRow, GameRow, PhaseRow
from ..variants import Variant, VariantError, load_variant
from .house_rules import engine_rules
from .types import NotFound, PhaseChanged, ServiceError, Viewer, require_gm

__all__ = ["GameLoader", "LoadedGame", "checked_power", "checked_rules", "engine_of",
           "find_phase", "log_event", "phase_code", "require_gm"]


@dataclass
class LoadedGame:
    """A game row with its variant, rules and current phase, in a session."""

    row: GameRow
    variant: Variant
    rules: Rules
    phase: PhaseRow
    position: Position
    phases: list[PhaseRow] = field(default_factory=list)
    """The live timeline, oldest first."""


class GameLoader:
    """The store, and the game as it stands in it: loaded in a snapshot, or
    locked in a write transaction before anything of it is read."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def read(self, name: str) -> Iterator[tuple[Session, LoadedGame]]:
        """The game in a read-only snapshot (never waits for a writer)."""
        with self.store.read() as s:
            yield s, self.load(s, name)

    @contextmanager
    def write(self, name: str) -> Iterator[tuple[Session, LoadedGame]]:
        """The game in a write transaction, its lock taken before it is read:
        committed at the end, rolled back on any error."""
        with self.store.transaction() as s:
            yield s, self.load(s, name, lock=True)

    def load(self, s: Session, name: str, lock: bool = False) -> LoadedGame:
        """The game as it stands. ``lock``: in a write transaction, lock the
        game's row first (PostgreSQL ``FOR UPDATE``; SQLite's write lock is
        already held), so every write to a game is serialised with every other
        and reads what it writes against."""
        query = select(GameRow).where(GameRow.name == name)
        if lock:
            if s.info.get("read_only"):
                raise RuntimeError("a game is locked only in a write transaction")
            query = query.with_for_update()
        row = s.scalar(query)
        if row is None:
            names = s.scalars(select(GameRow.name)).all()
            close = difflib.get_close_matches(name, names, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise NotFound(f"no game named '{name}'{hint}")
        try:
            variant = load_variant(row.variant)
        except VariantError as exc:
            raise ServiceError(f"game '{name}': its variant cannot be loaded: {exc}") from None
        phases = list(s.scalars(select(PhaseRow).where(
            PhaseRow.game_id == row.id, PhaseRow.undone_at.is_(None)).order_by(PhaseRow.seq)))
        phase = phases[-1]
        return LoadedGame(row, variant, checked_rules(variant, row.rules), phase,
                          Position.from_dict(phase.position), phases)

    def add_phase(self, s: Session, row: GameRow, variant: Variant, position: Position,
                  seq: int) -> PhaseRow:
        """A new phase of the game's timeline, starting at ``position``."""
        phase = PhaseRow(game_id=row.id, seq=seq, code=phase_code(position),
                         label=variant.phase_label(position.phase),
                         position=position.to_dict())
        s.add(phase)
        s.flush()
        return phase

    @staticmethod
    def expect_phase(s: Session, g: LoadedGame, wanted: str | None, doing: str,
                     outcome: str = "Nothing was done.") -> None:
        """Refuse, changing nothing, a request meant for a phase that is no
        longer the open one; the message names what happened and what is open."""
        if wanted is None or _phase_matches(g.phase, wanted):
            return
        then = [p for p in s.scalars(select(PhaseRow).where(PhaseRow.game_id == g.row.id)
                                     .order_by(PhaseRow.seq.desc(), PhaseRow.id.desc()))
                if _phase_matches(p, wanted)]
        now_open = f"the phase now open is {g.phase.label} ({g.phase.code})"
        if g.position.result:
            now_open = f"the game is over ({g.position.result})"
        if not then:
            raise PhaseChanged(f"{doing} '{wanted}', which is not a phase of this game; "
                               f"{now_open}. {outcome}")
        old = then[0]
        if old.seq < g.phase.seq:
            what = f"{old.label} ({old.code}) has already been processed"
        else:
            what = f"{old.label} ({old.code}) has been rolled back"
        raise PhaseChanged(f"{doing} {old.label}, but {what}; {now_open}. {outcome}")


def checked_rules(variant: Variant, rules: dict[str, Any]) -> Rules:
    """The variant's rules with the house rules applied, or a ServiceError."""
    try:
        return variant.rules.with_options(**engine_rules(rules))
    except ValueError as exc:
        raise ServiceError(str(exc)) from None


def checked_power(variant: Variant, power: str) -> str:
    """The power ``power`` names, exactly; never a guess (orders must not land
    on a power nobody named), but the error suggests the closest name."""
    try:
        return variant.power_named(power)
    except ValueError as exc:
        message = str(exc)
        if "did you mean" not in message:
            names = {p.lower(): p for p in variant.powers}
            close = difflib.get_close_matches(power.lower(), list(names), n=1)
            if close:
                message += f"; did you mean {names[close[0]]}?"
        raise ServiceError(message) from None


def engine_of(g: LoadedGame) -> Game:
    """The engine's view of the current position, to ask what is legal."""
    return Game(g.variant, g.rules, g.position)


def find_phase(g: LoadedGame, wanted: str | None) -> PhaseRow:
    """A live phase by code, label or number (None: the current one)."""
    if wanted is None:
        return g.phase
    text = wanted.strip().lower()
    for phase in g.phases:
        if text in (phase.code.lower(), phase.label.lower(), str(phase.seq)):
            return phase
    known = ", ".join(p.code for p in g.phases)
    raise NotFound(f"no phase '{wanted}' in this game (phases: {known})")


def log_event(s: Session, row: GameRow, phase: PhaseRow | None, actor: Viewer, kind: str,
              summary: str, **detail: Any) -> None:
    """One entry of the game's history (:meth:`Records.history` shows them)."""
    s.add(EventRow(game_id=row.id, phase_id=phase.id if phase else None, actor=str(actor),
                   kind=kind, summary=summary, detail=detail))


def phase_code(position: Position) -> str:
    phase = position.phase
    return f"{phase.season[:1].upper()}{phase.year}{phase.kind.value[:1].upper()}"


def _phase_matches(phase: PhaseRow, wanted: str) -> bool:
    text = wanted.strip().lower()
    return text in (phase.code.lower(), phase.label.lower())
