"""Secret links: identity without passwords to keep.

A PbF GM already sends each player a private message; the server's version
of that is a link with a random token. Whoever opens it acts as its role (a
power, or the GM) in its game; the server's own GM link (no game) may create
games and is GM of every game on the server. Only a SHA-256 hash of each
token is stored, so a leaked database copy opens nothing, and a link is
revoked by marking its row (issuing a new link for a seat revokes the old
one: a replaced player's link stops working at once).

:class:`Access` is this part of :class:`lawspeaker.service.GameService`;
front ends turn a token into a :class:`Viewer` here and nowhere else.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import GameRow, LinkRow, SessionRow, now
from .loader import GameLoader, checked_power, log_event, require_gm
from .types import GM, NotFound, Viewer

__all__ = ["SESSION_DAYS", "Access", "Grant", "hash_token"]

SESSION_DAYS = 60
"""How long a browser stays signed in (its cookie lives as long)."""
SERVER_GM = "server-gm"
"""The role of the server's GM link (``game_id`` None)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True, slots=True)
class Grant:
    """What one link gives: a viewer in one game, or GM everywhere (``game`` None)."""

    link_id: int
    game: str | None
    viewer: Viewer

    def viewer_in(self, game: str) -> Viewer | None:
        if self.game is None:
            return GM
        return self.viewer if self.game == game else None


class Access:
    """Issue, check and revoke secret links; open and end browser sessions."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def issue_link(self, name: str | None, role: str, actor: Viewer) -> str:
        """A new secret link token for ``role`` (``gm`` or a power) in game
        ``name``, or the server's GM link with ``name`` None. Earlier links of
        the same seat are revoked. The token is returned once and never stored."""
        require_gm(actor)
        token = secrets.token_urlsafe(24)
        with self.games.store.transaction() as s:
            game_id = None
            if name is None:
                role = SERVER_GM
            else:
                g = self.games.load(s, name, lock=True)
                game_id = g.row.id
                role = "gm" if role.strip().lower() == "gm" else checked_power(g.variant, role)
            for old in s.scalars(select(LinkRow).where(
                    LinkRow.game_id.is_(None) if game_id is None else LinkRow.game_id == game_id,
                    LinkRow.role == role, LinkRow.revoked_at.is_(None))):
                old.revoked_at = now()
            s.add(LinkRow(game_id=game_id, role=role, token_hash=hash_token(token)))
            if name is not None:
                log_event(s, g.row, None, actor, "link", f"a new secret link for {role}")
        return token

    def revoke_links(self, name: str, role: str, actor: Viewer) -> int:
        """Revoke every live link of a seat; returns how many."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            role = "gm" if role.strip().lower() == "gm" else checked_power(g.variant, role)
            rows = list(s.scalars(select(LinkRow).where(
                LinkRow.game_id == g.row.id, LinkRow.role == role,
                LinkRow.revoked_at.is_(None))))
            for row in rows:
                row.revoked_at = now()
            if rows:
                log_event(s, g.row, None, actor, "link", f"secret link for {role} revoked")
            return len(rows)

    def linked_seats(self, name: str, actor: Viewer) -> list[str]:
        """The seats (``gm``, powers) that have a live link (GM only)."""
        require_gm(actor)
        with self.games.read(name) as (s, g):
            return sorted(set(s.scalars(select(LinkRow.role).where(
                LinkRow.game_id == g.row.id, LinkRow.revoked_at.is_(None)))))

    def redeem(self, token: str) -> Grant:
        """What a link's token grants; :class:`NotFound` if it is unknown or revoked."""
        if not token or len(token) > 200:
            raise NotFound("this link is not valid (revoked, mistyped or from another server)")
        with self.games.store.read() as s:
            row = s.scalar(select(LinkRow).where(LinkRow.token_hash == hash_token(token),
                                                 LinkRow.revoked_at.is_(None)))
            if row is None:
                raise NotFound("this link is not valid (revoked, mistyped or from another "
                               "server)")
            return self._grant(s, row)

    def grant(self, link_id: int) -> Grant | None:
        """A session's link checked again (each request): None once revoked."""
        with self.games.store.read() as s:
            row = s.get(LinkRow, link_id)
            if row is None or row.revoked_at is not None:
                return None
            return self._grant(s, row)

    @staticmethod
    def _grant(s: Session, row: LinkRow) -> Grant:
        if row.game_id is None:
            return Grant(row.id, None, GM)
        game = s.get(GameRow, row.game_id)
        viewer = GM if row.role == "gm" else Viewer.of(row.role)
        return Grant(row.id, game.name, viewer)

    # --- browser sessions -------------------------------------------------------------

    def open_session(self) -> str:
        """A new browser session's id (random, 192 bits; only its hash is kept)."""
        sid = secrets.token_urlsafe(24)
        with self.games.store.transaction() as s:
            s.add(SessionRow(id_hash=hash_token(sid)))
        return sid

    def session_live(self, sid: object) -> bool:
        """Whether a cookie's session is one this server opened and nobody ended."""
        if not isinstance(sid, str) or not sid or len(sid) > 100:
            return False
        with self.games.store.read() as s:
            row = s.get(SessionRow, hash_token(sid))
            return row is not None and row.ended_at is None and \
                row.created_at > now() - timedelta(days=SESSION_DAYS)

    def end_session(self, sid: object) -> None:
        """Sign a browser out on the server: its cookie, even a copy, opens nothing."""
        if not isinstance(sid, str) or not sid or len(sid) > 100:
            return
        with self.games.store.transaction() as s:
            row = s.get(SessionRow, hash_token(sid))
            if row is not None and row.ended_at is None:
                row.ended_at = now()
