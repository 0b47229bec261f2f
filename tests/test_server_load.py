"""Players submitting at once through a real server lose and mix up nothing.

A small run of benchmarks/bench_server.py (the full one is 100 players):
`lawspeaker serve` on loopback, every player posting concurrently through
the JSON API, then everything read back from the database, then the GM
processing. SQLite always; PostgreSQL with LAWSPEAKER_TEST_PG."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from store_fixtures import BACKENDS, database

_BENCH = Path(__file__).parent.parent / "benchmarks" / "bench_server.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_server", _BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("backend", BACKENDS)
def test_concurrent_players_lose_and_mix_up_nothing(backend: str, tmp_path: Path) -> None:
    result = _bench().run(database(backend, tmp_path), players=30, posts=3, phases=1,
                          timeout=60)
    assert result.errors == []
    assert result.submissions == 90 and result.process_count == 4
    assert result.submit_rps > 0 and result.process_p99 > 0
