"""Maps players can post (issue 19): the PNG endpoints, the map in the forum
export, and Dissolution's Favor Map on the game page.

A PNG is the SVG the same caller gets, rendered: so it shows exactly what the
SVG shows each role (tests/test_web.py holds the SVG to the who-sees-what
table), and it is at most 2,000 px wide, which forums and Discord accept.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from web_fixtures import POWERS, World

from lawspeaker.cli import main
from lawspeaker.render.png import PNG_SIGNATURE, svg_to_png
from lawspeaker.service import GM, PUBLIC, GameService, Viewer
from lawspeaker.store import open_store
from lawspeaker.web import create_app

ROLES = ("server-gm", "gm", *POWERS, "B.Aesir", "anonymous")
GMS = ("server-gm", "gm")


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a PNG must start with."""
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def get(w: World, role: str, path: str, api: bool) -> object:
    if api:
        headers = {"Authorization": f"Bearer {w.tokens[role]}"} if role in w.tokens else {}
        return w.clients["anonymous"].get("/api/v1" + path, headers=headers)
    return w.clients[role].get(path)


# --- the PNG endpoints ----------------------------------------------------------------

@pytest.mark.parametrize("api", [False, True])
def test_the_png_is_a_png_a_forum_accepts(world: World, api: bool) -> None:
    r = get(world, "anonymous", "/games/A/map.png", api)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/png"
    width, height = png_size(r.content)
    assert 0 < width <= 2000 and height > 0
    # Same headers as the SVG: the answer depends on who asks, and a finished phase
    # can be rolled back and played again, so nothing keeps a copy.
    assert r.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("api", [False, True])
@pytest.mark.parametrize("role", ROLES)
def test_the_png_shows_each_role_exactly_what_the_svg_shows(world: World, role: str,
                                                             api: bool) -> None:
    """Every role, both front ends: the PNG is the caller's own SVG rendered, so the
    secrecy of the SVG (tests/test_web.py) carries over, and nothing is added."""
    svg = get(world, role, "/games/A/map.svg?orders=true", api).text
    png = get(world, role, "/games/A/map.png?orders=true", api).content
    assert png == svg_to_png(svg)
    gm_svg = get(world, "gm", "/games/A/map.svg?orders=true", api).text
    assert (svg == gm_svg) == (role in GMS)


def test_a_png_changes_for_exactly_those_who_may_see_the_new_order(world: World) -> None:
    before = {(role, api): get(world, role, "/games/A/map.png?orders=true", api).content
              for role in ROLES for api in (False, True)}
    moves = [o for o in world.service.unit_options("A", "Jotnar", actor=GM)[0].orders
             if " - " in o and " S " not in o]
    assert world.service.submit("A", "Jotnar", moves[1], actor=Viewer.of("Jotnar")).ok
    for role in ROLES:
        for api in (False, True):
            after = get(world, role, "/games/A/map.png?orders=true", api).content
            assert (after != before[role, api]) == (role in GMS or role == "Jotnar"), role


def test_a_processed_phase_png_is_the_same_for_everyone(world: World) -> None:
    world.service.process("A", actor=GM)
    pictures = {get(world, role, "/games/A/map.png?phase=1&orders=true", api).content
                for role in ROLES for api in (False, True)}
    assert len(pictures) == 1


@pytest.mark.parametrize("api", [False, True])
def test_png_errors_say_what_is_wrong(world: World, api: bool) -> None:
    r = get(world, "anonymous", "/games/A/map.png?phase=W999A", api)
    assert r.status_code == 404 and "no phase" in r.text and "W999A" in r.text
    for ext in ("png", "svg"):
        r = get(world, "anonymous", f"/games/A/map.{ext}?board=favor", api)
        assert r.status_code == 400 and "has no Favor Map" in r.text, (ext, r.text)
    r = get(world, "anonymous", "/games/A/map.png?board=chess", api)
    assert 400 <= r.status_code < 500
    r = get(world, "anonymous", "/games/Nope/map.png", api)
    assert r.status_code == 404


# --- Dissolution: a wide map scaled down, and the Favor Map ------------------------------

class Dissolution:
    """A Dissolution game in its first Winter, Egypt's Embassy order sent; a
    browser per role (the GM, Egypt, Iran, the public)."""

    def __init__(self, url: str, public_url: str | None = None) -> None:
        self.app = create_app(open_store(url), tick=0, poll=0.05, public_url=public_url)
        svc: GameService = self.app.state.service
        self.service = svc
        svc.create_game("dissolution", "D", actor=GM)
        svc.create_game("s9-complete", "S", actor=GM)
        self.clients: dict[str, TestClient] = {"anonymous": TestClient(self.app)}
        for role in ("gm", "Egypt", "Iran"):
            client = TestClient(self.app)
            assert client.get(f"/join/{svc.issue_link('D', role, actor=GM)}",
                              follow_redirects=False).status_code == 303
            self.clients[role] = client

    def winter(self) -> None:
        while "Winter" not in self.service.game("D", actor=PUBLIC).phase:
            self.service.process("D", actor=GM)
        assert self.service.submit("D", "Egypt", "E B1p - B2o\n", actor=Viewer.of("Egypt")).ok


@pytest.fixture
def dissolution(tmp_path: Path) -> Dissolution:
    return Dissolution(f"sqlite:///{tmp_path / 'd.db'}")


