"""The Discord bot's handlers on a real store, without Discord: how long a
pasted post takes to answer and how long ``/gm process`` takes with the
results post and the map PNG the herald posts. Prints figures; asserts nothing.

    python benchmarks/bench_discord.py [--db URL] [--variants s9-complete dissolution]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from discord_fake import FakeDiscord  # the tests' fake Discord server

from lawspeaker.service import GM, PUBLIC, GameService
from lawspeaker.store import open_store


def run(variant: str, db: str) -> str:
    service = GameService(open_store(db))
    discord = FakeDiscord(service, users=("gm",))
    discord.shared("pub")
    name = f"bench-{variant}-{time.time_ns()}"
    discord.slash("gm", "pub", "gm create", variant=variant, name=name)
    powers = service.status(name, actor=PUBLIC).expected
    users = [f"u{n}" for n in range(len(powers))]
    discord.users = ("gm", *users)
    answered = []
    for power, user in zip(powers, users, strict=True):
        discord.slash("gm", "pub", "gm seat", power=power, user="@" + user)
        discord.private(f"c-{power}", user, "gm")
        discord.slash("gm", f"c-{power}", "gm private", power=power, game=name)
        post = "orders\n" + "\n".join(o.orders[-1] for o in service.unit_options(name, power,
                                                                                 actor=GM))
        start = time.perf_counter()
        discord.say(user, f"c-{power}", post)
        answered.append(time.perf_counter() - start)
    start = time.perf_counter()
    posted = discord.slash("gm", "pub", "gm process")
    processed = time.perf_counter() - start
    png = next(f for x in posted for f in x.reply.files)
    return (f"{variant}: {len(powers)} powers; a pasted post answered in "
            f"{statistics.median(answered) * 1000:.0f} ms (median; max "
            f"{max(answered) * 1000:.0f} ms); /gm process with the results post and the "
            f"map ({len(png.data) // 1024} KiB PNG): {processed:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--variants", nargs="+", default=["s9-complete", "dissolution"])
    args = parser.parse_args()
    for variant in args.variants:
        db = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
        print(run(variant, db))


if __name__ == "__main__":
    main()
