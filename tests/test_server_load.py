"""Players posting and checking while the GM processes lose and mix up nothing.

A small run of benchmarks/bench_server.py (the full one is 100 players):
`lawspeaker serve` with two worker processes on loopback, every player
checking and posting concurrently through the JSON API while each game's GM
processes it twice, each time with a double click; then everything is read
back from the database. SQLite always; PostgreSQL with LAWSPEAKER_TEST_PG."""

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
def test_acknowledged_posts_are_kept_while_the_gm_processes(backend: str,
                                                            tmp_path: Path) -> None:
    result = _bench().run(database(backend, tmp_path), players=27, posts=4, phases=2,
                          workers=2, timeout=60)
    assert result.lost == []
    assert result.duplicates == []
    assert result.errors == []
    assert result.acknowledged == 27 * 4  # every post kept, some after a 409 and a rewrite
    assert result.processed == 3 * 2 and result.double_clicks_refused == 3 * 2
