"""The map is readable everywhere: every bundled variant, at desktop and phone widths.

Issue 19 ("Maps players recognise"): the game page and the phase page show
the map in a viewport that zooms and pans (static/zoom.js), opening at a
scale where labels are legible, and no page is wider than a phone's screen.
One server, one browser, a game of each variant made through the service.
Screenshots go to the test's tmp dir, or ``$LAWSPEAKER_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from test_browser import browser, server  # noqa: F401  (fixtures: one server, one browser)

from lawspeaker.service import GM, PUBLIC

VARIANTS = ("standard", "s9-basic", "s9-complete", "ood", "dissolution")
WIDTHS = {"desktop": {"width": 1280, "height": 900},
          "phone": {"width": 390, "height": 844}}
LEGIBLE = 0.8
"""The least scale (rendered pixels per pixel of the drawing) the map opens at:
below it, the drawings' 10-11 px labels are too small to read."""


def _scale(page) -> float:  # type: ignore[no-untyped-def]
    """The scale the map is drawn at, measured (not read from zoom.js's own record)."""
    return page.locator("figure.map img").first.evaluate(
        "i => i.getBoundingClientRect().width / i.naturalWidth")


def _no_overflow(page) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")


MIN_LABEL_PX = 9.0
"""The smallest a province name may be on screen at the scale the map opens at."""


def _smallest_label(page) -> float:  # type: ignore[no-untyped-def]
    """The smallest province name as drawn on screen: its font size in the SVG
    the page shows (fetched with the page's own cookies) times the measured scale."""
    src = page.locator("figure.map img").first.get_attribute("src")
    svg = page.request.get(page.url.split("/games/")[0] + src if src.startswith("/") else src)
    sizes = [float(m) for m in re.findall(r'<text[^>]* font-size="([\d.]+)"[^>]* id="label-',
                                          svg.text())]
    sizes += [float(m) for m in re.findall(r'<text[^>]* id="label-[^"]*"[^>]* font-size="([\d.]+)"',
                                           svg.text())]
    assert sizes, "no province labels in the map"
    return min(sizes) * _scale(page)


def test_maps_are_readable_at_every_width(server, browser, tmp_path: Path  # noqa: F811
                                          ) -> None:
    base, app = server
    svc = app.state.service
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    refused: list[str] = []  # what the Content-Security-Policy blocked: must stay empty
    contexts = {}  # (width, who): a player's browser and the GM's, at each width
    gm = svc.issue_link(None, actor=GM)
    for kind, size in WIDTHS.items():
        for who in ("player", "gm"):
            phone = kind == "phone"
            context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
            context.on("console", lambda m: refused.append(m.text)
                       if "Content Security Policy" in m.text else None)
            contexts[kind, who] = context
        contexts[kind, "gm"].new_page().goto(f"{base}/join/{gm}")

    pages: list[tuple[str, tuple[str, str], str]] = []  # (shot name, browser, url)
    for variant in VARIANTS:
        name = f"Maps {variant}"
        svc.create_game(variant, name, actor=GM)
        power = sorted(svc.variant_of(name, actor=PUBLIC).powers)[0]
        token = svc.issue_link(name, power, actor=GM)
        url = f"{base}/games/{name.replace(' ', '%20')}"
        for kind in WIDTHS:
            pages.append((f"map-{variant}-{kind}-player", (kind, "player"),
                          f"{base}/join/{token}"))
            pages.append((f"map-{variant}-{kind}-gm", (kind, "gm"), url))
    svc.process("Maps standard", actor=GM)
    phase = svc.history("Maps standard", actor=PUBLIC)[-1].phase
    for kind in WIDTHS:
        pages.append((f"map-standard-{kind}-phase", (kind, "player"),
                      f"{base}/games/Maps%20standard/phases/{phase.replace(' ', '%20')}"))

    for shot, kind, url in pages:
        page = contexts[kind].new_page()
        page.set_default_timeout(30_000)
        page.goto(url)
        page.wait_for_selector("figure.map.zoomable[data-scale]")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        width, inner = _no_overflow(page)  # every folded section open: the GM's forms too
        assert width <= inner, f"{shot}: the page is {width} px wide in a {inner} px window"
        assert page.locator("figure.map").count() == page.locator("figure.map.zoomable").count()
        opened = _scale(page)
        assert opened >= LEGIBLE, f"{shot}: the map opens at scale {opened:.2f}"
        smallest = _smallest_label(page)
        assert smallest >= MIN_LABEL_PX, f"{shot}: a province name is {smallest:.1f} px"
        page.screenshot(path=str(shots / f"{shot}.png"), full_page=kind[0] == "phone")
        if shot.endswith("-gm"):
            page.close()
            continue
        page.click("figure.map button[data-zoom=in]")
        assert _scale(page) > opened * 1.2, shot
        page.click("figure.map button[data-zoom=fit]")
        fitted = _scale(page)
        assert fitted < opened, f"{shot}: fit did not zoom out ({fitted:.2f})"
        view = page.locator("figure.map .mapview").first
        box = view.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= inner
        img = page.locator("figure.map img").first.bounding_box()
        assert img is not None and img["width"] <= box["width"] + 1  # the whole map shows
        page.screenshot(path=str(shots / f"{shot}-fit.png"))
        page.click("figure.map button[data-zoom='one']")
        assert abs(_scale(page) - 1) < 0.01, shot
        page.close()

    # Keyboard, wheel and drag, on the largest drawing.
    page = contexts["desktop", "player"].new_page()
    page.goto(next(url for shot, _, url in pages if shot == "map-dissolution-desktop-player"))
    page.wait_for_selector("figure.map.zoomable[data-scale]")
    view = page.locator("figure.map .mapview").first
    view.focus()
    page.keyboard.press("-")
    assert _scale(page) < 0.9
    page.keyboard.press("1")
    assert abs(_scale(page) - 1) < 0.01
    left = view.evaluate("v => v.scrollLeft")
    page.keyboard.press("ArrowRight")
    for _ in range(100):  # polled from here: the page's CSP forbids eval'd predicates
        if view.evaluate("v => v.scrollLeft") > left:
            break
        page.wait_for_timeout(50)
    assert view.evaluate("v => v.scrollLeft") > left
    box = view.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -100)
    assert _scale(page) > 1.2
    before = view.evaluate("v => [v.scrollLeft, v.scrollTop]")
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 200, box["y"] + box["height"] / 2 - 100)
    page.mouse.up()
    after = view.evaluate("v => [v.scrollLeft, v.scrollTop]")
    assert after[0] > before[0] and after[1] > before[1]  # dragged left and up: moved on
    page.close()
    for context in contexts.values():
        context.close()
    assert refused == []


