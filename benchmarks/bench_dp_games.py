"""Whole random games of the DP variants: how fast a variant designer can simulate.

Plays seeded random games (``lawspeaker.sim.randomplay.play``: random legal orders,
DP allocations, heir marriages, vassal orders and heir builds) to the end of
each variant's cycle cap, and prints milliseconds per game, phases per second
and where the time goes per phase kind. It reports and never asserts.

    python benchmarks/bench_dp_games.py --games 50 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import lawspeaker
from lawspeaker.engine.phases import adjudicate
from lawspeaker.sim.randomplay import random_allocations, random_orders


def bench(name: str, games: int, seed: int) -> None:
    variant = lawspeaker.load_variant(name)
    years = variant.rules.max_years or 10
    spent: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    choosing = 0.0
    started = time.perf_counter()
    for n in range(games):
        rng = random.Random(seed + n)
        position = lawspeaker.initial_position(variant)
        while position.result is None and position.phase.year < variant.first_year + years:
            t0 = time.perf_counter()
            orders = random_orders(variant, position, rng)
            allocations = random_allocations(variant, position, orders, rng)
            t1 = time.perf_counter()
            result = adjudicate(variant, position, orders, variant.rules, allocations)
            t2 = time.perf_counter()
            choosing += t1 - t0
            kind = position.phase.kind.value
            spent[kind] += t2 - t1
            phases[kind] += 1
            position = result.position
    total = time.perf_counter() - started
    engine = sum(spent.values())
    print(f"{variant.title}: {games} games, {sum(phases.values())} phases, "
          f"{total / games * 1000:.1f} ms per game "
          f"({engine / games * 1000:.1f} ms adjudicating, {choosing / games * 1000:.1f} ms "
          "choosing random orders)")
    for kind in sorted(phases):
        print(f"  {kind:<10} {phases[kind]:>6} phases  "
              f"{phases[kind] / spent[kind]:>9.0f} phases/s adjudicated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="*", default=["s9-complete", "ood"])
    args = parser.parse_args()
    for name in args.variants:
        bench(name, args.games, args.seed)


if __name__ == "__main__":
    main()
