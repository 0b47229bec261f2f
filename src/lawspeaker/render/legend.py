"""The title and the legend: who is who, how many centres each holds, and
what each mark means.

Centre counts are the victory counts (``census.centre_counts``: a thrall's
and a vassal's centres count for their controllers, S9 §3.2), with a power's
own centres in brackets where they differ, because that is the number
players argue about.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import drawsvg as dw

from ..core.board import Position
from ..core.geography import UnitType
from ..rules.census import centre_counts
from ..variants import Variant
from .board import Paints, crown, token_shape
from .geometry import Layout, arrowhead, text_width
from .marks import FLIGHT_DASH, chevron, zigzag_ring
from .palette import (
    FONT,
    MINOR_MARK,
    NUCLEAR_MARK,
    TAN,
    Look,
    Style,
    ink_on,
    link_look,
    look_of,
    slug,
)

__all__ = ["draw_legend", "draw_title", "key_entries", "legend_height", "legend_width"]

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


def _rows(variant: Variant, position: Position | None, bare: bool, style: Style) -> int:
    rows = 2 + len(variant.powers)
    if position is not None:
        rows += 1 + sum(1 for s in position.powers_in_play.values() if s.kind != "minor")
    return rows + 2 + len(key_entries(variant, bare, style))


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
    return layout.style.margin * 2 + ROW * _rows(variant, position, bare, layout.style)


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
    for draw, label, key in key_entries(variant, bare, st, areas):
        g = dw.Group(id=f"key-{key}", class_="key")
        draw(g, x0 + 10, y - 5, layout, paints)
        g.append(dw.Text(label, st.legend_text - 1, x0 + 28, y, **text))
        group.append(g)
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


Draw = Callable[[dw.Group, float, float, Layout, Paints], None]
"""Draws a legend row's mark at (x, y)."""
KeyEntry = tuple[Draw, str, str]
"""A legend row: how to draw its mark at (x, y), its text, its id (``key-<id>``)."""


def key_entries(variant: Variant, bare: bool, style: Style, areas: bool = False
                ) -> list[KeyEntry]:
    """What each mark on the map means: every mark the orders layer
    (:mod:`.orders`) can draw on this variant's map has an entry, drawn
    with the same shapes, dashes and colours (of ``style``'s palette). The
    bare territory map (``areas``) has its own key: centres, home centres,
    crossings, impassable spaces."""
    rows = _AREAS_KEY if bare and areas else _BARE_KEY if bare else _KEY
    return [(_in_style(row.mark, style), row.label, row.key) for row in rows
            if row.when(variant)]


Mark = Callable[[dw.Group, float, float, Style], None]
"""Draws a mark of the key at (x, y) in a style's colours."""


def _in_style(mark: Mark, style: Style) -> Draw:
    def draw(g: dw.Group, x: float, y: float, layout: Layout, paints: Paints) -> None:
        mark(g, x, y, style)
    return draw


def _colour(st: Style, colour: str) -> str:
    """``colour`` itself (``#rrggbb``), or the style's colour of that name (``fails``)."""
    return colour if colour.startswith("#") else str(getattr(st, colour))


@dataclass(frozen=True)
class _Token:
    kind: UnitType
    mark: str = ""
    fill: str = "#ffffff"

    def __call__(self, g: dw.Group, x: float, y: float, st: Style) -> None:
        g.append(token_shape(self.kind, x, y, 10, fill=self.fill, stroke=st.ink,
                             stroke_width=1.5))
        if self.mark:
            g.append(dw.Text(self.mark, 10, x, y + 3.6, text_anchor="middle",
                             fill=ink_on(self.fill), font_family=FONT, font_weight="bold"))


