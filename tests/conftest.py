"""Shared fixtures: the standard variant and its map."""

from __future__ import annotations

import pytest

import lawspeaker


@pytest.fixture(scope="session")
def variant() -> lawspeaker.Variant:
    return lawspeaker.load_variant("standard")


@pytest.fixture(scope="session")
def game_map(variant: lawspeaker.Variant) -> lawspeaker.GameMap:
    return variant.map


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path):  # type: ignore[no-untyped-def]
    """An empty store on SQLite, and on PostgreSQL when CI provides one."""
    from store_fixtures import store_for

    yield from store_for(request.param, tmp_path)


@pytest.fixture
def service(store):  # type: ignore[no-untyped-def]
    from lawspeaker.service import GameService

    return GameService(store)
