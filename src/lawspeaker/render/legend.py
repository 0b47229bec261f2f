"""The title and the legend: who is who, how many centres each holds, and
what each mark means.

Centre counts are the victory counts (``census.centre_counts``: a thrall's
and a vassal's centres count for their controllers, S9 §3.2), with a power's
own centres in brackets where they differ, because that is the number
players argue about.
"""

from __future__ import annotations

import drawsvg as dw

from ..core.board import Position
from ..core.geography import UnitType
from ..rules.census import centre_counts
from ..variants import Variant
from .board import Paints, crown, token_shape
from .geometry import Layout, text_width
from .palette import FONT, LINK_COLOURS, MINOR_MARK, TAN, Look, ink_on, look_of, slug

__all__ = ["draw_legend", "draw_title", "legend_height", "legend_width"]

ROW = 24.0


def draw_title(group: dw.Group, layout: Layout, title: str, subtitle: str) -> None:
    st = layout.style
    x = st.margin
    group.append(dw.Text(title, st.title_size, x, st.margin + st.title_size * 0.3,
                         id="title", fill=st.ink, font_family=FONT, font_weight="bold"))
    if subtitle:
        group.append(dw.Text(subtitle, st.legend_text, x,
                             st.margin + st.title_size * 0.3 + st.legend_text * 1.5,
                             id="subtitle", fill="#555555", font_family=FONT))


def _rows(variant: Variant, position: Position | None, bare: bool) -> int:
    rows = 2 + len(variant.powers)
    if position is not None:
        rows += 1 + sum(1 for s in position.powers_in_play.values() if s.kind != "minor")
    return rows + 2 + (4 if bare else 10)


def _count_line(variant: Variant, position: Position, name: str,
                counts: dict[str, int]) -> str:
    own = len(position.centres_of(name))
    units = len(position.units_of(name))
    heirs = len(position.heirs_of(name))
    total = counts.get(name, own)
    line = f"{total} SC" + (f" ({own} own)" if total != own else "") + \
        f", {units} unit" + ("s" if units != 1 else "")
    if heirs:
        line += f", {heirs} heir" + ("s" if heirs > 1 else "")
    return line


def legend_width(variant: Variant, position: Position | None, layout: Layout) -> float:
    """Wide enough for the longest power name beside its counts, so the two
    never overlap (OOD's 'Golden Horde' with two heirs and a thrall)."""
    st = layout.style
    counts = centre_counts(variant, position) if position is not None else {}
    widest = 0.0
    for name in variant.powers:
        right = _count_line(variant, position, name, counts) if position is not None else (
            variant.powers[name].capital or "")
        widest = max(widest, text_width(name, st.legend_text)
                     + text_width(right, st.legend_text - 1))
    if position is not None:
        for name, state in position.powers_in_play.items():
            line = f"{name}: {state.kind} of {' & '.join(state.controllers)}"
            widest = max(widest, text_width(line, st.legend_text - 1))
    return max(st.legend_width, round(widest + 28 + 16 + 16))


def legend_height(variant: Variant, position: Position | None, layout: Layout,
                  bare: bool) -> float:
    return layout.style.margin * 2 + ROW * _rows(variant, position, bare)


def draw_legend(group: dw.Group, variant: Variant, position: Position | None, layout: Layout,
                paints: Paints, bare: bool, areas: bool = False) -> None:
    """The panel to the right of the map."""
    st = layout.style
    x0 = layout.width + 10
    y = st.margin + st.title_size * 2.2
    text = {"font_family": FONT, "fill": st.ink}
    width = legend_width(variant, position, layout)
    group.append(dw.Rectangle(x0 - 10, 0, width + 10, 100000, fill="#f1ece0"))
    group.append(dw.Text("Powers", st.legend_text + 2, x0, y, font_weight="bold", **text))
    y += ROW
    counts = centre_counts(variant, position) if position is not None else {}
    for name, power in sorted(variant.powers.items()):
        look = look_of(variant, position, name)
        g = dw.Group(id=f"legend-{slug(name)}", class_="legend-power")
        g.append(_swatch(look, paints, x0 + 10, y - 5))
        g.append(dw.Text(name, st.legend_text, x0 + 28, y, **text))
        if position is not None:
            g.append(dw.Text(_count_line(variant, position, name, counts), st.legend_text - 1,
                             x0 + width - 16, y, text_anchor="end", **text))
        elif power.capital:
            g.append(dw.Text(variant.map.provinces[power.capital].name, st.legend_text - 1,
                             x0 + width - 16, y, text_anchor="end", fill="#555555",
                             font_family=FONT))
        group.append(g)
        y += ROW
    if position is not None and position.powers_in_play:
        y = _others(group, variant, position, paints, x0, y, layout)
    y += ROW * 0.5
    group.append(dw.Text("Key", st.legend_text + 2, x0, y, font_weight="bold", **text))
    y += ROW
    for draw, label in _key(bare, areas):
        draw(group, x0 + 10, y - 5, layout, paints)
        group.append(dw.Text(label, st.legend_text - 1, x0 + 28, y, **text))
        y += ROW


