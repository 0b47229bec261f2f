"""``draw()``: a variant, a position and (optionally) orders or results in, a
:class:`Drawing` out, as SVG text or PNG bytes.

The drawing is a pure function of its inputs: nothing is read from the
clock, the environment or a random source, and every collection is walked
in sorted order, so the same input gives the same bytes (pictures can be
tested, cached and diffed). It takes orders and results only, never DP
allocations: what a viewer may see is decided before this is called.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import drawsvg as dw

from ..core.board import Position
from ..core.orders import Order
from ..core.results import OrderResult
from ..variants import Variant, load_variant
from .backdrop import Backdrop, draw_backdrop_centres
from .board import Paints, draw_centres, draw_heirs, draw_links, draw_provinces, draw_units
from .geometry import Layout
from .legend import draw_legend, draw_title, legend_height, legend_width
from .orders import draw_orders
from .palette import FONT, STYLE, Style, palette_free, recoloured, style_for
from .png import svg_to_png
from .territories import Territories
from .territory_labels import draw_territory_labels, territory_labels
from .territory_layer import draw_crossings, draw_territories
from .territory_store import territories_for, territory_layout

__all__ = ["Drawing", "check_position", "draw", "layout_for"]

LINK_MODES = ("full", "faint", "none")
VIEWS = ("territories", "adjacency")
"""``territories``: filled areas (the default); ``adjacency``: the node-link
diagram of S9 §4.4 (every province a dot, every border a line)."""

_LAYOUTS: dict[tuple[int, Style], tuple[object, Layout]] = {}


def layout_for(variant: Variant, style: Style = STYLE) -> Layout:
    """The variant's layout, computed once per map and style (label placement
    is the costly part of a drawing)."""
    shape = palette_free(style)
    key = (id(variant.map), shape)
    hit = _LAYOUTS.get(key)
    if hit is None or hit[0] is not variant.map:
        hit = (variant.map, Layout.build(variant.map, shape))
        if len(_LAYOUTS) > 32:
            _LAYOUTS.clear()
        _LAYOUTS[key] = hit
    # A palette changes colours only: the same places, in the palette's colours.
    return hit[1] if style == shape else replace(hit[1], style=style)


class Drawing:
    """A finished map. ``svg()`` is the text; ``png(scale)`` renders it."""

    def __init__(self, svg: str, width: float, height: float) -> None:
        self._svg = svg
        self.width = width
        self.height = height

    def svg(self) -> str:
        return self._svg

    def png(self, scale: float = 1.0) -> bytes:
        """PNG bytes, ``scale`` pixels per SVG unit (1.0: about 1300 to 2100
        pixels wide, depending on the variant)."""
        return svg_to_png(self._svg, scale)

    def save(self, path: str | Path, scale: float = 1.0) -> Path:
        """Write SVG or PNG, chosen by the file's suffix."""
        path = Path(path)
        if path.suffix.lower() == ".png":
            path.write_bytes(self.png(scale))
        else:
            path.write_text(self._svg, encoding="utf-8")
        return path

    def _repr_svg_(self) -> str:  # shown inline in Jupyter
        return self._svg


