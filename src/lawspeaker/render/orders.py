"""The orders layer: what each unit was told to do and, given results, what
came of it.

Each order is one ``<g id="order-...">`` with a ``<title>`` holding the
order and its published result, so hovering over it in a browser reads as
the GM's post; its classes name the order's kind and every mark on it
(``order move convoyed bought fails``), so scripts and tests find them. The
marks follow the usual Diplomacy map conventions, and the legend
(:mod:`.legend`) has an entry for each:

* moves, retreats: arrows in the power's colour; a failed one has a red cross
  at its head; a convoyed move follows its fleets, and in Dissolution the
  path its order names (§3.10.1: convoy paths are explicit);
* sorties (moves by stationary units, S9 §7.2, Dissolution §3.7): dotted,
  ending in a bar, because they never move by design;
* supports: dashed lines to a dashed ring round the supported unit (to hold)
  or to a dot on the supported arrow (to move); a cut or failed support is
  crossed in red at its middle;
* convoys: a dotted ring round the fleet or wing; a disrupted one crossed;
* wings' orders (Dissolution §3.3: air bases, stationary, adjacent to every
  bordering space): a flight line (long dash, dot) starting at a small
  chevron, the wing's own symbol, whatever the order;
* orders that DP bought for a neutral unit (a minor, thrall, vassal or
  nuclear unit, S9 §9, OOD §9, Dissolution §5.1): a "DP" badge on the unit. A
  neutral unit that did anything but its default order (Hold, or a paired
  minor's support of its partner, Dissolution §5.1.3, §9.2.1) was bought: that
  much every results post shows; who bought it is never drawn (the renderer
  is not told). Nuclear units are drawn with the radiation sign; they strike
  nobody (Dissolution §3.6: nuclear weapons are no part of combat);
* disabled units (Dissolution §3.9): a zigzag ring; marriages (S9 §10):
  magenta dotted lines with two rings;
* dislodged units: a red ring; builds: a token with a green plus; removals
  and disbands: a red cross; illegal orders: grey, with an exclamation mark.

Only the orders and results handed in are drawn: the renderer never sees DP
allocations, so it cannot leak them (the caller decides what is public).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import drawsvg as dw

from ..core import orders as o
from ..core.board import Position, Unit
from ..core.geography import GameMap, UnitType, province_of
from ..core.notation import format_order
from ..core.orders import Order
from ..core.results import OrderResult, Outcome
from ..core.wording import for_players
from ..rules.dp import DP_KINDS
from ..rules.neutral_limits import default_order
from ..variants import Variant
from .board import Paints, crown, dislodged_point, heir_point, unit_token
from .geometry import Layout, Point, arrowhead, bezier_at
from .marks import FLIGHT_DASH, chevron, zigzag_ring
from .palette import look_of, slug

__all__ = ["draw_orders", "order_ids"]


def order_ids(orders: Iterable[Order]) -> list[str]:
    """The element id of each order, in order: ``order-<province>`` for a
    unit's order, ``order-build-<province>``, ``order-remove-<province>``,
    ``order-heir-<province>``, ``order-waive-<power>``; a repeat gets ``-2``."""
    seen: dict[str, int] = {}
    out = []
    for order in orders:
        where = order.province.replace("/", "-")
        if isinstance(order, o.Waive):
            base = f"order-waive-{slug(order.power)}"
        elif isinstance(order, o.HeirOrder):
            base = f"order-heir-{where or slug(order.power)}"
        elif isinstance(order, o.Build):
            base = f"order-build-{where}"
        elif isinstance(order, o.Remove):
            base = f"order-remove-{where}"
        else:
            base = f"order-{where}"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


_PLACES = ("location", "target", "supported", "army", "partner", "at", "heir")
"""The fields of an order that name a place on the map."""

_LAYER = {o.SupportHold: 0, o.SupportMove: 0, o.Convoy: 0,
          o.Hold: 1, o.Marry: 1, o.HeirHold: 1, o.HeirMarry: 1, o.Move: 2, o.Retreat: 2,
          o.Disband: 3, o.Remove: 3, o.Build: 3, o.BuildHeir: 3}
"""Drawing order: supports and convoys underneath, arrows above them, crosses
and builds on top, so no arrow hides the mark that says it failed."""
_UNMARKED = o.Retreat | o.Disband | o.Build | o.Remove | o.Waive | o.HeirOrder
"""Retreats, adjustments and heirs' orders: drawn with none of :meth:`_Painter.marks`."""


