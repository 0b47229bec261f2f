"""``hold``: every unit holds and every heir holds; no DP spent. Dislodged
units, unordered, are disbanded, builds are waived and removals left to
civil disorder, as the rules do for a power that sends nothing else."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...core.board import PhaseKind, Position
from ...core.orders import HeirHold, Hold, Order
from ...variants import Variant
from .base import Moves

__all__ = ["HoldBot"]


class HoldBot:
    name = "hold"

    def play(self, variant: Variant, position: Position, powers: Sequence[str],
             rng: random.Random) -> Moves:
        if position.phase.kind is not PhaseKind.MOVEMENT:
            return Moves()
        mine = set(powers) - position.dropped
        orders: list[Order] = [Hold(u.power, u.type, u.location)
                               for _, u in sorted(position.units.items())
                               if u.power in mine and position.kind_of(u.power) == "major"]
        orders += [HeirHold(h.power, None, h.location) for h in position.heirs
                   if h.power in mine and not h.married]  # S9 §7.1
        return Moves(orders)
