"""Load on the game server: players submitting at once, then the GM processing.

Starts ``lawspeaker serve`` (a real uvicorn on loopback) on a fresh database,
makes enough S9 Complete games for ``--players`` players (nine powers a
game), and has every player send ``--posts`` posts of orders and DP through
the JSON API, all at once. Then checks that nothing was lost or mixed up:
each power's standing orders are exactly its last post's, each power has
exactly ``--posts`` submissions, all by itself. Then the GM processes every
game ``--phases`` times. Prints requests per second and p50/p99 latency for
submissions and for processing an S9 Complete phase. Bounded: it stops by
itself (a request timeout, a fixed amount of work).

    python benchmarks/bench_server.py                       # SQLite, 100 players
    python benchmarks/bench_server.py --db postgresql+psycopg://u:p@localhost/db --workers 4

The PostgreSQL database is emptied first. ``run()`` is also used by the
test suite with a smaller load (tests/test_server_load.py).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from lawspeaker.service import GM, GameService
from lawspeaker.store import open_store
from lawspeaker.store.models import SubmissionRow


@dataclass
class Result:
    players: int
    submissions: int
    errors: list[str] = field(default_factory=list)
    submit_rps: float = 0.0
    submit_p50: float = 0.0
    submit_p99: float = 0.0
    process_count: int = 0
    process_p50: float = 0.0
    process_p99: float = 0.0
    process_max: float = 0.0

    def lines(self, label: str) -> list[str]:
        return [f"{label}: {self.players} players, {self.submissions} submissions, "
                f"{len(self.errors)} errors",
                f"  submissions: {self.submit_rps:.0f} requests/s, p50 "
                f"{self.submit_p50 * 1000:.0f} ms, p99 {self.submit_p99 * 1000:.0f} ms",
                f"  processing an S9 Complete phase ({self.process_count} times): p50 "
                f"{self.process_p50 * 1000:.0f} ms, p99 {self.process_p99 * 1000:.0f} ms, "
                f"max {self.process_max * 1000:.0f} ms"]


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1)]


def _posts(svc: GameService, game: str, power: str, count: int) -> list[str]:
    """``count`` different legal posts: a move of the first unit, others hold."""
    from lawspeaker.service import Viewer

    viewer = Viewer.of(power)
    units = svc.unit_options(game, power, viewer)
    moves = [o for o in units[0].orders if " - " in o and " S " not in o] or [units[0].orders[0]]
    posts = []
    for i in range(count):
        lines = [moves[i % len(moves)]] + [u.orders[0] for u in units[1:]]
        posts.append("\n".join(lines) + "\n")
    return posts


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _reset(url: str) -> None:
    if url.startswith("postgresql"):
        from sqlalchemy import create_engine, text

        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
        engine.dispose()


def run(db: str, players: int = 100, posts: int = 5, phases: int = 2, workers: int = 1,
        timeout: float = 60.0) -> Result:
    _reset(db)
    store = open_store(db)
    svc = GameService(store)
    seats: list[tuple[str, str, str]] = []  # (game, power, token)
    games: dict[str, str] = {}  # game -> GM token
    n = 0
    while len(seats) < players:
        n += 1
        name = f"Load {n}"
        svc.create_game("s9-complete", name)
        games[name] = svc.issue_link(name, "gm")
        for power in sorted(svc.variant_of(name).powers):
            if len(seats) < players:
                seats.append((name, power, svc.issue_link(name, power)))
    texts = {(g, p): _posts(svc, g, p, posts) for g, p, _ in seats}
    port = _free_port()
    exe = Path(sys.executable).with_name("lawspeaker")
    server = subprocess.Popen(
        [str(exe), "serve", "--db", db, "--port", str(port), "--keep-link", "--tick", "0",
         "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    result = Result(players, players * posts)
    try:
        _wait(base, server)
        last = asyncio.run(_submit_all(base, seats, texts, result, timeout))
        _verify(svc, store, seats, texts, last, posts, result)
        _process_all(base, games, phases, result, timeout)
    finally:
        server.terminate()
        try:
            _, err = server.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
        if result.errors:
            result.errors.append("server log: " + err.decode(errors="replace")[-3000:])
        store.close()
    return result


def _wait(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server stopped: "
                               + (server.stderr.read() or b"").decode()[-2000:])
        try:
            if httpx.get(f"{base}/api/v1/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start in 30 s")


async def _submit_all(base: str, seats: list[tuple[str, str, str]],
                      texts: dict[tuple[str, str], list[str]], result: Result,
                      timeout: float) -> dict[tuple[str, str], tuple[str, ...]]:
    latencies: list[float] = []
    last: dict[tuple[str, str], tuple[str, ...]] = {}
    limits = httpx.Limits(max_connections=len(seats) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits) as client:
        async def player(game: str, power: str, token: str) -> None:
            for text in texts[(game, power)]:
                start = time.perf_counter()
                try:
                    r = await client.post(f"/api/v1/games/{game}/powers/{power}/orders",
                                          json={"text": text},
                                          headers={"Authorization": f"Bearer {token}"})
                except httpx.HTTPError as exc:
                    result.errors.append(f"{game}/{power}: {type(exc).__name__} {exc}")
                    continue
                latencies.append(time.perf_counter() - start)
                if r.status_code != 200:
                    result.errors.append(f"{game}/{power}: {r.status_code} {r.text[:200]}")
                    continue
                body = r.json()
                if body["power"] != power:
                    result.errors.append(f"{game}/{power}: answered for {body['power']}")
                last[(game, power)] = tuple(body["orders"])

        start = time.perf_counter()
        await asyncio.gather(*(player(g, p, t) for g, p, t in seats))
        wall = time.perf_counter() - start
    result.submit_rps = len(latencies) / wall
    result.submit_p50 = _percentile(latencies, 50)
    result.submit_p99 = _percentile(latencies, 99)
    return last


def _verify(svc: GameService, store: object, seats: list[tuple[str, str, str]],
            texts: dict[tuple[str, str], list[str]],
            last: dict[tuple[str, str], tuple[str, ...]], posts: int, result: Result) -> None:
    """Nothing lost, nothing mixed up: read back from the database."""
    from sqlalchemy import func, select

    for game, power, _ in seats:
        standing = svc.submissions(game, power, GM)
        expected = svc.check(game, power, texts[(game, power)][-1], GM).orders
        if standing.orders != expected:
            result.errors.append(f"{game}/{power}: standing {standing.orders} != last post "
                                 f"{expected}")
        if last.get((game, power)) != expected:
            result.errors.append(f"{game}/{power}: the last answer was not its last post")
    with store.transaction() as s:  # type: ignore[attr-defined]
        rows = s.execute(select(SubmissionRow.power, SubmissionRow.author, func.count())
                         .group_by(SubmissionRow.game_id, SubmissionRow.power,
                                   SubmissionRow.author)).all()
    for power, author, count in rows:
        if author != power or count != posts:
            result.errors.append(f"{power}: {count} submissions by {author}")
    if len(rows) != len(seats):
        result.errors.append(f"{len(rows)} powers have submissions, expected {len(seats)}")


def _process_all(base: str, games: dict[str, str], phases: int, result: Result,
                 timeout: float) -> None:
    latencies = []
    with httpx.Client(base_url=base, timeout=timeout) as client:
        for _ in range(phases):
            for game, token in games.items():
                start = time.perf_counter()
                r = client.post(f"/api/v1/games/{game}/process",
                                headers={"Authorization": f"Bearer {token}"})
                latencies.append(time.perf_counter() - start)
                if r.status_code != 200:
                    result.errors.append(f"process {game}: {r.status_code} {r.text[:200]}")
    result.process_count = len(latencies)
    result.process_p50 = _percentile(latencies, 50)
    result.process_p99 = _percentile(latencies, 99)
    result.process_max = max(latencies, default=0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--posts", type=int, default=5, help="posts per player")
    parser.add_argument("--phases", type=int, default=2, help="phases processed per game")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/bench.db"
        label = "PostgreSQL" if db.startswith("postgresql") else "SQLite"
        result = run(db, args.players, args.posts, args.phases, args.workers)
    print("\n".join(result.lines(f"{label}, {args.workers} worker(s)")))
    for error in result.errors[:20]:
        print("ERROR", error)
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
