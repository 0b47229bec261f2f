"""The GM uploads the official map image and its layout on the game page
(issue 19); from then on the game page and both PNG endpoints draw over it,
for every viewer under the same secrecy as before. A bad upload is refused
with one sentence and nothing is kept; only the GM may upload or remove."""

from __future__ import annotations

import html

import pytest
from backdrop_fixtures import full_layout, image_size, plain_png
from web_fixtures import POWERS, World

import lawspeaker
from lawspeaker.render.imagefile import image_info
from lawspeaker.render.maplayout import dump_layout, spots_of
from lawspeaker.service import GM, PUBLIC
from lawspeaker.web.sizes import MAX_PNG_WIDTH

S9 = lawspeaker.load_variant("s9-complete")


def _upload(world: World, role: str, image: bytes, layout: str, name: str = "A"):  # type: ignore[no-untyped-def]
    return world.clients[role].post(
        f"/games/{name}/gm/backdrop", data={"csrf": world.csrf(role)},
        files={"image": ("official.png", image, "image/png"),
               "layout": ("official.layout.yaml", layout.encode(), "text/yaml")})


def _good() -> tuple[bytes, str]:
    return plain_png(*image_size(S9)), dump_layout(full_layout(S9))


def test_after_the_upload_every_map_of_the_game_is_drawn_over_the_image(world: World) -> None:
    image, layout = _good()
    assert "Map image set" in _upload(world, "server-gm", image, layout, name="B").text
    assert world.service.backdrop("B", actor=PUBLIC) is not None  # the server's GM runs every game
    world.service.remove_backdrop("B", actor=GM)
    gm = world.clients["gm"]
    page = gm.get("/games/A").text
    assert 'action="/games/A/gm/backdrop"' in page and "in use" not in page
    response = _upload(world, "gm", image, layout)
    assert response.status_code == 200 and "Map image set" in response.text
    assert world.service.backdrop("A", actor=PUBLIC).width == image_size(S9)[0]
    assert "in use" in gm.get("/games/A").text
    assert world.service.backdrop("B", actor=PUBLIC) is None  # one game's image only
    width = image_size(S9)[0]
    for role in ("anonymous", "gm", POWERS[0]):
        client = world.clients[role]
        svg = client.get("/games/A/map.svg?orders=true").text
        assert 'id="backdrop-image"' in svg and 'id="province-' not in svg
        orders = svg.count('class="order')
        assert orders == {"anonymous": 0, "gm": len(POWERS), POWERS[0]: 1}[role]
        for url in ("/games/A/map.png", "/api/v1/games/A/map.png"):
            png = client.get(url)
            assert png.status_code == 200, png.text
            info = image_info(png.content)
            assert info.kind == "png" and width < info.width <= MAX_PNG_WIDTH
    b_svg = world.clients["anonymous"].get("/games/B/map.svg").text
    assert 'id="backdrop-image"' not in b_svg

    removed = world.clients["gm"].post("/games/A/gm/backdrop",
                                       data={"csrf": world.csrf("gm"), "remove": "yes"},
                                       files={"none": ("", b"")})
    assert "drawn without the image" in removed.text
    assert world.service.backdrop("A", actor=PUBLIC) is None
    assert 'id="backdrop-image"' not in world.clients["anonymous"].get("/games/A/map.svg").text


def _refused(layout_change: str | None = None, image: bytes | None = None) -> tuple[bytes, str]:
    good_image, layout = _good()
    if layout_change == "missing":
        short = full_layout(S9, only=len(spots_of(S9)) - 2)
        layout = dump_layout(short)
    elif layout_change == "variant":
        layout = layout.replace("variant: s9-complete", "variant: standard")
    elif layout_change == "yaml":
        layout = layout.replace("provinces:\n", "provinces:\n  - [\n", 1)
    return image if image is not None else good_image, layout


@pytest.mark.parametrize(("case", "message"), [
    (_refused("missing"), "2 of"),
    (_refused("variant"), "the layout is for variant 'standard', not 's9-complete'"),
    (_refused("yaml"), "the layout file, line"),
    (_refused(image=b"<svg xmlns='http://www.w3.org/2000/svg'></svg>"),
     "not a PNG, JPEG, GIF or WebP image"),
    (_refused(image=plain_png(300, 200)), "official.png is 300x200 pixels, but the layout "
                                          "was calibrated on"),
    (_refused(image=b"\x89PNG" + b"\x00" * (8 * 1024 * 1024 + 10)), "the largest image taken"),
], ids=["missing-provinces", "wrong-variant", "bad-yaml", "not-an-image", "other-size",
        "too-large"])
def test_a_bad_upload_is_refused_with_a_sentence_and_nothing_kept(
        world: World, case: tuple[bytes, str], message: str) -> None:
    image, layout = case
    response = _upload(world, "gm", image, layout)
    assert response.status_code == 200
    text = html.unescape(response.text)
    assert "Map image not taken" in text and message in text
    assert "Traceback" not in text
    assert world.service.backdrop("A", actor=PUBLIC) is None


def test_only_the_gm_uploads_and_the_body_limit_holds(world: World) -> None:
    image, layout = _good()
    for role in (POWERS[0], "anonymous", "B.Aesir"):
        response = _upload(world, role, image, layout)
        assert response.status_code == 403, role
    assert world.service.backdrop("A", actor=PUBLIC) is None
    huge = world.clients["gm"].post(
        "/games/A/gm/backdrop", data={"csrf": world.csrf("gm")},
        files={"image": ("big.png", b"\x00" * (10 * 1024 * 1024), "image/png"),
               "layout": ("l.yaml", layout.encode(), "text/yaml")})
    assert huge.status_code == 413
    other = world.clients["gm"].post("/games/A/gm/rule", data={"csrf": world.csrf("gm"),
                                                               "value": "x" * 300_000})
    assert other.status_code == 413  # every other route keeps the small limit
    assert world.service.backdrop("A", actor=PUBLIC) is None
