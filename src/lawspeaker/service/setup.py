"""Games themselves: creating one, what each is (variant, house rules,
players, phase), the position of any phase, and the house rules in force.

A game starts from its variant and the GM's house rules, which may shape
the start itself (Dissolution §11.2: the GM's Embassy setup); a house rule
changed later applies from the current phase on.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..core.board import Position
from ..engine.phases import initial_position
from ..store.models import GameRow
from ..variants import Variant, VariantError, load_variant
from .house_rules import service_rules_in_force
from .loader import GameLoader, checked_rules, find_phase, log_event, require_gm
from .seats import Seats
from .types import GameInfo, ServiceError, Viewer, checked_name

__all__ = ["GameSetup"]


class GameSetup:
    """Create games and say what they are; the house rules of each."""

    def __init__(self, games: GameLoader, seats: Seats) -> None:
        self.games = games
        self.seats = seats

    def create_game(self, variant: str, name: str, rules: dict[str, str] | None,
                    players: dict[str, str] | None, actor: Viewer) -> GameInfo:
        require_gm(actor)
        name = checked_name(name, "a game name", 100, in_url=True)
        try:
            var = load_variant(variant)
        except VariantError as exc:
            raise ServiceError(str(exc)) from None
        rules = dict(rules or {})
        house = checked_rules(var, rules)
        try:  # house rules may shape the start (Dissolution §11.2: the GM's Embassy setup)
            position = initial_position(var, house)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        with self.games.store.transaction() as s:
            if s.scalar(select(GameRow.id).where(GameRow.name == name)) is not None:
                raise ServiceError(f"there is already a game named '{name}'")
            where = var.name if _bundled(var) else str(var.path)
            row = GameRow(name=name, variant=where, rules=rules)
            s.add(row)
            try:
                s.flush()
            except IntegrityError:  # PostgreSQL: another GM created it this moment
                raise ServiceError(f"there is already a game named '{name}'") from None
            phase = self.games.add_phase(s, row, var, position, 1)
            log_event(s, row, phase, actor, "created",
                      f"{var.title} game '{name}' created"
                      + (f" with house rules {_pairs(rules)}" if rules else ""))
            for power, player in (players or {}).items():
                self.seats.assign(s, row, var, power, player, actor)
        return self.game(name)

    def list_games(self) -> list[GameInfo]:
        with self.games.store.read() as s:
            names = s.scalars(select(GameRow.name).order_by(GameRow.name)).all()
        return [self.game(n) for n in names]

    def game(self, name: str) -> GameInfo:
        with self.games.read(name) as (_s, g):
            return GameInfo(g.row.name, g.variant.name, g.variant.title, dict(g.row.rules),
                            g.variant.phase_label(g.position.phase), g.phase.code,
                            g.position.result, {p.power: p.player for p in g.row.players},
                            g.row.created_at)

    def variant_of(self, name: str) -> Variant:
        with self.games.read(name) as (_s, g):
            return g.variant

    def position(self, name: str, phase: str | None) -> Position:
        """The position at the start of a phase (positions are public)."""
        with self.games.read(name) as (_s, g):
            return Position.from_dict(find_phase(g, phase).position)

    def set_rule(self, name: str, key: str, value: str, actor: Viewer) -> None:
        """Change a house rule; it applies from the current phase on."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            rules = {**g.row.rules, key: value}
            checked_rules(g.variant, rules)
            old = g.row.rules.get(key, "(variant default)")
            g.row.rules = rules
            log_event(s, g.row, g.phase, actor, "rule", f"house rule {key}: {old} -> {value}")

    def rules_in_force(self, name: str) -> list[tuple[str, str, bool]]:
        """Every rules option of the game (public, as a GM's announcement is):
        (option, value, whether a house rule of this game sets it)."""
        with self.games.read(name) as (_s, g):
            house = set(g.row.rules)
            out = []
            for f in fields(g.rules):
                value = getattr(g.rules, f.name)
                text = "none" if value is None else "yes" if value is True \
                    else "no" if value is False else str(value)
                out.append((f.name, text, f.name in house))
            return out + service_rules_in_force(g.row.rules)


def _bundled(variant: Variant) -> bool:
    from ..variants import VARIANTS_DIR

    return variant.path is not None and variant.path.parent == VARIANTS_DIR


def _pairs(rules: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.items()))
