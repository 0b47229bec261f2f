"""Territory maps (issue 19): every bundled variant's areas tell the truth
about adjacency, the GeoJSON export, ``map check`` on a broken map, and the
shipped precomputed territories being current."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import shapely
from click.testing import CliRunner
from shapely.geometry import Point, shape

import lawspeaker
from lawspeaker.cli import main
from lawspeaker.core.geography import Terrain
from lawspeaker.render import draw, layout_for
from lawspeaker.render.adjacency_check import VISIBLE, check_adjacency, shared_length
from lawspeaker.render.territories import cache_key, rule_pairs
from lawspeaker.render.territory_store import (
    SHIPPED,
    coastline,
    territories_for,
    territory_layout,
)

VARIANTS = ["standard", "s9-basic", "s9-complete", "ood", "dissolution"]
BUNDLED = Path(lawspeaker.__file__).parent / "variants"


@pytest.mark.parametrize("name", VARIANTS)
def test_areas_tell_the_adjacency_truth(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    terr = territories_for(variant, layout_for(variant))
    regions = terr.regions
    assert set(regions) == set(variant.map.provinces)
    adjacent = rule_pairs(variant.map)
    crossings = set(terr.crossings)
    assert crossings <= adjacent  # a crossing is always a pair adjacent in the rules
    keys = sorted(regions)
    for i, a in enumerate(keys):
        assert not regions[a].is_empty, a
        assert regions[a].is_valid, a
        for b in keys[i + 1:]:
            ga, gb = regions[a], regions[b]
            if ga.distance(gb) > 1.0:
                assert (a, b) not in adjacent or (a, b) in crossings, (a, b)
                continue
            assert shapely.area(shapely.intersection(ga, gb)) < 1.0, f"{a} and {b} overlap"
            length = shared_length(ga, gb)
            if (a, b) in adjacent and (a, b) not in crossings:
                assert length >= VISIBLE, (a, b, length)
            elif (a, b) not in adjacent:
                assert length < 0.01, f"{a} and {b} touch but are not adjacent"
            else:
                assert length < VISIBLE, f"crossing {a}-{b} has a border after all"
    assert check_adjacency(regions, adjacent, crossings) == []


@pytest.mark.parametrize("name", VARIANTS)
def test_every_unit_stands_in_its_own_territory(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    layout = layout_for(variant)
    terr = territories_for(variant, layout)
    placed = territory_layout(variant, layout, terr)
    for key, region in terr.regions.items():
        assert region.contains(Point(placed.points[key])), key
    for loc, spot in placed.coasts.items():
        assert terr.regions[loc.split("/")[0]].buffer(1.0).contains(Point(spot)), loc


def test_crossings_and_areas_are_drawn() -> None:
    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant)
    root = ET.fromstring(draw(variant, position).svg())
    ids = {e.get("id"): e for e in root.iter() if e.get("id")}
    terr = territories_for(variant, layout_for(variant))
    for key in variant.map.provinces:
        assert f"territory-{key}" in ids
    for a, b in terr.crossings:
        assert f"crossing-{a}-{b}" in ids
    # land in the colour of the power owning its centre, seas blue, neutral land paper
    assert ids["territory-par"].get("data-owner") == "France"
    assert ids["territory-par"].get("fill") != ids["territory-bur"].get("fill")
    assert ids["territory-nth"].get("fill") == ids["territory-eng"].get("fill")
    assert ids["territory-bel"].get("fill") == ids["territory-bur"].get("fill")
    # home centres are ringed; a neutral centre is not
    sc_par = ids["sc-par"]
    assert any(c.get("class") == "home" for c in sc_par.iter())
    assert not any(c.get("class") == "home" for c in ids["sc-bel"].iter())


def test_adjacency_view_is_kept() -> None:
    variant = lawspeaker.load_variant("s9-basic")
    root = ET.fromstring(draw(variant, view="adjacency").svg())
    ids = {e.get("id") or "" for e in root.iter()}
    assert any(i.startswith("link-") for i in ids)
    assert not any(i.startswith("territory-") for i in ids)
    with pytest.raises(ValueError, match="view must be one of"):
        draw(variant, view="satellite")


GEOGRAPHIC = ["standard", "ood", "dissolution"]  # xy a projection of longitude and latitude


def test_real_coastline_only_where_the_map_is_geographic() -> None:
    for name in VARIANTS:
        variant = lawspeaker.load_variant(name)
        coast, _ = coastline(variant, layout_for(variant))
        assert (coast is not None) == (name in GEOGRAPHIC)


@pytest.mark.parametrize("name", GEOGRAPHIC)
def test_areas_follow_the_real_coastline(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    layout = layout_for(variant)
    coast, _ = coastline(variant, layout)
    terr = territories_for(variant, layout)
    # seas lie off the real coast, land provinces on it; an impassable space
    # is of the ground under its point (OOD's White Sea is water)
    for key, prov in variant.map.provinces.items():
        overlap = shapely.area(shapely.intersection(terr.regions[key], coast))
        share = overlap / terr.regions[key].area
        wet = prov.terrain is Terrain.SEA or (
            prov.terrain is Terrain.IMPASSABLE and not coast.contains(Point(layout.points[key])))
        assert share < 0.01 if wet else share > 0.99, key


@pytest.mark.parametrize("name", VARIANTS)
def test_shipped_territories_are_current(name: str) -> None:
    """Run tools/territories.py after changing a bundled map."""
    variant = lawspeaker.load_variant(name)
    layout = layout_for(variant)
    _, salt = coastline(variant, layout)
    key = cache_key(variant.map, layout.points, (layout.width, layout.height), salt)
    assert (SHIPPED / f"territories-{key}.json").is_file()


def test_geojson_export(tmp_path: Path) -> None:
    out = tmp_path / "ood.geojson"
    result = CliRunner().invoke(main, ["map", "export", "ood", "--geojson", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    variant = lawspeaker.load_variant("ood")
    assert data["type"] == "FeatureCollection"
    assert len(data["features"]) == len(variant.map.provinces)
    kinds = {"land", "coastal", "sea", "impassable"}
    for feature in data["features"]:
        props = feature["properties"]
        assert set(props) == {"province", "name", "type", "sc"}
        prov = variant.map.provinces[props["province"]]
        assert props["name"] == prov.name and props["sc"] is prov.is_sc
        assert props["type"] in kinds and props["type"] == prov.terrain.value
        assert feature["geometry"]["type"] in ("Polygon", "MultiPolygon")
        assert shape(feature["geometry"]).is_valid
    assert any(f["properties"]["type"] == "impassable" for f in data["features"])
    adjacent = rule_pairs(variant.map)
    assert all(tuple(pair) in adjacent for pair in data["crossings"])
    regions = {f["properties"]["province"]: shape(f["geometry"]) for f in data["features"]}
    assert check_adjacency(regions, adjacent, [tuple(p) for p in data["crossings"]]) == []
    # y grows downwards, in the drawing's pixels
    layout = layout_for(variant)
    assert regions["mos"].contains(Point(layout.points["mos"]))


def test_geojson_export_of_an_unknown_variant() -> None:
    result = CliRunner().invoke(main, ["map", "export", "atlantis", "--geojson", "-"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output and "atlantis" in result.output


def test_map_check_is_green_for_bundled_variants() -> None:
    for name in VARIANTS:
        result = CliRunner().invoke(main, ["map", "check", name])
        assert result.exit_code == 0, result.output
        assert "OK" in result.output


def test_map_check_reports_a_pair_the_territories_break(tmp_path: Path, monkeypatch) -> None:
    """A designer's map whose adjacency no drawing can honour is reported."""
    monkeypatch.setenv("LAWSPEAKER_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "broken"
    shutil.copytree(BUNDLED / "standard", folder)
    from lawspeaker.render import territory_export

    def broken(variant):  # an overlap and a border the rules do not have
        terr = territories_for(variant, layout_for(variant))
        regions = dict(terr.regions)
        regions["mos"] = regions["mos"].union(regions["war"].buffer(-5))
        return type(terr)(regions, terr.crossings, terr.land, terr.cell)

    monkeypatch.setattr(territory_export, "_territories", broken)
    result = CliRunner().invoke(main, ["map", "check", str(folder)])
    assert result.exit_code != 0
    assert "mos and war overlap" in result.output
    assert "Traceback" not in result.output


def test_map_check_reports_a_designers_map_that_cannot_be_drawn(tmp_path: Path,
                                                               monkeypatch) -> None:
    """Two provinces given the same point: one of them gets no area, and the
    designer is told which, not shown a traceback. The territories of a map
    of one's own are computed at first use and cached on disk."""
    monkeypatch.setenv("LAWSPEAKER_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "mine"
    shutil.copytree(BUNDLED / "standard", folder)
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    belgium = text.index("  bel:")
    start = text.index("xy: [", belgium)
    end = text.index("]", start) + 1
    holland = text.index("xy: [", text.index("  hol:"))
    same = text[holland:text.index("]", holland) + 1]
    (folder / "map.yaml").write_text(text[:start] + same + text[end:], encoding="utf-8")
    result = CliRunner().invoke(main, ["map", "check", str(folder)])
    assert result.exit_code != 0
    assert "has no area" in result.output and ("bel (Belgium)" in result.output
                                                or "hol (Holland)" in result.output)
    assert "Traceback" not in result.output
    assert list((tmp_path / "cache" / "territories").glob("territories-*.json"))
