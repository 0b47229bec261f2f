"""The board layer: borders, provinces, names, supply centres, units and heirs.

Element ids are stable so that tests, scripts and a web page can find
things: ``province-<key>``, ``link-<a>-<b>``, ``label-<key>``, ``sc-<key>``,
``unit-<key>``, ``dislodged-<key>``, ``heir-<key>-<power>``. Units follow
S9 §4.2: armies are hexagons and fleets sails, marked A and F as on every
Diplomacy map; minor powers' units are tan and marked with the Π rune (§4.0),
thralls' the same in their controller's colour.
"""

from __future__ import annotations

import math

import drawsvg as dw

from ..core.board import Position, Unit
from ..core.geography import Terrain, UnitType, province_of
from ..variants import Variant
from .geometry import Layout, Point
from .palette import FONT, Look, ink_on, link_look, look_of, mix, slug

__all__ = ["Paints", "draw_centres", "draw_heirs", "draw_links", "draw_provinces",
           "draw_units", "link_kinds", "sc_point", "token_shape"]


class Paints:
    """Fills shared across layers; a vassal's two colours become one hard-edged
    gradient in ``<defs>``, defined once per pair and named after it."""

    def __init__(self, drawing: dw.Drawing) -> None:
        self._drawing = drawing
        self._made: dict[tuple[str, ...], dw.LinearGradient] = {}

    def fill(self, colours: tuple[str, ...]) -> str | dw.LinearGradient:
        if len(colours) == 1:
            return colours[0]
        if colours not in self._made:
            grad = dw.LinearGradient(0, 0, 1, 0, gradientUnits="objectBoundingBox",
                                     id="two-" + "-".join(c.lstrip("#") for c in colours))
            grad.add_stop(0.5, colours[0])
            grad.add_stop(0.5, colours[1])
            self._made[colours] = grad
        return self._made[colours]


def link_kinds(variant: Variant) -> dict[tuple[str, str], tuple[str, str, str]]:
    """Each border once, as (from, to) -> (kind, from, to), kind ``army``,
    ``fleet`` or ``both`` as in S9 §4.4.

    Ends are province keys, except that a fleet-only border of a split coast
    runs from that coast (``spa/sc``), one line per coast, so each coast's
    reach can be checked against an official diagram.
    """
    game_map = variant.map
    army = {(a, b) for a, bs in game_map.army_links.items() for b in bs if a < b}
    fleet: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for loc, targets in sorted(game_map.fleet_links.items()):
        for target in sorted(targets):
            a, b = province_of(loc), province_of(target)
            if a < b:
                fleet.setdefault((a, b), set()).add((loc, target))
    out: dict[tuple[str, str], tuple[str, str, str]] = {}
    for pair in sorted(army | set(fleet)):
        if pair in fleet and pair in army:
            out[pair] = ("both", *pair)
        elif pair in fleet:
            for ends in sorted(fleet[pair]):
                out[ends] = ("fleet", *ends)
        else:
            out[pair] = ("army", *pair)
    return out


def draw_links(group: dw.Group, variant: Variant, layout: Layout, faint: bool) -> None:
    """Every border as a line: bold for the bare map, faint under orders."""
    width, opacity = (1.4, 0.35) if faint else (2.4, 0.9)
    for (src, dst), (kind, _, _) in link_kinds(variant).items():
        p = layout.coasts.get(src, layout.points[province_of(src)])
        q = layout.coasts.get(dst, layout.points[province_of(dst)])
        name = f"link-{src}-{dst}".replace("/", "-")
        colour, dash = link_look(layout.style, kind)  # the palette's (colour-blind: dashed too)
        group.append(dw.Line(*p, *q, id=name, class_=f"link {kind}",
                             stroke=colour, stroke_width=width, stroke_dasharray=dash,
                             stroke_opacity=opacity, stroke_linecap="round"))


