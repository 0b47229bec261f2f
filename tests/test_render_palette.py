"""The colour-blind-safe palette (issue 19), on every path: the Python API
(``draw(..., palette=)``, ``draw_favor``), the CLI (``map draw --palette``,
``game map --palette``) and the web (``?palette=`` on the PNG and SVG
endpoints and the API, and a choice on the page that the browser remembers).
The default stays as it was."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_web_png import Dissolution

import lawspeaker
from lawspeaker.cli import main
from lawspeaker.render import draw, draw_favor
from lawspeaker.render.palette import COLORBLIND, LINK_COLOURS, OKABE_ITO, STYLE, style_for
from lawspeaker.service import GM, PUBLIC

SVG = "{http://www.w3.org/2000/svg}"


def swatches(svg: str) -> dict[str, str]:
    """Each power's colour as the legend shows it."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "legend-power":
            out[g.get("id")] = next(g.iter(f"{SVG}rect")).get("fill")
    return out


def links(svg: str) -> dict[str, tuple[str, str | None]]:
    root = ET.fromstring(svg)
    return {e.get("id"): (e.get("stroke"), e.get("stroke-dasharray"))
            for e in root.iter() if (e.get("class") or "").startswith("link ")}


@pytest.mark.parametrize("variant", ["standard", "s9-basic", "ood", "dissolution"])
def test_the_colorblind_palette_gives_every_power_its_own_safe_colour(variant: str) -> None:
    var = lawspeaker.load_variant(variant)
    position = lawspeaker.initial_position(var)
    plain = swatches(draw(var, position).svg())
    safe = swatches(draw(var, position, palette="colorblind").svg())
    assert plain.keys() == safe.keys() and len(safe) == len(var.powers)
    assert len(set(safe.values())) == len(safe)  # no two powers alike
    assert set(safe.values()) <= set(COLORBLIND.powers)
    assert set(plain.values()) == {p.colour for p in var.powers.values()}  # the default stays


def test_each_power_keeps_its_hue_where_it_can() -> None:
    """Standard: England's blue stays blue, Italy's green stays green."""
    svg = draw("standard", lawspeaker.initial_position(lawspeaker.load_variant("standard")),
               palette="colorblind").svg()
    safe = swatches(svg)
    assert safe["legend-england"] == "#0072b2" and safe["legend-italy"] == "#009e73"
    assert safe["legend-turkey"] in OKABE_ITO


def test_borders_differ_by_dash_as_well_as_colour() -> None:
    """S9 §4.4's red, blue and purple borders cannot be told apart by everyone: the
    colour-blind palette dashes fleet-only borders and dots shared ones (the adjacency
    view draws the borders; the territory view draws areas)."""
    plain = links(draw("standard", view="adjacency").svg())
    safe = links(draw("standard", palette="colorblind", view="adjacency").svg())
    assert plain["link-bur-par"] == (LINK_COLOURS["army"], None)
    assert safe["link-bur-par"][1] is None
    assert safe["link-eng-nth"][1] == "9,5"  # fleet-only: dashed
    assert safe["link-bel-hol"][1] == "2,4"  # both: dotted
    assert len({dash for _, dash in safe.values()}) == 3
    assert "solid" in draw("standard", palette="colorblind", view="adjacency").svg()


def test_outcomes_are_blue_and_vermillion_never_red_and_green() -> None:
    assert (COLORBLIND.succeeds, COLORBLIND.fails) == ("#0072b2", "#d55e00")
    assert (STYLE.succeeds, STYLE.fails) == ("#1a7f37", "#d1242f")


def test_a_palette_is_named_or_refused_clearly() -> None:
    assert style_for(None) is STYLE and style_for("standard") is STYLE
    assert style_for("colorblind") is COLORBLIND and style_for("colour-blind") is COLORBLIND
    with pytest.raises(ValueError, match=r"unknown palette 'pastel' \(one of: standard, "
                                         r"colorblind\)"):
        draw("standard", palette="pastel")


def test_the_favor_map_takes_the_palette() -> None:
    var = lawspeaker.load_variant("dissolution")
    plain, safe = draw_favor(var).svg(), draw_favor(var, palette="colorblind").svg()
    chips = re.findall(r'id="favor-embassy-[^"]*"[^>]*>\s*(?:<title>[^<]*</title>\s*)?'
                       r'<circle[^>]* fill="([^"]+)"', safe)
    assert chips and set(chips) <= set(COLORBLIND.powers)
    assert plain != safe


