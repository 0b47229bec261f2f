"""The official map image as the bottom layer of a drawing (docs/maps.md,
"Drawing over the official map").

A :class:`Backdrop` is an image and its calibrated :class:`MapLayout`. It
gives ``draw()`` a :class:`~.geometry.Layout` in the image's own pixels, so
units, orders, results, retreats, builds and centres are drawn by the usual
layers over the picture, which is embedded in the SVG at its own size below
a title band. Borders and names are not drawn: the image has its own.

A province or coast the GM has not placed is still drawn: its spot is
estimated from the variant's own ``xy`` by the affine map that best fits the
placed provinces nearest it (least squares), so a half-calibrated image never
breaks a game.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace
from pathlib import Path

import drawsvg as dw

from ..core.board import Position
from ..core.geography import GameMap
from ..variants import Variant
from .board import Paints
from .geometry import Layout, Point, coast_direction
from .imagefile import ImageInfo, image_info
from .maplayout import LayoutError, MapLayout, layout_problems, load_layout, parse_layout
from .palette import FONT, Style, look_of

__all__ = ["Backdrop", "affine_fit", "draw_backdrop_centres", "estimate"]

Affine = tuple[float, float, float, float, float, float]
"""x = a*u + b*v + c, y = d*u + e*v + f."""


@dataclass(frozen=True)
class Backdrop:
    """An official map image and where each province is on it."""

    layout: MapLayout
    image: bytes
    info: ImageInfo

    @classmethod
    def from_bytes(cls, layout_text: str, image: bytes, source: str = "layout",
                   image_name: str | None = None) -> Backdrop:
        """Read a layout and its image; ``LayoutError`` if the image is not a
        picture or not of the size the layout was calibrated on."""
        layout = parse_layout(layout_text, source)
        return cls.of(layout, image, image_name or layout.image)

    @classmethod
    def of(cls, layout: MapLayout, image: bytes, image_name: str) -> Backdrop:
        try:
            info = image_info(image)
        except ValueError as exc:
            raise LayoutError(f"{image_name}: {exc}") from None
        if (info.width, info.height) != tuple(layout.size):
            raise LayoutError(f"{image_name} is {info.width}x{info.height} pixels, but the "
                              f"layout was calibrated on {layout.size[0]}x{layout.size[1]}")
        return cls(layout, image, info)

    @classmethod
    def from_file(cls, path: str | Path) -> Backdrop:
        """The layout file at ``path`` and the image it names beside it."""
        path = Path(path)
        layout = load_layout(path)
        image_path = path.parent / layout.image
        try:
            data = image_path.read_bytes()
        except OSError as exc:
            raise LayoutError(f"{path}: cannot read its image {image_path}: "
                              f"{exc.strerror}") from None
        return cls.of(layout, data, str(image_path))

    def problems(self, variant: Variant) -> list[str]:
        return layout_problems(self.layout, variant)

    def geometry(self, variant: Variant, style: Style) -> Layout:
        """Canvas coordinates of every province over this image; the image
        is drawn at (0, ``top_of(style)``), below the title."""
        if self.layout.variant != variant.name:
            raise ValueError(f"the map layout is for variant '{self.layout.variant}', "
                             f"not '{variant.name}'")
        game_map = variant.map
        placed = {k: p for k, p in self.layout.provinces.items()
                  if k in game_map.provinces}
        pairs = [(game_map.provinces[k].xy or (0.0, 0.0), p) for k, p in placed.items()]
        fit = affine_fit(pairs, game_map, self.layout.size)
        spots: dict[str, Point] = {}
        for key, prov in game_map.provinces.items():
            spots[key] = placed.get(key) or estimate(pairs, prov.xy or (0.0, 0.0), fit)
        style = _sized(style, list(spots.values()))
        top = top_of(style)
        points = {k: (round(x, 1), round(y + top, 1)) for k, (x, y) in sorted(spots.items())}
        coasts = _coasts(game_map, points, self.layout.provinces, top, style)
        width, height = self.layout.size
        return Layout(1.0, (0.0, 0.0), float(width), float(height + top), points, coasts, {},
                      style)

    def draw_image(self, group: dw.Group, style: Style) -> None:
        width, height = self.layout.size
        group.append(dw.Image(0, top_of(style), width, height, data=self.image,
                              mime_type=self.info.media_type, id="backdrop-image"))

    def centre_points(self, layout: Layout) -> dict[str, Point]:
        top = layout.height - self.layout.size[1]
        return {k: (round(x, 1), round(y + top, 1)) for k, (x, y) in self.layout.centres.items()}


def top_of(style: Style) -> float:
    """The title band above the image (the title and subtitle go there)."""
    return float(math.ceil(style.margin + style.title_size * 2.2))  # whole pixels: no blur


def affine_fit(pairs: list[tuple[Point, Point]], game_map: GameMap,
               size: tuple[int, int]) -> Affine:
    """The affine map from the variant's ``xy`` to the image that best fits
    the placed provinces (least squares); with fewer than three placed, or
    all in a line, the variant's layout stretched over the image."""
    if len(pairs) >= 3:
        fit = _least_squares(pairs)
        if fit is not None:
            return fit
    xys = [p.xy for p in game_map.provinces.values() if p.xy is not None] or [(0.0, 0.0)]
    minx, maxx = min(x for x, _ in xys), max(x for x, _ in xys)
    miny, maxy = min(y for _, y in xys), max(y for _, y in xys)
    w, h = size
    sx = w * 0.9 / ((maxx - minx) or 1.0)
    sy = h * 0.9 / ((maxy - miny) or 1.0)
    return (sx, 0.0, w * 0.05 - minx * sx, 0.0, sy, h * 0.05 - miny * sy)


