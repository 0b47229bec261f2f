"""Whole random games of the DP variants: how fast a variant designer can simulate.

Plays seeded random games (``lawspeaker.sim.randomplay.play``: random legal orders,
DP allocations, heir marriages, vassal orders and heir builds) to the end of
each variant's cycle cap, and prints milliseconds per game, phases per second
and where the time goes per phase kind. It reports and never asserts.
``--clock cpu`` times by this process's CPU time instead of the wall clock,
which a busy shared machine disturbs less. ``--profile N`` also cProfiles the
choosing of random orders (one more pass over the same games) and prints the
top N functions.

    python benchmarks/bench_dp_games.py --games 50 --seed 1
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections import Counter
from collections.abc import Callable

import lawspeaker
from lawspeaker.engine.phases import adjudicate
from lawspeaker.sim.randomplay import random_allocations, random_orders

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def bench(name: str, games: int, seed: int, clock: Callable[[], float] = time.perf_counter,
          profile: int = 0) -> None:
    variant = lawspeaker.load_variant(name)
    years = variant.rules.max_years or 10
    spent: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    choosing = 0.0
    started = clock()
    for n in range(games):
        rng = random.Random(seed + n)
        position = lawspeaker.initial_position(variant)
        while position.result is None and position.phase.year < variant.first_year + years:
            t0 = clock()
            orders = random_orders(variant, position, rng)
            allocations = random_allocations(variant, position, orders, rng)
            t1 = clock()
            result = adjudicate(variant, position, orders, variant.rules, allocations)
            t2 = clock()
            choosing += t1 - t0
            kind = position.phase.kind.value
            spent[kind] += t2 - t1
            phases[kind] += 1
            position = result.position
    total = clock() - started
    engine = sum(spent.values())
    print(f"{variant.title}: {games} games, {sum(phases.values())} phases, "
          f"{total / games * 1000:.1f} ms per game "
          f"({engine / games * 1000:.1f} ms adjudicating, {choosing / games * 1000:.1f} ms "
          "choosing random orders)")
    for kind in sorted(phases):
        print(f"  {kind:<10} {phases[kind]:>6} phases  "
              f"{phases[kind] / spent[kind]:>9.0f} phases/s adjudicated")
    if profile:
        _profile_choosing(variant, games, seed, years, profile)


def _profile_choosing(variant: lawspeaker.Variant, games: int, seed: int, years: int,
                      top: int) -> None:
    """cProfile choosing the orders of the same games, from the same random states."""
    turns = []
    for n in range(games):
        rng = random.Random(seed + n)
        position = lawspeaker.initial_position(variant)
        while position.result is None and position.phase.year < variant.first_year + years:
            state = rng.getstate()
            orders = random_orders(variant, position, rng)
            allocations = random_allocations(variant, position, orders, rng)
            turns.append((position, state))
            position = adjudicate(variant, position, orders, variant.rules,
                                  allocations).position
    profiler = cProfile.Profile()
    for position, state in turns:
        rng = random.Random()
        rng.setstate(state)
        profiler.enable()
        random_allocations(variant, position, random_orders(variant, position, rng), rng)
        profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="*", default=["s9-complete", "ood"])
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time by wall time (default) or by this process's CPU time")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also cProfile choosing the orders and print the top N functions")
    args = parser.parse_args()
    for name in args.variants:
        bench(name, args.games, args.seed, CLOCKS[args.clock], args.profile)


if __name__ == "__main__":
    main()
