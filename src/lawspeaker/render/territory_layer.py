"""The territory map's base layer: seas, land, each province's area filled
(land in the colour of the power owning its supply centre, else neutral
paper), impassable spaces grey and hatched, and the crossings (pairs
adjacent in the rules without a shared border) as short dashed arrows.

Ids: ``territory-<key>`` (with ``data-owner``), ``crossing-<a>-<b>``.
"""

from __future__ import annotations

import drawsvg as dw
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from ..core.board import Position
from ..core.geography import Terrain
from ..variants import Variant
from .geometry import Layout, arrowhead
from .palette import look_of, mix
from .territories import Territories

__all__ = ["draw_crossings", "draw_territories", "path_data"]

TINT = 0.5
"""How far a power's colour is lightened for its territory fill, so units
and names on it stay readable."""


def path_data(geom: BaseGeometry) -> str:
    """SVG path data of a Polygon or MultiPolygon (holes by the even-odd rule)."""
    polys = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    out: list[str] = []
    for poly in polys:
        if not isinstance(poly, Polygon) or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)[:-1]
            if len(coords) < 3:
                continue
            out.append("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in coords) + " Z")
    return " ".join(out)


def _pattern(canvas: dw.Drawing, colour: str) -> dw.Pattern:
    pattern = dw.Pattern(8, 8, id="hatch-impassable", patternUnits="userSpaceOnUse")
    pattern.append(dw.Rectangle(0, 0, 8, 8, fill=colour))
    pattern.append(dw.Line(0, 8, 8, 0, stroke="#ffffff", stroke_width=1.6, stroke_opacity=0.6))
    canvas.append_def(pattern)
    return pattern


def draw_territories(group: dw.Group, canvas: dw.Drawing, variant: Variant,
                     position: Position | None, layout: Layout, terr: Territories) -> None:
    """Sea under everything, then the land, then every province's area."""
    st = layout.style
    group.append(dw.Rectangle(0, 0, layout.width, layout.height, fill=st.sea, id="sea"))
    if not terr.land.is_empty:
        group.append(dw.Path(path_data(terr.land), fill=st.land, fill_rule="evenodd",
                             stroke=st.land_edge, stroke_width=1.2, id="land"))
    hatch = _pattern(canvas, st.impassable)
    # a nuclear power's territories never change hands (Dissolution §6.1)
    nuclear = {t: n.name for _, n in sorted(variant.nuclear.items()) for t in n.territories}
    for key, geom in sorted(terr.regions.items()):
        prov = variant.map.provinces[key]
        if geom.is_empty:
            continue
        owner = position.owners.get(key, "") if position is not None else ""
        if not owner and position is not None:
            owner = nuclear.get(key, "")
        if prov.terrain is Terrain.SEA:
            fill: object = st.sea
            stroke, width = st.sea_edge, 0.8
        elif prov.terrain is Terrain.IMPASSABLE:
            fill, stroke, width = hatch, st.ink, 1.2
        else:
            look = look_of(variant, position, owner) if owner else None
            fill = mix(look.fills[0], "#ffffff", TINT) if look else st.land
            stroke, width = st.land_edge, 1.3
        path = dw.Path(path_data(geom), fill=fill, fill_rule="evenodd", stroke=stroke,
                       stroke_width=width, stroke_linejoin="round", id=f"territory-{key}",
                       class_=f"territory {prov.terrain.value}", data_owner=owner)
        path.append_title(prov.name + (f" ({owner})" if owner else ""))
        group.append(path)


def draw_crossings(group: dw.Group, variant: Variant, layout: Layout, terr: Territories) -> None:
    """Each crossing as a short dashed two-headed arrow across the gap between
    the two areas, where they come closest."""
    st = layout.style
    for a, b in terr.crossings:
        ga, gb = terr.regions.get(a), terr.regions.get(b)
        if ga is None or gb is None or ga.is_empty or gb.is_empty:
            continue
        pa, pb = nearest_points(ga, gb)
        (x1, y1), (x2, y2) = pa.coords[0], pb.coords[0]
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        if length < 14:  # too short to see: stretch it across the meeting point
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            ax, ay = layout.points[a]
            bx, by = layout.points[b]
            ux, uy = bx - ax, by - ay
            n = (ux * ux + uy * uy) ** 0.5 or 1.0
            x1, y1 = mx - ux / n * 9, my - uy / n * 9
            x2, y2 = mx + ux / n * 9, my + uy / n * 9
            dx, dy = x2 - x1, y2 - y1
        names = f"{variant.map.provinces[a].name} – {variant.map.provinces[b].name}"
        g = dw.Group(id=f"crossing-{a}-{b}", class_="crossing")
        g.append(dw.Title(f"Crossing: {names} (adjacent, no shared border)"))
        g.append(dw.Line(round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1), stroke=st.ink,
                         stroke_width=2, stroke_dasharray="4,3"))
        g.append(dw.Lines(*arrowhead((x2, y2), (dx, dy), 7), close=True, fill=st.ink))
        g.append(dw.Lines(*arrowhead((x1, y1), (-dx, -dy), 7), close=True, fill=st.ink))
        group.append(g)
