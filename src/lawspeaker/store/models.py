"""The tables of the store, as SQLAlchemy 2 declarative models.

One game is a row in ``games`` with its timeline of ``phases`` (the position at
the start of each phase), the ``submissions`` players made in each phase (each
post kept as written, line by line, every version on record), the
``adjudications`` of each phase (results, Census events, neutral units'
chosen orders, and apart from them the secret DP part), and a log of
``events`` (who did what, when: GM actions the rulebooks name included).

Nothing is ever deleted: a rollback marks phases and adjudications
``undone_at`` and the GM processes again, so history is kept.
JSON columns hold the engine's own serialised values (positions, orders).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "AdjudicationRow",
    "BackdropRow",
    "BallotRow",
    "Base",
    "EventRow",
    "GameRow",
    "LineRow",
    "LinkRow",
    "PhaseRow",
    "PlayerRow",
    "PreviewRow",
    "SessionRow",
    "SettingRow",
    "SubmissionRow",
    "now",
]


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012 (SQLAlchemy reads it)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    variant: Mapped[str] = mapped_column(String(500))
    """A bundled variant's name, or the folder of one."""
    rules: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """House rules: the options this game sets over the variant's defaults."""
    dp_revealed: Mapped[bool] = mapped_column(default=False)
    """Unused since 0004: a reveal belongs to the phase it was made in (its
    ``reveal-dp`` event), so rolling back past it makes DP secret again."""
    created_at: Mapped[datetime] = mapped_column(default=now)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    """Where the GM reads deadlines (an IANA name); times are stored in UTC."""
    phase_minutes: Mapped[int | None] = mapped_column(default=None)
    """How long each phase runs; None: no deadline, the GM processes by hand."""
    grace_minutes: Mapped[int] = mapped_column(default=0, server_default="0")
    """How long after the deadline the scheduler still waits for late orders."""
    deadline_at: Mapped[datetime | None] = mapped_column(default=None)
    """The current phase's deadline (UTC), or None."""
    paused_at: Mapped[datetime | None] = mapped_column(default=None)
    """Set while the GM has paused the game: the scheduler leaves it alone."""
    draw_rule: Mapped[str] = mapped_column(String(20), default="unanimous",
                                           server_default="unanimous")
    """House rule for draw votes (the rulebooks leave draws to the house)."""

    players: Mapped[list[PlayerRow]] = relationship(back_populates="game",
                                                    order_by="PlayerRow.power")


class PlayerRow(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str] = mapped_column(String(100))
    player: Mapped[str] = mapped_column(String(200))

    game: Mapped[GameRow] = relationship(back_populates="players")


