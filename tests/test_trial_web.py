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


# --- 2. the API takes numbers and booleans where a house rule is one -------------------------

def test_the_api_takes_numbers_and_booleans_as_house_rules(world: World) -> None:
    api = world.clients["anonymous"]
    r = api.post("/api/v1/games", headers=bearer(world, "server-gm"), json={
        "variant": "s9-complete", "name": "Numbers",
        "rules": {"max_years": 2, "review": True, "review_hours": 48.0}})
    assert r.status_code == 200, r.text[:300]
    info = world.service.game("Numbers", actor=GM)
    assert info.rules == {"max_years": "2", "review": "yes", "review_hours": "48"}


def test_a_house_rule_value_of_the_wrong_kind_is_still_refused(world: World) -> None:
    before = len(world.service.list_games())
    for rules in ({"max_years": [2]}, {"max_years": {"n": 2}}, {"max_years": None}):
        r = world.clients["anonymous"].post("/api/v1/games", headers=bearer(world, "server-gm"),
                                            json={"variant": "s9-complete", "name": "Wrong",
                                                  "rules": rules})
        assert r.status_code == 422, (rules, r.text[:300])
    r = world.clients["anonymous"].post("/api/v1/games", headers=bearer(world, "server-gm"),
                                        json={"variant": "s9-complete", "name": "Wrong",
                                              "rules": {"review": 2.5}})
    assert r.status_code == 400 and "review must be yes or no" in r.json()["error"]
    assert len(world.service.list_games()) == before


# --- 3. a favicon, shipped in the package ---------------------------------------------------

def test_the_favicon_is_served_and_every_page_links_one(world: World) -> None:
    client = world.clients["anonymous"]
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    assert r.content[:4] == b"\x00\x00\x01\x00"  # an ICO file
    for path in ("/", "/games/A", "/games/nope"):
        page = client.get(path).text
        assert '<link rel="icon" href="/static/favicon.svg"' in page, path
    r = client.get("/static/favicon.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")


def test_the_favicons_are_package_data() -> None:
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    root = Path(__file__).parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["lawspeaker"]
    for name in ("favicon.ico", "favicon.svg"):
        assert (root / "src/lawspeaker/web/static" / name).is_file()
        assert any(fnmatch(f"web/static/{name}", p) for p in patterns), name


# --- 4. /api/docs works without internet: Swagger UI's files come from the server -----------

def test_the_api_docs_use_no_other_host_and_their_files_are_served(world: World) -> None:
    import re

    client = world.clients["anonymous"]
    r = client.get("/api/docs")
    assert r.status_code == 200
    assert "http://" not in r.text and "https://" not in r.text and "//" not in r.text
    policy = r.headers["content-security-policy"]
    assert "http" not in policy and "script-src 'self';" in policy
    urls = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert any(u.endswith(".js") for u in urls) and any(u.endswith(".css") for u in urls)
    for url in urls:
        assert url.startswith("/"), url
        asset = client.get(url)
        assert asset.status_code == 200 and asset.content, url
    bundle = client.get(next(u for u in urls if "swagger-ui-bundle" in u)).text
    assert "SwaggerUIBundle" in bundle
