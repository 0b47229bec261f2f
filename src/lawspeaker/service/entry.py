"""Order entry: a power's post taken line by line, checked without being
kept, and what the power may and must order now.

:meth:`OrderEntry.submit` and :meth:`OrderEntry.check` run the very same
code (:meth:`OrderEntry.take`), the check stopping short of recording the
post, so "checked as you type" and "accepted when sent" can never disagree.
The template, the duties beside the order box, each unit's legal orders and
the public turn status are here too: all of it is what a power is asked for
in the open phase.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session

from ..core.board import PhaseKind
from ..core.geography import province_of
from ..core.notation import format_order
from ..core.orders import Hold, Move, Order, SupportHold, SupportMove
from ..core.results import Outcome
from ..engine.codec import order_from_dict, order_to_dict
from ..engine.game import Game
from ..engine.phases import adjudicate
from ..engine.posts import PostError, read_post
from ..store.models import LineRow, SubmissionRow
from .lines import IGNORED, _canonical, foreign_unit, ignored_allocation, rejected_allocation
from .loader import GameLoader, LoadedGame, checked_power, engine_of, log_event
from .posts import dp_limits
from .standing import allocation_of, by_slot, merge_lines, slot_of, standing_lines
from .status import TurnStatus, turn_status
from .types import Forbidden, LineReport, ServiceError, SubmissionReport, Viewer

__all__ = ["OrderEntry", "UnitOptions"]


@dataclass(frozen=True, slots=True)
class UnitOptions:
    unit: str
    """The unit as players write it: ``F Asgard``."""
    orders: tuple[str, ...]
    """Legal orders in players' notation (convoys aside: they are written by hand)."""
    note: str = ""


