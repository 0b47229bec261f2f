"""The store: migrations, where the database lives, and atomic processing
proven by killing the process in the middle of it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select
from store_fixtures import database

from lawspeaker.service import GM, PUBLIC, GameService
from lawspeaker.store import StoreError, database_url, open_store
from lawspeaker.store.models import AdjudicationRow, PhaseRow, SubmissionRow

ROOT = Path(__file__).resolve().parent.parent


def test_the_default_database_is_lawspeaker_db_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAWSPEAKER_DB", raising=False)
    assert database_url() == "sqlite:///lawspeaker.db"
    monkeypatch.setenv("LAWSPEAKER_DB", "/srv/games.db")
    assert database_url() == "sqlite:////srv/games.db"
    assert database_url("postgresql://u@h/db") == "postgresql://u@h/db"


def test_opening_creates_the_schema_and_reopening_keeps_the_games(store, tmp_path) -> None:
    GameService(store).create_game("standard", "kept", actor=GM)
    tables = set(inspect(store.engine).get_table_names())
    assert {"games", "phases", "submissions", "submission_lines", "adjudications", "events",
            "alembic_version"} <= tables
    again = open_store(store.engine.url.render_as_string(hide_password=False))
    assert [g.name for g in GameService(again).list_games()] == ["kept"]
    again.close()


def test_the_schema_version_is_the_newest_migration() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from lawspeaker.store import SCHEMA_VERSION

    config = Config()
    config.set_main_option("script_location", str(ROOT / "src/lawspeaker/store/migrations"))
    assert ScriptDirectory.from_config(config).get_current_head() == SCHEMA_VERSION


def test_a_database_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        open_store(str(tmp_path / "nowhere" / "games.db"))


def test_an_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot open database"):
        open_store("postgresql+psycopg://nobody:secret@127.0.0.1:9/none?connect_timeout=2")


CRASH = textwrap.dedent("""
    import os, signal, sys
    from lawspeaker.service import GM, GameService
    from lawspeaker.store import open_store

    service = GameService(open_store(sys.argv[1]))
    add_phase = service.loader.add_phase

    def add_phase_then_die(*args, **kwargs):
        row = add_phase(*args, **kwargs)  # the adjudication and next phase are written...
        os.kill(os.getpid(), signal.SIGKILL)  # ...and the process dies before the commit

    service.loader.add_phase = add_phase_then_die
    service.process("crash", actor=GM)
""")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_killing_the_process_while_it_processes_changes_nothing(backend: str,
                                                                tmp_path: Path) -> None:
    url = database(backend, tmp_path)
    store = open_store(url)
    service = GameService(store)
    service.create_game("s9-complete", "crash", actor=GM)
    service.submit("crash", "Aesir", "F Asg - Ida\nHeir Asg Marry Per\n"
                                     "2 DP to F Per Marry Heir Aesir", actor=GM)
    service.submit("crash", "Vanir", "F Van - Bel", actor=GM)
    store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run([sys.executable, "-c", CRASH, url], env=env, capture_output=True,
                         timeout=120)
    assert run.returncode == -9, run.stderr.decode()
    store = open_store(url)
    service = GameService(store)
    with store.transaction() as s:
        assert s.scalar(select(func.count()).select_from(AdjudicationRow)) == 0
        assert s.scalar(select(func.count()).select_from(PhaseRow)) == 1
        assert s.scalar(select(func.count()).select_from(SubmissionRow)) == 2
    assert service.game("crash", actor=PUBLIC).phase_code == "S1M"
    assert service.submissions("crash", "Aesir", actor=GM).allocations == (
        "2 DP to F Permyak Marry Heir Asgard",)
    record = service.process("crash", actor=GM)  # and the phase processes normally afterwards
    assert "Permyak becomes a thrall of Aesir" in " ".join(
        line.reason for _, lines in record.orders for line in lines)
    store.close()