def test_the_cli_draws_in_the_palette_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "cb.svg"
    run = CliRunner().invoke(main, ["map", "draw", "standard", "--start", "--palette",
                                    "colorblind", "-o", str(out)])
    assert run.exit_code == 0, run.output
    assert set(swatches(out.read_text()).values()) <= set(COLORBLIND.powers)
    bad = CliRunner().invoke(main, ["map", "draw", "standard", "--palette", "pastel"])
    assert bad.exit_code == 2 and "'pastel' is not one of" in bad.output
    assert "Traceback" not in bad.output
    db = str(tmp_path / "g.db")
    assert CliRunner().invoke(main, ["game", "--db", db, "new", "standard", "G"]).exit_code == 0
    for palette, colours in (("colorblind", set(COLORBLIND.powers)),
                             ("standard", {"#c0392b", "#1f4ea1", "#5dade2", "#4a4a4a",
                                           "#2e8b3e", "#8e44ad", "#e0b400"})):
        target = tmp_path / f"{palette}.svg"
        run = CliRunner().invoke(main, ["game", "--db", db, "map", "G", "--format", "svg",
                                        "--palette", palette, "-o", str(target)])
        assert run.exit_code == 0, run.output
        assert set(swatches(target.read_text()).values()) <= colours, palette


@pytest.fixture
def dissolution(tmp_path: Path) -> Dissolution:
    return Dissolution(f"sqlite:///{tmp_path / 'd.db'}")


def test_the_web_endpoints_honour_the_palette(dissolution: Dissolution) -> None:
    client = dissolution.clients["anonymous"]
    for base in ("/games/D", "/api/v1/games/D"):
        plain = client.get(f"{base}/map.svg").text
        safe = client.get(f"{base}/map.svg?palette=colorblind").text
        assert set(swatches(safe).values()) <= set(COLORBLIND.powers), base
        assert swatches(plain) != swatches(safe)
        png = client.get(f"{base}/map.png?palette=colorblind")
        assert png.status_code == 200 and png.content != client.get(f"{base}/map.png").content
        favor = client.get(f"{base}/map.svg?board=favor&palette=colorblind")
        assert favor.status_code == 200
        bad = client.get(f"{base}/map.svg?palette=pastel")
        assert bad.status_code in (400, 422) and "palette" in bad.text, bad.text
        assert "Traceback" not in bad.text


def test_the_page_remembers_the_viewer_s_palette(dissolution: Dissolution) -> None:
    client = dissolution.clients["Egypt"]
    page = client.get("/games/D").text
    assert 'id="palette"' in page and "palette=colorblind" not in page
    page = client.get("/games/D?palette=colorblind").text
    assert 'value="colorblind" selected' in page
    src = re.search(r'<figure class="map"[^>]*>.*?<img[^>]* src="([^"]+)"', page, re.S).group(1)
    assert src == "/games/D/map.svg?orders=true&amp;palette=colorblind"
    assert "palette=colorblind" in page.split('id="favor-map"')[1].split("</figure>")[0]
    # Remembered by this browser: the next page and a map without the parameter.
    assert "map.svg?orders=true&amp;palette=colorblind" in client.get("/games/D").text
    safe = client.get("/games/D/map.svg").text
    assert set(swatches(safe).values()) <= set(COLORBLIND.powers)
    # ...until changed back; another browser never had it.
    assert "palette=" not in re.search(r'<img[^>]* src="([^"]+)"',
                                       client.get("/games/D?palette=standard").text).group(1)
    assert "palette=colorblind" not in dissolution.clients["Iran"].get("/games/D").text
    bad = client.get("/games/D?palette=pastel")
    assert bad.status_code == 400 and "unknown palette &#39;pastel&#39;" in bad.text


def test_a_winter_phase_page_shows_its_embassy_orders_on_the_favor_map(
        dissolution: Dissolution) -> None:
    """Dissolution §11.5: the page of a past Winter draws that Winter's Embassy
    orders and their results on the Favor Map, the same for everyone."""
    dissolution.winter()
    svc = dissolution.service
    winter = svc.game("D", actor=PUBLIC).phase
    svc.process("D", actor=GM)
    for role in ("anonymous", "Iran", "Egypt", "gm"):
        page = dissolution.clients[role].get(f"/games/D/phases/{winter}")
        assert page.status_code == 200, page.text
        figure = page.text.split('id="favor-map"')[1].split("</figure>")[0]
        src = re.search(r'src="([^"]+)"', figure).group(1).replace("&amp;", "&")
        assert "board=favor" in src and "orders=true" in src and "Embassy orders" in figure
        svg = dissolution.clients[role].get(src).text
        assert 'id="favor-order-eg-B1p"' in svg, role  # public once processed
        assert "succeeds" in svg or "fails" in svg
    page = dissolution.clients["anonymous"].get("/games/D/phases/1").text
    assert 'id="favor-map"' in page and "this Winter" not in page
