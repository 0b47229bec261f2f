"""Shared fixtures: the standard variant and its map, the other bundled
variants by short name, a store and a service on each backend, and the web
tests' server with a browser per role (``world``, :mod:`web_fixtures`).

A test file that needs something else under one of these names defines its
own fixture, which takes precedence over the one here for that file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import lawspeaker

if TYPE_CHECKING:
    from web_fixtures import World


@pytest.fixture(scope="session")
def variant() -> lawspeaker.Variant:
    return lawspeaker.load_variant("standard")


@pytest.fixture(scope="session")
def game_map(variant: lawspeaker.Variant) -> lawspeaker.GameMap:
    return variant.map


@pytest.fixture(scope="module")
def standard() -> lawspeaker.Variant:
    return lawspeaker.load_variant("standard")


@pytest.fixture(scope="module")
def s9() -> lawspeaker.Variant:
    return lawspeaker.load_variant("s9-complete")


@pytest.fixture(scope="module")
def basic() -> lawspeaker.Variant:
    return lawspeaker.load_variant("s9-basic")


@pytest.fixture(scope="module")
def dis() -> lawspeaker.Variant:
    return lawspeaker.load_variant("dissolution")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path):  # type: ignore[no-untyped-def]
    """An empty store on SQLite, and on PostgreSQL when CI provides one."""
    from store_fixtures import store_for

    yield from store_for(request.param, tmp_path)


@pytest.fixture
def service(store):  # type: ignore[no-untyped-def]
    from lawspeaker.service import GameService

    return GameService(store)


@pytest.fixture(params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    """The web tests' server (:func:`web_fixtures.build`) on SQLite, and on
    PostgreSQL when CI provides one."""
    from store_fixtures import database
    from web_fixtures import build

    return build(database(request.param, tmp_path))
