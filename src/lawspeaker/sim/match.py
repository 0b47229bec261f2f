"""One whole game played by bots, and what the balance lab keeps of it.

:func:`play_match` seats a bot (by name) at every major power, asks each bot
for its powers' orders and DP every phase, adjudicates with the engine and
records a :class:`MatchRecord`: how the game ended, the centres of every power
at the end of every year, how often each centre changed hands, and the DP each
power spent on each neutral power. Everything is drawn from streams seeded by
the game's seed, so the same seed gives the same record anywhere.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.board import Position
from ..engine.phases import adjudicate, initial_position
from ..rules.census import centre_counts, survivors
from ..rules.dp import Allocation
from ..variants import Variant
from .bots import Bot, bot_named

__all__ = ["MatchRecord", "game_seed", "outcome", "play_match"]


@dataclass
class MatchRecord:
    """What the lab keeps of one game (plain data: it travels between processes)."""

    index: int
    seed: int
    result: str
    """How the game ended: the engine's result, or ``Cap: ...`` when the lab's
    year limit stopped it (the survivors draw, as S9 §3.3 has it)."""
    winners: list[str]
    drawn: list[str]
    eliminated: list[str]
    final_centres: dict[str, int]
    centres_by_year: list[dict[str, int]]
    """Centres (VP in Dissolution) per power at the start and after each year."""
    changes: dict[str, int] = field(default_factory=dict)
    """Supply centre -> how many times its owner changed."""
    dp: dict[str, dict[str, int]] = field(default_factory=dict)
    """Spending power -> neutral (DP-controlled) power -> DP allocated."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (the same on every machine)."""
    digest = hashlib.sha256(f"lawspeaker-lab:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_match(variant: Variant, seating: Mapping[str, str], seed: int, index: int = 0,
               max_years: int | None = None) -> MatchRecord:
    """Play one game with ``seating`` (power -> bot name; every major power
    must have one) for at most ``max_years`` years (default: until the game ends
    by its own rules, or 20 years)."""
    bots: dict[str, tuple[Bot, list[str], random.Random]] = {}
    for power in sorted(variant.powers):
        name = seating[power]
        if name not in bots:
            bots[name] = (bot_named(name), [], random.Random(f"{seed}:{name}"))
        bots[name][1].append(power)
    limit = max_years or variant.rules.max_years or 20
    last_year = variant.first_year + limit - 1
    position = initial_position(variant)
    by_year = [centre_counts(variant, position)]
    changes: dict[str, int] = {}
    dp: dict[str, dict[str, int]] = {}
    while position.result is None and position.phase.year <= last_year:
        orders = []
        allocations: list[Allocation] = []
        for bot, powers, rng in bots.values():
            moves = bot.play(variant, position, powers, rng)
            orders += moves.orders
            allocations += moves.allocations
        _count_dp(position, allocations, dp)
        following = adjudicate(variant, position, orders, None, allocations).position
        for prov, owner in following.owners.items():
            if position.owners.get(prov) != owner:
                changes[prov] = changes.get(prov, 0) + 1
        if following.phase.year != position.phase.year or following.result is not None:
            by_year.append(centre_counts(variant, following))
        position = following
    winners, drawn, result = outcome(variant, position)
    alive = set(survivors(variant, position))
    return MatchRecord(index, seed, result, winners, drawn,
                       sorted(p for p in variant.powers if p not in alive),
                       centre_counts(variant, position), by_year, dict(sorted(changes.items())),
                       dp)


def _count_dp(position: Position, allocations: list[Allocation],
              dp: dict[str, dict[str, int]]) -> None:
    for a in allocations:
        unit = position.units.get(a.order.province)
        if unit is not None:
            mine = dp.setdefault(a.power, {})
            mine[unit.power] = mine.get(unit.power, 0) + a.points


def outcome(variant: Variant, position: Position) -> tuple[list[str], list[str], str]:
    """The winners and the drawing powers of a finished (or stopped) game, and
    its result text."""
    result = position.result
    if result is None:
        alive = survivors(variant, position)
        return [], alive, "Cap: the survivors draw: " + ", ".join(alive)
    if result.startswith("Solo: "):
        text = result[len("Solo: "):]
        winner = next(p for p in sorted(variant.powers, key=len, reverse=True)
                      if text.startswith(p))
        return [winner], [], result
    if result.startswith("Draw: "):
        return [], [p for p in result[len("Draw: "):].split(", ") if p in variant.powers], \
            result
    return [], [], result