@dataclass(frozen=True)
class _Line:
    """A short line, with an order's head, end, ring or cross."""

    colour: str
    dash: str | None = None
    width: float = 3.0
    cross: bool = False
    head: bool = False
    dot: bool = False
    bar: bool = False
    ring: bool = False
    plane: bool = False

    def __call__(self, g: dw.Group, x: float, y: float, st: Style) -> None:
        self.paint(g, x, y, st, _colour(st, self.colour))

    def paint(self, g: dw.Group, x: float, y: float, st: Style, colour: str) -> None:
        """The line in ``colour``, a colour itself, never a name."""
        g.append(dw.Line(x - 10, y, x + (6 if self.head else 12), y, stroke=colour,
                         stroke_width=self.width, stroke_dasharray=self.dash,
                         stroke_linecap="round"))
        if self.head:
            g.append(dw.Lines(*arrowhead((x + 15, y), (1, 0), 10), close=True, fill=colour,
                              stroke=st.ink, stroke_width=1))
        if self.dot:
            g.append(dw.Circle(x + 12, y, 3.5, fill=colour, stroke=st.ink, stroke_width=1))
        if self.bar:
            g.append(dw.Line(x + 13, y - 6, x + 13, y + 6, stroke=st.ink, stroke_width=3))
        if self.ring:
            g.append(dw.Circle(x - 3, y, 5, fill="#ffffff", stroke=colour, stroke_width=2))
        if self.plane:
            g.append(chevron(x - 12, y - 6, 5, fill=colour, stroke=st.ink, stroke_width=1))
        if self.cross:
            for dy in (-4, 4):
                g.append(dw.Line(x - 2, y - dy, x + 6, y + dy, stroke=st.fails,
                                 stroke_width=3))


@dataclass(frozen=True)
class _Link:
    """A border of one kind (``army``, ``fleet``, ``both``), as the style draws it."""

    kind: str

    def __call__(self, g: dw.Group, x: float, y: float, st: Style) -> None:
        colour, dash = link_look(st, self.kind)
        _Line(colour, dash).paint(g, x, y, st, colour)


@dataclass(frozen=True)
class _Ring:
    colour: str
    dash: str | None = None
    zigzag: bool = False

    def __call__(self, g: dw.Group, x: float, y: float, st: Style) -> None:
        colour = _colour(st, self.colour)
        if self.zigzag:
            g.append(zigzag_ring(x, y, 7, teeth=9, fill="none", stroke=colour, stroke_width=2))
        else:
            g.append(dw.Circle(x, y, 8, fill="none", stroke=colour, stroke_width=3,
                               stroke_dasharray=self.dash))


@dataclass(frozen=True)
class _Badge:
    text: str
    colour: str
    box: bool = False

    def __call__(self, g: dw.Group, x: float, y: float, st: Style) -> None:
        colour = _colour(st, self.colour)
        if self.box:
            g.append(dw.Rectangle(x - 11, y - 7.5, 22, 15, rx=4, fill=colour))
        else:
            g.append(dw.Circle(x, y, 7.5, fill=colour))
        g.append(dw.Text(self.text, 10.5 if self.box else 12, x, y + 4, text_anchor="middle",
                         fill="#ffffff", font_weight="bold", font_family=FONT))


def _centre(g: dw.Group, x: float, y: float, st: Style) -> None:
    g.append(dw.Circle(x, y, 5.5, fill="#ffffff", stroke=st.ink, stroke_width=1.3))


def _home(g: dw.Group, x: float, y: float, st: Style) -> None:
    g.append(dw.Circle(x, y, 8.5, fill="#ffffff", stroke=st.ink, stroke_width=2.6))
    _centre(g, x, y, st)


def _heir(g: dw.Group, x: float, y: float, st: Style) -> None:
    g.append(crown(x, y, 7, fill="#ffd700", stroke=st.ink, stroke_width=1.3))


def _cross(g: dw.Group, x: float, y: float, st: Style) -> None:
    for dy in (-6, 6):
        g.append(dw.Line(x - 6, y - dy, x + 6, y + dy, stroke=st.fails, stroke_width=3.5,
                         stroke_linecap="round"))


def _hatch(g: dw.Group, x: float, y: float, st: Style) -> None:
    g.append(dw.Rectangle(x - 10, y - 7, 22, 14, fill="url(#hatch-impassable)",
                          stroke=st.ink, stroke_width=1))


