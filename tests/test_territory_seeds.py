"""``seeds:`` in map.yaml (docs/maps.md): extra points a province's territory
grows from. A seed moves the border; a seed that names no province, is not a
point, lies off the map or on the wrong kind of cell is reported, with its
file and line; a map without seeds keeps its cache key."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from shapely.geometry import Point

import lawspeaker
from lawspeaker.cli import main
from lawspeaker.core.geography import GameMap, Province, Terrain
from lawspeaker.render import layout_for, territory_export
from lawspeaker.render.territories import build_territories, cache_key
from lawspeaker.render.territory_store import seed_points, territories_for
from lawspeaker.variants import Seed
from lawspeaker.variants.loader import load

BUNDLED = Path(lawspeaker.__file__).parent / "variants"


def _row() -> GameMap:
    """Three land provinces in a row, a-b-c, each adjacent to the next only."""
    provs = [Province(k, k.upper(), Terrain.LAND, xy=(x, 50.0)) for k, x in
             (("a", 20.0), ("b", 50.0), ("c", 80.0))]
    return GameMap.build(provs, {"a": ["b"], "b": ["a", "c"], "c": ["b"]}, {})


def test_a_seed_moves_the_border() -> None:
    game_map = _row()
    points = {"a": (20.0, 50.0), "b": (50.0, 50.0), "c": (80.0, 50.0)}
    plain = build_territories(game_map, points, (100.0, 100.0))
    seeded = build_territories(game_map, points, (100.0, 100.0), seeds=(("b", 72.0, 10.0),))
    # the seed lies nearer c's point than b's: c's without it, b's with it
    assert plain.regions["c"].contains(Point(72, 10))
    assert seeded.regions["b"].contains(Point(72, 10))
    assert seeded.regions["b"].area > plain.regions["b"].area
    assert seeded.regions["a"].distance(seeded.regions["c"]) > 0  # still never touch


def test_a_map_without_seeds_keeps_its_key() -> None:
    game_map = _row()
    points = {"a": (20.0, 50.0), "b": (50.0, 50.0), "c": (80.0, 50.0)}
    key = cache_key(game_map, points, (100.0, 100.0), "")
    assert cache_key(game_map, points, (100.0, 100.0), "", ()) == key
    assert cache_key(game_map, points, (100.0, 100.0), "", (("b", 72.0, 10.0),)) != key


def _designer_map(tmp_path: Path, seeds: str) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(BUNDLED / "standard", folder)
    with (folder / "map.yaml").open("a", encoding="utf-8") as out:
        out.write("\nseeds:\n" + seeds)
    return folder


def test_seeds_are_read_in_xy_units_and_put_on_the_canvas(tmp_path: Path) -> None:
    xy = lawspeaker.load_variant("standard").map.provinces["par"].xy
    assert xy is not None
    x, y = xy  # ten xy units right of Paris and ten up; then twenty left, twenty down
    folder = _designer_map(tmp_path, f"  par: [[{x + 10}, {y - 10}], [{x - 20}, {y + 20}]]\n")
    variant, problems = load(folder)
    assert problems == [] and variant is not None
    assert variant.seeds == (Seed("par", (x + 10, y - 10)), Seed("par", (x - 20, y + 20)))
    layout = layout_for(variant)
    spots = seed_points(variant, layout)
    # the layout's own scale: ten xy units right of Paris, ten up
    px, py = layout.points["par"]
    s = layout.scale
    assert spots[0][0] == "par"
    assert abs(spots[0][1] - (px + 10 * s)) < 0.2 and abs(spots[0][2] - (py - 10 * s)) < 0.2


def test_bad_seeds_are_reported_with_their_line(tmp_path: Path) -> None:
    folder = _designer_map(tmp_path, "  atlantis: [[10, 10]]\n  par: [[320, 480], 7, "
                           "[99999, 5]]\n")
    variant, problems = load(folder)
    assert variant is None
    text = [f"{p.file}:{p.line}: {p.message}" for p in problems]
    first = sum(1 for _ in (BUNDLED / "standard" / "map.yaml").open(encoding="utf-8")) + 3
    assert any("'atlantis' is not a province" in t and f":{first}:" in t for t in text), text
    assert any("7 is not [x, y]" in t and f":{first + 1}:" in t for t in text), text
    assert any("[99999, 5] is off the map" in t for t in text), text
    result = CliRunner().invoke(main, ["map", "check", str(folder)])
    assert result.exit_code != 0 and "atlantis" in result.output
    assert "Traceback" not in result.output


def test_map_check_reports_a_seed_on_the_wrong_kind_of_cell(tmp_path: Path,
                                                            monkeypatch) -> None:
    """Paris's seed put in the English Channel (sea) never grows: map check says so."""
    folder = _designer_map(tmp_path, "  par: [[270, 330]]\n")
    standard = lawspeaker.load_variant("standard")
    eng = standard.map.provinces["eng"].xy
    assert eng is not None
    (folder / "map.yaml").write_text((folder / "map.yaml").read_text(encoding="utf-8")
                                     .replace("par: [[270, 330]]",
                                              f"par: [[{eng[0]:g}, {eng[1]:g}]]"),
                                     encoding="utf-8")
    # drawn on the bundled standard's territories, as if the seed had not grown
    monkeypatch.setattr(territory_export, "_territories",
                        lambda v: territories_for(standard, layout_for(standard)))
    variant, problems = load(folder)
    assert variant is not None, problems
    found = territory_export.territory_problems(variant)
    assert any("seed" in p and "par (Paris)" in p and "English Channel's area" in p
               and "map.yaml:" in p for p in found), found
