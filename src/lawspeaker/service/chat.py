"""Chat bindings: games bound to chat channels, chat users bound to seats.

A chat front end (the Discord bot, :mod:`lawspeaker.discord`) knows its users
and channels by the platform's ids. This part keeps, in the store, which
channel is a game's public channel (results are posted there) and which is a
power's private channel (its player posts orders there), and which user holds
which seat (``gm`` or a power) in a game. It knows no chat platform: a
platform is only a name (``discord``) that keeps the ids of one apart from
another's.

The seat a user holds is turned into a :class:`Viewer` here and nowhere else
(:meth:`ChatBindings.viewer`), as :mod:`.access` does for secret links: who
may see and do what stays the service's decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import ChatChannelRow, ChatMemberRow, GameRow, PhaseRow
from .loader import GameLoader, checked_power, log_event, require_gm
from .types import GM, PUBLIC, NotFound, ServiceError, Viewer

__all__ = ["ChannelBinding", "ChatBindings", "Seat"]


@dataclass(frozen=True, slots=True)
class ChannelBinding:
    """A channel bound to a game: its public channel (``power`` None) or a power's."""

    platform: str
    channel: str
    guild: str
    game: str
    power: str | None
    announced_phase_id: int | None
    reminded_phase_id: int | None


@dataclass(frozen=True, slots=True)
class Seat:
    """A user's seat in a game: ``gm`` or a power."""

    game: str
    role: str
    user: str

    @property
    def viewer(self) -> Viewer:
        return GM if self.role == "gm" else Viewer.of(self.role)


