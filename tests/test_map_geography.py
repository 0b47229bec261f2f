"""The real-geography maps (issue 19): standard's and Order of the Dragon's
``xy`` is the projection of each unit spot's longitude and latitude (kept in
map.yaml beside it) that their vendored coastline records, and each spot lies
on the right side of the real coast: a sea's in the water, a land space's on
land."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from shapely.geometry import Point, shape

import lawspeaker
from lawspeaker.core.geography import Terrain

BUNDLED = Path(lawspeaker.__file__).parent / "variants"
SPOT = re.compile(r"^  ([a-z0-9]+):\s*$"
                  r"|^\s+xy: \[(-?[\d.]+), (-?[\d.]+)\]  # lon (-?[\d.]+), lat (-?[\d.]+)")


def spots(name: str) -> dict[str, tuple[float, float, float, float]]:
    """province -> (x, y, lon, lat) read from map.yaml's xy lines."""
    out: dict[str, tuple[float, float, float, float]] = {}
    key = ""
    for line in (BUNDLED / name / "map.yaml").read_text(encoding="utf-8").splitlines():
        m = SPOT.match(line)
        if m and m.group(1):
            key = m.group(1)
        elif m:
            x, y, lon, lat = (float(g) for g in m.groups()[1:])
            out[key] = (x, y, lon, lat)
    return out


@pytest.mark.parametrize("name", ["standard", "ood"])
def test_xy_is_the_projection_of_longitude_and_latitude(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    data = json.loads((BUNDLED / name / "coastline.json").read_text(encoding="utf-8"))
    (ax, bx), (ay, by) = data["projection"]["x"], data["projection"]["y"]
    found = spots(name)
    assert set(found) == set(variant.map.provinces)
    for key, (x, y, lon, lat) in found.items():
        assert variant.map.provinces[key].xy == (x, y), key
        assert abs(ax * lon + bx - x) <= 0.5 and abs(ay * lat + by - y) <= 0.5, key


@pytest.mark.parametrize("name", ["standard", "ood"])
def test_spots_lie_on_their_side_of_the_real_coast(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    land = shape(json.loads((BUNDLED / name / "coastline.json").read_text())["land"])
    wrong = []
    for key, (_, _, lon, lat) in spots(name).items():
        prov = variant.map.provinces[key]
        on_land = land.contains(Point(lon, lat))
        if prov.terrain is Terrain.IMPASSABLE:
            continue  # of the ground under it: Crete and Sardinia land, the White Sea water
        if on_land != (prov.terrain is not Terrain.SEA):
            wrong.append(f"{key} ({prov.name}) at {lon}, {lat}")
    assert not wrong


def test_ood_impassable_spaces_are_the_real_places() -> None:
    land = shape(json.loads((BUNDLED / "ood" / "coastline.json").read_text())["land"])
    found = spots("ood")
    for key, wet in (("xcr", False), ("xsa", False), ("xws", True)):
        _, _, lon, lat = found[key]
        assert land.contains(Point(lon, lat)) != wet, key
