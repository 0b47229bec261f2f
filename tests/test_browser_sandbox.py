"""The what-if sandbox in a real browser: a player tries orders, goes on to
the next phase, and sees results and maps, on a desktop and a phone, with
nothing refused by the Content-Security-Policy and nothing sent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_browser import browser, server  # the same real server and Debian chromium

from lawspeaker.service import GM, PUBLIC, Viewer

__all__ = ["browser", "server"]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_player_tries_orders_in_the_sandbox(server, browser, tmp_path: Path,  # type: ignore[no-untyped-def]
                                              width: int) -> None:
    from playwright.sync_api import expect

    base, app = server
    svc = app.state.service
    svc.create_game("s9-complete", "Saga", actor=GM)
    assert svc.submit("Saga", "Aesir", "F Asgard - Idavollr\n", actor=Viewer.of("Aesir")).ok
    vanir = next(o for o in svc.unit_options("Saga", "Vanir", actor=GM)[0].orders if " - " in o)
    assert svc.submit("Saga", "Vanir", vanir, actor=Viewer.of("Vanir")).ok
    before = (svc.submissions("Saga", "Aesir", actor=GM), svc.position("Saga", actor=PUBLIC),
              svc.history("Saga", actor=PUBLIC))
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.goto(f"{base}/join/{svc.issue_link('Saga', 'Aesir', actor=GM)}")
    page.click("#whatif")
    assert "sandbox of Saga, as Aesir" in page.inner_text("h1")
    page.fill("#step1", "Ljosalfar:\nF Alfheim H\n")
    page.click("button[value=next]")
    post = page.inner_text("#step-1 pre.post")
    assert "F Asgard - Idavollr" in post  # Aesir's own standing order
    vanir_part = post.split("Vanir\n-----\n")[1].split("\n\n")[0].splitlines()
    assert len(vanir_part) == 2  # Vanir's real order is not used: both its units hold
    assert all(line.endswith("H: No order: holds") for line in vanir_part)
    assert vanir not in page.content()
    page.fill("#step2", "F Asgard - Himinbjorg\n")
    page.click("button[value=run]")
    assert "Autumn Orders" in page.inner_text("#step-2 h2")
    image = page.locator("#step-2 figure.map img")
    expect(image).to_have_js_property("complete", True)
    assert image.evaluate("i => i.naturalWidth") > 500
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"12-sandbox-{width}.png"), full_page=True)
    assert refused == []
    assert (svc.submissions("Saga", "Aesir", actor=GM), svc.position("Saga", actor=PUBLIC),
            svc.history("Saga", actor=PUBLIC)) == before
    page.context.close()
