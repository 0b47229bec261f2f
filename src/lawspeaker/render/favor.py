"""The Favor Map (Dissolution §11) as a picture: ``draw_favor()``.

The board is drawn from its variant data alone (the axial coordinates in
``favor.yaml``), so a GM who replaces the reconstructed coordinates with the
official image's gets a matching picture with no other change. Each hex is
tinted in its nuclear power's colour, darker for a higher Favor value, and
labelled as the rulebook writes it (``U2j``, §11.1.2); each perimeter
(``U0z``) is a box outside its slice's 1-hexes that holds any number of
Embassies (§11.1.3). Each Embassy is a chip in its player's colour with the
player's abbreviation. Embassies kicked this year get a red ring and those
that must hold this Winter a dashed one (§11.5.3). Winter orders (or their
results) are arrows: moves solid, supports dotted, green when they succeeded,
red when they failed, grey when illegal.

Like :func:`lawspeaker.render.draw`, the picture is a pure function of its
inputs (sorted walks, no clock), every element has an id (``favor-hex-U2j``,
``favor-embassy-EG-NATO``, ``favor-order-EG-B1q``), and a viewer's
permissions are decided before it is called: nothing here is secret.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import drawsvg as dw

from ..core.board import Position
from ..core.orders import EmbassyOrder
from ..core.results import OrderResult, Outcome
from ..core.ruleset import Rules
from ..rules.favor import FavorBoard, favor_board, setup_for_rules, value_of
from ..rules.favor_orders import must_hold
from ..variants import Variant, load_variant
from .drawing import Drawing
from .geometry import Point, arrowhead
from .palette import FONT, STYLE, Style, ink_on, mix, recoloured, slug, style_for

__all__ = ["draw_favor"]

HEX = 34.0
"""A hex's circumradius: room for its label above an Embassy's two-letter chip."""
CHIP = 12.5
"""An Embassy chip's radius."""
_SQRT3 = math.sqrt(3)


def _centre(q: int, r: int) -> Point:
    """Pointy-top axial coordinates to the plane, the board's centre at (0, 0)."""
    return (HEX * _SQRT3 * (q + r / 2), HEX * 1.5 * r)


def _corners(x: float, y: float, size: float) -> list[float]:
    out: list[float] = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        out += [round(x + size * math.cos(angle), 1), round(y + size * math.sin(angle), 1)]
    return out


class _Board:
    """Where everything goes: hex centres, perimeter boxes and Embassy spots."""

    def __init__(self, board: FavorBoard, embassies: dict[str, dict[str, str]],
                 origin: Point) -> None:
        self.board = board
        ox, oy = origin
        self.hexes = {s: (round(_centre(*qr)[0] + ox, 1), round(_centre(*qr)[1] + oy, 1))
                      for s, qr in sorted(board.coords.items())}
        self.perimeters: dict[str, tuple[Point, float, float]] = {}
        for letter in board.slices:
            ones = [self.hexes[s] for s in self.hexes if s[0] == letter and value_of(s) == 1]
            cx = sum(p[0] for p in ones) / len(ones)
            cy = sum(p[1] for p in ones) / len(ones)
            dx, dy = cx - ox, cy - oy
            norm = math.hypot(dx, dy) or 1.0
            push = HEX * 3.4  # clear of the 1-hexes, which run along the slice's outer edge
            centre = (round(cx + dx / norm * push, 1), round(cy + dy / norm * push, 1))
            self.perimeters[f"{letter}0z"] = (centre, HEX * 5.3, HEX * 2.3)
        self.spots: dict[tuple[str, str], Point] = {}
        for space in sorted({s for e in embassies.values() for s in e.values()}):
            here = sorted(p for p, e in embassies.items() if space in e.values())
            if value_of(space):
                x, y = self.hexes[space]
                for p in here:
                    self.spots[(p, space)] = (x, round(y + HEX * 0.22, 1))
                continue
            (x, y), _, _ = self.perimeters[space]
            per_row = 5
            for i, p in enumerate(here):
                row, col = divmod(i, per_row)
                step = CHIP * 2.3
                self.spots[(p, space)] = (round(x + (col - (per_row - 1) / 2) * step, 1),
                                          round(y + 4 + (row - 0.5) * step, 1))

    def point(self, space: str, player: str | None = None) -> Point:
        if player is not None and (player, space) in self.spots:
            return self.spots[(player, space)]
        return self.hexes[space] if value_of(space) else self.perimeters[space][0]


