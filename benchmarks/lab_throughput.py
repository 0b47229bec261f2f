"""The balance lab's throughput: games per second per core, per variant, and how a
run scales with local workers (issue 22). Reports; does not assert.

    python benchmarks/lab_throughput.py --games 40 --scaling-games 200

For each variant, ``--games`` games on one worker, all seats ``random``, and the
same with ``tactician`` at the first power; then S9 Complete (all ``random``) on
1 and 2 workers. The machine's load average is printed beside each figure: on a
shared machine the figures are lower bounds.
"""

from __future__ import annotations

import argparse
import os
import time

from lawspeaker.sim.lab import LabSpec, run_lab
from lawspeaker.variants import load_variant

VARIANTS = ["standard", "s9-basic", "s9-complete", "ood", "dissolution"]


def timed(spec: LabSpec, workers: int) -> float:
    start = time.perf_counter()
    run_lab(spec, workers)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--scaling-games", type=int, default=200)
    ap.add_argument("--max-years", type=int, default=10)
    args = ap.parse_args()
    print(f"{args.games} games per figure, at most {args.max_years} years\n")
    print("| variant | all random: games/s/core | tactician + random: games/s/core | load |")
    print("| --- | ---: | ---: | ---: |")
    for name in VARIANTS:
        first = sorted(load_variant(name).powers)[0]
        rand = LabSpec.build(name, args.games, 1, {}, "random", args.max_years)
        tact = LabSpec.build(name, args.games, 1, {first: "tactician"}, "random",
                             args.max_years)
        a, b = timed(rand, 1), timed(tact, 1)
        print(f"| {name} | {args.games / a:.2f} | {args.games / b:.2f} | "
              f"{os.getloadavg()[0]:.1f} |", flush=True)
    print("\n| S9 Complete, all random | workers | games/s | speed-up | load |")
    print("| --- | ---: | ---: | ---: | ---: |")
    spec = LabSpec.build("s9-complete", args.scaling_games, 2, {}, "random")
    base = None
    for workers in (1, 2):
        took = timed(spec, workers)
        base = base or took
        print(f"| {args.scaling_games} games | {workers} | {args.scaling_games / took:.2f} | "
              f"{base / took:.2f}x | {os.getloadavg()[0]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
