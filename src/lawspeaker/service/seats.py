"""The powers' seats: who plays each power, and the GM's rulings when a
player leaves (a dropped player's power eliminated at the next Census, a
Player in Exile removed from the game).

Each is a GM action on one game, recorded in its history; the rulings change
the current phase's position, as the rulebooks say they do.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..store.models import GameRow, PlayerRow
from ..variants import Variant
from .loader import GameLoader, checked_power, engine_of, log_event, require_gm
from .types import ServiceError, Viewer, checked_name

__all__ = ["Seats"]


class Seats:
    """Players of the powers, and the GM's drops and removals."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def set_player(self, name: str, power: str, player: str, actor: Viewer) -> None:
        require_gm(actor)
        with self.games.write(name) as (s, g):
            self.assign(s, g.row, g.variant, power, player, actor)

    def assign(self, s: Session, row: GameRow, variant: Variant, power: str, player: str,
               actor: Viewer) -> str:
        """Name ``player`` as ``power``'s player in the caller's transaction; the
        power's exact name."""
        power = checked_power(variant, power)
        player = checked_name(player, "a player's name", 200)
        existing = s.scalar(select(PlayerRow).where(PlayerRow.game_id == row.id,
                                                    PlayerRow.power == power))
        if existing is None:
            s.add(PlayerRow(game_id=row.id, power=power, player=player))
        else:
            existing.player = player
        try:
            s.flush()
        except IntegrityError:  # pragma: no cover - two GMs at once
            raise ServiceError(f"{power} was assigned at the same time; try again") from None
        log_event(s, row, None, actor, "player", f"{power} is played by {player}")
        return power

    def force_elimination(self, name: str, power: str, actor: Viewer) -> None:
        """A dropped player's power undergoes early elimination at the next
        Census (S9 §3.4.2; OOD §3.3.2). Recorded in the history."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            game = engine_of(g)
            try:
                game.force_elimination(power)
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
            who = g.variant.power_named(power)
            g.phase.position = game.position.to_dict()
            log_event(s, g.row, g.phase, actor, "eliminate",
                      f"GM: {who} dropped; eliminated at the next Census")

    def remove_exile(self, name: str, power: str, actor: Viewer) -> None:
        """Strip a Player in Exile of its DP privileges, removing it from the
        game entirely (Dissolution §5.3). Recorded in the history."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            who = checked_power(g.variant, power)
            if who not in g.position.exiles:
                raise ServiceError(f"{who} is not a Player in Exile (Dissolution §5.3)")
            position = g.position.replace(exiles=g.position.exiles - {who},
                                          removed=g.position.removed | {who})
            g.phase.position = position.to_dict()
            log_event(s, g.row, g.phase, actor, "remove-exile",
                      f"GM: {who}, in exile, is removed from the game (no more DP)")
