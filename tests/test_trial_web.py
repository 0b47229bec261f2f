"""Defects from a GM's trial of the server (issue 31): each test failed before its fix."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from web_fixtures import World

from lawspeaker.service import GM, ServiceError


def bearer(w: World, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {w.tokens[role]}"}


# --- 1. a game's name is part of its web address: nothing that cannot be routed -------------

UNROUTABLE = ["Dragon 1/2", "What?", "Game #3", "100% war", "back\\slash", "..", "."]


@pytest.mark.parametrize("name", UNROUTABLE)
def test_a_name_that_cannot_be_routed_is_refused_by_the_service(world: World,
                                                               name: str) -> None:
    before = len(world.service.list_games())
    with pytest.raises(ServiceError, match="a game name may not"):
        world.service.create_game("standard", name, None, None, actor=GM)
    assert len(world.service.list_games()) == before


@pytest.mark.parametrize("name", UNROUTABLE)
def test_a_name_that_cannot_be_routed_is_refused_on_the_web_and_the_api(world: World,
                                                                        name: str) -> None:
    before = len(world.service.list_games())
    r = world.clients["server-gm"].post("/games", data={
        "csrf": world.csrf("server-gm"), "variant": "standard", "name": name},
        follow_redirects=False)
    assert r.status_code == 400, r.text[:300]
    assert "a game name may not" in r.text and "web address" in r.text
    r = world.clients["anonymous"].post("/api/v1/games", headers=bearer(world, "server-gm"),
                                        json={"variant": "standard", "name": name})
    assert r.status_code == 400, r.text[:300]
    assert "a game name may not" in r.json()["error"]
    assert len(world.service.list_games()) == before


def test_a_name_with_ordinary_punctuation_is_created_and_reachable(world: World) -> None:
    name = "Dragon 1-2: Þór's (v.2) & co"
    r = world.clients["anonymous"].post("/api/v1/games", headers=bearer(world, "server-gm"),
                                        json={"variant": "standard", "name": name})
    assert r.status_code == 200, r.text[:300]
    client = world.clients["server-gm"]
    for path in (f"/games/{quote(name, safe='')}", f"/api/v1/games/{quote(name, safe='')}",
                 f"/games/{quote(name, safe='')}/map.svg"):
        assert client.get(path).status_code == 200, path
