"""The game page over an uploaded official map image, in chromium (as
test_browser.py drives it): the GM uploads image and layout through the form,
the map on the page and the SVG opened on its own show the image (the
Content-Security-Policy lets the embedded image through, nothing else), and
a phone-width page does not overflow."""

from __future__ import annotations

import os
from pathlib import Path

from backdrop_fixtures import write_backdrop
from test_browser import browser, server  # noqa: F401  (fixtures: one server, one browser)

import lawspeaker
from lawspeaker.service import GM, PUBLIC


def test_the_gm_uploads_the_image_and_the_page_draws_over_it(server, browser,  # noqa: F811
                                                            tmp_path: Path) -> None:
    base, app = server
    svc = app.state.service
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    svc.create_game("standard", "Over", actor=GM)
    layout = write_backdrop(tmp_path, lawspeaker.load_variant("standard"))
    refused: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.on("console", lambda m: refused.append(m.text)
               if "Content Security Policy" in m.text else None)
    page = context.new_page()
    page.goto(f"{base}/join/{svc.issue_link('Over', 'gm', actor=GM)}")
    page.goto(f"{base}/games/Over")
    page.locator("#backdrop summary").click()
    page.set_input_files("#backdrop input[name=image]", str(tmp_path / "official.png"))
    page.set_input_files("#backdrop input[name=layout]", str(layout))
    page.locator("#backdrop button", has_text="Upload").click()
    page.wait_for_selector("p.flash")
    assert "Map image set" in page.locator("p.flash").text_content()
    assert svc.backdrop("Over", actor=PUBLIC) is not None
    page.wait_for_selector("figure.map.zoomable[data-scale]")
    page.screenshot(path=str(shots / "backdrop-game-page.png"))
    shown = page.evaluate("() => { const i = document.querySelector('figure.map img');"
                          " return [i.naturalWidth, i.complete]; }")
    assert shown[1] and shown[0] > 0

    svg = context.new_page()  # the SVG on its own: its image must not be blocked
    svg.goto(f"{base}/games/Over/map.svg?orders=true")
    assert svg.locator("#backdrop-image").count() == 1
    drawn = svg.evaluate("() => document.getElementById('backdrop-image').getBBox().width")
    assert drawn > 100
    svg.screenshot(path=str(shots / "backdrop-svg.png"))

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    phone.on("console", lambda m: refused.append(m.text)
             if "Content Security Policy" in m.text else None)
    small = phone.new_page()
    small.goto(f"{base}/join/{svc.issue_link('Over', 'gm', actor=GM)}")
    small.goto(f"{base}/games/Over")
    small.wait_for_selector("figure.map.zoomable[data-scale]")
    small.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    width, inner = small.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the GM page is {width} px wide in a {inner} px window"
    small.screenshot(path=str(shots / "backdrop-game-page-phone.png"), full_page=True)
    assert refused == []
    context.close()
    phone.close()
