"""Kill the server while it processes: the database is as before or as after, never between.

A real ``lawspeaker serve`` process gets the GM's "process" request and is
killed (SIGKILL, no cleanup) a few milliseconds later, at several moments.
Afterwards the store opens, every submission is still there, and the game
either advanced completely (an adjudication and the next phase) or not at
all, in which case processing again works."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from lawspeaker.service import GM, PUBLIC, GameService, Viewer
from lawspeaker.store import open_store
from lawspeaker.store.models import AdjudicationRow, PhaseRow, SubmissionRow


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _counts(store) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    with store.transaction() as s:
        return (s.scalar(select(func.count()).select_from(PhaseRow)),
                s.scalar(select(func.count()).select_from(AdjudicationRow)),
                s.scalar(select(func.count()).select_from(SubmissionRow)))


@pytest.mark.parametrize("delay_ms", [0, 5, 15, 40])
def test_killing_the_server_mid_process_loses_nothing(tmp_path: Path, delay_ms: int) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    store = open_store(db)
    svc = GameService(store)
    svc.create_game("s9-complete", "Saga", actor=GM)
    for power, post in (("Aesir", "F Asgard - Idavollr\n2 DP to F Glaesisvellir H"),
                        ("Jotnar", "F Jotunheim - Aekin\n1 DP to A Gjallerbru H")):
        assert svc.submit("Saga", power, post, actor=Viewer.of(power)).ok
    gm = svc.issue_link("Saga", "gm", actor=GM)
    before = _counts(store)
    port = _port()
    exe = Path(sys.executable).with_name("lawspeaker")
    server = subprocess.Popen([str(exe), "serve", "--db", db, "--port", str(port),
                               "--keep-link", "--tick", "0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                if httpx.get(f"{base}/api/v1/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)

        def process() -> None:
            with contextlib.suppress(httpx.HTTPError):  # the server dies under it
                httpx.post(f"{base}/api/v1/games/Saga/process",
                           headers={"Authorization": f"Bearer {gm}"}, timeout=10)

        t = threading.Thread(target=process)
        t.start()
        time.sleep(delay_ms / 1000)
        os.kill(server.pid, signal.SIGKILL)
        t.join(15)
    finally:
        server.kill()
        server.wait(10)
    store.close()
    store = open_store(db)
    svc = GameService(store)
    phases, adjudications, submissions = _counts(store)
    assert submissions == before[2]
    assert (phases, adjudications) in ((before[0], before[1]), (before[0] + 1, before[1] + 1))
    if phases == before[0]:  # not processed: the orders still stand, processing works
        assert svc.submissions("Saga", "Aesir",
                               actor=GM).allocations == ("2 DP to F Glaesisvellir H",)
        svc.process("Saga", actor=GM)
    record = svc.record("Saga", actor=PUBLIC)
    assert any("Aekin" in str(line) for _, lines in record.orders for line in lines)
    store.close()