def draw_orders(group: dw.Group, variant: Variant, position: Position, layout: Layout,
                paints: Paints, items: Sequence[tuple[Order, OrderResult | None]]) -> None:
    """Draw ``items`` (each an order and its result, or ``None`` before
    adjudication) above the board.

    Embassy orders belong to the Favor Map (Dissolution §11.5, ``draw_favor``)
    and are left out. An order naming a place that is not on this map (an
    illegal order as written) keeps its hover text but draws no mark: a map
    of any phase is drawn, never refused."""
    items = [(order, r) for order, r in items if not isinstance(order, o.EmbassyOrder)]
    painter = _Painter(variant, position, layout, paints, [order for order, _ in items])
    painter.lost = {order.province for order, r in items if r is not None and r.dislodged}
    ids = order_ids(order for order, _ in items)
    ranked = sorted(range(len(items)), key=lambda i: (_LAYER.get(type(items[i][0]), 1), i))
    for i in ranked:
        order, result = items[i]
        marks = painter.marks(order, result)
        g = dw.Group(id=ids[i], class_=_classes(order, result, marks), data_power=order.power)
        text = format_order(order, variant.map, long=True) if order.location else str(order)
        if result is not None:
            text = f"{order.power}: {text}: {for_players(variant.map, result.reason)}"
            g.args["data-outcome"] = result.outcome.value
        g.append(dw.Title(text))
        if painter.drawable(order):
            painter.draw(g, order, result, marks)
        group.append(g)


def _classes(order: Order, result: OrderResult | None, marks: set[str]) -> str:
    words = ["order", type(order).__name__.lower(), *sorted(marks)]
    if result is not None:
        words.append(result.outcome.value)
        if result.dislodged:
            words.append("dislodged")
        if result.implicit:
            words.append("implicit")
    return " ".join(words)


