"""The game layer's figures: a whole S9 Complete game through the service on
SQLite (random legal orders and DP, posted as players write them), timing
`process` and `status` per phase, and the database size of the finished game.

    .venv/bin/python benchmarks/bench_game_service.py [--db URL] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from lawspeaker import load_variant
from lawspeaker.service import GM, PUBLIC, GameService
from lawspeaker.sim.randomplay import random_posts
from lawspeaker.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    path = Path(folder) / "bench.db"
    store = open_store(args.db or str(path))
    service = GameService(store)
    variant = load_variant("s9-complete")
    rng = random.Random(args.seed)
    service.create_game("s9-complete", "bench", actor=GM)
    process_ms: list[float] = []
    status_ms: list[float] = []
    submit_ms: list[float] = []
    while True:
        position = service.position("bench", actor=PUBLIC)
        if position.result:
            break
        posts, _, _ = random_posts(variant, position, rng)
        for power, text in posts.items():
            t = time.perf_counter()
            service.submit("bench", power, text, actor=GM)
            submit_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        service.status("bench", actor=PUBLIC)
        status_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        service.process("bench", actor=GM)
        process_ms.append((time.perf_counter() - t) * 1000)
    store.close()

    def line(name: str, values: list[float]) -> str:
        return (f"{name:8} n={len(values):4}  median {statistics.median(values):6.1f} ms  "
                f"p95 {sorted(values)[int(len(values) * 0.95)]:6.1f} ms  "
                f"max {max(values):6.1f} ms")

    print(f"S9 Complete, a whole game of {len(process_ms)} phases, seed {args.seed}")
    print(line("submit", submit_ms))
    print(line("status", status_ms))
    print(line("process", process_ms))
    if not args.db:
        print(f"database size of the finished game: {path.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
