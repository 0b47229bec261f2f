"""The tactician against random, for every power of every variant (issue 22).

For each power, the balance lab (:mod:`lawspeaker.sim.lab`) plays ``--games``
games with ``tactician`` at that power and ``random`` everywhere else, and
this prints a Markdown table: the share of games the tactician's power ended
with the most centres (ties counting), its solo wins, and the seconds per game.
It reports; it does not assert (tests/test_bots.py and tests/test_lab.py do).

    python benchmarks/lab_strength.py --games 20 --max-years 10 --workers 2
"""

from __future__ import annotations

import argparse
import time

from lawspeaker.sim.lab import LabSpec, run_lab, summarise
from lawspeaker.variants import load_variant

VARIANTS = ["standard", "s9-basic", "s9-complete", "ood", "dissolution"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--max-years", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variants", nargs="*", default=VARIANTS)
    args = ap.parse_args()
    print(f"tactician vs random: {args.games} games per power, seed {args.seed}, "
          f"at most {args.max_years} years, {args.workers} workers\n")
    print("| variant | power | most centres | solo wins | mean centres | s/game |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name in args.variants:
        variant = load_variant(name)
        worst = 1.0
        for power in sorted(variant.powers):
            spec = LabSpec.build(name, args.games, args.seed, {power: "tactician"}, "random",
                                 args.max_years)
            start = time.perf_counter()
            summary = summarise(spec, run_lab(spec, args.workers))
            took = time.perf_counter() - start
            row = summary["powers"][power]
            worst = min(worst, row["top_centres_share"])
            print(f"| {name} | {power} | {row['top_centres_share'] * 100:.0f}% | "
                  f"{row['wins']}/{args.games} | {row['mean_final_centres']:.1f} | "
                  f"{took * args.workers / args.games:.2f} |", flush=True)
        print(f"| **{name}** | **lowest** | **{worst * 100:.0f}%** | | | |", flush=True)


if __name__ == "__main__":
    main()