def draw(variant: Variant | str, position: Position | None = None, *,
         results: Iterable[OrderResult] | None = None,
         orders: Iterable[Order] | None = None,
         title: str | None = None,
         subtitle: str | None = None,
         links: str | None = None,
         style: Style = STYLE,
         palette: str | None = None, backdrop: Backdrop | None = None,
         view: str = "territories") -> Drawing:
    """Draw the board of ``variant``, the units of ``position`` and the
    ``results`` of adjudicating that position (or, before adjudication, its
    ``orders``).

    ``view`` is ``territories`` (filled areas, crossings as dashed arrows)
    or ``adjacency`` (the node-link diagram). In the adjacency view, the bare
    map is drawn with every border coloured as in the S9 adjacency diagram
    (§4.4); ``links`` (``full``, ``faint``, ``none``) overrides that (the
    territory view draws no links unless asked). ``title`` defaults to the variant's title and
    the phase as the variant names it (``Spring Orders, Second Cycle (381 BCE)``).
    ``palette`` names a palette (``standard``, ``colorblind``: see
    :data:`.palette.PALETTES`) and overrides ``style``.

    ``backdrop``: draw over an official map image at its own size instead of
    the node diagram (no borders or names: the image has them).
    """
    style = style_for(palette, style)
    var = load_variant(variant) if isinstance(variant, str) else variant
    var = recoloured(var, style)
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
    areas = view == "territories" and backdrop is None  # the image has its own areas
    mode = links or ("none" if areas else "full" if position is None else "faint")
    if mode not in LINK_MODES:
        raise ValueError(f"links must be one of {', '.join(LINK_MODES)}, not {mode!r}")
    items = _items(results, orders)
    if items and position is None:
        raise ValueError("orders and results are drawn on a position: pass one")
    if position is not None:
        check_position(var, position)
    terr = None
    if backdrop is not None:
        layout = backdrop.geometry(var, style)
    else:
        layout = layout_for(var, style)
        terr = territories_for(var, layout) if areas else None
        if terr is not None:
            layout = territory_layout(var, layout, terr)
    bare = position is None
    height = max(layout.height, legend_height(var, position, layout, bare))
    width = layout.width + legend_width(var, position, layout)
    canvas = dw.Drawing(round(width), round(height), id_prefix="ls")
    canvas.append(dw.Rectangle(0, 0, round(width), round(height), fill=style.paper))
    if title is None:
        title = var.title + (f": {var.phase_label(position.phase)}" if position else "")
    if subtitle is None:
        subtitle = (_subtitle(var, position, items, mode, style, areas)
                    if backdrop is None or position else "The official map, calibrated")
    canvas.append(dw.Title(title))
    paints = Paints(canvas)
    layers = {name: dw.Group(id=name) for name in
              ("territories", "links", "crossings", "provinces", "centres", "units", "heirs",
               "orders", "legend")}
    if backdrop is not None:  # the official image, calibrated: docs/maps.md
        backdrop.draw_image(layers["links"], layout.style)
        draw_backdrop_centres(layers["centres"], var, position, layout, backdrop, paints)
    else:
        _draw_map(layers, canvas, var, position, layout, paints, terr, mode, areas)
    if position is not None:
        draw_units(layers["units"], var, position, layout, paints)
        draw_heirs(layers["heirs"], var, position, layout)
        draw_orders(layers["orders"], var, position, layout, paints, items)
    draw_legend(layers["legend"], var, position, layout, paints, bare, areas)
    draw_title(layers["legend"], layout, title, subtitle)
    for group in layers.values():
        canvas.append(group)
    svg = canvas.as_svg()
    svg = svg.replace("<svg ", f'<svg font-family="{FONT}" ', 1)
    return Drawing(svg, round(width), round(height))


def _items(results: Iterable[OrderResult] | None, orders: Iterable[Order] | None
           ) -> list[tuple[Order, OrderResult | None]]:
    """Each order with its result, or with ``None`` before adjudication; orders
    given beside results that have none come last."""
    if results is None:
        return [(o, None) for o in orders or ()]
    items: list[tuple[Order, OrderResult | None]] = [(r.order, r) for r in results]
    if orders is not None:
        judged = {r_order for r_order, _ in items}
        items += [(o, None) for o in orders if o not in judged]
    return items


def _draw_map(layers: dict[str, dw.Group], canvas: dw.Drawing, var: Variant,
              position: Position | None, layout: Layout, paints: Paints,
              terr: Territories | None, mode: str, areas: bool) -> None:
    """The map drawn, not an image: the territories (``terr``) and the crossings
    between them, the borders as ``mode`` says, the provinces' dots or their
    names fitted in their areas, and the centres."""
    if terr is not None:
        draw_territories(layers["territories"], canvas, var, position, layout, terr)
        draw_crossings(layers["crossings"], var, layout, terr)
    if mode != "none":
        draw_links(layers["links"], var, layout, faint=mode == "faint")
    draw_provinces(layers["provinces"], var, layout, position is None, dots=not areas,
                   names=not areas)
    if terr is not None:  # each name fitted inside its area
        draw_territory_labels(layers["provinces"], var, layout,
                              territory_labels(var, layout, terr))
    draw_centres(layers["centres"], var, position, layout, paints)


def check_position(variant: Variant, position: Position) -> None:
    """Refuse, with one clear sentence, a position that is not of this variant's
    map (a saved game of another variant, a hand-edited file with a typo)."""
    provinces = variant.map.provinces
    if position.variant not in (variant.name, str(variant.path or "")):
        raise ValueError(f"the position is of variant '{position.variant}', not '{variant.name}'")
    places = [*position.units, *position.owners, *position.dislodged,
              *(h.location for h in position.heirs)]
    for place in places:
        if place not in provinces:
            raise ValueError(f"the position names '{place}', which is not a province of "
                             f"{variant.name}")


def _subtitle(var: Variant, position: Position | None,
              items: Sequence[tuple[Order, OrderResult | None]],
              mode: str, style: Style = STYLE, areas: bool = False) -> str:
    if position is None and areas:
        words = "Territories; dashed arrows join provinces adjacent across water or a gap"
        return words + (" (reconstructed map)" if var.reconstructed else "")
    if position is None:
        words = ("Adjacency: army-only borders solid, fleet-only dashed, both dotted"
                 if style.palette == "colorblind"
                 else "Adjacency: army-only borders red, fleet-only blue, both purple")
        return words + (" (reconstructed map)" if var.reconstructed else "")
    if not items:
        return "Position"
    judged = any(result is not None for _, result in items)
    return "Orders and results" if judged else "Orders (not yet adjudicated)"