def test_a_winter_page_draws_its_embassy_orders_and_the_palette_is_remembered(
        server, browser, tmp_path: Path) -> None:  # noqa: F811
    """Dissolution §11.5: a past Winter's phase page shows the Favor Map beside
    the board with that Winter's Embassy orders and results, readable at both
    widths; a viewer's palette choice (a form, no script) is kept by the browser."""
    base, app = server
    svc = app.state.service
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    svc.create_game("dissolution", "Favor", actor=GM)
    while "Winter" not in svc.game("Favor", actor=PUBLIC).phase:
        svc.process("Favor", actor=GM)
    winter = svc.game("Favor", actor=PUBLIC).phase
    from lawspeaker.service import Viewer
    assert svc.submit("Favor", "Egypt", "E B1p - B2o\n", actor=Viewer.of("Egypt")).ok
    svc.process("Favor", actor=GM)
    url = f"{base}/games/Favor/phases/{winter.replace(' ', '%20')}"
    for kind, size in WIDTHS.items():
        phone = kind == "phone"
        context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(url)
        page.wait_for_selector("figure.map.favor.zoomable[data-scale]")
        width, inner = _no_overflow(page)
        assert width <= inner, f"{kind}: the page is {width} px wide in a {inner} px window"
        favor = page.locator("figure.map.favor img")
        assert favor.evaluate("i => i.complete && i.naturalWidth") > 0
        src = favor.get_attribute("src")
        assert "board=favor" in src and "orders=true" in src
        svg = page.request.get(f"{base}{src}").text()
        assert 'id="favor-order-eg-B1p"' in svg
        page.locator("#favor-map").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"favor-winter-{kind}.png"), full_page=phone)
        context.close()

    context = browser.new_context(viewport=WIDTHS["phone"], is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/games/Favor")
    page.select_option("#palette-choice", "colorblind")
    page.click("#palette button")
    page.wait_for_selector("figure.map.zoomable[data-scale]")
    board = page.locator("figure.map img").first
    assert "palette=colorblind" in board.get_attribute("src")
    for _ in range(200):  # polled from here: the page's CSP forbids eval'd predicates
        if board.evaluate("i => i.complete && i.naturalWidth") > 0:
            break
        page.wait_for_timeout(50)
    assert board.evaluate("i => i.naturalWidth") > 0
    width, inner = _no_overflow(page)
    assert width <= inner
    page.screenshot(path=str(shots / "map-dissolution-phone-colorblind.png"))
    page.goto(url)  # another page, no parameter: the choice was remembered
    page.wait_for_selector("figure.map.zoomable[data-scale]")
    for img in page.locator("figure.map img").all():
        assert "palette=colorblind" in img.get_attribute("src")
    assert page.locator("#palette-choice").input_value() == "colorblind"
    context.close()
