"""What every bot is: a named player that gives orders and DP for its powers.

A bot is asked once per phase for the powers it plays and answers with
:class:`Moves`: the orders of those powers (their units, heirs, vassals they
control, Embassies) and their DP allocations. It is deterministic for the
``random.Random`` it is given; the game driver (:mod:`lawspeaker.sim.match`)
and the service give each bot a stream seeded from the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ...core.board import Position
from ...core.orders import Order
from ...rules.dp import Allocation
from ...variants import Variant

__all__ = ["Bot", "Moves"]


@dataclass(frozen=True)
class Moves:
    """A bot's answer for one phase."""

    orders: list[Order] = field(default_factory=list)
    allocations: list[Allocation] = field(default_factory=list)
    """Secret, as every player's DP: only the service and the GM see them."""

    def __add__(self, other: Moves) -> Moves:
        return Moves(self.orders + other.orders, self.allocations + other.allocations)


class Bot(Protocol):
    name: str

    def play(self, variant: Variant, position: Position, powers: Sequence[str],
             rng: random.Random) -> Moves:
        """Orders and DP for ``powers`` (major powers) in ``position``'s phase.
        Every order's and allocation's ``power`` is one of ``powers``."""
        ...