def draw_provinces(group: dw.Group, variant: Variant, layout: Layout, bare: bool,
                   dots: bool = True, names: bool = True) -> None:
    """Province dots by terrain (without ``dots``, on a territory map, only the
    split coasts), split coasts, and names (with a halo so a line passing
    under a name never makes it unreadable; without ``names``, none: the
    territory map fits each name inside its area, render/territory_labels.py)."""
    st = layout.style
    for key, prov in sorted(variant.map.provinces.items()):
        x, y = layout.points[key]
        g = dw.Group(id=f"province-{key}", class_=f"province {prov.terrain.value}",
                     data_name=prov.name)
        g.append(dw.Title(prov.name))
        if not dots:
            pass
        elif prov.terrain is Terrain.IMPASSABLE:
            g.append(dw.Circle(x, y, st.node, fill=st.impassable, stroke=st.ink, stroke_width=1))
            d = st.node * 0.55
            g.append(dw.Line(x - d, y - d, x + d, y + d, stroke="#ffffff", stroke_width=2))
            g.append(dw.Line(x - d, y + d, x + d, y - d, stroke="#ffffff", stroke_width=2))
        elif prov.terrain is Terrain.SEA:
            g.append(dw.Circle(x, y, st.node, fill=st.sea, stroke=st.sea_edge, stroke_width=1.5))
        elif prov.terrain is Terrain.LAND:
            g.append(dw.Circle(x, y, st.node, fill=st.land, stroke=st.land_edge,
                               stroke_width=1.5))
        else:  # coastal: land ringed with water; islands with a wider ring
            ring = 4.5 if "island" in prov.flags else 3
            g.append(dw.Circle(x, y, st.node, fill=st.land, stroke=st.sea_edge,
                               stroke_width=ring))
            if "canal" in prov.flags:  # a waterway through the land (S9 §5.2)
                g.append(dw.Line(x - st.node, y, x + st.node, y, stroke=st.sea_edge,
                                 stroke_width=3))
        for loc in prov.locations if prov.coasts else ():
            cx, cy = layout.coasts[loc]
            g.append(dw.Circle(cx, cy, 3.5, fill=st.sea_edge, id=f"coast-{loc.replace('/', '-')}"))
            if bare:
                g.append(dw.Text(loc.split("/")[1], 10, cx, cy - 5, text_anchor="middle",
                                 fill=st.sea_edge, font_family=FONT))
        group.append(g)
    for key, (lx, ly, anchor) in sorted(layout.labels.items()) if names else ():
        prov = variant.map.provinces[key]
        colour = st.sea_edge if prov.terrain is Terrain.SEA else st.ink
        style = "italic" if prov.terrain is Terrain.SEA else "normal"
        group.append(dw.Text(prov.name, st.label_size, lx, ly, id=f"label-{key}",
                             text_anchor=anchor, fill=mix(colour, "#000000", 0.15),
                             font_family=FONT, font_style=style, stroke=st.paper,
                             stroke_width=3, stroke_linejoin="round", paint_order="stroke"))


def draw_centres(group: dw.Group, variant: Variant, position: Position | None,
                 layout: Layout, paints: Paints) -> None:
    """Supply centres as dots in the owner's colour (S9 §1.1: 'like-colored SC
    dots'), white when unowned, with the value where it is more than one; a
    home centre is ringed in its power's colour."""
    st = layout.style
    homes = {home: power.colour for _, power in sorted(variant.powers.items())
             for home in power.homes}
    for key, prov in sorted(variant.map.provinces.items()):
        if not prov.is_sc:
            continue
        x, y = sc_point(layout, key)
        owner = position.owners.get(key) if position is not None else None
        look = look_of(variant, position, owner) if owner else None
        fill = paints.fill(look.fills) if look else "#ffffff"
        g = dw.Group(id=f"sc-{key}", class_="centre", data_owner=owner or "")
        g.append(dw.Title(f"{prov.name}: supply centre" + (f" of {owner}" if owner else "")))
        home = homes.get(key)
        if home is not None:  # a home centre: ringed in its power's colour
            g.append(dw.Circle(x, y, 8.5, fill="#ffffff", stroke=home, stroke_width=2.6,
                               class_="home"))
        g.append(dw.Circle(x, y, 5.5, fill=fill, stroke=st.ink, stroke_width=1.3))
        if prov.sc_value > 1:
            g.append(dw.Text(str(prov.sc_value), 10, x + 7, y + 4, fill=st.ink,
                             font_family=FONT, font_weight="bold"))
        group.append(g)


