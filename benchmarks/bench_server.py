"""Load on the game server: players posting and checking while the GM processes.

Starts ``lawspeaker serve`` (a real uvicorn on loopback, ``--workers`` processes)
on a fresh database and makes enough S9 Complete games for ``--players``
players (nine powers a game). Then, all at once and through the JSON API:

* every player checks and sends ``--posts`` posts, each naming the phase it
  was written for; a post refused because that phase was processed meanwhile
  (409) is written again for the phase now open, as a player would;
* the GM of each game processes it ``--phases`` times while they post, each
  time with two simultaneous Process requests for the same phase (a double
  click): one must process, the other must be refused.

Then everything is read back from the database and held to the promise that
an acknowledged post is kept (:func:`verify`):

* lost: a post answered "ok" for phase P that is not among P's orders when P
  was adjudicated (missing, filed under another phase, or recorded after P
  was processed), or a power whose last acknowledged post for P is not the
  post P's adjudication used;
* duplicates: two phases of a game at the same place in its history, or a
  phase processed by two requests;
* errors: any answer other than 200, 409 (stale phase) and 429 (rate limit).

Prints requests per second and p50/p99 latency for posts, checks and
processing an S9 Complete phase. Bounded: a request timeout and a fixed
amount of work.

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
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import select

from lawspeaker.service import GM, PUBLIC, GameService, Viewer
from lawspeaker.store import Store, open_store
from lawspeaker.store.models import AdjudicationRow, EventRow, GameRow, PhaseRow, SubmissionRow


@dataclass
class Result:
    players: int
    workers: int = 1
    acknowledged: int = 0
    """Posts answered 200."""
    stale: int = 0
    """Posts refused with 409 because their phase had been processed (then sent again)."""
    throttled: int = 0
    lost: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    processed: int = 0
    double_clicks_refused: int = 0
    wall: float = 0.0
    submit_latency: list[float] = field(default_factory=list)
    check_latency: list[float] = field(default_factory=list)
    process_latency: list[float] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicates or self.errors)

    def lines(self, label: str) -> list[str]:
        def ms(values: list[float], p: float) -> str:
            return f"{_percentile(values, p) * 1000:.0f} ms"

        posts = len(self.submit_latency)
        return [
            f"{label}: {self.players} players, {self.workers} worker(s), {self.wall:.1f} s",
            f"  acknowledged-and-lost {len(self.lost)}, duplicate phases "
            f"{len(self.duplicates)}, errors {len(self.errors)}",
            f"  posts: {posts} sent, {self.acknowledged} acknowledged, {self.stale} refused "
            f"as written for a processed phase, {self.throttled} rate-limited; "
            f"{posts / self.wall:.0f}/s, p50 {ms(self.submit_latency, 50)}, "
            f"p99 {ms(self.submit_latency, 99)}",
            f"  checks: {len(self.check_latency)}, {len(self.check_latency) / self.wall:.0f}/s, "
            f"p50 {ms(self.check_latency, 50)}, p99 {ms(self.check_latency, 99)}",
            f"  processing an S9 Complete phase under load: {self.processed} times, p50 "
            f"{ms(self.process_latency, 50)}, p99 {ms(self.process_latency, 99)}; "
            f"{self.double_clicks_refused} second clicks refused",
        ]


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1)]


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


@dataclass(frozen=True)
class Seat:
    game: str
    power: str
    token: str
    moves: tuple[tuple[str, ...], ...]
    """Each unit's orders at the start (later phases get the same text: illegal
    orders are kept too, so what is tested is keeping, not legality)."""


def run(db: str, players: int = 100, posts: int = 5, phases: int = 2, workers: int = 1,
        timeout: float = 60.0, seed: int = 1) -> Result:
    _reset(db)
    store = open_store(db)
    svc = GameService(store)
    seats: list[Seat] = []
    games: dict[str, str] = {}  # game -> GM token
    n = 0
    while len(seats) < players:
        n += 1
        name = f"Load {n}"
        svc.create_game("s9-complete", name, actor=GM)
        games[name] = svc.issue_link(name, "gm", actor=GM)
        for power in sorted(svc.variant_of(name, actor=PUBLIC).powers):
            if len(seats) < players:
                units = svc.unit_options(name, power, actor=Viewer.of(power))
                seats.append(Seat(name, power, svc.issue_link(name, power, actor=GM),
                                  tuple(u.orders for u in units)))
    port = _free_port()
    exe = Path(sys.executable).with_name("lawspeaker")
    server = subprocess.Popen(
        [str(exe), "serve", "--db", db, "--port", str(port), "--keep-link", "--tick", "0",
         "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    result = Result(players, workers)
    acks: list[tuple[str, str, str, str]] = []  # (game, power, marker, phase code)
    try:
        _wait(base, server)
        start = time.perf_counter()
        asyncio.run(_load(base, seats, games, posts, phases, timeout, random.Random(seed),
                          result, acks))
        result.wall = time.perf_counter() - start
        verify(store, acks, result)
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


async def _load(base: str, seats: list[Seat], games: dict[str, str], posts: int,
                phases: int, timeout: float, rng: random.Random, result: Result,
                acks: list[tuple[str, str, str, str]]) -> None:
    # Idle connections are dropped before the server's keep-alive (5 s) would close
    # them under a request, as browsers do.
    limits = httpx.Limits(max_connections=len(seats) + 2 * len(games) + 10,
                          keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits) as client:
        async def send(method: str, url: str, latencies: list[float] | None = None,
                       **kwargs: object) -> httpx.Response | None:
            """One request; a transport failure is an error of the run, not a crash."""
            t = time.perf_counter()
            try:
                r = await client.request(method, url, **kwargs)  # type: ignore[arg-type]
            except httpx.HTTPError as exc:
                result.errors.append(f"{method} {url}: {type(exc).__name__} {exc}")
                return None
            if latencies is not None:
                latencies.append(time.perf_counter() - t)
            return r

        async def phase_now(game: str) -> str:
            r = await send("GET", f"/api/v1/games/{game}")
            return str(r.json()["phase_code"]) if r is not None and r.status_code == 200 \
                else ""

        async def player(seat: Seat, delays: list[float]) -> None:
            auth = {"Authorization": f"Bearer {seat.token}"}
            url = f"/api/v1/games/{seat.game}/powers/{seat.power}"
            phase = await phase_now(seat.game)
            for i in range(posts):
                await asyncio.sleep(delays[i])
                marker = f"# post {i} of {seat.power} in {seat.game}"
                text = "\n".join([marker] + [orders[(i + k) % len(orders)]
                                             for k, orders in enumerate(seat.moves)]) + "\n"
                r = await send("POST", f"{url}/check", result.check_latency,
                               json={"text": text}, headers=auth)
                if r is not None and r.status_code not in (200, 429):
                    result.errors.append(f"check {seat.game}/{seat.power}: {r.status_code} "
                                         f"{r.text[:200]}")
                for _attempt in range(5):
                    r = await send("POST", f"{url}/orders", result.submit_latency,
                                   json={"text": text, "phase": phase}, headers=auth)
                    if r is None:
                        break
                    if r.status_code == 200:
                        body = r.json()
                        result.acknowledged += 1
                        acks.append((seat.game, seat.power, marker, body["phase_code"]))
                        if body["power"] != seat.power or body["phase_code"] != phase:
                            result.errors.append(f"{seat.game}/{seat.power}: answered for "
                                                 f"{body['power']} {body['phase_code']}")
                        break
                    if r.status_code == 409:  # written for a processed phase: write again
                        result.stale += 1
                        phase = await phase_now(seat.game)
                        continue
                    if r.status_code == 429:
                        result.throttled += 1
                    else:
                        result.errors.append(f"post {seat.game}/{seat.power}: "
                                             f"{r.status_code} {r.text[:200]}")
                    break

        async def gm(game: str, token: str, delays: list[float]) -> None:
            auth = {"Authorization": f"Bearer {token}"}
            for k in range(phases):
                await asyncio.sleep(delays[k])
                phase = await phase_now(game)

                async def click(phase: str) -> httpx.Response | None:
                    return await send("POST", f"/api/v1/games/{game}/process",
                                      result.process_latency, json={"phase": phase},
                                      headers=auth)

                answers = [r for r in await asyncio.gather(click(phase), click(phase))
                           if r is not None]  # a double click
                codes = sorted(r.status_code for r in answers)
                if codes == [200, 409]:
                    result.processed += 1
                    result.double_clicks_refused += 1
                else:
                    result.errors.append(f"process {game} {phase} twice at once: {codes} "
                                         + " | ".join(r.text[:200] for r in answers))

        # Players post as fast as the server answers (with small pauses); each GM
        # processes while they do.
        tasks = [player(s, [rng.uniform(0, 0.3) for _ in range(posts)]) for s in seats]
        tasks += [gm(g, t, [rng.uniform(0.1, 1.5) for _ in range(phases)])
                  for g, t in games.items()]
        await asyncio.gather(*tasks)


def verify(store: Store, acks: list[tuple[str, str, str, str]], result: Result) -> None:
    """Read everything back and hold it to "acknowledged means kept"."""
    with store.read() as s:
        game_ids = {row.name: row.id for row in s.scalars(select(GameRow))}
        phases = {p.id: p for p in s.scalars(select(PhaseRow))}
        subs = list(s.scalars(select(SubmissionRow).order_by(SubmissionRow.id)))
        lines = {sub.id: [ln.order for ln in sub.lines if ln.kind == "order"] for sub in subs}
        adjudicated = {a.phase_id: [r["order"] for r in a.results] for a in s.scalars(
            select(AdjudicationRow).where(AdjudicationRow.undone_at.is_(None)))}
        events = list(s.scalars(select(EventRow).order_by(EventRow.id)))
    by_marker: dict[str, list[SubmissionRow]] = defaultdict(list)
    for sub in subs:
        by_marker[sub.text.splitlines()[0]].append(sub)
    # Each acknowledged post: kept once, under the phase it was acknowledged for.
    last: dict[tuple[int, str], SubmissionRow] = {}  # (phase id, power) -> last ack'd
    for game, power, marker, code in acks:
        found = by_marker.get(marker, [])
        if len(found) != 1:
            result.lost.append(f"{marker}: {len(found)} copies kept")
            continue
        sub = found[0]
        phase = phases[sub.phase_id]
        if phase.game_id != game_ids[game] or phase.code != code or phase.undone_at:
            result.lost.append(f"{marker}: acknowledged for {code}, kept under {phase.code}")
            continue
        last[(sub.phase_id, power)] = sub
    # Nothing recorded for a phase after it was processed (one serialised story).
    processed_at: dict[int, int] = {}
    for e in events:
        if e.kind == "processed" and e.phase_id is not None:
            if e.phase_id in processed_at:
                result.duplicates.append(f"{phases[e.phase_id].code} of game {e.game_id} "
                                         "processed twice")
            processed_at[e.phase_id] = e.id
        elif e.kind == "submitted" and e.phase_id in processed_at:
            result.lost.append(f"game {e.game_id}: a post for {phases[e.phase_id].code} "
                               "was recorded after it was processed")
    # Each power's last acknowledged post is what its phase's adjudication used.
    for (phase_id, power), sub in last.items():
        if phase_id not in adjudicated:
            continue  # the phase is still open
        newer = [x for x in subs if x.phase_id == phase_id and x.power == power
                 and x.id > sub.id]
        used = adjudicated[phase_id]
        if newer or any(order not in used for order in lines[sub.id]):
            result.lost.append(f"{power} in {phases[phase_id].code} of game "
                               f"{phases[phase_id].game_id}: its last acknowledged post "
                               "is not what was adjudicated")
    # One phase per place in each game's history.
    seen: set[tuple[int, int]] = set()
    for p in phases.values():
        if p.undone_at is None:
            if (p.game_id, p.seq) in seen:
                result.duplicates.append(f"game {p.game_id}: two phases at {p.seq}")
            seen.add((p.game_id, p.seq))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--posts", type=int, default=5, help="posts per player")
    parser.add_argument("--phases", type=int, default=2, help="phases processed per game")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/bench.db"
        label = "PostgreSQL" if db.startswith("postgresql") else "SQLite"
        result = run(db, args.players, args.posts, args.phases, args.workers, seed=args.seed)
    print("\n".join(result.lines(label)))
    for problem in (result.lost + result.duplicates + result.errors)[:20]:
        print("PROBLEM", problem)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