class OrderEntry:
    """Posts of orders and DP allocations for the open phase, and the help
    a player gets writing them."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def submit(self, name: str, power: str, text: str | bytes, actor: Viewer,
               phase: str | None = None) -> SubmissionReport:
        """Take a power's post (see :meth:`GameService.submit`)."""
        with self.games.write(name) as (s, g):
            power = checked_power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not submit orders for {power}")
            self.games.expect_phase(s, g, phase, "these orders were written for",
                                    "Nothing was kept: check them against the board now "
                                    "and send them again.")
            return self.take(s, g, power, text, actor)

    def check(self, name: str, power: str, text: str | bytes, actor: Viewer
              ) -> SubmissionReport:
        """What :meth:`submit` would answer for this post, with nothing kept:
        the same code in a read-only snapshot, so checking never waits for a
        writer and never holds one up."""
        with self.games.read(name) as (s, g):
            power = checked_power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not submit orders for {power}")
            return self.take(s, g, power, text, actor, keep=False)

    def take(self, s: Session, g: LoadedGame, power: str, text: str | bytes,
             actor: Viewer, keep: bool = True) -> SubmissionReport:
        """Check a post and (``keep``) record it; the caller has checked who may
        send it. Without ``keep`` nothing is written, so a check runs in a
        read-only snapshot and never waits for, or holds up, a writer."""
        if g.position.result:
            raise ServiceError(f"the game is over ({g.position.result}): there is "
                               "nothing to order")
        try:
            lines = read_post(g.variant, text, g.position.phase.kind, power)
        except PostError as exc:
            raise ServiceError(str(exc)) from None
        if not lines:
            raise ServiceError("the post has no orders in it")
        game = engine_of(g)
        active = standing_lines(s, g, power)
        mine = active.get(power, {})
        rows: list[LineRow] = []
        kind = g.position.phase.kind
        for line in lines:
            if line.error is not None:
                rows.append(LineRow(number=line.number, text=line.text, kind="unreadable",
                                    status="unreadable", message=line.error))
            elif line.power != power:
                rows.append(LineRow(number=line.number, text=line.text, kind="unreadable",
                                    status="unreadable",
                                    message=f"this line is for {line.power}: a post for "
                                            f"{power} orders only {power}'s units"))
            elif line.order is not None and (
                    foreign := foreign_unit(g.variant, g.position, line.order, power)):
                rows.append(LineRow(number=line.number, text=line.text, kind="unreadable",
                                    status="unreadable", message=foreign))
            elif line.order is not None:
                rows.append(LineRow(number=line.number, text=line.text, kind="order",
                                    status="accepted", slot=slot_of(line.order, kind),
                                    order=order_to_dict(line.order)))
        standing = merge_lines(mine, by_slot(rows, f"new.{g.phase.id}"), kind)
        standing_orders = [order_from_dict(r.order or {})
                           for rs in standing.values() for r in rs if r.kind == "order"]
        problems = _order_problems(g, game, standing_orders)
        slots = [r.slot for r in rows if r.kind == "order" and r.slot]
        for r in rows:
            if r.kind == "order":
                problem = problems.get(_key(order_from_dict(r.order or {})))
                if problem:
                    r.status, r.message = "illegal", problem
                elif slots.count(r.slot) > 1:
                    r.status = "twice"
                    r.message = (f"this unit has two orders in this post; by the rules "
                                 f"(multiple_orders={g.rules.multiple_orders}) "
                                 + ("it will hold (DATC 4.D.3)"
                                    if g.rules.multiple_orders == "void"
                                    else "the last one counts"))
        kept = {slot: allocation_of(rs[-1], power) for slot, rs in mine.items()
                if rs[-1].kind == "dp"}
        for line in lines:
            if line.allocation is None or line.power != power:
                continue
            alloc = line.allocation
            slot = f"dp {alloc.order.province}"
            others = [a for k, a in kept.items() if k != slot]
            problem = rejected_allocation(g.variant, g.position, alloc, standing_orders,
                                          others, g.rules)
            # Dissolution §5.1.2 item 4a (S9 §9.0): kept, but its DP will be ignored
            ignored = None if problem else ignored_allocation(g.variant, g.position, alloc,
                                                              g.rules)
            row = LineRow(number=line.number, text=line.text, kind="dp",
                          status="rejected" if problem else IGNORED if ignored else "accepted",
                          message=problem or ignored or "", slot=slot,
                          order=order_to_dict(alloc.order), points=alloc.points)
            rows.append(row)
            if problem is None:
                kept[slot] = alloc
        rows.sort(key=lambda r: r.number)
        if not keep:
            return self.report(s, g, power, rows, pending=True)
        sub = SubmissionRow(game_id=g.row.id, phase_id=g.phase.id, power=power,
                            author=str(actor), text=_text(text), lines=rows)
        s.add(sub)
        log_event(s, g.row, g.phase, actor, "submitted", f"{power} submitted orders")
        s.flush()
        return self.report(s, g, power, rows)

    def submissions(self, name: str, power: str, actor: Viewer) -> SubmissionReport:
        """A power's standing orders and allocations this phase (author and GM)."""
        with self.games.read(name) as (s, g):
            power = checked_power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not see {power}'s orders before they are "
                                "adjudicated")
            return self.report(s, g, power, [])

    def report(self, s: Session, g: LoadedGame, power: str, rows: list[LineRow],
               pending: bool = False) -> SubmissionReport:
        """The answer to a post: each of its lines, and what stands after it
        (``pending``: ``rows`` are a checked post not recorded, merged here)."""
        standing = standing_lines(s, g, power).get(power, {})
        if pending:
            standing = merge_lines(standing, by_slot(rows, "check"), g.position.phase.kind)
        mine = [r for rs in standing.values() for r in rs]
        game_map = g.variant.map
        lines = tuple(LineReport(r.number, r.text, r.status, r.message or "",
                                 _canonical(r, game_map)) for r in rows)
        orders = tuple(_canonical(r, game_map) + (f"  (illegal: {r.message})"
                                                  if r.status == "illegal" else "")
                       for r in mine if r.kind == "order")
        allocations = tuple(_canonical(r, game_map) + (f"  (ignored: {r.message})"
                                                       if r.status == IGNORED else "")
                            for r in mine if r.kind == "dp")
        units = g.position.units
        targets = [(order_from_dict(r.order or {}).province, r.points or 0)
                   for r in mine if r.kind == "dp"]
        limits = dp_limits(g.variant, g.position, power,
                           [(units[p].power if p in units else "", n) for p, n in targets])
        dp_left = limits.left if limits else None
        return SubmissionReport(power, g.phase.label, lines, orders, allocations, dp_left,
                                limits, g.phase.code)

    # --- what the power is asked for -------------------------------------------------------

    def status(self, name: str) -> TurnStatus:
        """The phase and what it needs; public, like the board itself."""
        with self.games.read(name) as (s, g):
            status = turn_status(g.variant, g.position, g.rules)
            active = standing_lines(s, g)
            submitted = tuple(p for p in sorted(active) if active[p])
            return replace(status, submitted=submitted)

    def template(self, name: str, power: str, actor: Viewer) -> str:
        """The power's units and what each may do, as a post to fill in."""
        from .templates import order_template

        with self.games.read(name) as (_s, g):
            power = checked_power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not ask for {power}'s orders")
            return order_template(g.variant, g.position, power, g.rules)

    def due(self, name: str, power: str, actor: Viewer) -> tuple[list[str], str]:
        """What the power must order this phase (its units, retreats, builds,
        Embassies and required holds, DP), and an example order of this phase's
        kind for it, for the page beside the order box."""
        from .templates import duties, example_order

        with self.games.read(name) as (_s, g):
            power = checked_power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not ask for {power}'s orders")
            return (duties(g.variant, g.position, power, g.rules),
                    example_order(g.variant, g.position, power, g.rules))

    def unit_options(self, name: str, power: str, actor: Viewer) -> list[UnitOptions]:
        """Each of the power's units with the orders it may legally give now
        (movement phases), or what the template offers in other phases."""
        from .templates import order_template

        with self.games.read(name) as (_s, g):
            power = checked_power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not ask for {power}'s orders")
            position, game_map = g.position, g.variant.map
            if position.result:
                return []
            if position.phase.kind is not PhaseKind.MOVEMENT:
                lines = order_template(g.variant, position, power, g.rules).splitlines()[3:]
                return [UnitOptions(line.split("#")[0].strip(), (line.split("#")[0].strip(),),
                                    line.partition("#")[2].strip())
                        for line in lines if line.split("#")[0].strip()]
            game = engine_of(g)
            out = []
            units = sorted(position.units_of(power), key=lambda u: u.province)
            for u in units:
                reach = game_map.neighbours(u.type, u.location)
                provinces = {province_of(t) for t in reach}
                candidates: list[Order] = [Hold(power, u.type, u.location)]
                candidates += [Move(power, u.type, u.location, t) for t in sorted(reach)]
                for v in position.units.values():
                    if v.location == u.location:
                        continue
                    if v.province in provinces:
                        candidates.append(SupportHold(power, u.type, u.location, v.type,
                                                      v.location))
                    for t in sorted(game_map.neighbours(v.type, v.location)):
                        if province_of(t) in provinces and province_of(t) != u.province:
                            candidates.append(SupportMove(power, u.type, u.location, v.type,
                                                          v.location, t))
                legal = tuple(format_order(o, game_map) for o in candidates
                              if game.problem(o) is None)
                note = "stationary: may hold or support" if u.stationary else ""
                out.append(UnitOptions(f"{u.type.value} {game_map.name_of(u.location)}",
                                       legal, note))
            return out


def _order_problems(g: LoadedGame, game: Game, orders: Iterable[Order]
                    ) -> dict[tuple[Any, ...], str]:
    """Why each order would be illegal, as the adjudicator itself says:
    the orders are adjudicated on their own and the illegal ones noted."""
    orders = list(orders)
    problems: dict[tuple[Any, ...], str] = {}
    if g.position.phase.kind is PhaseKind.MOVEMENT:
        for order in orders:
            problem = game.problem(order)
            if problem:
                problems[_key(order)] = problem
        return problems
    for r in adjudicate(g.variant, g.position, orders, g.rules).results:
        if r.outcome is Outcome.ILLEGAL and not r.implicit:
            problems[_key(r.order)] = r.reason.removeprefix("Illegal: ")
    return problems


def _key(order: Order) -> tuple[Any, ...]:
    return (type(order).__name__, str(order), order.power)


def _text(text: str | bytes) -> str:
    if isinstance(text, bytes):
        from ..engine.posts import decode_post

        return decode_post(text)
    return text
