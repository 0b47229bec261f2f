"""Stores for the service and store tests: a fresh SQLite file always, and a
real PostgreSQL when ``LAWSPEAKER_TEST_PG`` gives its URL (``.ci/run`` starts
one). With ``LAWSPEAKER_REQUIRE_PG=1`` a missing PostgreSQL is an error, so
CI cannot pass by skipping it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from lawspeaker.store import Store, open_store

PG_URL = os.environ.get("LAWSPEAKER_TEST_PG", "")
BACKENDS = ["sqlite", "postgresql"]


def reset_postgres(url: str) -> None:
    """Drop everything, so each test starts from an empty database."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def database(backend: str, tmp_path: Path) -> str:
    """A URL of an empty database of the given kind, or a skip."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    if not PG_URL:
        if os.environ.get("LAWSPEAKER_REQUIRE_PG") == "1":
            pytest.fail("LAWSPEAKER_REQUIRE_PG=1 but LAWSPEAKER_TEST_PG is not set")
        pytest.skip("PostgreSQL: set LAWSPEAKER_TEST_PG to a database URL (CI does)")
    reset_postgres(PG_URL)
    return PG_URL


def store_for(backend: str, tmp_path: Path) -> Iterator[Store]:
    store = open_store(database(backend, tmp_path))
    yield store
    store.close()