def draw_favor(variant: Variant | str, position: Position | None = None, *,
               results: Iterable[OrderResult] | None = None,
               orders: Iterable[EmbassyOrder] | None = None,
               rules: Rules | None = None, title: str | None = None,
               style: Style = STYLE, palette: str | None = None) -> Drawing:
    """Draw the Favor Map of ``variant`` with the Embassies of ``position`` (the
    start of the game when none is given), and the Winter ``results`` (or, before
    they are adjudicated, ``orders``) as arrows. One call gives a picture a service
    can serve: ``draw_favor(variant, position, results=step.results).png()``.
    ``palette`` (``colorblind``) overrides ``style`` as in ``draw``."""
    style = style_for(palette, style)
    var = recoloured(load_variant(variant) if isinstance(variant, str) else variant, style)
    rules = rules or var.rules
    board = favor_board(var, rules.favor_board)
    embassies = {p: dict(e) for p, e in (
        position.embassies if position is not None and position.embassies
        else setup_for_rules(var, rules)).items()}
    bare = _Board(board, {}, (0.0, 0.0))  # measured first, then placed on the page
    xs = [x + d for x, _ in bare.hexes.values() for d in (-HEX, HEX)]
    ys = [y + d for _, y in bare.hexes.values() for d in (-HEX, HEX)]
    for (x, y), w, h in bare.perimeters.values():
        xs += [x - w / 2, x + w / 2]
        ys += [y - h / 2, y + h / 2]
    pad, legend, top = 20.0, 230.0, 58.0
    width = round(max(xs) - min(xs) + 2 * pad + legend)
    height = round(max(ys) - min(ys) + 2 * pad + top)
    places = _Board(board, embassies, (pad - min(xs), top + pad - min(ys)))
    canvas = dw.Drawing(width, height, id_prefix="lsf")
    canvas.append(dw.Rectangle(0, 0, width, height, fill=style.paper))
    label = title or (f"{var.title}: the Favor Map"
                      + (f", {var.phase_label(position.phase)}" if position is not None else "")
                      + (" (reconstructed)" if board.reconstructed else ""))
    canvas.append(dw.Title(label))
    heading = dw.Group(id="favor-title")
    heading.append(dw.Text(label, style.title_size, 20, 34, fill=style.ink, font_weight="bold"))
    canvas.append(heading)
    canvas.append(_slices(var, board, places, style))
    canvas.append(_embassies(var, position, embassies, places, style))
    items: list[tuple[EmbassyOrder, OrderResult | None]] = [
        (r.order, r) for r in results or () if isinstance(r.order, EmbassyOrder)]
    items += [(o, None) for o in orders or () if isinstance(o, EmbassyOrder)]
    canvas.append(_orders(var, embassies, items, places, style))
    canvas.append(_legend(var, board, width - legend + 10, top + 10, style))
    svg = canvas.as_svg().replace("<svg ", f'<svg font-family="{FONT}" ', 1)
    return Drawing(svg, width, height)


def _slices(var: Variant, board: FavorBoard, places: _Board, style: Style) -> dw.Group:
    layer = dw.Group(id="favor-board")
    for space, (x, y) in places.hexes.items():
        colour = var.nuclear[board.nuclear_of(space)].colour
        fill = mix(colour, "#ffffff", 0.88 - 0.13 * value_of(space))  # §11.3: higher, darker
        g = dw.Group(id=f"favor-hex-{space}", class_="favor-hex")
        g.append(dw.Lines(*_corners(x, y, HEX - 0.8), close=True, fill=fill,
                          stroke=mix(colour, style.ink, 0.35), stroke_width=1.2))
        g.append(dw.Text(space, 11, x, y - HEX * 0.42, center=True, fill=ink_on(fill),
                         font_weight="bold"))
        layer.append(g)
    for space, ((x, y), w, h) in sorted(places.perimeters.items()):
        nuclear = board.nuclear_of(space)
        colour = var.nuclear[nuclear].colour
        g = dw.Group(id=f"favor-perimeter-{space}", class_="favor-perimeter")
        g.append(dw.Rectangle(round(x - w / 2, 1), round(y - h / 2, 1), round(w, 1),
                              round(h, 1), rx=10, fill=mix(colour, "#ffffff", 0.93),
                              stroke=colour, stroke_width=2, stroke_dasharray="6 4"))
        g.append(dw.Text(f"{space} {nuclear} perimeter", 11.5, x, y - h / 2 + 13,
                         center=True, fill=style.ink, font_weight="bold"))
        layer.append(g)
    return layer


