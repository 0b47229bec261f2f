"""Many whole random games on several processes: what a variant designer's night of
simulations costs.

Plays ``--games`` seeded random games of a variant to its cycle cap
(``lawspeaker.sim.randomplay.play``: random legal orders and DP) on
``--processes`` worker processes and prints the wall time, games per second and
the time per game. It reports and never asserts.

The wall time covers everything from starting the workers to the last result:
the workers are forked from this process after it has loaded the variant (from
the compiled-variant cache when warm), so they start with the variant in memory;
the objects loaded so far are frozen out of the garbage collector first
(``gc.freeze``), so the workers' collections do not walk them and do not copy
their memory. Each game comes back as two numbers (its last year and the CPU
time it took), so nothing large is pickled. The CPU milliseconds per game and
the load average are printed too: on a shared machine the wall time is only
an upper bound, and games x CPU time / processes is what a quiet machine would
take.

    python benchmarks/bench_many_games.py --games 1000 --processes 2
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import random
import time

import lawspeaker
from lawspeaker.sim.randomplay import play

_VARIANT: lawspeaker.Variant | None = None


def _start(name: str) -> None:
    global _VARIANT
    if _VARIANT is None or _VARIANT.name != name:  # not inherited (another start method)
        _VARIANT = lawspeaker.load_variant(name)


def _game(seed: int) -> tuple[int, float]:
    """Play one game: the number of its last year (so the work cannot be skipped)
    and the CPU seconds it took."""
    assert _VARIANT is not None
    started = time.process_time()
    years = _VARIANT.rules.max_years or 10
    year = play(_VARIANT, random.Random(seed), years).phase.year
    return year, time.process_time() - started


def run(name: str, games: int, processes: int, seed: int) -> tuple[float, int, float]:
    """Seconds of wall time for ``games`` games, the sum of their last years, and
    the CPU seconds the games took in the workers."""
    global _VARIANT
    _VARIANT = lawspeaker.load_variant(name)  # inherited by the forked workers
    gc.collect()
    gc.freeze()
    try:
        started = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(processes, _start, (name,)) as pool:
            results = list(pool.imap_unordered(_game, range(seed, seed + games), chunksize=8))
        seconds = time.perf_counter() - started
    finally:
        gc.unfreeze()
    return seconds, sum(y for y, _ in results), sum(c for _, c in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="s9-complete")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    seconds, _, cpu = run(args.variant, args.games, args.processes, args.seed)
    per_game = cpu / args.games
    print(f"{args.variant}: {args.games} games on {args.processes} processes in "
          f"{seconds:.1f} s ({args.games / seconds:.0f} games/s, "
          f"{seconds / args.games * 1000 * args.processes:.0f} ms per game per process)")
    print(f"  CPU {per_game * 1000:.1f} ms per game in the workers: "
          f"{per_game * args.games / args.processes:.1f} s on {args.processes} free cores; "
          f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
