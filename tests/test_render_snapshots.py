"""Snapshots of each bundled variant's map, and the ``map draw`` command.

A snapshot is the SVG of the variant's bundled first turn (its example
orders file, adjudicated), so any change to the drawing, the variant's map
data or that turn's results shows up as a diff a reviewer can open in a
browser. After an intended change, regenerate them and look at them::

    LAWSPEAKER_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_render_snapshots.py
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import lawspeaker
from lawspeaker.engine.posts import read_post
from lawspeaker.render import Drawing, draw
from lawspeaker.render.png import PNG_SIGNATURE

SNAPSHOTS = Path(__file__).parent / "snapshots" / "render"
EXAMPLES = Path(lawspeaker.__file__).parent / "examples"
UPDATE = os.environ.get("LAWSPEAKER_UPDATE_SNAPSHOTS") == "1"


def first_turn(name: str) -> Drawing:
    variant = lawspeaker.load_variant(name)
    position = lawspeaker.initial_position(variant)
    posted = read_post(variant, (EXAMPLES / f"{name}.txt").read_bytes(), position.phase.kind)
    orders = [p.order for p in posted if p.order is not None]
    allocations = [p.allocation for p in posted if p.allocation is not None]
    results = lawspeaker.adjudicate(variant, position, orders, variant.rules, allocations).results
    return draw(variant, position, results=results)


@pytest.mark.parametrize("name", ["standard", "s9-basic", "s9-complete", "ood"])
def test_snapshot(name: str) -> None:
    svg = first_turn(name).svg()
    path = SNAPSHOTS / f"{name}.svg"
    if UPDATE:
        path.write_text(svg, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"no snapshot {path.name}: create it with LAWSPEAKER_UPDATE_SNAPSHOTS=1")
    expected = path.read_text(encoding="utf-8")
    assert svg == expected, (
        f"the {name} map drawing changed; if intended, regenerate with "
        "LAWSPEAKER_UPDATE_SNAPSHOTS=1 and look at the result")


def run(*args: str) -> tuple[int, str, bytes]:
    from lawspeaker.cli import main  # here, so the snapshots never wait on the CLI's imports

    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output, result.stdout_bytes


def test_map_draw_bare_svg_to_stdout() -> None:
    code, _, data = run("map", "draw", "s9-basic")
    assert code == 0
    ids = {e.get("id") or "" for e in ET.fromstring(data).iter()}
    assert "territory-asg" in ids  # the default: territories
    assert not any(i.startswith("link-") for i in ids)
    code, _, data = run("map", "draw", "s9-basic", "--adjacency")
    assert code == 0
    ids = {e.get("id") or "" for e in ET.fromstring(data).iter()}
    assert "link-asg-ida" in ids or any(i.startswith("link-") for i in ids)
    assert not any(i.startswith("territory-") for i in ids)


def test_map_draw_png_with_orders(tmp_path: Path) -> None:
    out = tmp_path / "turn.png"
    code, _, _ = run("map", "draw", "s9-complete", "--orders",
                     str(EXAMPLES / "s9-complete.txt"), "-o", str(out))
    assert code == 0
    assert out.read_bytes().startswith(PNG_SIGNATURE)


def test_map_draw_saved_position(tmp_path: Path) -> None:
    variant = lawspeaker.load_variant("ood")
    saved = tmp_path / "pos.json"
    saved.write_text(lawspeaker.initial_position(variant).to_json(), encoding="utf-8")
    out = tmp_path / "pos.svg"
    code, _, _ = run("map", "draw", "ood", "--position", str(saved), "-o", str(out))
    assert code == 0
    ids = {e.get("id") for e in ET.parse(out).getroot().iter()}
    assert {f"unit-{u.province}" for u in variant.starting_units} <= ids


@pytest.mark.parametrize("args, message", [
    (["map", "draw", "nosuch"], "no such variant"),
    (["map", "draw", "standard", "--position", "{bad}"], "not a valid position"),
    (["map", "draw", "standard", "--position", "{ood}"], "variant 'ood', not 'standard'"),
])
def test_map_draw_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"units": []}', encoding="utf-8")
    ood = tmp_path / "ood.json"
    ood.write_text(lawspeaker.initial_position(lawspeaker.load_variant("ood")).to_json(),
                   encoding="utf-8")
    args = [{"{bad}": str(bad), "{ood}": str(ood)}.get(a, a) for a in args]
    code, output, _ = run(*args)
    assert code != 0
    assert "Traceback" not in output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0]
