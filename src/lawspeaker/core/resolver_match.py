"""Steps 1 and 2 of the movement resolver (:mod:`lawspeaker.core.resolver`): judge each
order and match the orders to each other.

Each order is planned (:class:`~lawspeaker.core.resolver_plan._Plan`) and judged: the
common legal orders as they are planned, any other by
:func:`~lawspeaker.core.legality.movement_problem`, which has the last word; an illegal
order is reported and its unit holds (DATC 4.E.1), and of a unit's conflicting orders
the rules option ``multiple_orders`` decides (DATC 4.D.3). Then supports are matched to
what their units do, convoys to their armies, and each army's move is settled as going
over land or by convoy (DATC 4.A.3; Dissolution §3.10.1 with ``convoy_paths:
explicit``). Decisions that need no question asked are made here too: a hold, a void
support or convoy, one that nobody attacks, a move over land into a space no other unit
enters. The resolver decides the rest on the tables a :class:`MatchedOrders` keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Final

from .board import Unit
from .convoys import carrier_is_wing, find_chain
from .geography import GameMap, UnitType
from .legality import fleet_seas, movement_problem
from .orders import Move, Order
from .resolver_plan import (
    _CONVOY,
    _MOVE,
    _RESOLVED,
    _SUP_HOLD,
    _SUP_MOVE,
    _Plan,
    _Void,
)
from .results import OrderResult, Outcome
from .ruleset import Edition, Rules

__all__ = ["MatchedOrders"]

_ARMY: Final = UnitType.ARMY  # read once, not per use
_WING: Final = UnitType.WING
_unit_type = attrgetter("type")


class MatchedOrders:
    """A phase's orders, judged, planned and matched: each unit's plan (``plans``, in
    the order of the units, which the results follow), the moves into each space
    (``moves_into``), the convoys of each army (``convoyers``), the results of the
    illegal orders (``illegal``), and whether an order named its unit by the wrong type
    (``misnamed``, DATC 4.C.2)."""

    def __init__(self, game_map: GameMap, units: dict[str, Unit], orders: Iterable[Order],
                 rules: Rules) -> None:
        self.map = game_map
        self.units = units
        self.rules = rules
        self.explicit = rules.convoy_paths == "explicit"
        self.wings = _WING in set(map(_unit_type, units.values()))
        self.plans: dict[str, _Plan] = {}
        self.moves_into: dict[str, list[_Plan]] = {}
        self.convoyers: dict[str, list[_Plan]] = {}
        self.illegal: list[OrderResult] = []
        self.illegal_moves: dict[str, Move] = {}
        self.misnamed = False
        self._collect(orders)

    def _collect(self, orders: Iterable[Order]) -> None:
        """Steps 1 and 2. Each order is planned, then judged: the common legal orders
        (``_Plan.plain``) at once, any other by
        :func:`~lawspeaker.core.legality.movement_problem`, which has the last word."""
        illegal = self.illegal
        units = self.units
        game_map = self.map
        seas: set[str] | None = None  # the fleets that could convoy, when first needed
        # Each unit's plan, in the order of the units, which the results follow: made in
        # that order at once, so that no second table is needed.
        given: dict[str, _Plan | None] = dict.fromkeys(units)
        conflicts: dict[str, list[Order]] = {}
        explicit, wings = self.explicit, self.wings
        wing_anywhere = self.rules.wing_support == "anywhere"  # Dissolution §3.1
        for order in orders:
            prov = order.province
            unit = units.get(prov)
            plan = None
            if unit is not None:
                plan = _Plan(game_map, unit, order, units)
                if plan.misnamed:
                    self.misnamed = True
                if order.power and plan.power != order.power:
                    plan = None  # another power's unit: illegal (movement_problem says so)
            if plan is None or not plan.plain:
                if seas is None:
                    seas = fleet_seas(game_map, units)
                problem = movement_problem(game_map, units, order, seas, explicit, wings,
                                           wing_anywhere)
                if problem is not None:
                    illegal.append(OrderResult(order, Outcome.ILLEGAL, f"Illegal: {problem}"))
                    if type(order) is Move:
                        self.illegal_moves[prov] = order
                    continue
                assert plan is not None  # an order for no unit, or another's, is illegal
            earlier = given[prov]
            if earlier is None:
                given[prov] = plan
            elif earlier.order != order and order not in \
                    conflicts.setdefault(prov, [earlier.order]):  # type: ignore[list-item]
                conflicts[prov].append(order)
        for prov, different in conflicts.items():  # DATC 4.D.3
            if self.rules.multiple_orders == "last":
                given[prov] = _Plan(game_map, units[prov], different[-1], units)
                for o in different[:-1]:
                    illegal.append(OrderResult(o, Outcome.ILLEGAL,
                                               "Illegal: replaced by a later order"))
            else:
                given[prov] = None
                for o in different:
                    illegal.append(OrderResult(
                        o, Outcome.ILLEGAL,
                        "Illegal: the unit was given conflicting orders, so it holds"))
        # A unit with no order holds; plans grouped by kind in the same pass, in the units'
        # order, supports of holds and of moves together.
        moves: list[_Plan] = []
        supports: list[_Plan] = []
        convoys: list[_Plan] = []
        for prov, plan in given.items():
            if plan is None:
                plan = given[prov] = _Plan(game_map, units[prov], None, units)
            kind = plan.kind
            if kind == _MOVE:
                moves.append(plan)
            elif kind == _SUP_MOVE or kind == _SUP_HOLD:  # noqa: SIM109 (no tuple to build)
                supports.append(plan)
            elif kind == _CONVOY:
                convoys.append(plan)
        plans = self.plans = given  # type: ignore[assignment]  # a plan for every unit now
        for p in convoys:
            self._match_convoy(p)
        moves_into = self.moves_into
        convoyers = self.convoyers
        for p in moves:
            # Most moves are a unit's move to a neighbour that nobody convoys: decided
            # here without asking _settle_route (DATC 4.A.3 is its business).
            if explicit or ((not p.plain or p.prov in convoyers) and p.unit.type is _ARMY):
                self._settle_route(p)
            into = moves_into.get(p.dest)
            if into is None:
                moves_into[p.dest] = [p]
            else:
                into.append(p)
            if p.sortie:
                # S9 §7.2: a stationary unit's move always bounces.
                p.ok, p.state = False, _RESOLVED
        for p in supports:
            target = plans.get(p.frm)
            # A support of what the unit does, the common case, counts at once.
            if target is not None and not p.coast and (
                    target.kind != _MOVE if p.kind == _SUP_HOLD
                    else target.kind == _MOVE and target.dest == p.to):
                target.add_support(p)
            else:
                self._match_support(p)
            # Decided at once, with nothing to ask (as _adjudicate would answer): a void
            # support is not given, and one that nobody attacks is (DATC 5.B.5, 5.B.6).
            if p.void:
                p.state = _RESOLVED
            elif p.prov not in moves_into:
                p.ok, p.state = True, _RESOLVED
        # Decided at once, as move_wins would answer: a move over land into an empty space
        # that no other unit tries to enter succeeds (an attack is at least 1, the hold
        # strength 0, nothing prevents: DATC 5.B.2-5.B.4); and, like supports, a void
        # convoy fails and one that nobody attacks holds.
        for p in moves:
            if not p.by_convoy and p.state != _RESOLVED and p.dest not in plans \
                    and len(moves_into[p.dest]) == 1:
                p.ok, p.state = True, _RESOLVED
        for p in convoys:
            if p.void:
                p.state = _RESOLVED
            elif p.prov not in moves_into:
                p.ok, p.state = True, _RESOLVED

    def _match_convoy(self, plan: _Plan) -> None:
        army = self.plans.get(plan.frm)
        if army is None or army.unit.type is not _ARMY:
            plan.void = _Void(self.map, "Void: no army in {place}", None, plan.frm)
        elif army.kind != _MOVE or army.dest != plan.to:
            plan.void = _Void(self.map, "Void: {unit} does not move to {place}", army.unit,
                              plan.to)
        else:
            self.convoyers.setdefault(plan.frm, []).append(plan)

    def _settle_route(self, plan: _Plan) -> None:
        """Decide whether a move goes by land or by convoy (DATC 4.A.3)."""
        if self.explicit and plan.unit.type is _ARMY:
            # Dissolution §3.10.1: the path the army states is the path adjudicated.
            for f in self.convoyers.get(plan.prov, ()):
                if not plan.path:
                    f.void = _Void(self.map, "Void: {unit} moves over land", plan.unit)
                elif f.prov not in plan.path:
                    f.void = _Void(self.map, "Void: not on the path of {unit}", plan.unit)
            if not plan.path:
                self.convoyers.pop(plan.prov, None)
            return
        if plan.unit.type is not _ARMY or (
                not plan.by_convoy and plan.prov not in self.convoyers
                and plan.dest in self.map.army_links[plan.prov]):
            return
        adjacent = self.map.can_move(_ARMY, plan.prov, plan.dest)
        fleets = self.convoyers.get(plan.prov, [])
        if not adjacent or (not plan.by_convoy and any(f.power == plan.power for f in fleets)):
            plan.by_convoy = True
        if adjacent and plan.by_convoy and self.rules.edition is Edition.R2000 \
                and not self.path(plan, lambda f: True):
            plan.by_convoy = False  # DATC 2.4 4.A.3: no convoy ordered, use the land route
        if not plan.by_convoy:
            for f in fleets:
                f.void = _Void(self.map, "Void: {unit} moves over land", plan.unit)
            self.convoyers.pop(plan.prov, None)

    def _match_support(self, plan: _Plan) -> None:
        target = self.plans.get(plan.frm)
        if target is None:
            plan.void = _Void(self.map, "Void: no unit in {place}", None, plan.frm)
            return
        if plan.kind == _SUP_HOLD:
            if target.kind == _MOVE:
                plan.void = _Void(self.map, "Void: {unit} moves instead of holding", target.unit)
                return
        elif target.kind != _MOVE or target.dest != plan.to:
            plan.void = _Void(self.map, "Void: {unit} does not move to {place}", target.unit,
                              plan.to)
            bad = self.illegal_moves.get(plan.frm)
            if bad is not None and bad.target_province == plan.to:
                # Supporting an illegal move is itself illegal (DATC 6.A.5, 6.D.22).
                plan.illegal = True
                plan.void = f"Illegal: the supported move {bad} is illegal"
            return
        elif plan.coast and target.dest_loc != plan.coast:
            plan.void = _Void(self.map, "Void: {unit} does not move to {place}", target.unit,
                              plan.coast)
            return
        target.add_support(plan)

    def path(self, plan: _Plan, usable: Callable[[_Plan], bool]) -> bool:
        """Whether a convoyed move has a route of convoying units each ``usable`` (the
        resolver asks whether each convoy is given; matching asks only whether any route
        of convoy orders exists, DATC 4.A.3)."""
        fleets = {f.prov: f for f in self.convoyers.get(plan.prov, ())}
        if not fleets:
            return False
        if self.explicit:
            # Dissolution §3.10.1: the stated path, every space on it convoying.
            return all(p in fleets and usable(fleets[p]) for p in plan.path)
        if self.wings:  # Dissolution §3.3: chains of wings and fleets
            carriers = {p: f.unit.type is _WING for p, f in fleets.items()}
            return find_chain(self.map, carriers, plan.prov, plan.dest,
                              lambda p: usable(fleets[p]),
                              carrier_is_wing(self.units, plan.dest)) is not None
        links = self.map.convoy_links
        seen: set[str] = set()
        frontier = [p for p in links(plan.prov) if p in fleets]
        while frontier:
            here = frontier.pop()
            if here in seen:
                continue
            seen.add(here)
            if not usable(fleets[here]):
                continue
            nxt = links(here)
            if plan.dest in nxt:
                return True
            frontier.extend(p for p in nxt if p in fleets and p not in seen)
        return False