def sc_point(layout: Layout, province: str) -> Point:
    """Where a supply centre's marker is drawn: above-right of the unit."""
    return _corner(layout.points[province], layout.style.token + 1, -45)


def _corner(centre: Point, distance: float, degrees: float) -> Point:
    a = math.radians(degrees)
    return (round(centre[0] + distance * math.cos(a), 1),
            round(centre[1] + distance * math.sin(a), 1))


def token_shape(unit_type: UnitType, x: float, y: float, r: float, **attrs: object
                ) -> dw.DrawingBasicElement:
    """An army hexagon or a fleet sail (S9 §4.2), or a wing's delta
    (Dissolution §3.3), centred on (x, y)."""
    if unit_type.value == "W":
        return dw.Lines(x, round(y - r, 1), round(x + r * 1.1, 1), round(y + r * 0.75, 1),
                        round(x - r * 1.1, 1), round(y + r * 0.75, 1), close=True, **attrs)
    if unit_type is UnitType.ARMY:
        pts: list[float] = []
        for i in range(6):
            a = math.radians(60 * i)
            pts += [round(x + r * math.cos(a), 1), round(y + r * 0.9 * math.sin(a), 1)]
        return dw.Lines(*pts, close=True, **attrs)
    apex, radius, half = y + 0.95 * r, 1.9 * r, math.radians(40)
    left = (x - radius * math.sin(half), apex - radius * math.cos(half))
    right = (x + radius * math.sin(half), apex - radius * math.cos(half))
    path = dw.Path(**attrs)
    path.M(x, apex).L(round(left[0], 1), round(left[1], 1))
    path.A(radius, radius, 0, 0, 1, round(right[0], 1), round(right[1], 1)).Z()
    return path


HALO = "#ffffff"
"""The ring round every unit's outline (both palettes)."""


def unit_token(unit: Unit, look: Look, paints: Paints, x: float, y: float, r: float,
               stroke: str = "#222222", **attrs: object) -> dw.Group:
    """One unit's token: shape, fill, mark. Stationary units (minors,
    thralls, S9 §7.2) have a dashed outline, so they read as 'never moves'."""
    g = dw.Group(**attrs)
    dash = "3,2" if unit.stationary else None
    # a light halo round the dark outline: whatever the fill under the unit
    # (a dark power's unit on its own dark territory, a light one on paper),
    # one of the two rings stands out against it
    g.append(token_shape(unit.type, x, y, r, fill="none", stroke=HALO, stroke_width=6.4,
                         stroke_linejoin="round", class_="halo"))
    g.append(token_shape(unit.type, x, y, r, fill=paints.fill(look.fills), stroke=stroke,
                         stroke_width=1.6, stroke_dasharray=dash))
    ink = ink_on(look.fills[0]) if len(look.fills) == 1 else "#ffffff"
    mark = look.mark or unit.type.value
    size = max(10.0, r * 0.8)
    ty = y + size * 0.36 - (r * 0.05 if unit.type is UnitType.FLEET else 0)
    halo = {} if len(look.fills) == 1 else {"stroke": "#000000", "stroke_width": 2.2,
                                             "paint_order": "stroke"}
    g.append(dw.Text(mark, size, x, ty, text_anchor="middle", fill=ink, font_family=FONT,
                     font_weight="bold", **halo))
    return g


