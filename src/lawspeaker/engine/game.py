"""A game: a variant, its history of positions, and the orders being collected.

:class:`Game` is the convenience layer over the pure function
:func:`lawspeaker.engine.phases.adjudicate`. It keeps each player's pending orders
(a newer order for a unit replaces the older one, as on a web form), tells a
player at once whether an order is legal, adjudicates, and keeps every
adjudication so a GM can roll back a phase.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from ..core.board import PhaseKind, Position
from ..core.legality import movement_problem
from ..core.notation import parse_order
from ..core.orders import BuildHeir, EmbassyOrder, HeirOrder, Marry, Order
from ..core.ruleset import Rules
from ..rules.dp import Allocation, DPError, allocation_problem, parse_allocation
from ..rules.favor import favor_board
from ..rules.favor_orders import embassy_problem
from ..rules.marriages import heir_order_problem, marry_problem
from ..variants import VARIANTS_DIR, Variant, load_variant
from .adjustments import heir_build_problem
from .codec import (
    allocation_from_dict,
    allocation_to_dict,
    order_from_dict,
    order_to_dict,
    result_from_dict,
    result_to_dict,
)
from .phases import Adjudication, adjudicate, initial_position

__all__ = ["Game"]


class Game:
    def __init__(self, variant: str | Variant = "standard", rules: Rules | None = None,
                 position: Position | None = None) -> None:
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.rules = rules or self.variant.rules
        self.position = position or initial_position(self.variant, self.rules)
        self.history: list[tuple[Position, Adjudication]] = []
        self._orders: dict[str, dict[str, Order]] = {}
        self._allocations: dict[str, list[Allocation]] = {}

    @property
    def phase(self) -> str:
        return str(self.position.phase)

    # --- orders ---------------------------------------------------------------

    def parse(self, power: str, text: str) -> Order:
        """Read one order for ``power`` in the current phase's notation."""
        return parse_order(self.variant.map, text, self.variant.power_named(power),
                           self.position.phase.kind, self.variant.capital_names())

    def problem(self, order: Order) -> str | None:
        """Why an order is illegal now, or ``None``. Movement and heir orders
        are checked this early; retreats and adjustments when processed."""
        kind = self.position.phase.kind
        if isinstance(order, BuildHeir):
            return heir_build_problem(self.variant, self.position, order.power) \
                if kind is PhaseKind.ADJUSTMENT \
                else self.variant.cite("heirs are built in Winter (S9 §8.3)")
        if isinstance(order, HeirOrder):
            if kind is not PhaseKind.MOVEMENT:
                return self.variant.cite("heirs are given orders in orders phases (S9 §7.1)")
            return heir_order_problem(self.variant, self.position, order)
        if isinstance(order, EmbassyOrder):  # Dissolution §11.5: Winter orders
            if kind is not PhaseKind.ADJUSTMENT:
                return self.variant.cite("Embassies are given orders in the Winter "
                                         "(Dissolution §11.5)")
            return embassy_problem(self.variant, self.position, order,
                                   favor_board(self.variant, self.rules.favor_board))
        if kind is PhaseKind.MOVEMENT:
            problem = movement_problem(  # Dissolution §3.10.1: paths stated
                self.variant.map, self.position.units, order,
                explicit_paths=self.rules.convoy_paths == "explicit",
                wing_anywhere=self.rules.wing_support == "anywhere")  # Dissolution §3.1
            if problem is None and isinstance(order, Marry):
                problem = marry_problem(self.variant, self.position, order)
            return problem
        return None

    def order(self, power: str, *texts: str) -> list[Order]:
        """Parse and record orders for ``power``; returns them.

        Raises :class:`lawspeaker.core.notation.OrderSyntaxError` on the first
        unreadable order, recording none of them. Illegal but readable orders
        are recorded: they are reported at adjudication and the unit holds.
        """
        parsed = [self.parse(power, t) for t in texts]
        self.set_orders(parsed)
        return parsed

    def set_orders(self, orders: Iterable[Order]) -> None:
        for order in orders:
            key = order.province or f"#{len(self._orders.get(order.power, {}))}"
            if isinstance(order, HeirOrder):
                key = f"heir {order.province}"  # an heir shares its centre with a unit
            if self.position.phase.kind is PhaseKind.ADJUSTMENT:
                key = f"#{len(self._orders.get(order.power, {}))}"
            self._orders.setdefault(order.power, {})[key] = order

    def orders(self, power: str | None = None) -> list[Order]:
        """Pending orders, of one power or of all."""
        powers = [power] if power else sorted(self._orders)
        return [o for p in powers for o in self._orders.get(p, {}).values()]

    def clear_orders(self, power: str | None = None) -> None:
        if power is None:
            self._orders.clear()
        else:
            self._orders.pop(power, None)

    # --- diplomacy points (secret) --------------------------------------------------

    def allocate(self, power: str, allocation: str | Allocation) -> Allocation:
        """Record a secret DP allocation: ``game.allocate("Aesir", "2 DP to F Per - Ylg")``.

        Raises :class:`~lawspeaker.rules.dp.DPError` naming the rule when it breaks
        one (allotment, S9 §9.2; Attacking & Allocating, S9 §9.0); a rejected
        allocation is not recorded. It is checked again at adjudication
        against the orders then given, and not counted if it breaks a rule.
        """
        if not self.variant.uses("diplomacy_points"):
            raise DPError(f"{self.variant.title} has no Diplomacy Points")
        if self.position.phase.kind is not PhaseKind.MOVEMENT:
            raise DPError("DP are allocated only in orders (movement) phases (S9 §9.0)")
        name = self.variant.power_named(power)
        if isinstance(allocation, str):
            allocation = parse_allocation(self.variant.map, allocation, name,
                                          self.variant.capital_names())
        elif allocation.power != name:
            raise DPError(f"that allocation belongs to {allocation.power}")
        mine = self._allocations.setdefault(name, [])
        problem = allocation_problem(self.variant, self.position, allocation,
                                     self.orders(name), mine, rules=self.rules)
        if problem is not None:
            raise DPError(self.variant.cite(problem))
        mine.append(allocation)
        return allocation

    def allocations(self, viewer: str | None = None) -> list[Allocation]:
        """Pending allocations a viewer may see: ``None`` is the GM (all of
        them); a power sees only its own (DP votes are secret, S9 §9.0)."""
        if viewer is None:
            return [a for p in sorted(self._allocations) for a in self._allocations[p]]
        return list(self._allocations.get(self.variant.power_named(viewer), []))

    def clear_allocations(self, power: str) -> None:
        self._allocations.pop(self.variant.power_named(power), None)

    def revealed_allocations(self) -> list[tuple[str, Allocation]]:
        """Every past allocation with its phase, once the game has ended and
        the GM chose to reveal them (rules option ``reveal_dp_at_end``)."""
        if not (self.position.result and self.rules.reveal_dp_at_end):
            raise PermissionError("DP allocations stay secret until the game ends and the GM "
                                  "reveals them (rules option reveal_dp_at_end)")
        return [(self.variant.phase_label(before.phase), a)
                for before, result in self.history if result.allocations
                for a in result.allocations]

    # --- GM actions -------------------------------------------------------------

    def force_elimination(self, power: str) -> None:
        """GM: a dropped player's power undergoes early elimination at the next
        Census (S9 §3.4.2). Recorded in the position, so undo reverses it."""
        if not self.variant.uses("heirs"):
            raise ValueError(f"{self.variant.title} has no early elimination")
        name = self.variant.power_named(power)
        if name not in self.position.owners.values():
            raise ValueError(f"{name} is already eliminated")
        self.position = self.position.replace(dropped=self.position.dropped | {name})

    # --- adjudication -----------------------------------------------------------

    def process(self) -> Adjudication:
        """Adjudicate the current phase with the pending orders and advance."""
        result = adjudicate(self.variant, self.position, self.orders(), self.rules,
                            self.allocations())
        self.history.append((self.position, result))
        self.position = result.position
        self._orders.clear()
        self._allocations.clear()
        return result

    def undo(self) -> Position:
        """Roll back the last processed phase; its orders become pending again."""
        if not self.history:
            raise IndexError("nothing to undo")
        before, result = self.history.pop()
        self.position = before
        self._orders.clear()
        self._allocations.clear()
        # Neutral units' orders were chosen by DP, not given: the allocations
        # come back instead (S9 §9.0).
        chosen = set(before.powers_in_play) if self.variant.uses("diplomacy_points") \
            and before.phase.kind is PhaseKind.MOVEMENT else set()
        self.set_orders(r.order for r in result.results
                        if not r.implicit and r.order.power not in chosen)
        for a in result.allocations:
            self._allocations.setdefault(a.power, []).append(a)
        return before

    # --- serialisation ----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The variant, rules, current position, pending orders and allocations,
        and the history of processed phases, so :meth:`undo` works after
        :meth:`from_dict`. Secret: it holds DP allocations (a GM's file)."""
        bundled = self.variant.path is not None and self.variant.path.parent == VARIANTS_DIR
        where = self.variant.name if bundled or self.variant.path is None \
            else str(self.variant.path)
        return {
            "variant": where, "rules": _rules_dict(self.rules),
            "position": self.position.to_dict(),
            "orders": [order_to_dict(o) for o in self.orders()],
            "allocations": [allocation_to_dict(a) for a in self.allocations()],
            "history": [{"position": before.to_dict(),
                         "results": [result_to_dict(r) for r in result.results],
                         "allocations": [allocation_to_dict(a) for a in result.allocations],
                         "events": list(result.events)}
                        for before, result in self.history],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        variant = load_variant(data["variant"])
        game = cls(variant, variant.rules.with_options(**data.get("rules", {})),
                   Position.from_dict(data["position"]))
        positions = [Position.from_dict(h["position"]) for h in data.get("history", ())]
        for i, (before, entry) in enumerate(zip(positions, data.get("history", ()),
                                                strict=True)):
            after = positions[i + 1] if i + 1 < len(positions) else game.position
            game.history.append((before, Adjudication(
                before.phase, tuple(result_from_dict(r) for r in entry["results"]), after,
                None, tuple(allocation_from_dict(a) for a in entry.get("allocations", ())),
                tuple(entry.get("events", ())))))
        game.set_orders(order_from_dict(o) for o in data.get("orders", ()))
        for a in data.get("allocations", ()):
            allocation = allocation_from_dict(a)
            game._allocations.setdefault(allocation.power, []).append(allocation)
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_dict(json.loads(text))


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {k: str(v) if k in ("edition", "builds") else v for k, v in asdict(rules).items()}