def _others(group: dw.Group, variant: Variant, position: Position, paints: Paints,
            x0: float, y: float, layout: Layout) -> float:
    """Minor powers counted; each thrall and vassal named with its controllers."""
    st = layout.style
    minors = sorted(n for n, s in position.powers_in_play.items() if s.kind == "minor")
    g = dw.Group(id="legend-minors", class_="legend-minors")
    g.append(_swatch(Look((TAN,), MINOR_MARK, "minor"), paints, x0 + 10, y - 5))
    g.append(dw.Text(f"{len(minors)} minor powers (neutral)", st.legend_text, x0 + 28, y,
                     font_family=FONT, fill=st.ink))
    group.append(g)
    y += ROW
    for name, state in sorted(position.powers_in_play.items()):
        if state.kind == "minor":
            continue
        look = look_of(variant, position, name)
        g = dw.Group(id=f"legend-{slug(name)}", class_=f"legend-{state.kind}")
        g.append(_swatch(look, paints, x0 + 10, y - 5))
        text = f"{name}: nuclear power, invulnerable" if state.kind == "nuclear" \
            else f"{name}: {state.kind} of {' & '.join(state.controllers)}"
        g.append(dw.Text(text, st.legend_text - 1, x0 + 28, y, font_family=FONT, fill=st.ink))
        group.append(g)
        y += ROW
    return y


def _swatch(look: Look, paints: Paints, x: float, y: float) -> dw.Group:
    """A power's colour (two for a vassal), with the Π of minors and thralls."""
    g = dw.Group()
    g.append(dw.Rectangle(x - 9, y - 8, 18, 16, rx=3, fill=paints.fill(look.fills),
                          stroke="#222222", stroke_width=1.2))
    if look.mark:
        g.append(dw.Text(look.mark, 11, x, y + 4, text_anchor="middle",
                         fill=ink_on(look.fills[0]), font_family=FONT, font_weight="bold"))
    return g


def _key(bare: bool, areas: bool = False) -> list[tuple[object, str]]:
    def token(kind: UnitType) -> object:
        def draw(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
            g.append(token_shape(kind, x, y, 10, fill="#ffffff", stroke=layout.style.ink,
                                 stroke_width=1.5))
        return draw

    def centre(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
        g.append(dw.Circle(x, y, 5.5, fill="#ffffff", stroke=layout.style.ink, stroke_width=1.3))

    def heir(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
        g.append(crown(x, y, 7, fill="#ffd700", stroke=layout.style.ink, stroke_width=1.3))

    def line(colour: str, dash: str | None = None, width: float = 3.0, cross: bool = False
             ) -> object:
        def draw(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
            g.append(dw.Line(x - 10, y, x + 12, y, stroke=colour, stroke_width=width,
                             stroke_dasharray=dash, stroke_linecap="round"))
            if cross:
                for dy in (-5, 5):
                    g.append(dw.Line(x - 4, y - dy, x + 6, y + dy, stroke=layout.style.fails,
                                     stroke_width=3))
        return draw

    def ring(colour: str, dash: str | None = None) -> object:
        def draw(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
            g.append(dw.Circle(x, y, 8, fill="none", stroke=colour, stroke_width=3,
                               stroke_dasharray=dash))
        return draw

    def home(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
        g.append(dw.Circle(x, y, 8.5, fill="#ffffff", stroke=layout.style.ink, stroke_width=2.6))
        centre(g, x, y, layout, paints)

    def hatch(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
        g.append(dw.Rectangle(x - 10, y - 7, 22, 14, fill="url(#hatch-impassable)",
                              stroke=layout.style.ink, stroke_width=1))

    if bare and areas:  # the territory map (territory_layer)
        return [(centre, "supply centre"), (home, "home centre, ringed in its power's colour"),
                (line("#222222", "4,3", 2), "crossing: adjacent, no shared border"),
                (hatch, "impassable")]
    if bare:
        return [(line(LINK_COLOURS["army"]), "army-only border"),
                (line(LINK_COLOURS["fleet"]), "fleet-only border"),
                (line(LINK_COLOURS["both"]), "army and fleet border"),
                (centre, "supply centre")]
    ink = "#333333"
    return [(token(UnitType.ARMY), "army"), (token(UnitType.FLEET), "fleet (sail)"),
            (centre, "supply centre, owner's colour"), (heir, "heir (ringed: married)"),
            (line(ink), "move"), (line(ink, "7,5", cross=True), "failed move"),
            (line(ink, "7,4", 2.5), "support (crossed: cut or failed)"),
            (ring(ink, "2,3"), "convoy"), (line(ink, "2,5"), "sortie: stationary unit"),
            (ring("#d1242f"), "dislodged")]
