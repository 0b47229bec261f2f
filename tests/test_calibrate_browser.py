"""``lawspeaker map calibrate`` in a real browser (Debian's chromium, as in
test_browser.py): the GM clicks a few provinces, skips one, undoes, places
one at the page's guess, reloads and resumes; the layout file holds what
was clicked, in image pixels, after every step."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_app import serving
from test_browser import browser  # noqa: F401  (fixture: one chromium)

import lawspeaker
from lawspeaker.render import draw, layout_for
from lawspeaker.render.maplayout import load_layout, spots_of
from lawspeaker.web.calibrate import Calibration, calibration_app

SCALE = 0.5
"""The 'official' image: the node diagram drawn at half size (small and quick)."""


@pytest.fixture()
def calibrating(tmp_path: Path) -> Iterator[tuple[str, Path, dict[str, tuple[float, float]]]]:
    variant = lawspeaker.load_variant("standard")
    image = tmp_path / "official.png"
    image.write_bytes(draw(variant).png(SCALE))
    layout = layout_for(variant)
    truth = {k: (x * SCALE, y * SCALE) for k, (x, y) in {**layout.points,
                                                         **layout.coasts}.items()}
    target = tmp_path / "official.layout.yaml"
    token = secrets.token_urlsafe(8)
    app = calibration_app(Calibration.open(variant, image, target), token)
    with serving(app) as url:
        yield f"{url}/{token}/", target, truth


def _click_at(page, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    """Click the image pixel (x, y) of the fitted map."""
    box = page.locator("#map").bounding_box()
    width = float(page.locator("#map").get_attribute("data-width"))
    height = float(page.locator("#map").get_attribute("data-height"))
    scale = min(box["width"] / width, box["height"] / height)
    left = box["x"] + (box["width"] - width * scale) / 2
    top = box["y"] + (box["height"] - height * scale) / 2
    page.mouse.click(left + x * scale, top + y * scale)


def _current(page) -> str:  # type: ignore[no-untyped-def]
    return page.locator("#current").get_attribute("data-key") or ""


def test_a_gm_clicks_skips_undoes_and_resumes(calibrating, browser) -> None:  # noqa: F811
    from playwright.sync_api import expect

    url, target, truth = calibrating
    order = spots_of(lawspeaker.load_variant("standard"))
    refused: list[str] = []
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.on("console", lambda m: refused.append(m.text) if "Refused" in m.text else None)
    page.goto(url)
    page.wait_for_selector("#map[data-ready]")
    expect(page.locator("#progress")).to_have_text(f"0 / {len(order)} set")

    # click where each unit stands until three provinces are set (a split
    # coast is asked right after its province; the guess needs three provinces)
    n = next(i + 1 for i in range(len(order))
             if sum("/" not in k for k in order[:i + 1]) == 3)
    first = order[:n]
    for i, key in enumerate(first):
        assert _current(page) == key
        _click_at(page, *truth[key])
        expect(page.locator("#progress")).to_have_text(f"{i + 1} / {len(order)} set")
    saved = load_layout(target)
    assert list(saved.provinces) == first
    for key in first:  # within a pixel of the spot clicked (rounding of the screen)
        assert abs(saved.provinces[key][0] - truth[key][0]) <= 1.5
        assert abs(saved.provinces[key][1] - truth[key][1]) <= 1.5

    fourth = order[n]
    assert _current(page) == fourth
    page.keyboard.press("s")  # skip: the next one is asked, nothing is saved
    assert _current(page) == order[n + 1]
    page.keyboard.press("u")  # undo the skip
    assert _current(page) == fourth
    page.keyboard.press("u")  # undo the last spot: it is asked again, and gone from the file
    expect(page.locator("#progress")).to_have_text(f"{n - 1} / {len(order)} set")
    assert _current(page) == first[-1]
    assert list(load_layout(target).provinces) == first[:-1]

    _click_at(page, *truth[first[-1]])
    expect(page.locator("#progress")).to_have_text(f"{n} / {len(order)} set")
    # three provinces set: the page guesses where the next one is; Enter takes the guess
    page.keyboard.press("Enter")
    expect(page.locator("#progress")).to_have_text(f"{n + 1} / {len(order)} set")
    spots = load_layout(target).provinces
    guessed = spots[fourth]
    if "/" in fourth:  # a coast is guessed at its province's spot, to be nudged
        assert guessed == spots[fourth.split("/")[0]]
    else:  # a province where the variant's own layout, fitted to the clicks, puts it
        assert abs(guessed[0] - truth[fourth][0]) < 5 and abs(guessed[1] - truth[fourth][1]) < 5

    fifth = next(k for k in order[n + 1:] if "/" not in k)
    page.select_option("#jump", fifth)  # go to a province out of turn
    assert _current(page) == fifth
    page.keyboard.press("Enter")  # a province's guess: within a few pixels of the truth
    expect(page.locator("#progress")).to_have_text(f"{n + 2} / {len(order)} set")
    guessed = load_layout(target).provinces[fifth]
    assert abs(guessed[0] - truth[fifth][0]) < 5 and abs(guessed[1] - truth[fifth][1]) < 5

    page.keyboard.press("s")  # skip one, then leave
    placed = load_layout(target).provinces
    skipped = next(k for k in order if k not in placed)  # the first place not set
    page.reload()  # resume: the first place not set is asked, the spots are kept
    page.wait_for_selector("#map[data-ready]")
    expect(page.locator("#progress")).to_have_text(f"{n + 2} / {len(order)} set")
    assert _current(page) == skipped
    assert page.locator("#marks .mark").count() == n + 2

    page.locator("#zoom-in").click()  # buttons zoom about the middle, Fit goes back
    assert page.locator("#map").get_attribute("viewBox") != "0 0 " + " ".join(
        page.locator("#map").get_attribute(a) for a in ("data-width", "data-height"))
    page.locator("#fit").click()
    x, y = truth[skipped]
    box = page.locator("#map").bounding_box()
    width = float(page.locator("#map").get_attribute("data-width"))
    height = float(page.locator("#map").get_attribute("data-height"))
    scale = min(box["width"] / width, box["height"] / height)
    page.mouse.move(box["x"] + (box["width"] - width * scale) / 2 + x * scale,
                    box["y"] + (box["height"] - height * scale) / 2 + y * scale)
    for _ in range(3):  # the wheel zooms about the pointer
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(50)
    vb = [float(v) for v in page.locator("#map").get_attribute("viewBox").split()]
    assert vb[2] < width / 1.9, "the wheel did not zoom in"
    scale = min(box["width"] / vb[2], box["height"] / vb[3])
    left = box["x"] + (box["width"] - vb[2] * scale) / 2
    top = box["y"] + (box["height"] - vb[3] * scale) / 2
    assert vb[0] <= x <= vb[0] + vb[2] and vb[1] <= y <= vb[1] + vb[3], "spot out of view"
    page.mouse.click(left + (x - vb[0]) * scale, top + (y - vb[1]) * scale)
    expect(page.locator("#progress")).to_have_text(f"{n + 3} / {len(order)} set")
    spot = load_layout(target).provinces[skipped]
    assert abs(spot[0] - x) <= 1 and abs(spot[1] - y) <= 1
    assert target.read_text().startswith("variant: standard\nimage: official.png\nsize: [")
    assert refused == []
    page.close()
