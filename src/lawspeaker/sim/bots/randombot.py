"""``random``: random legal orders and DP as :mod:`lawspeaker.sim.randomplay`
chooses them, kept to the bot's own powers, with some of its armies moved by
convoy along its own fleets (and wings) instead (:mod:`.convoying`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...core.board import Position
from ...variants import Variant
from ..randomplay import random_allocations, random_orders
from .base import Moves
from .convoying import add_convoys

__all__ = ["RandomBot"]


class RandomBot:
    name = "random"

    def play(self, variant: Variant, position: Position, powers: Sequence[str],
             rng: random.Random) -> Moves:
        mine = set(powers)
        orders = [o for o in random_orders(variant, position, rng) if o.power in mine]
        orders = add_convoys(variant, position, orders, sorted(mine), rng)
        allocations = random_allocations(variant, position, orders, rng) \
            if variant.uses("diplomacy_points") else []
        return Moves(orders, [a for a in allocations if a.power in mine])
