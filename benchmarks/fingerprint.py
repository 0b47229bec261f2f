"""A fingerprint of the adjudicator's results, to show a speed change changed nothing.

Run ``python benchmarks/fingerprint.py`` (needs ``pip install -e '.[bench]'``).

It adjudicates the recorded standard phases of ``bench_vs_diplomacy.py --games 20
--seed 1`` (every phase both engines start alike, and the empty phases lawspeaker
stops at in between) and ten seeded random games each of Saga of the Nine Complete,
Order of the Dragon and Dissolution (as ``bench_dp_games.py`` plays them), and hashes
every result's order, outcome, reason and explanation text and every next position.
It prints one SHA-256 per corpus and one over all; two builds that print the same
figures give the same results on these games. ``--dump FILE`` writes the hashed text.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Iterable
from typing import Any

from dipgames import Names, align, record_game

import lawspeaker as L
from lawspeaker.engine.phases import Adjudication, adjudicate
from lawspeaker.sim.randomplay import random_allocations, random_orders


def _lines(adj: Adjudication) -> Iterable[str]:
    for r in adj.results:
        yield f"R {r.order} | {r.outcome.value} | {r.reason} | {' / '.join(r.explanation)}"
    yield "P " + json.dumps(adj.position.to_dict(), sort_keys=True, default=str)


def standard(out: list[str]) -> None:
    variant = L.load_variant("standard")
    rules = variant.rules.with_options(edition="2000")
    games = [record_game(i, 1, 10, 0.05) for i in range(20)]
    for c in align(games, Names(variant), rules).comparables:
        out.extend(_lines(adjudicate(variant, c.position, c.orders, rules)))
        for extra in c.extra:
            out.extend(_lines(adjudicate(variant, extra, (), rules)))


def dp_games(name: str, out: list[str], games: int = 10, seed: int = 1) -> None:
    variant = L.load_variant(name)
    years = variant.rules.max_years or 10
    for n in range(games):
        rng = random.Random(seed + n)
        position = L.initial_position(variant)
        while position.result is None and position.phase.year < variant.first_year + years:
            orders = random_orders(variant, position, rng)
            allocations = random_allocations(variant, position, orders, rng)
            adj = adjudicate(variant, position, orders, variant.rules, allocations)
            out.extend(_lines(adj))
            position = adj.position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", help="write the hashed lines to this file")
    args = parser.parse_args()
    corpora: dict[str, Any] = {
        "standard": standard,
        "s9-complete": lambda out: dp_games("s9-complete", out),
        "ood": lambda out: dp_games("ood", out),
        "dissolution": lambda out: dp_games("dissolution", out),
    }
    total = hashlib.sha256()
    everything: list[str] = []
    for name, run in corpora.items():
        out: list[str] = []
        run(out)
        text = "\n".join(out).encode()
        total.update(text)
        everything.extend(out)
        print(f"{name:<12} {len(out):>6} lines  {hashlib.sha256(text).hexdigest()}")
    print(f"{'all':<12} {len(everything):>6} lines  {total.hexdigest()}")
    if args.dump:
        with open(args.dump, "w") as f:
            f.write("\n".join(everything))


if __name__ == "__main__":
    main()
