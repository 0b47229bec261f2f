"""Where a variant's territories come from: the precomputed file shipped with
a bundled variant, else a disk cache, else computed now (a few seconds) and
cached. Every file is keyed by a hash of the map data and the layout, so an
edited map is never drawn with stale territories (docs/maps.md).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import shapely
import shapely.affinity
from shapely.geometry import Point, shape
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from ..variants import Variant
from .geometry import Layout
from .territories import Territories, build_territories

__all__ = ["COASTLINE", "SHIPPED", "cache_dir", "coastline", "seed_points", "territories_for",
           "territory_layout"]

SHIPPED = Path(__file__).parent / "territory_data"
"""Precomputed territories of the bundled variants (tools/territories.py)."""

_MEMORY: dict[tuple[int, float, float], tuple[object, Territories]] = {}


def cache_dir() -> Path:
    """``$LAWSPEAKER_CACHE/territories``, else ``$XDG_CACHE_HOME/lawspeaker/...``,
    else ``~/.cache/lawspeaker/territories``."""
    root = os.environ.get("LAWSPEAKER_CACHE")
    if root:
        return Path(root) / "territories"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "lawspeaker" / "territories"


def territories_for(variant: Variant, layout: Layout) -> Territories:
    """The territories of ``variant`` drawn on ``layout``."""
    key = (id(variant.map), layout.width, layout.height)
    hit = _MEMORY.get(key)
    if hit is not None and hit[0] is variant.map:
        return hit[1]
    size = (layout.width, layout.height)
    coast, salt = coastline(variant, layout)
    result = build_territories(variant.map, layout.points, size, coast=coast, cache_salt=salt,
                               shipped=SHIPPED, cache_dir=cache_dir(),
                               seeds=seed_points(variant, layout))
    if len(_MEMORY) > 16:
        _MEMORY.clear()
    _MEMORY[key] = (variant.map, result)
    return result


def seed_points(variant: Variant, layout: Layout) -> tuple[tuple[str, float, float], ...]:
    """The map's ``seeds:`` (in ``xy`` units) on the canvas: (province, x, y)."""
    if not variant.seeds:
        return ()
    ox, oy = _offset(variant, layout)
    s = layout.scale
    return tuple((seed.province, round(ox + (seed.xy[0] - layout.origin[0]) * s, 2),
                  round(oy + (seed.xy[1] - layout.origin[1]) * s, 2)) for seed in variant.seeds)


def _offset(variant: Variant, layout: Layout) -> tuple[float, float]:
    """Where ``layout.origin`` is on the canvas (read off the layout:
    points[k] = offset + (xy - origin) * scale)."""
    key, prov = next((k, p) for k, p in sorted(variant.map.provinces.items()) if p.xy)
    assert prov.xy is not None
    return (layout.points[key][0] - (prov.xy[0] - layout.origin[0]) * layout.scale,
            layout.points[key][1] - (prov.xy[1] - layout.origin[1]) * layout.scale)


COASTLINE = "coastline.json"
"""A variant folder's real coastline (tools/coastline.py), if it has one."""


def coastline(variant: Variant, layout: Layout) -> tuple[BaseGeometry | None, str]:
    """The variant's land in canvas units, and the coastline file's hash."""
    folder = Path(variant.path) if variant.path else None
    path = folder / COASTLINE if folder is not None else None
    if path is None or not path.is_file():
        return None, ""
    blob = path.read_bytes()
    try:
        data = json.loads(blob)
        (ax, bx), (ay, by) = data["projection"]["x"], data["projection"]["y"]
        land = shape(data["land"])
    except (ValueError, KeyError, TypeError, shapely.errors.GEOSException) as exc:
        raise ValueError(f"{path}: not a coastline file ({exc})") from None
    # map xy -> canvas, read off the layout
    ox, oy = _offset(variant, layout)
    s = layout.scale
    a, b = ax * s, ox + (bx - layout.origin[0]) * s
    c, d = ay * s, oy + (by - layout.origin[1]) * s
    canvas = shapely.affinity.affine_transform(land, [a, 0, 0, c, b, d])
    return shapely.make_valid(canvas), hashlib.sha256(blob).hexdigest()[:16]


def territory_layout(variant: Variant, layout: Layout, terr: Territories) -> Layout:
    """``layout`` with each province's point, and each split coast's, moved
    inside its province's area where it lies outside (a point just off a real
    coastline), so every unit stands on its own territory."""
    margin = layout.style.token * 0.6
    points = dict(layout.points)
    for key, (x, y) in layout.points.items():
        region = terr.regions.get(key)
        if region is None or region.is_empty or region.contains(Point(x, y)):
            continue
        inner = region.buffer(-margin)
        spot = nearest_points(inner if not inner.is_empty else region, Point(x, y))[0]
        points[key] = (round(spot.x, 1), round(spot.y, 1))
    coasts = dict(layout.coasts)
    for loc, (x, y) in layout.coasts.items():
        region = terr.regions.get(loc.split("/")[0])
        if region is None or region.is_empty:
            continue
        inner = region.buffer(-margin)
        if inner.is_empty:
            inner = region
        if not inner.contains(Point(x, y)):
            spot = nearest_points(inner, Point(x, y))[0]
            coasts[loc] = (round(spot.x, 1), round(spot.y, 1))
    return dataclasses.replace(layout, points=points, coasts=coasts)
