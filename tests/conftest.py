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
