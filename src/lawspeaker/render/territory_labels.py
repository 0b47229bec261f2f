"""Province names on the territory map, each fitted inside its own area.

A name goes where its box fits inside the province's area clear of what is
drawn on it (the unit at the province's point, the supply-centre marker
beside it), as near as it can be both to the most open spot of that area
(the centre of the largest circle that fits, shapely's
``maximum_inscribed_circle``) and to the unit it names. If it
fits nowhere at the map's label size on one line, it is tried on two lines,
then a little smaller (never under :data:`MIN_SIZE`, the map's smallest
legible name); a name that fits nowhere at all goes where most of it lies
on its own area, and its halo keeps it readable where it runs over a border.
Sea names are italic, as on the node diagram.

The placement is a pure function of the territories and the layout, worked
out once per map and kept in memory.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import drawsvg as dw
import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from ..core.geography import Terrain
from ..variants import Variant
from .board import dislodged_point, heir_point, sc_point
from .geometry import Layout, text_width
from .palette import FONT, mix
from .territories import Territories

__all__ = ["MIN_SIZE", "TerritoryLabel", "draw_territory_labels", "label_box",
           "territory_labels"]

MIN_SIZE = 11.0
"""The smallest a name is drawn (the maps' rule: no name under 11 px)."""
LINE = 1.15
"""Line spacing of a name on two lines, in ems."""
CLEAR = 3.0
"""Room kept between a name and a unit or a centre marker, in pixels."""


@dataclass(frozen=True)
class TerritoryLabel:
    """One province's name: where its box's centre is, its size, its lines."""

    x: float
    y: float
    size: float
    lines: tuple[str, ...]
    inside: float
    """How much of the box lies on the province's own area (1.0: all)."""


def label_box(label: TerritoryLabel) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the name's box, in canvas units."""
    w, h = _extent(label.lines, label.size)
    return (label.x - w / 2, label.y - h / 2, label.x + w / 2, label.y + h / 2)


def _extent(lines: tuple[str, ...], size: float) -> tuple[float, float]:
    width = max(text_width(line, size) for line in lines)
    return width, size * (1.0 + LINE * (len(lines) - 1))


def _wraps(name: str) -> list[tuple[str, ...]]:
    """The name on one line, then on two (split at the space that makes the
    longer line shortest), if it has a space or a hyphen to split at."""
    out: list[tuple[str, ...]] = [(name,)]
    cuts = [i for i, c in enumerate(name) if c in " -"]
    if cuts:
        i = min(cuts, key=lambda c: (max(c + 1, len(name) - c - 1), c))
        first, second = name[:i + (name[i] == "-")].strip(), name[i + 1:].strip()
        if first and second:
            out.append((first, second))
    return out


SIZES = (1.0, 0.96)
"""Sizes tried, as shares of the map's label size (floored at MIN_SIZE)."""


def _options(name: str, size: float) -> list[tuple[float, tuple[str, ...]]]:
    out = []
    for share in SIZES:
        s = max(round(size * share, 1), MIN_SIZE)
        for lines in _wraps(name):
            if (s, lines) not in out:
                out.append((s, lines))
    return out


TITLE_WIDTH = 700.0
"""How far the map's title and subtitle may reach from the left, in pixels."""


def _obstacles(variant: Variant, layout: Layout
               ) -> dict[str, tuple[BaseGeometry, BaseGeometry]]:
    """What each province's name must keep clear of: always its unit (at its
    point), its supply-centre marker and the map's title in the top left
    corner; where there is room, also the spots of things drawn only in some
    phases (a unit dislodged from it, an heir's crown)."""
    st = layout.style
    out = {}
    title = shapely.box(0, 0, min(layout.width, st.margin + TITLE_WIDTH),
                        st.margin + st.title_size * 0.3 + st.legend_text * 2)
    heirs = variant.uses("heirs")
    for key, prov in variant.map.provinces.items():
        x, y = layout.points[key]
        hard = [title, shapely.Point(x, y).buffer(st.token + CLEAR, quad_segs=4)]
        dx, dy = dislodged_point(layout, key)
        soft = [shapely.Point(dx, dy).buffer(st.token * 0.8 + CLEAR, quad_segs=4)]
        if prov.is_sc:
            cx, cy = sc_point(layout, key)
            hard.append(shapely.Point(cx, cy).buffer(8.5 + CLEAR, quad_segs=4))
            if heirs:  # where an heir's crown would stand (S9 §7.1)
                hx, hy = heir_point(layout, key, 0)
                soft.append(shapely.Point(hx, hy).buffer(9 + CLEAR, quad_segs=4))
        firm = shapely.union_all(hard)
        out[key] = (firm, shapely.union_all([firm, *soft]))
    return out


def _candidates(free: BaseGeometry, step: float) -> np.ndarray:
    minx, miny, maxx, maxy = free.bounds
    xs = np.arange(minx + step / 2, maxx, step)
    ys = np.arange(miny + step / 2, maxy, step)
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    if len(pts) == 0:
        return pts
    return pts[shapely.contains_xy(free, pts[:, 0], pts[:, 1])]


def _boxes(pts: np.ndarray, w: float, h: float) -> np.ndarray:
    return shapely.box(pts[:, 0] - w / 2, pts[:, 1] - h / 2, pts[:, 0] + w / 2,
                       pts[:, 1] + h / 2)


def _place(name: str, region: BaseGeometry, blocked: tuple[BaseGeometry, BaseGeometry],
           size: float, point: tuple[float, float]) -> TerritoryLabel:
    """The name's spot in ``region``, clear of ``blocked`` (what must always be
    avoided, and that with what should be where there is room)."""
    options = _options(name, size)
    step = 2.0
    pole = np.array(point)
    for avoid in (blocked[1], blocked[0]):
        free = region.difference(avoid)
        if free.is_empty:
            continue
        shapely.prepare(free)
        centre = shapely.maximum_inscribed_circle(free, 0.5)
        pole = np.array(centre.coords[0])
        # candidates about 40 to a side of the area, at least 2 px apart
        step = max(2.0, math.sqrt(max(free.area, 1.0)) / 40)
        pts = np.vstack([pole[None, :], _candidates(free, step)])
        for s, lines in options:
            w, h = _extent(lines, s)
            fits = shapely.contains(free, _boxes(pts, w, h))
            if fits.any():
                good = pts[fits]  # near the open middle, and near the unit it names
                score = np.hypot(*(good - pole).T) + 2 * np.hypot(*(good - np.array(point)).T)
                best = good[np.argmin(score)]
                return TerritoryLabel(round(float(best[0]), 1), round(float(best[1]), 1), s,
                                      lines, 1.0)
    # nowhere clear: the option and place with most of it on its own area
    # (clear of the unit and the marker where that can be)
    shapely.prepare(region)
    pts = np.vstack([pole[None, :], _candidates(region, step)])
    best_fit: tuple[float, int, float, tuple[str, ...], float] | None = None
    for s, lines in options:
        w, h = _extent(lines, s)
        boxes = _boxes(pts, w, h)
        on = shapely.area(shapely.intersection(boxes, region)) / (w * h)
        score = on - shapely.area(shapely.intersection(boxes, blocked[0])) / (w * h)
        i = int(np.argmax(score))
        if best_fit is None or score[i] > best_fit[0] + 1e-9:
            best_fit = (float(score[i]), i, s, lines, float(on[i]))
    assert best_fit is not None
    _, i, s, lines, inside = best_fit
    return TerritoryLabel(round(float(pts[i][0]), 1), round(float(pts[i][1]), 1), s, lines,
                          round(inside, 3))


_MEMORY: dict[tuple[int, int, float, float], tuple[object, object, dict[str, TerritoryLabel]]] = {}


def territory_labels(variant: Variant, layout: Layout, terr: Territories
                     ) -> dict[str, TerritoryLabel]:
    """Every province's name placed inside its area (see the module's text)."""
    key = (id(variant.map), id(terr), layout.width, layout.style.label_size)
    hit = _MEMORY.get(key)
    if hit is not None and hit[0] is variant.map and hit[1] is terr:
        return hit[2]
    blocked = _obstacles(variant, layout)
    out = {}
    for k, prov in sorted(variant.map.provinces.items()):
        region = terr.regions.get(k)
        if region is None or region.is_empty:
            continue
        out[k] = _place(prov.name, region, blocked[k], layout.style.label_size,
                        layout.points[k])
    if len(_MEMORY) > 16:
        _MEMORY.clear()
    _MEMORY[key] = (variant.map, terr, out)
    return out


def draw_territory_labels(group: dw.Group, variant: Variant, layout: Layout,
                          labels: dict[str, TerritoryLabel]) -> None:
    """Each name, centred on its spot, with a halo so a border or an order
    line passing under it never makes it unreadable; seas in italic."""
    st = layout.style
    for key, label in sorted(labels.items()):
        prov = variant.map.provinces[key]
        sea = prov.terrain is Terrain.SEA
        colour = st.sea_edge if sea else st.ink
        _, top, _, _ = label_box(label)
        baseline = top + label.size * 0.8
        text = label.lines[0] if len(label.lines) == 1 else list(label.lines)
        group.append(dw.Text(text, label.size, label.x, round(baseline, 1), id=f"label-{key}",
                             text_anchor="middle", line_height=LINE,
                             fill=mix(colour, "#000000", 0.15), font_family=FONT,
                             font_style="italic" if sea else "normal", stroke=st.paper,
                             stroke_width=3, stroke_linejoin="round", paint_order="stroke"))