class ChatBindings:
    """Bind channels and users; answer who a user is in a game."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    # --- channels ---------------------------------------------------------------------

    def bind_channel(self, platform: str, guild: str, channel: str, name: str,
                     power: str | None, actor: Viewer) -> ChannelBinding:
        """Bind ``channel`` as game ``name``'s public channel (``power`` None)
        or as ``power``'s private channel (GM only). A channel serves one game
        and one purpose; binding it again moves it. The public channel starts
        as announced: the bot posts from the next phase on."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            if power is not None:
                power = checked_power(g.variant, power)
            row = s.scalar(select(ChatChannelRow).where(
                ChatChannelRow.platform == platform, ChatChannelRow.channel_id == channel))
            if row is None:
                row = ChatChannelRow(platform=platform, channel_id=channel)
                s.add(row)
            row.guild_id, row.game_id, row.power = guild, g.row.id, power
            row.announced_phase_id = g.phase.id
            row.reminded_phase_id = None
            what = f"{power}'s private channel" if power else "its public channel"
            log_event(s, g.row, None, actor, "chat", f"a {platform} channel is {what}")
            s.flush()
            return _binding(row, g.row.name)

    def unbind_channel(self, platform: str, channel: str, actor: Viewer) -> str:
        """Unbind a channel; ``actor`` is who asks in the channel's game (its GM
        only). Returns the game's name."""
        require_gm(actor)
        with self.games.store.transaction() as s:
            row = s.scalar(select(ChatChannelRow).where(
                ChatChannelRow.platform == platform, ChatChannelRow.channel_id == channel))
            if row is None:
                raise NotFound("this channel is not bound to a game")
            name = s.get(GameRow, row.game_id).name
            s.delete(row)
            return name

    def channel(self, platform: str, channel: str) -> ChannelBinding | None:
        with self.games.store.read() as s:
            row = s.scalar(select(ChatChannelRow).where(
                ChatChannelRow.platform == platform, ChatChannelRow.channel_id == channel))
            if row is None:
                return None
            return _binding(row, s.get(GameRow, row.game_id).name)

    def channels(self, platform: str, name: str | None = None) -> list[ChannelBinding]:
        """Every bound channel of the platform (of one game, with ``name``)."""
        with self.games.store.read() as s:
            query = select(ChatChannelRow, GameRow.name).join(
                GameRow, GameRow.id == ChatChannelRow.game_id).where(
                ChatChannelRow.platform == platform)
            if name is not None:
                query = query.where(GameRow.name == name)
            return [_binding(row, game) for row, game in
                    s.execute(query.order_by(ChatChannelRow.id))]

    def claim(self, platform: str, channel: str, what: str, phase_id: int
              ) -> tuple[bool, int | None]:
        """Record that the bot posts ``what`` (``announced`` or ``reminded``)
        for phase ``phase_id`` in a channel, unless that is already recorded:
        (whether this caller claimed it, the phase recorded before). One
        locked write, so of several bots on one database one posts."""
        if what not in ("announced", "reminded"):
            raise ValueError(what)
        column = f"{what}_phase_id"
        with self.games.store.transaction() as s:
            row = s.scalar(select(ChatChannelRow).where(
                ChatChannelRow.platform == platform, ChatChannelRow.channel_id == channel)
                .with_for_update())
            if row is None:
                return False, None
            before = getattr(row, column)
            if before == phase_id:
                return False, before
            setattr(row, column, phase_id)
            return True, before

    # --- members ----------------------------------------------------------------------

    def bind_member(self, platform: str, user: str, name: str, role: str,
                    actor: Viewer) -> Seat:
        """Give ``user`` the seat ``role`` (``gm`` or a power) in game ``name``
        (GM only). A power has one player: whoever held it before loses it
        (as a replaced player's secret link stops working). A user holds one
        seat per game."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            role = "gm" if role.strip().lower() == "gm" else checked_power(g.variant, role)
            rows = s.scalars(select(ChatMemberRow).where(
                ChatMemberRow.platform == platform, ChatMemberRow.game_id == g.row.id))
            for row in rows:
                if row.user_id == user or (role != "gm" and row.role == role):
                    s.delete(row)
            s.flush()
            s.add(ChatMemberRow(platform=platform, user_id=user, game_id=g.row.id, role=role))
            log_event(s, g.row, None, actor, "chat", f"a {platform} user holds the seat {role}")
            return Seat(g.row.name, role, user)

    def unbind_member(self, platform: str, user: str, name: str, actor: Viewer) -> None:
        require_gm(actor)
        with self.games.write(name) as (s, g):
            for row in s.scalars(select(ChatMemberRow).where(
                    ChatMemberRow.platform == platform, ChatMemberRow.game_id == g.row.id,
                    ChatMemberRow.user_id == user)):
                s.delete(row)

    def seat(self, platform: str, user: str, name: str) -> Seat | None:
        with self.games.store.read() as s:
            return _seat(s, platform, user, name)

    def viewer(self, platform: str, user: str, name: str) -> Viewer:
        """Who ``user`` is in game ``name``: the GM, a power's player, or the public."""
        seat = self.seat(platform, user, name)
        return PUBLIC if seat is None else seat.viewer

    def seats_of(self, platform: str, user: str) -> list[Seat]:
        """Every seat the user holds, in games not finished, oldest game first."""
        with self.games.store.read() as s:
            rows = s.execute(select(ChatMemberRow, GameRow).join(
                GameRow, GameRow.id == ChatMemberRow.game_id).where(
                ChatMemberRow.platform == platform, ChatMemberRow.user_id == user)
                .order_by(GameRow.id)).all()
            out = []
            for member, game in rows:
                phase = s.scalars(select(PhaseRow).where(
                    PhaseRow.game_id == game.id, PhaseRow.undone_at.is_(None))
                    .order_by(PhaseRow.seq.desc()).limit(1)).first()
                if phase is not None and not phase.position.get("result"):
                    out.append(Seat(game.name, member.role, user))
            return out

    def holders(self, platform: str, name: str) -> dict[str, list[str]]:
        """The users of each seat of a game (``gm`` may have several)."""
        with self.games.store.read() as s:
            game_id = s.scalar(select(GameRow.id).where(GameRow.name == name))
            if game_id is None:
                raise ServiceError(f"no game named '{name}'")
            out: dict[str, list[str]] = {}
            for row in s.scalars(select(ChatMemberRow).where(
                    ChatMemberRow.platform == platform, ChatMemberRow.game_id == game_id)
                    .order_by(ChatMemberRow.id)):
                out.setdefault(row.role, []).append(row.user_id)
            return out


def _seat(s: Session, platform: str, user: str, name: str) -> Seat | None:
    row = s.scalar(select(ChatMemberRow).join(GameRow, GameRow.id == ChatMemberRow.game_id)
                   .where(ChatMemberRow.platform == platform, ChatMemberRow.user_id == user,
                          GameRow.name == name))
    return None if row is None else Seat(name, row.role, user)


def _binding(row: ChatChannelRow, game: str) -> ChannelBinding:
    return ChannelBinding(row.platform, row.channel_id, row.guild_id, game, row.power,
                          row.announced_phase_id, row.reminded_phase_id)