def _embassies(var: Variant, position: Position | None, embassies: dict[str, dict[str, str]],
               places: _Board, style: Style) -> dw.Group:
    layer = dw.Group(id="favor-embassies")
    for player in sorted(embassies):
        power = var.powers[player]
        holds = must_hold(var, position, player) if position is not None else {}
        kicked = set(position.kicked.get(player, ())) if position is not None else set()
        for nuclear, space in sorted(embassies[player].items()):
            x, y = places.point(space, player)
            g = dw.Group(id=f"favor-embassy-{slug(power.abbreviation)}-{slug(nuclear)}",
                         class_="favor-embassy")
            g.append(dw.Title(f"{player}'s {nuclear} Embassy on {space}: Favor "
                              f"{value_of(space)}" + (", kicked" if nuclear in kicked else "")
                              + (", must hold" if nuclear in holds else "")))
            g.append(dw.Circle(x, y, CHIP, fill=power.colour, stroke=style.ink,
                               stroke_width=1.2))
            g.append(dw.Text(power.abbreviation, 10.5, x, y + 0.5, center=True,
                             fill=ink_on(power.colour), font_weight="bold"))
            if nuclear in kicked:  # §11.7: kicked this Spring or Autumn
                g.append(dw.Circle(x, y, CHIP + 3.5, fill="none", stroke=style.fails,
                                   stroke_width=2.5, class_="favor-kicked"))
            elif nuclear in holds:  # §11.5.3: must hold this Winter
                g.append(dw.Circle(x, y, CHIP + 3.5, fill="none", stroke=style.ink,
                                   stroke_width=1.6, stroke_dasharray="3 2",
                                   class_="favor-must-hold"))
            layer.append(g)
    return layer


def _orders(var: Variant, embassies: dict[str, dict[str, str]],
            items: list[tuple[EmbassyOrder, OrderResult | None]], places: _Board,
            style: Style) -> dw.Group:
    layer = dw.Group(id="favor-orders")
    seen: set[str] = set()
    for order, result in sorted(items, key=lambda item: (item[0].power, str(item[0]))):
        if order.action == "H" or not places.board.is_space(order.location):
            continue
        power = var.powers.get(order.power)
        ident = f"favor-order-{slug(power.abbreviation if power else order.power)}-{order.location}"
        if ident in seen:
            continue
        seen.add(ident)
        outcome = result.outcome if result is not None else None
        colour = {Outcome.SUCCEEDS: style.succeeds, Outcome.FAILS: style.fails,
                  Outcome.ILLEGAL: style.illegal}.get(outcome, style.ink) \
            if outcome is not None else style.ink
        src = places.point(order.location, order.power)
        target = order.target or order.supported
        if not places.board.is_space(target):
            continue
        holder = next((p for p, e in embassies.items() if order.supported in e.values()
                       and (not order.supported_power or var.powers[p].abbreviation
                            == order.supported_power.upper() or p == order.supported_power)),
                      None)
        dst = places.point(target, holder if order.action == "S" and not order.target
                           else order.power if order.action == "-" else None)
        g = dw.Group(id=ident, class_=f"favor-order {outcome.value if outcome else 'ordered'}")
        g.append(dw.Title(str(order) + (f": {result.reason}" if result is not None
                                        and result.reason else "")))
        dx, dy = dst[0] - src[0], dst[1] - src[1]
        length = math.hypot(dx, dy) or 1.0
        start = (src[0] + dx / length * (CHIP + 2), src[1] + dy / length * (CHIP + 2))
        tip = (dst[0] - dx / length * (CHIP + 3), dst[1] - dy / length * (CHIP + 3))
        dash = "5 4" if order.action == "S" or outcome is Outcome.FAILS else None
        g.append(dw.Line(round(start[0], 1), round(start[1], 1), round(tip[0], 1),
                         round(tip[1], 1), stroke=colour, stroke_width=3,
                         stroke_dasharray=dash))
        g.append(dw.Lines(*arrowhead(tip, (dx, dy), 11), close=True, fill=colour))
        layer.append(g)
    return layer


def _legend(var: Variant, board: FavorBoard, x: float, y: float, style: Style) -> dw.Group:
    layer = dw.Group(id="favor-legend")
    size = 12.5
    lines: list[tuple[str, str | None]] = [
        (f"{letter}: {nuclear}", var.nuclear[nuclear].colour)
        for letter, nuclear in board.slices.items()]
    lines += [("", None), ("Label: slice, Favor, letter", None),
              ("Darker hex: higher Favor", None), ("Chip: a player's Embassy", None),
              ("Red ring: kicked this year", style.fails), ("Dashed ring: must hold", None),
              ("Arrow: Winter move", None), ("Dotted: support", None)]
    if board.reconstructed:
        lines += [("", None), ("Board reconstructed from", None), ("the rulebook's text", None)]
    for i, (text, colour) in enumerate(lines):
        ty = y + i * (size + 7)
        if colour is not None:
            layer.append(dw.Rectangle(x, ty - size + 2, 12, 12, fill=colour, stroke=style.ink,
                                      stroke_width=0.8))
        layer.append(dw.Text(text, size, x + (18 if colour else 0), ty, fill=style.ink))
    return layer
