"""The official map image as a backdrop (issue 19): the layout file, its
checks, drawing over the image, and the command line (``map check --layout``,
``game map --layout --png``). The calibration page: test_calibrate_browser.py;
the GM's upload: test_web_backdrop.py."""

from __future__ import annotations

import random
import re
import struct
from pathlib import Path

import pytest
from backdrop_fixtures import full_layout, image_size, plain_png, true_spots, write_backdrop
from click.testing import CliRunner

import lawspeaker
from lawspeaker.cli import main
from lawspeaker.render import draw
from lawspeaker.render.backdrop import Backdrop
from lawspeaker.render.imagefile import image_info
from lawspeaker.render.maplayout import (
    LayoutError,
    MapLayout,
    dump_layout,
    layout_problems,
    load_layout,
    parse_layout,
    spots_of,
)
from lawspeaker.sim.randomplay import random_orders
from lawspeaker.web.calibrate import Calibration

STANDARD = lawspeaker.load_variant("standard")


# --- the image header -------------------------------------------------------------------

def test_image_types_and_sizes_are_read_from_the_header() -> None:
    assert image_info(plain_png(31, 17)).kind == "png"
    assert (image_info(plain_png(31, 17)).width, image_info(plain_png(31, 17)).height) == (31, 17)
    gif = b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 8
    assert (image_info(gif).kind, image_info(gif).width, image_info(gif).height) == \
        ("gif", 640, 480)
    jpeg = (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9
            + b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 300, 1200) + b"\x00" * 10)
    info = image_info(jpeg)
    assert (info.kind, info.width, info.height, info.media_type) == \
        ("jpeg", 1200, 300, "image/jpeg")
    webp = b"RIFF\x00\x00\x00\x00WEBPVP8X" + b"\x00" * 8 + (799).to_bytes(3, "little") \
        + (599).to_bytes(3, "little")
    assert (image_info(webp).width, image_info(webp).height) == (800, 600)


@pytest.mark.parametrize("data", [b"", b"<svg></svg>", b"\xff\xd8\xff", b"GIF89a"])
def test_anything_else_is_refused_with_a_sentence(data: bytes) -> None:
    with pytest.raises(ValueError, match=r"PNG|JPEG|GIF"):
        image_info(data)


# --- the layout file ---------------------------------------------------------------------

def test_a_layout_reads_back_as_written_in_the_order_placed() -> None:
    layout = MapLayout("standard", "maps/std map.png", (1524, 1357),
                       {"lon": (512.0, 640.5), "spa/nc": (300.0, 900.0), "bre": (1.0, 2.0)},
                       {"lon": (520.0, 660.0)})
    text = dump_layout(layout)
    assert "size: [1524, 1357]\nprovinces:\n  lon: [512, 640.5]\n  spa/nc: [300, 900]\n" in text
    again = parse_layout(text)
    assert again == layout and list(again.provinces) == ["lon", "spa/nc", "bre"]


