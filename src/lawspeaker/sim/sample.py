"""A reproducible mid-game turn of any variant, to draw: for the docs'
pictures, the snapshot tests and the benchmark.

It plays random legal orders (and DP, where the variant has them) from the
start with a seeded generator, then takes the next movement phase, so the
picture has moves, supports, convoys, bounces and, in DP variants, minors,
thralls and heirs. Only the public part is returned: the position and the
results, never the allocations that chose the neutral units' orders.
"""

from __future__ import annotations

import random

from ..core.board import PhaseKind, Position
from ..core.results import OrderResult
from ..engine.phases import adjudicate, initial_position
from ..variants import Variant
from .randomplay import random_allocations, random_orders

__all__ = ["sample_turn"]


def sample_turn(variant: Variant, seed: int = 1, phases: int = 6
                ) -> tuple[Position, tuple[OrderResult, ...]]:
    """The position after about ``phases`` random phases (stopping at a
    movement phase) and the results of one more random movement phase."""
    rng = random.Random(seed)
    position = initial_position(variant)
    done = 0
    while True:
        orders = random_orders(variant, position, rng)
        allocations = random_allocations(variant, position, orders, rng) \
            if variant.uses("diplomacy_points") else []
        step = adjudicate(variant, position, orders, variant.rules, allocations)
        done += 1
        if (done > phases and position.phase.kind is PhaseKind.MOVEMENT) or step.position.result:
            return position, step.results
        position = step.position
