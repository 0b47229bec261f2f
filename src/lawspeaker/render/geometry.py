"""Where things go: the variant's ``xy`` layout scaled to the canvas, coast
points for split coasts, label placement, and the arrow geometry.

The maps are node diagrams, as the S9 adjacency diagram (§4.4) is: each
province is a point, each border a line. No province areas are drawn,
because an area invented from points would show borders the data does not
have. The scale is chosen per variant from how close its provinces lie, so
a dense map (Order of the Dragon) is drawn larger instead of overlapping.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from ..core.geography import GameMap, province_of
from .palette import STYLE, Style

__all__ = ["Layout", "Point", "arrowhead", "bezier_at", "bezier_tangent", "coast_direction",
           "text_width"]

Point = tuple[float, float]


def text_width(text: str, size: float) -> float:
    """An estimate of a text's width in DejaVu Sans (0.6 em per character is
    a slight overestimate, which errs towards keeping labels apart)."""
    return len(text) * size * 0.6


@dataclass(frozen=True)
class Layout:
    """Canvas coordinates for one map."""

    scale: float
    origin: Point
    width: float
    """Width of the map area (the legend is to its right)."""
    height: float
    points: dict[str, Point]
    """Province key -> the centre of its dot on the canvas."""
    coasts: dict[str, Point]
    """``prov/coast`` -> where that coast's fleet links start."""
    labels: dict[str, tuple[float, float, str]]
    """Province key -> (x, y, text-anchor) of its name."""
    style: Style = STYLE

    @classmethod
    def build(cls, game_map: GameMap, style: Style = STYLE) -> Layout:
        provs = game_map.provinces
        raw = {k: p.xy if p.xy is not None else (0.0, 0.0) for k, p in provs.items()}
        scale = _scale(list(raw.values()), style)
        xs = [x for x, _ in raw.values()]
        ys = [y for _, y in raw.values()]
        minx, miny = min(xs), min(ys)
        pad = style.margin + style.token * 2
        top = style.margin + style.title_size * 2.2
        points = {k: (round(pad + (x - minx) * scale, 1), round(top + (y - miny) * scale, 1))
                  for k, (x, y) in sorted(raw.items())}
        width = pad * 2 + (max(xs) - minx) * scale
        height = top + pad + (max(ys) - miny) * scale
        coasts = _coast_points(game_map, points, style)
        labels = _place_labels(game_map, points, style)
        return cls(scale, (minx, miny), round(width, 1), round(height, 1), points, coasts,
                   labels, style)

    def at(self, location: str) -> Point:
        """Where a unit at ``location`` is drawn (the province's dot)."""
        return self.points[province_of(location)]


def _scale(xys: list[tuple[float, float]], style: Style) -> float:
    nearest = []
    for i, (x, y) in enumerate(xys):
        best = min((math.hypot(x - u, y - v) for j, (u, v) in enumerate(xys) if j != i),
                   default=100.0)
        nearest.append(max(best, 1.0))
    if not nearest:
        return 1.0
    return max(style.min_spacing / min(nearest), style.median_spacing / statistics.median(nearest))


def coast_direction(game_map: GameMap, points: dict[str, Point], loc: str) -> Point:
    """The unit vector from a split coast's province towards the places its
    fleets reach: the side of the province where a map draws that coastline."""
    cx, cy = points[province_of(loc)]
    dx = dy = 0.0
    for target in sorted(game_map.fleet_links.get(loc, ())):
        tx, ty = points[province_of(target)]
        length = math.hypot(tx - cx, ty - cy) or 1.0
        dx += (tx - cx) / length
        dy += (ty - cy) / length
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _coast_points(game_map: GameMap, points: dict[str, Point], style: Style) -> dict[str, Point]:
    """A split coast is put on the side of its province facing the provinces
    its fleets reach (:func:`coast_direction`)."""
    out: dict[str, Point] = {}
    reach = style.token + style.node
    for key, prov in sorted(game_map.provinces.items()):
        cx, cy = points[key]
        for loc in prov.locations if prov.coasts else ():
            ux, uy = coast_direction(game_map, points, loc)
            out[loc] = (round(cx + ux * reach, 1), round(cy + uy * reach, 1))
    return out


_CANDIDATES = (  # (dx, dy) in units of the clearance, text-anchor
    (0.0, 1.0, "middle"), (0.0, -1.0, "middle"), (1.0, 0.0, "start"), (-1.0, 0.0, "end"),
    (0.8, 0.8, "start"), (-0.8, 0.8, "end"), (0.8, -0.8, "start"), (-0.8, -0.8, "end"),
)


def _place_labels(game_map: GameMap, points: dict[str, Point], style: Style
                  ) -> dict[str, tuple[float, float, str]]:
    """Each name goes where it overlaps the fewest dots and names already
    placed (below its dot if that is free): a greedy, deterministic search."""
    size = style.label_size
    clear = style.token + 4
    dots = [(x - clear, y - clear, x + clear, y + clear) for x, y in points.values()]
    placed: list[tuple[float, float, float, float]] = []
    out: dict[str, tuple[float, float, str]] = {}
    for key in sorted(points, key=lambda k: (points[k][1], points[k][0], k)):
        name = game_map.provinces[key].name
        cx, cy = points[key]
        w = text_width(name, size)
        best: tuple[float, int, tuple[float, float, str], tuple[float, float, float, float]]
        best = (math.inf, 0, (cx, cy, "middle"), (0, 0, 0, 0))
        for rank, (dx, dy, anchor) in enumerate(_CANDIDATES):
            x = cx + dx * clear
            base = cy + dy * clear + (size * 0.8 if dy > 0 else (size * 0.35 if dy == 0 else 0))
            left = {"middle": x - w / 2, "start": x, "end": x - w}[anchor]
            box = (left, base - size * 0.8, left + w, base + size * 0.2)
            cost = sum(_overlap(box, d) for d in dots) + 2 * sum(_overlap(box, p) for p in placed)
            if cost + rank * 0.5 < best[0] + best[1] * 0.5:
                best = (cost, rank, (round(x, 1), round(base, 1), anchor), box)
        placed.append(best[3])
        out[key] = best[2]
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
             ) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def bezier_at(p0: Point, c: Point, p1: Point, t: float) -> Point:
    """A point on the quadratic Bézier curve p0-c-p1."""
    u = 1 - t
    return (u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0],
            u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1])


def bezier_tangent(p0: Point, c: Point, p1: Point, t: float) -> Point:
    u = 1 - t
    return (2 * u * (c[0] - p0[0]) + 2 * t * (p1[0] - c[0]),
            2 * u * (c[1] - p0[1]) + 2 * t * (p1[1] - c[1]))


def arrowhead(tip: Point, direction: Point, size: float) -> list[float]:
    """The three corners of an arrowhead at ``tip`` pointing along ``direction``.

    Heads are drawn as polygons rather than SVG markers, so every renderer
    (browsers, resvg, cairo) draws them alike and in the arrow's own colour.
    """
    dx, dy = direction
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    half = size * 0.55
    return [round(v, 1) for v in (tip[0], tip[1], bx - uy * half, by + ux * half,
                                  bx + uy * half, by - ux * half)]
