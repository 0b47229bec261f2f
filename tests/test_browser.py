"""A whole first phase in a real browser, as people play it.

Debian's ``chromium`` driven by Playwright (its own browser download does
not work on these machines). A GM creates an S9 Complete game and makes
three secret links; three players submit orders and DP, one mistypes and
corrects; the GM processes; the players are told live, and see the results
and the map. Skipped when chromium or Playwright is missing, unless
``LAWSPEAKER_REQUIRE_BROWSER=1`` (CI), where that is an error.
Screenshots go to ``$LAWSPEAKER_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_app import serving

from lawspeaker.service import GM, PUBLIC

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def _missing(why: str) -> None:
    if os.environ.get("LAWSPEAKER_REQUIRE_BROWSER") == "1":
        pytest.fail(f"LAWSPEAKER_REQUIRE_BROWSER=1 but {why}")
    pytest.skip(why)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, object]]:
    from lawspeaker.web import create_app

    app = create_app(f"sqlite:///{tmp_path / 'browser.db'}", tick=0, poll=0.3)
    with serving(app) as url:
        yield url, app


@pytest.fixture()
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def test_a_first_phase_in_the_browser(server, browser, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    base, app = server
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)

    def shot(page, name: str) -> None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)

    refused: list[str] = []  # what the Content-Security-Policy blocked: must stay empty

    def watched(page):  # type: ignore[no-untyped-def]
        page.on("console", lambda m: refused.append(m.text)
                if "Content Security Policy" in m.text else None)
        return page

    gm_link = f"{base}/join/{app.state.service.issue_link(None, actor=GM)}"
    gm = watched(browser.new_context(viewport={"width": 1400, "height": 900}).new_page())
    gm.goto(gm_link)
    gm.select_option("select[name=variant]", "s9-complete")
    gm.fill("input[name=name]", "Saga II")
    gm.click("text=Create game")
    assert "Game 'Saga II' created" in gm.inner_text("p.flash")

    links = {}
    for power, player in (("Aesir", "alice"), ("Dokkalfar", "bob"), ("Jotnar", "carol")):
        gm.select_option("details select[name=seat]", power)
        gm.fill("input[name=player]", player)
        gm.click("text=Make a secret link")
        links[power] = gm.input_value("input.link")
        assert "/join/" in links[power]
        if power == "Aesir":
            shot(gm, "02-gm-link")
        gm.click("text=Back to the game")
    shot(gm, "01-gm-game")

    posts = {"Aesir": "F Asgard - Idavollr\nF Himinbjorg - Bifrost\n2 DP to F Glaesisvellir H",
             "Jotnar": "F Jotunheim - Aekin\n1 DP to A Gjallerbru H"}
    players = {}
    for power, link in links.items():
        page = watched(browser.new_context(viewport={"width": 1400, "height": 900}).new_page())
        page.goto(link)
        assert f"Your orders: {power}" in page.inner_text("h2")
        players[power] = page
    for power, text in posts.items():
        page = players[power]
        page.fill("#orders", text)
        page.click("text=Send orders")
        assert "Every line was accepted" in page.inner_text(".report")
    shot(players["Aesir"], "03-aesir-sent")

    bob = players["Dokkalfar"]
    bob.fill("#orders", "F Chernobog - Morskoi\n3 DP to F Eire H")  # a typo; too much DP
    bob.wait_for_selector("#check li.unreadable")
    checked = bob.inner_text("#check")
    assert "unreadable" in checked and "rejected" in checked
    shot(bob, "04-bob-typo-checked-live")
    bob.click("text=Send orders")
    assert "Nothing was saved" in bob.inner_text(".report")
    shot(bob, "05-bob-typo-sent")
    bob.fill("#orders", "F Chernobog - Morskoy\n1 DP to F Eire H")
    expect(bob.locator("#check")).not_to_contain_text("unreadable")  # polls without eval (CSP)
    bob.click("text=Send orders")
    assert "Every line was accepted" in bob.inner_text(".report")
    standing = bob.inner_text("section.panel")
    assert "F Chernobog - Morskoy" in standing and "1 DP to F Eire H" in standing
    assert "F Asgard - Idavollr" not in bob.content()  # Aesir's orders are not Bob's
    sent = bob.locator("details.sent")
    assert sent.count() == 2  # the typo and the correction, each as written
    assert "the latest" in sent.first.inner_text() and "Morskoy" in sent.first.inner_text()
    bob.click("details.sent >> nth=1 >> summary")
    assert "Morskoi" in sent.nth(1).inner_text() and "unreadable" in sent.nth(1).inner_text()
    assert "Left" in bob.inner_text("table.dp")
    shot(bob, "05b-bob-corrected-posts")

    gm.reload()
    table = gm.inner_text("table.subs")
    assert "F Asgard - Idavollr" in table and "1 DP to F Eire H" in table
    gm.click("text=Every post this phase")
    assert "Dokkalfar: post 2" in gm.inner_text("section.panel")
    shot(gm, "06-gm-before-processing")
    for page in players.values():
        page.goto(f"{base}/games/Saga%20II")  # the game page, listening for the phase
    gm.click("button.primary")
    assert "processed" in gm.inner_text("p.flash")
    shot(gm, "07-gm-processed")

    alice = players["Aesir"]
    alice.wait_for_selector("#live:not([hidden])", timeout=10_000)
    shot(alice, "08-alice-told-live")
    alice.click("#live a")
    assert "Bounced" in alice.inner_text("pre.post")  # the latest results, on the game page
    alice.click("section.panel ul >> text=Spring Orders")
    results = alice.inner_text("pre.post")
    assert "Idavollr" in results and "Chernobog" in results
    # DP stay secret after processing (S9 §9.0): Alice sees her own, nobody else's.
    public, _, own = results.partition("Aesir's DP allocations (secret: only you and the GM")
    assert "DP to" not in public and "Aesir: 2 DP to F Glaesisvellir H -> counted" in own
    assert "F Eire" not in own and "A Gjallerbru H" not in own
    expect(alice.locator("figure.map img")).to_have_js_property("complete", True)  # loaded
    assert alice.locator("figure.map img").evaluate("i => i.naturalWidth") > 100
    shot(alice, "09-alice-results")
    alice.goto(f"{base}/games/Nope")  # an error page, with its own link back
    alice.click("a.back")
    alice.wait_for_url("**/games/**")
    assert refused == []  # no inline script or style anywhere: the CSP blocked nothing
    for page in [gm, *players.values()]:
        page.context.close()


def test_dissolution_shows_each_favor_cap(server, browser, tmp_path: Path) -> None:
    """Dissolution §11.4.1: beside the order box, the DP left under each Favor cap."""
    base, app = server
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    svc = app.state.service
    svc.create_game("dissolution", "Raspad", actor=GM)
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.set_default_timeout(90_000)  # Dissolution's map is large: slow on a loaded machine
    page.goto(f"{base}/join/{svc.issue_link('Raspad', 'Egypt', actor=GM)}")
    table = page.inner_text("table.dp")
    assert "India's units" in table and "Favor" in table and "Dissolution §5.2" in table
    page.fill("#orders", "1 DP to W Mumbai H")
    page.wait_for_selector("#check table.dp")
    live = page.inner_text("#check table.dp")
    india = next(line for line in live.splitlines() if line.startswith("India"))
    assert india.split()[-1] == "0"  # Egypt's Favor with India is spent by this post
    page.screenshot(path=str(shots / "10-dissolution-favor-caps.png"), full_page=True)
    page.context.close()


def test_the_favor_map_beside_the_board_in_a_dissolution_winter(server, browser,
                                                                 tmp_path: Path) -> None:
    """Issue 19: Egypt's page in Winter shows the Favor Map, with Egypt's Embassy
    order drawn, loaded under the Content-Security-Policy (nothing refused)."""
    from playwright.sync_api import expect

    from lawspeaker.service import Viewer

    base, app = server
    svc = app.state.service
    svc.create_game("dissolution", "Raspad", actor=GM)
    while "Winter" not in svc.game("Raspad", actor=PUBLIC).phase:
        svc.process("Raspad", actor=GM)
    assert svc.submit("Raspad", "Egypt", "E B1p - B2o\n", actor=Viewer.of("Egypt")).ok
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.goto(f"{base}/join/{svc.issue_link('Raspad', 'Egypt', actor=GM)}")
    figure = page.locator("#favor-map img")
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_js_property("complete", True)  # polls without eval (CSP)
    assert figure.evaluate("i => i.naturalWidth") > 1000
    assert "Embassy orders are drawn" in page.inner_text("#favor-map figcaption")
    shots = Path(os.environ.get("LAWSPEAKER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "11-favor-map.png"), full_page=True)
    assert refused == []
