"""The truth test of a territory map: two provinces share a border of visible
length if and only if they are adjacent in the rules or listed as a
crossing, and no two areas overlap, so that players can read the rules'
adjacencies off the picture. ``map check`` runs it on every variant, a
designer's own folder included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

__all__ = ["VISIBLE", "Breach", "check_adjacency", "shared_length"]

VISIBLE = 6.0
"""A shared border shorter than this (canvas pixels) is not seen as one."""

OVERLAP = 1.0
"""Overlaps of less than this area (square pixels) are rounding, not overlaps."""


@dataclass(frozen=True, order=True)
class Breach:
    """One pair that breaks the rule, and how."""

    a: str
    b: str
    kind: str
    """``overlap``, ``border`` (touching but not adjacent) or ``missing``
    (adjacent, not a crossing, but no visible border)."""
    amount: float

    def __str__(self) -> str:
        if self.kind == "overlap":
            return f"{self.a} and {self.b} overlap ({self.amount:.0f} square px)"
        if self.kind == "border":
            return (f"{self.a} and {self.b} share a border ({self.amount:.1f} px) but are not "
                    "adjacent in the rules")
        return (f"{self.a} and {self.b} are adjacent in the rules but share no visible border "
                f"({self.amount:.1f} px) and are not a crossing")


SNAP = 0.05
"""Edges closer than this (pixels) are one border: two areas cut along one
coastline by different operations differ in the last digits."""


def shared_length(a: BaseGeometry, b: BaseGeometry) -> float:
    """The length of the border two areas share: ``a``'s edge that runs along
    ``b`` (within :data:`SNAP`)."""
    if a.is_empty or b.is_empty or a.distance(b) > SNAP:
        return 0.0
    common = shapely.intersection(a.boundary, b.buffer(SNAP))
    return float(shapely.length(common))


def check_adjacency(regions: Mapping[str, BaseGeometry], adjacent: Iterable[tuple[str, str]],
                    crossings: Iterable[tuple[str, str]]) -> list[Breach]:
    """Every pair of ``regions`` that breaks the rule, sorted."""
    pairs = {(min(a, b), max(a, b)) for a, b in adjacent}
    crossed = {(min(a, b), max(a, b)) for a, b in crossings}
    keys = sorted(regions)
    geoms = [regions[k] for k in keys]
    tree = shapely.STRtree(geoms)
    out: list[Breach] = []
    near: set[tuple[int, int]] = set()
    left, right = tree.query(geoms, predicate="dwithin", distance=SNAP)
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i < j:
            near.add((i, j))
    for i, j in sorted(near):
        a, b = keys[i], keys[j]
        ga, gb = geoms[i], geoms[j]
        area = float(shapely.area(shapely.intersection(ga, gb)))
        if area >= OVERLAP:
            out.append(Breach(a, b, "overlap", area))
            continue
        length = shared_length(ga, gb)
        if (a, b) not in pairs and (a, b) not in crossed and length > 0.0:
            out.append(Breach(a, b, "border", length))
    for a, b in sorted(pairs - crossed):
        if a in regions and b in regions and shared_length(regions[a], regions[b]) < VISIBLE:
            out.append(Breach(a, b, "missing", shared_length(regions[a], regions[b])))
    return sorted(out)
