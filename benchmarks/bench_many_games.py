"""Many whole random games on several processes: what a variant designer's night of
simulations costs.

Plays ``--games`` seeded random games of a variant to its cycle cap
(``lawspeaker.sim.randomplay.play``: random legal orders and DP) on
``--processes`` worker processes and prints the wall time, games per second and
the time per game. Each worker loads the variant once (from the compiled-variant
cache when warm). It reports and never asserts.

    python benchmarks/bench_many_games.py --games 1000 --processes 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

import lawspeaker
from lawspeaker.sim.randomplay import play

_VARIANT: lawspeaker.Variant | None = None


def _start(name: str) -> None:
    global _VARIANT
    _VARIANT = lawspeaker.load_variant(name)


def _game(seed: int) -> int:
    """Play one game; the number of its last year (so the work cannot be skipped)."""
    assert _VARIANT is not None
    years = _VARIANT.rules.max_years or 10
    return play(_VARIANT, random.Random(seed), years).phase.year


def run(name: str, games: int, processes: int, seed: int) -> tuple[float, int]:
    """Seconds of wall time for ``games`` games, and the sum of their last years."""
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(processes, _start, (name,)) as pool:
        years = sum(pool.imap_unordered(_game, range(seed, seed + games), chunksize=8))
    return time.perf_counter() - started, years


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="s9-complete")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lawspeaker.load_variant(args.variant)  # the compiled-variant cache is warm for the workers
    seconds, _ = run(args.variant, args.games, args.processes, args.seed)
    print(f"{args.variant}: {args.games} games on {args.processes} processes in "
          f"{seconds:.1f} s ({args.games / seconds:.0f} games/s, "
          f"{seconds / args.games * 1000 * args.processes:.0f} ms per game per process)")


if __name__ == "__main__":
    main()