def estimate(pairs: list[tuple[Point, Point]], uv: Point, fallback: Affine,
             nearest: int = 6) -> Point:
    """Where the province at variant ``xy`` ``uv`` probably is on the image:
    the affine fit of the ``nearest`` placed provinces around it (an official
    map's projection is seldom the variant's own, but it is nearly affine
    nearby), else the ``fallback`` fit of them all."""
    if len(pairs) > nearest:
        near = sorted(pairs, key=lambda p: (p[0][0] - uv[0]) ** 2 + (p[0][1] - uv[1]) ** 2)
        fit = _least_squares(near[:nearest])
        if fit is not None:
            return _apply(fit, uv)
    return _apply(fallback, uv)


def _least_squares(pairs: list[tuple[Point, Point]]) -> Affine | None:
    # normal equations M^T M p = M^T t, for rows (u, v, 1), once for x and once for y
    m = [[0.0] * 3 for _ in range(3)]
    bx = [0.0] * 3
    by = [0.0] * 3
    for (u, v), (x, y) in pairs:
        row = (u, v, 1.0)
        for i in range(3):
            for j in range(3):
                m[i][j] += row[i] * row[j]
            bx[i] += row[i] * x
            by[i] += row[i] * y
    px, py = _solve(m, bx), _solve(m, by)
    if px is None or py is None:
        return None
    return (px[0], px[1], px[2], py[0], py[1], py[2])


def _solve(m: list[list[float]], b: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; None if singular."""
    a = [[*row, rhs] for row, rhs in zip(m, b, strict=True)]
    n = 3
    scale = max((abs(v) for row in m for v in row), default=1.0) or 1.0
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-9 * scale:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def _apply(fit: Affine, uv: Point) -> Point:
    a, b, c, d, e, f = fit
    u, v = uv
    return (a * u + b * v + c, d * u + e * v + f)


def _sized(style: Style, spots: list[Point]) -> Style:
    """Tokens sized to the image: a map whose provinces lie closer than the
    node diagram's get smaller tokens (and a sparse one larger), within bounds
    that keep a token's letter legible."""
    if len(spots) < 2:
        return style
    nearest = []
    for i, (x, y) in enumerate(spots):
        nearest.append(min(math.hypot(x - u, y - v) for j, (u, v) in enumerate(spots)
                           if j != i) or 1.0)
    factor = min(1.6, max(0.6, statistics.median(nearest) / style.median_spacing))
    if abs(factor - 1.0) < 0.05:
        return style
    return replace(style, token=round(style.token * factor, 1),
                   node=round(style.node * factor, 1))


def _coasts(game_map: GameMap, points: dict[str, Point], placed: dict[str, Point],
            top: float, style: Style) -> dict[str, Point]:
    """Each split coast where the GM placed it, else on the side of its
    province facing the places its fleets reach."""
    out: dict[str, Point] = {}
    for key, prov in sorted(game_map.provinces.items()):
        if not prov.coasts:
            continue
        cx, cy = points[key]
        for loc in prov.locations:
            if loc in placed:
                x, y = placed[loc]
                out[loc] = (round(x, 1), round(y + top, 1))
                continue
            ux, uy = coast_direction(game_map, points, loc)
            reach = style.token * 1.5
            out[loc] = (round(cx + ux * reach, 1), round(cy + uy * reach, 1))
    return out


def draw_backdrop_centres(group: dw.Group, variant: Variant, position: Position | None,
                          layout: Layout, backdrop: Backdrop, paints: Paints) -> None:
    """Supply centres in the owner's colour (S9 §1.1: 'like-colored SC dots'),
    white when unowned: on the image's own marker where the layout places it,
    else above right of the unit spot."""
    st = layout.style
    markers = backdrop.centre_points(layout)
    for key, prov in sorted(variant.map.provinces.items()):
        if not prov.is_sc:
            continue
        if key in markers:
            x, y = markers[key]
        else:
            px, py = layout.points[key]
            d = (st.token + 1) / math.sqrt(2)
            x, y = round(px + d, 1), round(py - d, 1)
        owner = position.owners.get(key) if position is not None else None
        look = look_of(variant, position, owner) if owner else None
        fill = paints.fill(look.fills) if look else "#ffffff"
        g = dw.Group(id=f"sc-{key}", class_="centre", data_owner=owner or "")
        g.append(dw.Title(f"{prov.name}: supply centre" + (f" of {owner}" if owner else "")))
        r = max(4.0, st.token * 0.4)
        g.append(dw.Circle(x, y, r, fill=fill, stroke=st.ink, stroke_width=1.3))
        if prov.sc_value > 1:
            g.append(dw.Text(str(prov.sc_value), 10, x + r + 1.5, y + 4, fill=st.ink,
                             font_family=FONT, font_weight="bold", stroke="#ffffff",
                             stroke_width=2.5, paint_order="stroke"))
        group.append(g)
