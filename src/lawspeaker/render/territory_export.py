"""A variant's territories for the world outside: the GeoJSON export
(``lawspeaker map export VARIANT --geojson FILE``) and the truth check that
``map check`` runs (two provinces share a visible border if and only if they
are adjacent in the rules or listed as a crossing; no two areas overlap).
"""

from __future__ import annotations

from typing import Any

import shapely
from shapely.geometry import mapping

from ..variants import Variant
from .adjacency_check import check_adjacency
from .drawing import layout_for
from .territories import Territories, rule_pairs
from .territory_store import seed_points, territories_for

__all__ = ["territory_geojson", "territory_problems"]


def _territories(variant: Variant) -> Territories:
    return territories_for(variant, layout_for(variant))


def territory_geojson(variant: Variant) -> dict[str, Any]:
    """A GeoJSON FeatureCollection in the drawing's own coordinates (pixels,
    y down): one Feature per province (``province``, ``name``, ``type``,
    ``sc``) and the top-level member ``crossings``."""
    terr = _territories(variant)
    features = []
    for key, prov in sorted(variant.map.provinces.items()):
        geom = terr.regions.get(key)
        if geom is None:
            continue
        features.append({
            "type": "Feature",
            "id": key,
            "properties": {"province": key, "name": prov.name, "type": prov.terrain.value,
                           "sc": prov.is_sc},
            "geometry": mapping(shapely.set_precision(geom, 0.01)),
        })
    return {
        "type": "FeatureCollection",
        "name": variant.name,
        "crossings": [list(pair) for pair in terr.crossings],
        "features": features,
    }


def territory_problems(variant: Variant) -> list[str]:
    """Every pair that breaks the adjacency rule, as one sentence each; a map
    whose territories cannot be built gets one sentence saying why."""
    try:
        terr = _territories(variant)
    except (ValueError, KeyError, IndexError, TypeError, shapely.errors.GEOSException) as exc:
        return [f"territories: cannot be built from the map data ({exc})"]
    out = []
    for key, prov in sorted(variant.map.provinces.items()):
        geom = terr.regions.get(key)
        if geom is None or geom.is_empty:
            out.append(f"territories: {key} ({prov.name}) has no area")
    breaches = check_adjacency(terr.regions, rule_pairs(variant.map), terr.crossings)
    return out + _seed_problems(variant, terr) + [f"territories: {breach}" for breach in breaches]


def _seed_problems(variant: Variant, terr: Territories) -> list[str]:
    """A seed that did not become part of its province's area: off its kind of
    cell (a land province's seed on the sea) or cut off by a province it may
    not touch."""
    out = []
    spots = seed_points(variant, layout_for(variant))
    for seed, (_, x, y) in zip(variant.seeds, spots, strict=True):
        region = terr.regions.get(seed.province)
        if region is not None and region.buffer(terr.cell).contains(shapely.Point(x, y)):
            continue
        prov = variant.map.provinces[seed.province]
        kind = "sea" if prov.terrain.value == "sea" else "land"
        inside = [k for k, g in sorted(terr.regions.items()) if g.contains(shapely.Point(x, y))]
        lies = (f"in {variant.map.provinces[inside[0]].name}'s area" if inside
                else "where it may not grow")
        out.append(f"{seed.where}: seed [{seed.xy[0]:g}, {seed.xy[1]:g}] of {seed.province} "
                   f"({prov.name}) lies {lies}: a {kind} province's seed must lie on {kind}, "
                   "clear of provinces it is not adjacent to")
    return out