def _always(variant: Variant) -> bool:
    return True


def _uses(*components: str) -> Callable[[Variant], bool]:
    """Whether a variant has any of ``components`` switched on."""
    return lambda variant: any(variant.uses(c) for c in components)


class _Row(NamedTuple):
    mark: Mark
    label: str
    key: str
    when: Callable[[Variant], bool] = _always
    """Whether a variant's map can show the mark."""


_INK = "#333333"
"""The orders' own marks: a shade lighter than the style's ink, which outlines them."""

_AREAS_KEY = (  # the territory map (territory_layer)
    _Row(_centre, "supply centre", "centre"),
    _Row(_home, "home centre, ringed in its power's colour", "home"),
    _Row(_Line("#222222", "4,3", 2), "crossing: adjacent, no shared border", "crossing"),
    _Row(_hatch, "impassable", "impassable"),
)
_BARE_KEY = (  # the adjacency diagram
    _Row(_Link("army"), "army-only border", "army-border"),
    _Row(_Link("fleet"), "fleet-only border", "fleet-border"),
    _Row(_Link("both"), "army and fleet border", "both-border"),
    _Row(_centre, "supply centre", "centre"),
)
_KEY = (  # a position and its orders
    _Row(_Token(UnitType.ARMY), "army", "army"),
    _Row(_Token(UnitType.FLEET), "fleet (sail)", "fleet"),
    _Row(_Token(UnitType.WING), "wing (air base, stationary)", "wing", _uses("wings")),
    _Row(_Token(UnitType.ARMY, NUCLEAR_MARK, "#9a9a9a"), "nuclear power's unit (invulnerable)",
         "nuclear", lambda variant: bool(variant.nuclear)),
    _Row(_centre, "supply centre, owner's colour", "centre"),
    _Row(_heir, "heir (ringed: married)", "heir", _uses("heirs")),
    _Row(_Ring(_INK), "hold (ordered)", "hold"),
    _Row(_Line(_INK, head=True), "move", "move"),
    _Row(_Line(_INK, head=True, cross=True), "failed move (bounced)", "failed-move"),
    _Row(_Line(_INK, head=True, ring=True), "convoyed move, along its path", "convoyed"),
    _Row(_Line(_INK, "8,5", 3, ring=True), "support to hold", "support-hold"),
    _Row(_Line(_INK, "8,5", 3, dot=True), "support to move", "support-move"),
    _Row(_Line(_INK, "8,5", 3, cross=True), "support cut or failed", "support-cut"),
    _Row(_Ring(_INK, "2,3"), "convoy (crossed: disrupted)", "convoy"),
    _Row(_Line(_INK, "2,5", bar=True), "sortie: stationary unit's move", "sortie",
         _uses("wings", "minor_powers")),
    _Row(_Line(_INK, FLIGHT_DASH, plane=True), "wing's order (flight line)", "wing-order",
         _uses("wings")),
    _Row(_Badge("DP", "bought", box=True), "neutral unit's order bought by DP", "bought",
         _uses("diplomacy_points")),
    _Row(_Ring("fails", zigzag=True), "disabled (support, convoy void)", "disabled",
         lambda variant: bool(variant.rules.disabling)),
    _Row(_Ring("fails"), "dislodged", "dislodged"),
    _Row(_Line(_INK, head=True), "retreat (from the small token)", "retreat"),
    _Row(_Badge("+", "succeeds"), "build", "build"),
    _Row(_cross, "disband or removal", "disband"),
    _Row(_Badge("!", "illegal"), "illegal order (the unit holds)", "illegal"),
    _Row(_Line("marriage", "1,5", ring=True), "marriage (S9 §10)", "marriage", _uses("heirs")),
)
"""The key's rows, in order: each shown when ``when`` says the variant can draw it.
Colours are ``#rrggbb`` or the name of the style's own (``fails``, ``bought``)."""