class _Painter:
    def __init__(self, variant: Variant, position: Position, layout: Layout, paints: Paints,
                 orders: list[Order]) -> None:
        self.variant = variant
        self.map: GameMap = variant.map
        self.position = position
        self.layout = layout
        self.st = layout.style
        self.paints = paints
        self.moves = {order.province: order for order in orders if isinstance(order, o.Move)}
        self.convoys = [order for order in orders if isinstance(order, o.Convoy)]
        self.lost: set[str] = set()
        """Provinces whose unit was dislodged: a convoy route avoids them if it can."""
        self.flying = False
        """Whether the order being drawn is a wing's (its lines are flight lines)."""

    # --- where things are ----------------------------------------------------

    def at(self, location: str) -> Point:
        return self.layout.points[province_of(location)]

    def drawable(self, order: Order) -> bool:
        """Whether every place the order names is on this map."""
        names = [getattr(order, f, "") for f in _PLACES]
        names += list(order.path) if isinstance(order, o.Move) else []
        return all(province_of(n) in self.layout.points for n in names if n)

    def marks(self, order: Order, result: OrderResult | None) -> set[str]:
        """What the order is drawn as beyond its kind: ``wing`` (a wing's
        order, Dissolution §3.3), ``sortie`` (a stationary unit's move, §3.7),
        ``convoyed`` (a move along fleets or wings), ``bought`` (a neutral
        unit's order chosen by DP), ``disabled`` (§3.9)."""
        out: set[str] = set()
        unit = self.unit(order)
        if result is not None and "disabled by" in result.reason.lower():
            out.add("disabled")  # 'Disabled by A Khk (2v1)', 'Holds; disabled by ...'
        if isinstance(order, _UNMARKED) or (
                result is not None and result.implicit):  # nothing drawn for a default hold
            return out
        if (unit is not None and unit.type is UnitType.WING) or order.unit_type is UnitType.WING:
            out.add("wing")
        if isinstance(order, o.Move):
            if unit is not None and unit.stationary:
                out.add("sortie")
            elif order.path or self.convoy_route(order):
                out.add("convoyed")
        if unit is not None and self._bought(order, unit, result):
            out.add("bought")
        return out

    def _bought(self, order: Order, unit: Unit, result: OrderResult | None) -> bool:
        """A DP-controlled unit's published order other than its default
        (Dissolution §5.1.3: Hold, or a paired minor's support of its partner,
        §9.2.1): DP chose it (S9 §9.1). Its buyers stay secret."""
        if result is None or result.implicit or self.position.kind_of(unit.power) not in DP_KINDS:
            return False
        default = default_order(self.variant, self.position, unit)
        if type(order) is not type(default):
            return True
        if isinstance(order, o.SupportHold) and isinstance(default, o.SupportHold):
            return order.supported_province != default.supported_province
        return False

    def colour(self, power: str) -> str:
        return look_of(self.variant, self.position, power).fills[0]

    def unit(self, order: Order) -> Unit | None:
        return self.position.units.get(order.province)

    # --- dispatch ------------------------------------------------------------

    def draw(self, g: dw.Group, order: Order, result: OrderResult | None,
             marks: set[str]) -> None:
        outcome = result.outcome if result is not None else None
        failed = outcome is Outcome.FAILS
        colour = self.st.illegal if outcome is Outcome.ILLEGAL else self.colour(order.power)
        self.flying = "wing" in marks
        if isinstance(order, o.Move):
            self.move(g, order, colour, failed)
        elif isinstance(order, o.Retreat):
            start = dislodged_point(self.layout, order.province)
            self.arrow(g, start, self.at(order.target), colour, failed, [],
                       start_gap=self.st.token * 0.8)
        elif isinstance(order, o.SupportMove):
            self.support_move(g, order, colour, failed)
        elif isinstance(order, o.SupportHold):
            self.support_hold(g, order, colour, failed)
        elif isinstance(order, o.Convoy):
            self.convoy(g, order, colour, failed)
        elif isinstance(order, o.Marry):
            self.marriage(g, self.at(order.location), self.heir_at(order.heir), failed)
        elif isinstance(order, o.HeirMarry):
            self.heir_marry(g, order, failed)
        elif isinstance(order, o.Hold) and not (result is not None and result.implicit):
            x, y = self.at(order.location)
            g.append(dw.Circle(x, y, self.st.token + 4, fill="none", stroke=colour,
                               stroke_width=3))
        elif isinstance(order, o.Build):
            self.build(g, order, outcome)
        elif isinstance(order, o.BuildHeir):
            self.build_heir(g, order, outcome)
        elif isinstance(order, o.Remove):
            self.cross(g, self.at(order.location), self.st.token)
        elif isinstance(order, o.Disband):
            self.cross(g, dislodged_point(self.layout, order.province), self.st.token * 0.8)
        if outcome is Outcome.ILLEGAL and order.location:
            x, y = self.at(order.location)
            self.badge(g, (x - self.st.token, y + self.st.token * 0.6), "!", self.st.illegal)
        if result is not None and result.dislodged:
            x, y = self.at(order.location)
            g.append(dw.Circle(x, y, self.st.token + 5, fill="none", stroke=self.st.fails,
                               stroke_width=3.5, class_="dislodged-mark"))
        if order.location and self.drawable(order):
            x, y = self.at(order.location)
            if "wing" in marks:  # the wing's own symbol where its order starts (§3.3)
                g.append(chevron(x - self.st.token * 1.5, y - self.st.token * 0.75, 8,
                                 fill=colour, stroke=self.st.ink, stroke_width=1.2,
                                 class_="wing-mark"))
            if "disabled" in marks:  # Dissolution §3.9: its support or convoy is void
                g.append(zigzag_ring(x, y, self.st.token + 7, stroke=self.st.fails,
                                     stroke_width=2.2, fill="none", class_="disabled-mark"))
            if "bought" in marks:
                self.dp_badge(g, (x - self.st.token * 1.7, y + self.st.token * 0.3))

    # --- moves ---------------------------------------------------------------

    def move(self, g: dw.Group, order: o.Move, colour: str, failed: bool) -> None:
        src, dst = self.at(order.location), self.at(order.target)
        unit = self.unit(order)
        if unit is not None and unit.stationary:  # a sortie: bounces by rule (S9 §7.2)
            self.arrow(g, src, dst, colour, False, [], dotted=True, bar=True)
            return
        # Dissolution §3.10.1: the order names its path; elsewhere the convoying fleets.
        via = [province_of(p) for p in order.path] or self.convoy_route(order)
        bend = 0.0
        back = self.moves.get(order.target_province)
        if not via and back is not None and back.target_province == order.province:
            bend = 0.18  # a head-to-head pair: both arrows stay visible
        self.arrow(g, src, dst, colour, failed, [self.at(p) for p in via], bend=bend)

    def convoy_route(self, order: o.Move) -> list[str]:
        """The fleets ordered to convoy this army, in order along the shortest
        chain, preferring one whose fleets were not dislodged (the route the
        army actually took, when it arrived)."""
        fleets = {c.province for c in self.convoys
                  if c.army_province == order.province
                  and c.target_province == order.target_province}
        return (self._chain(order, fleets - self.lost) or self._chain(order, fleets)) \
            if fleets else []

    def _chain(self, order: o.Move, fleets: set[str]) -> list[str]:
        paths: list[list[str]] = [[order.province]]
        seen = {order.province}
        while paths:
            path = paths.pop(0)
            links = self.map.convoy_links(path[-1])
            if len(path) > 1 and order.target_province in links:
                return path[1:]
            for nxt in sorted(links & fleets - seen):
                seen.add(nxt)
                paths.append([*path, nxt])
        return []

    def arrow(self, g: dw.Group, src: Point, dst: Point, colour: str, failed: bool,
              via: list[Point], bend: float = 0.0, dotted: bool = False, bar: bool = False,
              start_gap: float | None = None) -> None:
        """An arrow from the edge of the token at ``src`` to the edge of the
        token at ``dst``, outlined in dark ink so light colours stay visible."""
        st = self.st
        gap = st.token + 2 if start_gap is None else start_gap
        pts = [src, *via, dst]
        first = _towards(pts[0], pts[1], gap)
        head = 14.0
        last_from = pts[-2]
        if bend and not via:
            mid = ((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2)
            dx, dy = dst[0] - src[0], dst[1] - src[1]
            ctrl = (mid[0] - dy * bend, mid[1] + dx * bend)
            first = _towards(src, ctrl, gap)
            last_from = ctrl
        tip = _towards(dst, last_from, st.token + 3)
        direction = (tip[0] - last_from[0], tip[1] - last_from[1])
        end = _towards(tip, last_from, head * 0.8)
        path = dw.Path()
        path.M(*_r(first))
        if bend and not via:
            path.Q(*_r(ctrl), *_r(end))
        else:
            for p in via:
                path.L(*_r(p))
            path.L(*_r(end))
        dash = "2,5" if dotted else (FLIGHT_DASH if self.flying else None)
        g.append(dw.Path(d=path.args["d"], fill="none", stroke=st.ink, stroke_width=6.5,
                         stroke_linecap="round", stroke_linejoin="round", stroke_dasharray=dash,
                         stroke_opacity=0.75))
        g.append(dw.Path(d=path.args["d"], fill="none", stroke=colour, stroke_width=4,
                         stroke_linecap="round", stroke_linejoin="round", stroke_dasharray=dash))
        if bar:
            ux, uy = _unit_vector(direction)
            half = 8
            g.append(dw.Line(*_r((tip[0] - uy * half, tip[1] + ux * half)),
                             *_r((tip[0] + uy * half, tip[1] - ux * half)),
                             stroke=st.ink, stroke_width=4, stroke_linecap="round"))
        else:
            g.append(dw.Lines(*arrowhead(tip, direction, head), close=True, fill=colour,
                              stroke=st.ink, stroke_width=1.5, stroke_linejoin="round"))
        if failed:  # before the head, so both stay visible
            self.cross(g, _towards(tip, last_from, head + 9), 7)

    # --- supports and convoys ------------------------------------------------

    def support_move(self, g: dw.Group, order: o.SupportMove, colour: str, failed: bool) -> None:
        src = self.at(order.location)
        frm, to = self.at(order.supported), self.at(order.target)
        move = self.moves.get(order.supported_province)
        if move is not None and move.target_province == order.target_province:
            via = [province_of(p) for p in move.path] or self.convoy_route(move)
            if via and all(p in self.layout.points for p in via):
                frm = self.at(via[-1])  # onto the last leg of the arrow as drawn
        aim = (frm[0] + (to[0] - frm[0]) * 0.6, frm[1] + (to[1] - frm[1]) * 0.6)
        self.dashed(g, src, aim, colour, failed, end_dot=True)

    def support_hold(self, g: dw.Group, order: o.SupportHold, colour: str, failed: bool) -> None:
        src, dst = self.at(order.location), self.at(order.supported)
        end = _towards(dst, src, self.st.token + 4)
        self.dashed(g, src, end, colour, failed, end_dot=False)
        g.append(dw.Circle(*dst, self.st.token + 4, fill="none", stroke=colour, stroke_width=2.5,
                           stroke_dasharray="6,3"))

    def dashed(self, g: dw.Group, src: Point, aim: Point, colour: str, failed: bool,
               end_dot: bool) -> None:
        st = self.st
        start = _towards(src, aim, st.token + 1)
        dx, dy = aim[0] - start[0], aim[1] - start[1]
        ctrl = ((start[0] + aim[0]) / 2 - dy * 0.12, (start[1] + aim[1]) / 2 + dx * 0.12)
        d = f"M{_f(start[0])},{_f(start[1])} Q{_f(ctrl[0])},{_f(ctrl[1])} {_f(aim[0])},{_f(aim[1])}"
        g.append(dw.Path(d=d, fill="none", stroke=st.ink, stroke_width=1.2, stroke_opacity=0.7))
        g.append(dw.Path(d=d, fill="none", stroke=colour, stroke_width=4,
                         stroke_dasharray=FLIGHT_DASH if self.flying else "8,5"))
        if end_dot:
            g.append(dw.Circle(*_r(aim), 4.5, fill=colour, stroke=st.ink, stroke_width=1.3))
        if failed:  # cut or void: crossed where it is easy to see
            self.cross(g, bezier_at(start, ctrl, aim, 0.5), 7)

    def convoy(self, g: dw.Group, order: o.Convoy, colour: str, failed: bool) -> None:
        st = self.st
        x, y = self.at(order.location)
        g.append(dw.Circle(x, y, st.token + 5, fill="none", stroke=colour, stroke_width=3,
                           stroke_dasharray="2,3"))
        army = self.moves.get(order.army_province)
        if army is None or army.target_province != order.target_province:
            # The army's own arrow is not drawn: show the route it was offered.
            pts = [self.at(order.army), (x, y), self.at(order.target)]
            path = dw.Path(fill="none", stroke=colour, stroke_width=2, stroke_dasharray="2,4")
            path.M(*_r(_towards(pts[0], pts[1], st.token))).L(x, y)
            path.L(*_r(_towards(pts[2], pts[1], st.token)))
            g.append(path)
        if failed:
            self.cross(g, (x + st.token * 0.9, y - st.token * 0.9), 7)

    # --- marriages -----------------------------------------------------------

    def heir_at(self, location: str) -> Point:
        province = province_of(location)
        heirs = [h for h in self.position.heirs if h.location == province]
        index = next((i for i, h in enumerate(heirs) if not h.married), 0)
        return heir_point(self.layout, province, index)

    def heir_marry(self, g: dw.Group, order: o.HeirMarry, failed: bool) -> None:
        src = self.heir_at(order.location)
        if order.to_heir:
            dst = self.at(order.at) if order.at else self.heir_at(order.partner)
        else:
            dst = self.at(order.partner)
        self.marriage(g, src, dst, failed)

    def marriage(self, g: dw.Group, src: Point, dst: Point, failed: bool) -> None:
        st = self.st
        colour = st.marriage
        g.append(dw.Line(*_r(src), *_r(dst), stroke=colour, stroke_width=3,
                         stroke_dasharray="1,5", stroke_linecap="round"))
        mx, my = (src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2
        for dx in (-3.5, 3.5):
            g.append(dw.Circle(round(mx + dx, 1), round(my, 1), 5, fill="none", stroke=colour,
                               stroke_width=2.2))
        if failed:
            self.cross(g, (mx, my + 10), 6)

    # --- adjustments ---------------------------------------------------------

    def build(self, g: dw.Group, order: o.Build, outcome: Outcome | None) -> None:
        st = self.st
        x, y = self.at(order.location)
        look = look_of(self.variant, self.position, order.power)
        unit = Unit(order.power, order.unit_type or UnitType.ARMY, order.location)
        token = unit_token(unit, look, self.paints, x, y, st.token, class_="built")
        if outcome is not None and outcome is not Outcome.SUCCEEDS:
            token.args["opacity"] = 0.45
        g.append(token)
        ok = outcome in (None, Outcome.SUCCEEDS)
        self.badge(g, (x + st.token, y + st.token * 0.7), "+", st.succeeds if ok else st.illegal)

    def build_heir(self, g: dw.Group, order: o.BuildHeir, outcome: Outcome | None) -> None:
        power = self.variant.powers.get(order.power)
        where = order.location or (power.capital if power else None)
        if not where:
            return
        x, y = heir_point(self.layout, where, 0)
        g.append(crown(x, y, 7, fill=self.colour(order.power), stroke=self.st.ink,
                       stroke_width=1.3))
        ok = outcome in (None, Outcome.SUCCEEDS)
        self.badge(g, (x - 11, y + 5), "+", self.st.succeeds if ok else self.st.illegal)

    # --- marks ---------------------------------------------------------------

    def cross(self, g: dw.Group, at: Point, size: float) -> None:
        """A red cross with a white edge: 'this did not happen'."""
        x, y = at
        for colour, width in (("#ffffff", 6.5), (self.st.fails, 3.5)):
            g.append(dw.Line(*_r((x - size, y - size)), *_r((x + size, y + size)),
                             stroke=colour, stroke_width=width, stroke_linecap="round"))
            g.append(dw.Line(*_r((x - size, y + size)), *_r((x + size, y - size)),
                             stroke=colour, stroke_width=width, stroke_linecap="round"))

    def dp_badge(self, g: dw.Group, at: Point) -> None:
        """'DP': this neutral unit's order was bought (S9 §9.1), by whom not said."""
        x, y = _r(at)
        g.append(dw.Rectangle(round(x - 11, 1), round(y - 7.5, 1), 22, 15, rx=4,
                              fill=self.st.bought, stroke="#ffffff", stroke_width=1.5,
                              class_="dp-badge"))
        g.append(dw.Text("DP", 10.5, x, y + 3.8, text_anchor="middle", fill="#ffffff",
                         font_weight="bold", font_family="DejaVu Sans, sans-serif"))

    def badge(self, g: dw.Group, at: Point, text: str, colour: str) -> None:
        x, y = _r(at)
        g.append(dw.Circle(x, y, 7.5, fill=colour, stroke="#ffffff", stroke_width=1.5))
        g.append(dw.Text(text, 12, x, y + 4.3, text_anchor="middle", fill="#ffffff",
                         font_weight="bold", font_family="DejaVu Sans, sans-serif"))


def _unit_vector(v: Point) -> Point:
    length = math.hypot(*v) or 1.0
    return v[0] / length, v[1] / length


def _towards(p: Point, q: Point, distance: float) -> Point:
    """The point ``distance`` from ``p`` on the way to ``q``."""
    ux, uy = _unit_vector((q[0] - p[0], q[1] - p[1]))
    return p[0] + ux * distance, p[1] + uy * distance


def _f(v: float) -> str:
    return f"{round(v, 1):g}"


def _r(p: Point) -> tuple[float, float]:
    return round(p[0], 1), round(p[1], 1)