class PhaseRow(Base):
    __tablename__ = "phases"
    __table_args__ = (
        Index("ix_phases_game_seq", "game_id", "seq"),
        # One live phase per place in the history (migration 0003).
        Index("ux_phases_live_seq", "game_id", "seq", unique=True,
              sqlite_where=text("undone_at IS NULL"),
              postgresql_where=text("undone_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int]
    """Order in the game's timeline (rows created later have higher numbers)."""
    code: Mapped[str] = mapped_column(String(40))
    """A short name for the phase, unique among the live phases: ``S1901M``."""
    label: Mapped[str] = mapped_column(String(200))
    position: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)


class SubmissionRow(Base):
    __tablename__ = "submissions"
    __table_args__ = (Index("ix_submissions_phase_power", "phase_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id"))
    power: Mapped[str] = mapped_column(String(100))
    author: Mapped[str] = mapped_column(String(200))
    """Who submitted: ``gm`` or the power itself."""
    text: Mapped[str] = mapped_column(Text)
    """The post exactly as written."""
    submitted_at: Mapped[datetime] = mapped_column(default=now)

    lines: Mapped[list[LineRow]] = relationship(order_by="LineRow.number",
                                                cascade="all, delete-orphan")


class LineRow(Base):
    """One line of a submission: an order, a DP allocation, or an unreadable line."""

    __tablename__ = "submission_lines"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"))
    number: Mapped[int]
    text: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(20))
    """``order``, ``dp`` or ``unreadable``."""
    status: Mapped[str] = mapped_column(String(20))
    """``accepted``, ``illegal`` (kept: reported and the unit holds),
    ``rejected`` (a DP allocation breaking a rule) or ``unreadable``."""
    message: Mapped[str] = mapped_column(Text, default="")
    slot: Mapped[str | None] = mapped_column(String(100), default=None)
    """What a later line replaces: the unit (``A par``), ``heir asg``, ``dp par``."""
    order: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    points: Mapped[int | None] = mapped_column(default=None)


class AdjudicationRow(Base):
    __tablename__ = "adjudications"

    id: Mapped[int] = mapped_column(primary_key=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id"))
    processed_at: Mapped[datetime] = mapped_column(default=now)
    results: Mapped[list[Any]]
    """Public: every order's result, neutral units' chosen orders included."""
    events: Mapped[list[Any]]
    """Public: what the Census did."""
    secret: Mapped[dict[str, Any]]
    """GM only: the allocations, per-unit DP tallies and rejections."""
    undone_at: Mapped[datetime | None] = mapped_column(default=None)


class PreviewRow(Base):
    """A phase adjudicated for the GM's review and not yet published (the house
    rule ``review``): what the adjudication would write, kept apart from
    ``adjudications`` so that no path that shows published results can see it.
    Closed (``closed_at``) when published, discarded or replaced; never deleted."""

    __tablename__ = "previews"
    __table_args__ = (Index("ix_previews_game", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id"))
    made_at: Mapped[datetime] = mapped_column(default=now)
    made_by: Mapped[str] = mapped_column(String(200))
    last_event: Mapped[int] = mapped_column(default=0)
    """The game's newest event when the preview was made: a later post, rule
    change or rollback makes it stale."""
    results: Mapped[list[Any]]
    events: Mapped[list[Any]]
    secret: Mapped[dict[str, Any]]
    next_position: Mapped[dict[str, Any]]
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    outcome: Mapped[str | None] = mapped_column(String(20), default=None)
    """``published``, ``discarded`` or ``replaced`` once closed."""
    told_at: Mapped[datetime | None] = mapped_column(default=None)
    """When a front end told the GM it waits (one locked write: told once, by one bot)."""


class EventRow(Base):
    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id"), default=None)
    at: Mapped[datetime] = mapped_column(default=now)
    actor: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(40))
    """``created``, ``player``, ``submitted``, ``processed``, ``undone``,
    ``eliminate``, ``reveal-dp``, ``rule``."""
    summary: Mapped[str] = mapped_column(Text)
    """One public line; never secret (no DP, no unrevealed orders)."""
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)


class LinkRow(Base):
    """A secret link: who holds it acts as ``role`` (``gm`` or a power) in a
    game, or as the server's GM (``game_id`` None). Only a hash of the link's
    token is kept, so a copy of the database gives nobody a way in."""

    __tablename__ = "links"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), default=None)
    role: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class BallotRow(Base):
    """A power's flag in one phase: ``ready`` (done with its orders) or
    ``draw`` (a secret draw vote). Belongs to the phase, so each phase starts clear."""

    __tablename__ = "ballots"
    __table_args__ = (UniqueConstraint("phase_id", "power", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id"))
    power: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(20))
    value: Mapped[bool] = mapped_column(default=True)
    at: Mapped[datetime] = mapped_column(default=now)


class SessionRow(Base):
    """A browser's sign-in: its cookie names it, so signing out ends it on the
    server (a copied or replayed cookie stops working). Only a hash of the
    session's id is kept."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)


class SettingRow(Base):
    """Server-wide values every worker must share (never a secret: a copy of
    the database must grant nothing; the cookie key is kept outside it)."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ChatChannelRow(Base):
    """A chat channel (a Discord channel, ...) bound to a game: its public
    channel (``power`` None), where results are posted, or one power's private
    channel, where its player posts orders. ``announced_phase_id`` and
    ``reminded_phase_id`` say what the bot has already posted there, so a
    restart posts nothing twice."""

    __tablename__ = "chat_channels"
    __table_args__ = (UniqueConstraint("platform", "channel_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(20))
    channel_id: Mapped[str] = mapped_column(String(40))
    guild_id: Mapped[str] = mapped_column(String(40), default="")
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str | None] = mapped_column(String(100), default=None)
    announced_phase_id: Mapped[int | None] = mapped_column(default=None)
    reminded_phase_id: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=now)


class ChatMemberRow(Base):
    """A chat user (by the platform's user id) bound to a seat of a game:
    ``gm`` or a power. One seat per user per game."""

    __tablename__ = "chat_members"
    __table_args__ = (UniqueConstraint("platform", "game_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    role: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=now)


class BackdropRow(Base):
    """An official map image the GM uploaded for a game, with its calibrated
    layout (docs/maps.md): the newest one not removed is drawn under the
    game's maps. Kept in the database so every worker sees it, on SQLite and
    PostgreSQL alike; a replaced or removed one is kept, marked."""

    __tablename__ = "backdrops"
    __table_args__ = (Index("ix_backdrops_game", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    image: Mapped[bytes] = mapped_column(LargeBinary)
    media_type: Mapped[str] = mapped_column(String(20))
    layout: Mapped[str] = mapped_column(Text)
    """The layout file as uploaded (YAML)."""
    uploaded_at: Mapped[datetime] = mapped_column(default=now)
    removed_at: Mapped[datetime | None] = mapped_column(default=None)