def test_the_dissolution_map_is_scaled_down_to_2000_px(dissolution: Dissolution) -> None:
    client = dissolution.clients["anonymous"]
    svg = client.get("/games/D/map.svg").text
    drawn = int(re.search(r'<svg[^>]* width="(\d+)"', svg).group(1))
    assert drawn > 3000  # drawn at 3,915 px so that no text is under 10 px
    for path in ("/games/D/map.png", "/api/v1/games/D/map.png"):
        width, height = png_size(client.get(path).content)
        assert width == 2000
        assert height == pytest.approx(2000 * 3002 / 3915, abs=2)
    favor = client.get("/games/D/map.png?board=favor")
    assert favor.status_code == 200 and png_size(favor.content)[0] <= 2000


def test_winter_embassy_orders_on_the_favor_map_as_each_may_see_them(
        dissolution: Dissolution) -> None:
    dissolution.winter()
    seen = {"gm": True, "Egypt": True, "Iran": False, "anonymous": False}
    for role, sees in seen.items():
        client = dissolution.clients[role]
        svg = client.get("/games/D/map.svg?board=favor&orders=true").text
        assert ('id="favor-order-eg-B1p"' in svg) == sees, role
        assert client.get("/games/D/map.png?board=favor&orders=true").content == svg_to_png(svg)


def test_the_game_page_shows_the_favor_map_only_where_there_is_one(
        dissolution: Dissolution) -> None:
    dissolution.winter()
    for role, orders in (("anonymous", False), ("Egypt", True), ("gm", True)):
        page = dissolution.clients[role].get("/games/D").text
        src = re.search(r'<figure class="map favor" id="favor-map">.*?<img[^>]* src="([^"]+)"',
                        page, re.S).group(1)
        assert src == "/games/D/map.svg?board=favor" + ("&amp;orders=true" if orders else "")
        svg = dissolution.clients[role].get(src.replace("&amp;", "&"))
        assert svg.status_code == 200 and "favor-title" in svg.text
        assert "<script" not in page.split('id="favor-map"')[1].split("</figure>")[0]
    page = dissolution.clients["anonymous"].get("/games/S").text
    assert "favor-map" not in page and "board=favor" not in page


# --- the forum export -----------------------------------------------------------------

def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_the_export_embeds_the_public_map_of_the_phase(world: World) -> None:
    world.service.process("A", actor=GM)
    url = "http://testserver/games/A/map.png?phase=1&orders=true"
    bbcode = world.clients["Aesir"].get("/games/A/export?fmt=bbcode").text
    markdown = world.clients["anonymous"].get("/games/A/export?fmt=markdown").text
    text = world.clients["anonymous"].get("/games/A/export?fmt=text").text
    assert _lines(bbcode)[:3] == [_lines(bbcode)[0], "", f"[img]{url}[/img]"]
    assert _lines(bbcode)[0].startswith("[size=150][b]A: ")
    assert _lines(markdown)[:3] == [_lines(markdown)[0], "", f"![map]({url})"]
    assert "map.png" not in text
    # Everything but the image line is the post as before.
    plain = world.service.export("A", None, "bbcode", actor=PUBLIC)
    assert bbcode.replace(f"[img]{url}[/img]\n\n", "") == plain
    # The API's results post embeds it too.
    api = world.clients["anonymous"].get("/api/v1/games/A/results?fmt=markdown").json()["text"]
    assert f"![map]({url})" in api
    # The link shows the public results map: the same picture for a forum reader with
    # no session as for the GM, so it never carries a secret.
    path = url.removeprefix("http://testserver")
    public = world.clients["anonymous"].get(path)
    assert public.status_code == 200
    assert public.content == world.clients["gm"].get(path).content
    assert public.content == svg_to_png(
        world.clients["anonymous"].get(path.replace(".png", ".svg")).text)


def test_the_export_uses_the_public_url(tmp_path: Path) -> None:
    d = Dissolution(f"sqlite:///{tmp_path / 'p.db'}", public_url="https://dip.example.org/")
    d.service.process("S", actor=GM)
    post = d.clients["anonymous"].get("/games/S/export?fmt=bbcode").text
    assert "[img]https://dip.example.org/games/S/map.png?phase=1&orders=true[/img]" in post


def test_a_game_name_is_quoted_in_the_map_link(world: World) -> None:
    world.service.create_game("s9-complete", "Saga (II) & more", actor=GM)
    world.service.process("Saga (II) & more", actor=GM)
    post = world.clients["anonymous"].get(
        "/games/Saga%20%28II%29%20%26%20more/export?fmt=markdown").text
    assert ("![map](http://testserver/games/Saga%20%28II%29%20%26%20more/map.png"
            "?phase=1&orders=true)") in post


def test_the_cli_export_takes_the_map_url(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()

    def game(*args: str) -> str:
        result = runner.invoke(main, ["game", "--db", db, *args])
        assert result.exit_code == 0, result.output
        return result.output

    game("new", "s9-complete", "Saga")
    game("process", "Saga")
    plain = game("export", "Saga", "--format", "bbcode")
    assert "[img]" not in plain
    bbcode = game("export", "Saga", "--format", "bbcode", "--map-url", "https://dip.example.org")
    assert _lines(bbcode)[2] == \
        "[img]https://dip.example.org/games/Saga/map.png?phase=1&orders=true[/img]"
    assert bbcode.replace(_lines(bbcode)[2] + "\n\n", "") == plain
    markdown = game("export", "Saga", "--format", "markdown", "--map-url",
                    "https://dip.example.org/")
    assert _lines(markdown)[2] == \
        "![map](https://dip.example.org/games/Saga/map.png?phase=1&orders=true)"
    assert game("export", "Saga", "--map-url", "https://dip.example.org") == \
        game("export", "Saga")
    bad = runner.invoke(main, ["game", "--db", db, "export", "Saga", "--map-url", "dip.org"])
    assert bad.exit_code != 0 and "--map-url" in bad.output
