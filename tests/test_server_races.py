"""Trust under real conditions: what happens at the same moment on a real server.

A post written for a phase the GM has just processed, a Process click on a
stale page, the deadline racing the GM's click, a player checking while the
database is held by a writer: each is tried against ``lawspeaker serve``
processes on loopback (and the store itself), on SQLite and PostgreSQL.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select
from store_fixtures import BACKENDS, database

from lawspeaker.service import GM, PUBLIC, GameService, PhaseChanged, Viewer
from lawspeaker.store import StoreBusy, open_store
from lawspeaker.store.models import EventRow, GameRow, PhaseRow, SubmissionRow, now


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(db: str, *args: str) -> Iterator[str]:
    """``lawspeaker serve`` on ``db``; yields its address once every worker has
    printed that its startup is complete (from then on its scheduler runs).
    When the block ends the server is stopped and waited for, workers and all:
    nothing it was writing is still under way. The server's log goes to a file
    (a pipe nobody reads would fill and stall it) and is printed when the test
    fails, so a 500 shows its traceback."""
    port = _port()
    workers = int(args[args.index("--workers") + 1]) if "--workers" in args else 1
    exe = Path(sys.executable).with_name("lawspeaker")
    handle, name = tempfile.mkstemp(prefix="serve-", suffix=".log")
    with os.fdopen(handle, "wb") as log:
        server = subprocess.Popen([str(exe), "serve", "--db", db, "--port", str(port),
                                   "--keep-link", *args],
                                  stdout=subprocess.DEVNULL, stderr=log,
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"

    def text() -> str:
        return Path(name).read_bytes().decode(errors="replace")

    try:
        until = time.monotonic() + 60
        while text().count("Application startup complete.") < workers:
            assert server.poll() is None, f"the server stopped:\n{text()[-4000:]}"
            assert time.monotonic() < until, f"not every worker started in 60 s:\n{text()}"
            time.sleep(0.05)
        assert httpx.get(f"{base}/api/v1/games", timeout=10).status_code == 200
        yield base
    except BaseException:
        print(f"--- the server's log ({name}) ---\n{text()[-4000:]}")
        raise
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(15)
            raise
        Path(name).unlink(missing_ok=True)


def _game(db: str) -> tuple[GameService, dict[str, str]]:
    svc = GameService(open_store(db))
    svc.create_game("s9-complete", "Saga", actor=GM)
    tokens = {"gm": svc.issue_link("Saga", "gm", actor=GM),
              "Aesir": svc.issue_link("Saga", "Aesir", actor=GM)}
    return svc, tokens


def _processed(svc: GameService) -> int:
    with svc.store.read() as s:
        return s.scalar(select(func.count()).select_from(EventRow).where(
            EventRow.kind == "processed"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_orders_written_for_a_processed_phase_are_refused_not_moved(
        backend: str, tmp_path: Path) -> None:
    db = database(backend, tmp_path)
    svc, tokens = _game(db)
    with serve(db, "--tick", "0") as base:
        aesir = {"Authorization": f"Bearer {tokens['Aesir']}"}
        gm = {"Authorization": f"Bearer {tokens['gm']}"}
        spring = httpx.get(f"{base}/api/v1/games/Saga").json()["phase_code"]
        r = httpx.post(f"{base}/api/v1/games/Saga/process", json={"phase": spring}, headers=gm)
        assert r.status_code == 200
        late = httpx.post(f"{base}/api/v1/games/Saga/powers/Aesir/orders", headers=aesir,
                          json={"text": "F Asgard - Idavollr", "phase": spring})
        assert late.status_code == 409
        message = late.json()["error"]
        assert "Spring" in message and "already been processed" in message
        assert "now open" in message and "Nothing was kept" in message
        with svc.store.read() as s:
            assert s.scalar(select(func.count()).select_from(SubmissionRow)) == 0
        # The same post named for the phase now open is taken, and says so.
        now_open = httpx.get(f"{base}/api/v1/games/Saga").json()["phase_code"]
        ok = httpx.post(f"{base}/api/v1/games/Saga/powers/Aesir/orders", headers=aesir,
                        json={"text": "F Asgard - Idavollr", "phase": now_open})
        assert ok.status_code == 200 and ok.json()["phase_code"] == now_open != spring


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_second_process_click_for_the_same_phase_does_nothing(
        backend: str, tmp_path: Path) -> None:
    db = database(backend, tmp_path)
    svc, tokens = _game(db)
    with serve(db, "--tick", "0", "--workers", "2") as base:
        gm = {"Authorization": f"Bearer {tokens['gm']}"}
        spring = httpx.get(f"{base}/api/v1/games/Saga").json()["phase_code"]
        answers: list[httpx.Response] = []

        together = threading.Barrier(4, timeout=30)

        def click() -> None:
            together.wait()  # the four clicks leave at once
            answers.append(httpx.post(f"{base}/api/v1/games/Saga/process",
                                      json={"phase": spring}, headers=gm, timeout=30))

        clicks = [threading.Thread(target=click) for _ in range(4)]
        for t in clicks:
            t.start()
        for t in clicks:
            t.join(60)
        assert not any(t.is_alive() for t in clicks), "a click got no answer in 60 s"
        assert sorted(r.status_code for r in answers) == [200, 409, 409, 409]
        assert _processed(svc) == 1
        assert httpx.get(f"{base}/games/Saga").status_code == 200
        undo = httpx.post(f"{base}/api/v1/games/Saga/undo", json={"phase": spring},
                          headers=gm)  # a rollback from a page that still shows Spring
        assert undo.status_code == 409 and "Nothing was done" in undo.json()["error"]
        with svc.store.read() as s:
            assert s.scalar(select(func.count()).select_from(PhaseRow).where(
                PhaseRow.undone_at.is_(None))) == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_deadline_and_the_gms_click_process_a_phase_once(
        backend: str, tmp_path: Path) -> None:
    db = database(backend, tmp_path)
    svc, tokens = _game(db)
    svc.set_schedule("Saga", 60 * 24, actor=GM)
    spring = svc.game("Saga", actor=PUBLIC).phase_code
    with svc.store.transaction() as s:  # the deadline has just passed
        s.scalar(select(GameRow)).deadline_at = now() - timedelta(seconds=1)
    with serve(db, "--tick", "0.05", "--workers", "2") as base:  # two schedulers, running
        r = httpx.post(f"{base}/api/v1/games/Saga/process", json={"phase": spring},
                       headers={"Authorization": f"Bearer {tokens['gm']}"}, timeout=30)
        assert r.status_code in (200, 409), r.text  # 409: a scheduler got there first
        assert svc.game("Saga", actor=PUBLIC).phase_code != spring  # processed, either way
        with svc.store.read() as s:  # so no later tick finds the phase that opened due
            assert s.scalar(select(GameRow.deadline_at)) > now() + timedelta(hours=23)
    # The server has stopped and been waited for: every racer has finished.
    with svc.store.read() as s:
        actors = s.scalars(select(EventRow.actor).where(EventRow.kind == "processed")).all()
    assert len(actors) == 1, actors
    assert (actors[0] == "scheduler") == (r.status_code == 409), (actors, r.status_code)


def test_checking_never_waits_for_a_writer(tmp_path: Path) -> None:
    db = tmp_path / "held.db"
    _, tokens = _game(f"sqlite:///{db}")
    with serve(f"sqlite:///{db}", "--tick", "0") as base:
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writes for a long time
        try:
            start = time.monotonic()
            r = httpx.post(f"{base}/api/v1/games/Saga/powers/Aesir/check",
                           json={"text": "F Asgard - Idavollr"}, timeout=30,
                           headers={"Authorization": f"Bearer {tokens['Aesir']}"})
            page = httpx.get(f"{base}/games/Saga", timeout=30)
            waited = time.monotonic() - start
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert r.status_code == 200 and r.json()["ok"]
    assert page.status_code == 200
    assert waited < 3  # not the writer's time: it held the lock throughout


def test_a_write_that_cannot_start_says_so_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "busy.db"
    svc = GameService(open_store(f"sqlite:///{db}", busy_timeout=0.2))
    svc.create_game("s9-complete", "Saga", actor=GM)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreBusy, match="nothing was written, try again"):
            svc.submit("Saga", "Aesir", "F Asgard - Idavollr", actor=Viewer.of("Aesir"))
        assert svc.check("Saga", "Aesir", "F Asgard - Idavollr", actor=Viewer.of("Aesir")).ok
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert svc.submissions("Saga", "Aesir", actor=GM).orders == ()


@pytest.mark.parametrize("backend", BACKENDS)
def test_process_and_undo_name_the_phase_they_mean(backend: str, tmp_path: Path) -> None:
    svc, _ = _game(database(backend, tmp_path))
    spring = svc.game("Saga", actor=PUBLIC).phase_code
    svc.process("Saga", phase=spring, actor=GM)
    autumn = svc.game("Saga", actor=PUBLIC).phase_code
    with pytest.raises(PhaseChanged, match="already been processed"):
        svc.process("Saga", phase=spring, actor=GM)
    with pytest.raises(PhaseChanged, match="not a phase of this game"):
        svc.process("Saga", phase="W1999A", actor=GM)
    assert svc.game("Saga", actor=PUBLIC).phase_code == autumn
    svc.undo("Saga", phase=autumn, actor=GM)
    with pytest.raises(PhaseChanged, match="has been rolled back"):
        svc.submit("Saga", "Aesir", "F Asgard - Idavollr", actor=Viewer.of("Aesir"), phase=autumn)
    assert svc.submit("Saga", "Aesir", "F Asgard - Idavollr", actor=Viewer.of("Aesir"),
                      phase=spring).phase_code == spring


def test_a_stale_order_page_keeps_the_text_and_says_what_happened(tmp_path: Path) -> None:
    from web_fixtures import sqlite_world

    world = sqlite_world(tmp_path)
    aesir = world.clients["Aesir"]
    spring = world.service.game("A", actor=PUBLIC).phase_code
    assert f'name="phase" value="{spring}"' in aesir.get("/games/A").text
    world.service.process("A", phase=spring, actor=GM)  # the GM processes while Aesir types
    r = aesir.post("/games/A/orders", data={"csrf": world.csrf("Aesir"), "power": "Aesir",
                                            "phase": spring, "text": "F Asgard - Idavollr"})
    assert r.status_code == 409
    assert "Not sent" in r.text and "already been processed" in r.text
    assert "F Asgard - Idavollr</textarea>" in r.text  # nothing the player typed is lost
    assert world.service.submissions("A", "Aesir", actor=GM).orders == ()


def test_a_double_click_on_process_in_the_browser_processes_once(tmp_path: Path) -> None:
    from web_fixtures import sqlite_world

    world = sqlite_world(tmp_path)
    gm = world.clients["gm"]
    spring = world.service.game("A", actor=PUBLIC).phase_code
    form = {"csrf": world.csrf("gm"), "phase": spring}
    first = gm.post("/games/A/gm/process", data=form)
    second = gm.post("/games/A/gm/process", data=form)
    assert first.status_code == second.status_code == 200  # both land on the game page
    assert "already been processed" in second.text
    assert len([h for h in world.service.history("A", actor=PUBLIC) if h.kind == "processed"]) == 1


def test_each_seat_is_rate_limited_and_told_when_to_try_again(tmp_path: Path) -> None:
    from web_fixtures import sqlite_world

    from lawspeaker.web.throttle import Throttle

    world = sqlite_world(tmp_path)
    world.app.state.throttle = Throttle(checks="3/minute", submits="2/minute")
    headers = {"Authorization": f"Bearer {world.tokens['Aesir']}"}
    client = world.clients["anonymous"]
    url = "/api/v1/games/A/powers/Aesir"
    checks = [client.post(f"{url}/check", json={"text": "F Asgard H"}, headers=headers)
              for _ in range(4)]
    assert [r.status_code for r in checks] == [200, 200, 200, 429]
    assert "too many checks" in checks[-1].json()["error"]
    assert int(checks[-1].headers["retry-after"]) >= 1
    posts = [client.post(f"{url}/orders", json={"text": f"F Asgard H # {i}"}, headers=headers)
             for i in range(3)]
    assert [r.status_code for r in posts] == [200, 200, 429]
    assert "nothing was kept" in posts[-1].json()["error"]
    assert len(world.service.posts("A", "Aesir", actor=Viewer.of("Aesir"))) == 1 + 2
    other = {"Authorization": f"Bearer {world.tokens['Jotnar']}"}  # another seat: unaffected
    assert client.post("/api/v1/games/A/powers/Jotnar/check", json={"text": "F Jotunheim H"},
                       headers=other).status_code == 200
    # In the order box a refused check is said beside the box, not swallowed.
    box = world.clients["Aesir"].post("/games/A/check", data={
        "csrf": world.csrf("Aesir"), "power": "Aesir", "text": "F Asgard H"})
    assert box.status_code == 200 and "too many checks" in box.text


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_database_itself_refuses_two_live_phases_at_one_place(backend: str,
                                                                   tmp_path: Path) -> None:
    from sqlalchemy.exc import IntegrityError

    svc, _ = _game(database(backend, tmp_path))
    svc.process("Saga", actor=GM)
    svc.undo("Saga", actor=GM)
    svc.process("Saga", actor=GM)  # the rolled-back phase stays on record beside its replacement
    with pytest.raises(IntegrityError), svc.store.transaction() as s:
        live = s.scalars(select(PhaseRow).where(PhaseRow.undone_at.is_(None))
                         .order_by(PhaseRow.seq)).all()[-1]
        s.add(PhaseRow(game_id=live.game_id, seq=live.seq, code=live.code, label=live.label,
                       position=live.position))


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_gms_creating_one_game_name_at_once_get_one_game(backend: str,
                                                            tmp_path: Path) -> None:
    from lawspeaker.service import ServiceError

    db = database(backend, tmp_path)
    services = [GameService(open_store(db)) for _ in range(4)]
    outcomes: list[str] = []

    together = threading.Barrier(len(services), timeout=30)

    def create(svc: GameService) -> None:
        together.wait()  # the four GMs press at once
        try:
            svc.create_game("standard", "Twice", actor=GM)
            outcomes.append("created")
        except ServiceError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=create, args=(svc,)) for svc in services]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), outcomes
    assert sorted(outcomes) == ["created"] + ["there is already a game named 'Twice'"] * 3
    assert [g.name for g in services[0].list_games()] == ["Twice"]