@pytest.mark.parametrize(("text", "message"), [
    ("variant: standard\nimage: a.png\nsize: [10, 10]\nprovinces:\n  lon: [1, 2\n",
     r"layout\.yaml, line \d"),
    ("variant: standard\nsize: [10, 10]\n", "'image' is missing"),
    ("variant: standard\nimage: a.png\nsize: [10]\n", r"line 3: 'size' must be \[width, height\]"),
    ("variant: standard\nimage: a.png\nsize: [10, 10]\nprovinces:\n  lon: [1, 2]\n"
     "  par: here\n", r"line 6: provinces: 'par' must be \[x, y\]"),
    ("variant: standard\nimage: a.png\nsize: [10, 10]\nprovince:\n  lon: [1, 2]\n",
     r"line 4: unknown key 'province'"),
    ("- just\n- a list\n", "a mapping with variant, image, size"),
])
def test_a_bad_layout_names_the_file_and_line(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        parse_layout(text, "layout.yaml")


def test_layout_problems_are_missing_unknown_and_outside() -> None:
    layout = full_layout(STANDARD)
    assert layout_problems(layout, STANDARD) == []
    width, height = layout.size
    del layout.provinces["lon"], layout.provinces["spa/sc"]
    layout.provinces["xyz"] = (1.0, 1.0)
    layout.provinces["par"] = (width + 5.0, 10.0)
    layout.centres["nth"] = (1.0, 1.0)
    problems = layout_problems(layout, STANDARD)
    assert "provinces: 'xyz' is not a place of standard" in problems
    assert any("'par' at [" in p and f"outside the {width}x{height} image" in p
               for p in problems)
    assert "centres: 'nth' is not a supply centre of standard" in problems
    assert problems[-1].startswith(f"2 of {len(spots_of(STANDARD))} provinces and coasts not "
                                   "placed: ")
    assert problems[-1].endswith(("lon, spa/sc", "spa/sc, lon"))
    other = MapLayout("ood", "a.png", (10, 10))
    assert layout_problems(other, STANDARD)[0] == \
        "the layout is for variant 'ood', not 'standard'"


def test_the_gm_is_asked_for_every_place_a_unit_can_stand() -> None:
    order = spots_of(STANDARD)
    provinces = STANDARD.map.provinces
    assert len(order) == len(set(order))
    assert set(order) == {loc for p in provinces.values() for loc in
                          ((p.key, *p.locations) if p.coasts else (p.key,))}
    assert order.index("spa/nc") == order.index("spa") + 1  # a coast right after its province
    s9 = lawspeaker.load_variant("s9-complete")
    impassable = [k for k, p in s9.map.provinces.items() if p.terrain.value == "impassable"]
    assert impassable and not set(impassable) & set(spots_of(s9))


# --- drawing over the image ----------------------------------------------------------------

def _unit_centre(svg: str, key: str) -> tuple[float, float]:
    """The middle of a unit token's mark (its letter is drawn at x, y + ...)."""
    group = re.search(rf'<g id="unit-{re.escape(key)}".*?</g>', svg, re.S).group(0)
    text = re.search(r'<text[^>]* x="([\d.]+)" y="([\d.]+)"', group)
    return float(text.group(1)), float(text.group(2))


def test_a_position_is_drawn_over_the_image_at_its_own_size(tmp_path: Path) -> None:
    backdrop = Backdrop.from_file(write_backdrop(tmp_path, STANDARD))
    position = lawspeaker.initial_position(STANDARD)
    drawing = draw(STANDARD, position, backdrop=backdrop)
    svg = drawing.svg()
    width, height = image_size(STANDARD)
    image = re.search(r'<image [^>]*id="backdrop-image"[^>]*>', svg).group(0)
    assert f'width="{width}"' in image and f'height="{height}"' in image
    assert 'href="data:image/png;base64,' in image
    top = float(re.search(r'y="([\d.]+)"', image).group(1))
    # no node diagram over the image: no province dots, borders or names
    assert 'id="province-' not in svg and 'id="link-' not in svg and 'id="label-' not in svg
    assert drawing.width > width and drawing.height >= height + top  # the legend beside it
    spots = true_spots(STANDARD)
    for key in ("lon", "par", "stp"):  # each unit on its calibrated spot
        x, _ = _unit_centre(svg, key)
        assert abs(x - spots[key][0]) < 0.2
    assert 'id="sc-lon"' in svg and 'id="legend-england"' in svg
    png = drawing.png()
    info = image_info(png)
    assert (info.kind, info.width, info.height) == ("png", drawing.width, drawing.height)


def test_places_not_calibrated_are_estimated_from_the_ones_that_are(tmp_path: Path) -> None:
    backdrop = Backdrop.from_file(write_backdrop(tmp_path, STANDARD, only=10))
    assert not {"lon", "con", "tun", "spa/sc"} & set(backdrop.layout.provinces)
    layout = backdrop.geometry(STANDARD, lawspeaker.render.STYLE)
    spots = true_spots(STANDARD)
    top = layout.height - backdrop.layout.size[1]
    # the node diagram is an affine image of the variant's xy, so the fit is exact
    for key in ("lon", "con", "tun"):
        assert abs(layout.points[key][0] - spots[key][0]) < 1.0
        assert abs(layout.points[key][1] - top - spots[key][1]) < 1.0
    assert set(layout.points) == set(STANDARD.map.provinces)
    assert set(layout.coasts) == {"bul/ec", "bul/sc", "spa/nc", "spa/sc", "stp/nc", "stp/sc"}


def test_centre_markers_go_where_the_layout_puts_them(tmp_path: Path) -> None:
    layout = full_layout(STANDARD)
    layout.centres["lon"] = (12.0, 34.0)
    (tmp_path / "official.png").write_bytes(plain_png(*layout.size))
    backdrop = Backdrop.of(layout, (tmp_path / "official.png").read_bytes(), "official.png")
    position = lawspeaker.initial_position(STANDARD)
    svg = draw(STANDARD, position, backdrop=backdrop).svg()
    top = backdrop.geometry(STANDARD, lawspeaker.render.STYLE).height - layout.size[1]
    marker = re.search(r'<g id="sc-lon"[^>]*data-owner="England".*?<circle cx="([\d.]+)" '
                       r'cy="([\d.]+)"', svg, re.S)
    assert (float(marker.group(1)), float(marker.group(2))) == (12.0, round(34.0 + top, 1))


def test_an_image_of_another_size_or_another_variant_is_refused(tmp_path: Path) -> None:
    target = write_backdrop(tmp_path, STANDARD)
    (tmp_path / "official.png").write_bytes(plain_png(100, 80))
    with pytest.raises(LayoutError, match="is 100x80 pixels, but the layout was calibrated on"):
        Backdrop.from_file(target)
    (tmp_path / "official.png").unlink()
    with pytest.raises(LayoutError, match="cannot read its image"):
        Backdrop.from_file(target)
    backdrop = Backdrop.from_file(write_backdrop(tmp_path, STANDARD))
    with pytest.raises(ValueError, match="for variant 'standard', not 'ood'"):
        draw(lawspeaker.load_variant("ood"), backdrop=backdrop)


def test_every_variant_draws_over_an_image_with_results(tmp_path: Path) -> None:
    for name in ("standard", "s9-basic", "s9-complete", "ood", "dissolution"):
        variant = lawspeaker.load_variant(name)
        folder = tmp_path / name
        folder.mkdir()
        backdrop = Backdrop.from_file(write_backdrop(folder, variant, only=25))
        position = lawspeaker.initial_position(variant)
        orders = random_orders(variant, position, random.Random(7))
        step = lawspeaker.adjudicate(variant, position, orders, variant.rules, [])
        svg = draw(variant, position, results=step.results, backdrop=backdrop).svg()
        assert 'id="backdrop-image"' in svg and 'class="order' in svg


# --- the command line ----------------------------------------------------------------------

def test_map_check_reports_a_layout(tmp_path: Path) -> None:
    target = write_backdrop(tmp_path, STANDARD)
    ok = CliRunner().invoke(main, ["map", "check", "standard", "--layout", str(target)])
    assert ok.exit_code == 0, ok.output
    assert f"{target}: OK — {len(spots_of(STANDARD))} places on the " in ok.output
    partial = write_backdrop(tmp_path, STANDARD, only=5)
    bad = CliRunner().invoke(main, ["map", "check", "standard", "--layout", str(partial)])
    assert bad.exit_code == 1
    assert f"provinces and coasts not placed: {spots_of(STANDARD)[5]}, " in bad.output
    assert "Error: 1 problem(s) in" in bad.output
    other = CliRunner().invoke(main, ["map", "check", "ood", "--layout", str(target)])
    assert other.exit_code == 1 and "the layout is for variant 'standard', not 'ood'" in \
        other.output
    (tmp_path / "broken.yaml").write_text("variant: standard\nimage: [\n")
    broken = CliRunner().invoke(main, ["map", "check", "standard", "--layout",
                                       str(tmp_path / "broken.yaml")])
    assert broken.exit_code == 1 and "broken.yaml, line" in broken.output
    assert "Traceback" not in broken.output


def test_game_map_draws_a_phase_over_the_image(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    runner = CliRunner()

    def gm(*args: str, ok: bool = True) -> str:
        result = runner.invoke(main, ["game", "--db", db, *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    gm("new", "standard", "g")
    result = runner.invoke(main, ["game", "--db", db, "orders", "g", "England", "-"],
                           input="F Lon - Nth\n")
    assert result.exit_code == 0, result.output
    gm("process", "g")
    target = write_backdrop(tmp_path, STANDARD)
    out = tmp_path / "spring.png"
    gm("map", "g", "--phase", "S1901M", "--orders", "--layout", str(target), "--png", str(out))
    info = image_info(out.read_bytes())
    assert info.kind == "png" and info.width > image_size(STANDARD)[0]
    svg_out = tmp_path / "spring.svg"
    gm("map", "g", "--phase", "S1901M", "--orders", "--layout", str(target), "--format", "svg",
       "-o", str(svg_out))
    svg = svg_out.read_text()
    assert 'id="backdrop-image"' in svg and "Lon" in svg
    partial = write_backdrop(tmp_path, STANDARD, only=20)  # drawn, with a warning
    warned = runner.invoke(main, ["game", "--db", db, "map", "g", "--layout", str(partial),
                                  "--png", str(out)])
    assert warned.exit_code == 0, warned.output
    assert f"Warning: {partial}: {len(spots_of(STANDARD)) - 20} of " in warned.output
    (tmp_path / "bad.yaml").write_text("variant: ood\nimage: official.png\nsize: [1, 1]\n")
    error = gm("map", "g", "--layout", str(tmp_path / "bad.yaml"), "--png", str(out), ok=False)
    assert "Error:" in error and "Traceback" not in error


def test_calibrating_resumes_only_the_same_variant_and_image_size(tmp_path: Path) -> None:
    target = write_backdrop(tmp_path, STANDARD, only=4)
    image = tmp_path / "official.png"
    again = Calibration.open(STANDARD, image, target)
    assert again.progress() == (4, len(spots_of(STANDARD)))
    assert list(again.layout.provinces) == spots_of(STANDARD)[:4]
    with pytest.raises(LayoutError, match="is a layout for 'standard', not 'ood'"):
        Calibration.open(lawspeaker.load_variant("ood"), image, target)
    other = tmp_path / "other.png"
    other.write_bytes(plain_png(50, 40))
    with pytest.raises(LayoutError, match=r"calibrated on a .* and .* is 50x40"):
        Calibration.open(STANDARD, other, target)
    with pytest.raises(ValueError, match="outside the"):
        again.place("lon", -3, 5)
    with pytest.raises(ValueError, match="not a place of standard"):
        again.place("xyz", 3, 5)


def test_the_page_guesses_well_on_a_map_of_another_projection(tmp_path: Path) -> None:
    """A simulated GM calibrates Dissolution's map drawn in a bent, sheared
    projection, taking the page's guess when it is within 25 px of the spot:
    after the first few clicks nearly every guess is (the variant's layout
    fitted to the nearest spots set; one fit of them all is not enough)."""
    import math

    variant = lawspeaker.load_variant("dissolution")
    xy = {k: p.xy for k, p in variant.map.provinces.items() if p.xy is not None}
    xs, ys = [u for u, _ in xy.values()], [v for _, v in xy.values()]
    left, top, width, height = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)

    def spot(key: str) -> tuple[float, float]:
        x, y = (xy[key][0] - left) / width, (xy[key][1] - top) / height
        return (round(50 + 1900 * (x + 0.08 * math.sin(3 * y) + 0.05 * x * y), 1),
                round(50 + 1400 * (y + 0.06 * x * x - 0.04 * math.cos(2 * x)) + 60, 1))

    (tmp_path / "map.png").write_bytes(plain_png(2200, 1700))
    calibration = Calibration.open(variant, tmp_path / "map.png", tmp_path / "map.yaml")
    taken = asked = 0
    for key in calibration.order:
        truth = spot(key.split("/")[0])
        guess = calibration.state()["guesses"].get(key)
        if calibration.progress()[0] >= 10 and "/" not in key:
            asked += 1
            taken += guess is not None and math.dist(guess, truth) < 25
        calibration.place(key, *truth)
    assert asked > 100 and taken / asked > 0.9, f"{taken} of {asked} guesses taken"
    assert layout_problems(load_layout(tmp_path / "map.yaml"), variant) == []