def draw_units(group: dw.Group, variant: Variant, position: Position, layout: Layout,
               paints: Paints) -> None:
    """Units on the board, then units awaiting retreat beside the province
    they were dislodged from, small and outlined in red."""
    st = layout.style
    game_map = variant.map
    for key, unit in sorted(position.units.items()):
        x, y = layout.points[key]
        look = look_of(variant, position, unit.power)
        token = unit_token(unit, look, paints, x, y, st.token, id=f"unit-{key}",
                           class_=f"unit {unit.type.noun} {look.kind}", data_power=unit.power)
        token.append(dw.Title(f"{unit.power} {unit.type.noun} in {game_map.name_of(unit.location)}"
                              + (" (stationary)" if unit.stationary else "")))
        group.append(token)
        if unit.location != key:  # a fleet on a split coast: name the coast
            cx, cy = layout.coasts.get(unit.location, (x, y + st.token))
            # outside the token, on the coast's side, clear of the centre dot
            dx, dy = cx - x, cy - y
            length = math.hypot(dx, dy) or 1.0
            cx, cy = x + dx / length * (st.token + 13), y + dy / length * (st.token + 13)
            group.append(dw.Text(unit.location.split("/")[1], 11, round(cx, 1), round(cy + 4, 1),
                                 text_anchor="middle", fill=st.ink, font_family=FONT,
                                 font_weight="bold", stroke=st.paper, stroke_width=2.5,
                                 paint_order="stroke"))
    for key, d in sorted(position.dislodged.items()):
        x, y = dislodged_point(layout, key)
        look = look_of(variant, position, d.unit.power)
        token = unit_token(d.unit, look, paints, x, y, st.token * 0.8, stroke=st.fails,
                           id=f"dislodged-{key}", class_=f"unit dislodged {look.kind}",
                           data_power=d.unit.power)
        token.append(dw.Title(f"{d.unit.power} {d.unit.type.noun} dislodged from "
                              f"{game_map.name_of(d.unit.location)}: must retreat"))
        group.append(token)


def dislodged_point(layout: Layout, province: str) -> Point:
    """Where a unit awaiting retreat is drawn: below-right of its province."""
    x, y = layout.points[province_of(province)]
    return (round(x + layout.style.token * 1.1, 1), round(y + layout.style.token * 1.1, 1))


def crown(x: float, y: float, size: float, **attrs: object) -> dw.Lines:
    """A three-pointed crown, the heir's mark."""
    s = size
    return dw.Lines(x - s, y + s * 0.6, x - s, y - s * 0.5, x - s * 0.5, y,
                    x, y - s * 0.7, x + s * 0.5, y, x + s, y - s * 0.5, x + s, y + s * 0.6,
                    close=True, **attrs)


def heir_point(layout: Layout, location: str, index: int) -> Point:
    """Heirs sit above-left of their centre; two heirs married in one place
    (a vassal capital, S9 §10.4) stand side by side."""
    x, y = _corner(layout.points[location], layout.style.token + 7, -140)
    return (round(x - index * 19, 1), y)


def draw_heirs(group: dw.Group, variant: Variant, position: Position, layout: Layout) -> None:
    """Each living heir (S9 §7.1) as a crown in its power's colour; a married
    heir wears a ring beside it."""
    st = layout.style
    seen: dict[str, int] = {}
    for heir in position.heirs:
        index = seen.get(heir.location, 0)
        seen[heir.location] = index + 1
        x, y = heir_point(layout, heir.location, index)
        colour = variant.powers[heir.power].colour if heir.power in variant.powers else "#ffd700"
        g = dw.Group(id=f"heir-{heir.location}-{slug(heir.power)}",
                     class_="heir married" if heir.married else "heir", data_power=heir.power)
        where = variant.map.name_of(heir.location)
        g.append(dw.Title(f"Heir of {heir.power} " + ("married in " if heir.married else "in ")
                          + where))
        g.append(crown(x, y, 8, fill=colour, stroke=st.ink, stroke_width=1.3))
        if heir.married:
            g.append(dw.Circle(x + 10, y + 5, 3.6, fill="#ffffff", stroke=st.marriage,
                               stroke_width=2))
        group.append(g)
