"""Diplomacy Points: secret votes that choose the orders of neutral units.

Each orders phase every major power gets an allotment of DP (S9 §9.2) and
may spend it on proposed orders for units of minor powers (later also
thralls and vassals), written as in the rulebook: ``2 DP to F Permyak S
Svartalfheim - Ylg``. For each such unit the order with the most DP wins; a
tie, or no DP at all, gives the default order, Hold (S9 §9.0, Common
Ruleset). DP on an illegal order are ignored.

Two rules limit allocations, and an allocation that breaks one is rejected
when submitted, with the rule named, and never counted:

* the total may not exceed the allotment (S9 §9.2);
* the **Attacking & Allocating rule** (S9 §9.0): a player whose own unit
  attacks, or supports an attack on, a minor power may not allocate DP to
  that minor power in that turn. Vassal units are exempt (S9 §9.1 C). Which
  orders count is the rules option ``attack_allocating`` (:func:`attacks`).

Allocations are secret: :meth:`DPResolution.public` is what players see
(the winning order of each neutral unit, never who voted).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..core.board import Position, Unit
from ..core.geography import GameMap, province_of
from ..core.legality import movement_problem
from ..core.notation import OrderSyntaxError, parse_order
from ..core.orders import Convoy, Marry, Move, Order, SupportMove
from ..core.ruleset import Rules
from ..variants import Variant
from .marriages import marry_problem
from .neutral_limits import default_order, favor_cap_problem, order_problem

__all__ = [
    "Allocation",
    "AllocationCheck",
    "DPError",
    "DPResolution",
    "allocation_problem",
    "allotment",
    "attacks",
    "ignored_because",
    "is_allocation",
    "is_dp_controlled",
    "normalise_order",
    "parse_allocation",
    "resolve_allocations",
    "unit_allotment",
]

DP_KINDS = frozenset({"minor", "thrall", "vassal", "nuclear"})
"""Power kinds whose units take their orders from DP (S9 §9.0, §9.1; nuclear
powers, Dissolution §3.6)."""

MAX_POINTS = 999
"""The most DP one allocation may name (an allotment is a handful; more is a typo)."""
_ALLOCATION = re.compile(r"^\s*([-+]?\d*(?:[.,]\d+)?)\s*dp\b\s*(?:to|on|for|:)?\s*(.*)$",
                         re.IGNORECASE)


class DPError(ValueError):
    """An allocation rejected at submission; the message names the rule."""


@dataclass(frozen=True, slots=True)
class Allocation:
    power: str
    """The major power spending the DP."""
    points: int
    order: Order
    """The proposed order, for a unit of a DP-controlled power."""

    def __str__(self) -> str:
        return f"{self.points} DP to {self.order}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a constructor call, which the compiled build (mypyc) needs for a
        frozen dataclass (as orders are, core/orders.py)."""
        return Allocation, (self.power, self.points, self.order)


def is_allocation(text: str) -> bool:
    """Whether a line is a DP allocation (``2 DP to ...``) rather than an order."""
    return _ALLOCATION.match(text) is not None


def parse_allocation(game_map: GameMap, text: str, power: str,
                     capitals: Mapping[str, str] | None = None) -> Allocation:
    """Read ``2 DP to F Permyak S Svartalfheim - Ylg`` or ``2 DP to F Permyak
    Marry Heir Aesir`` (``capitals`` lets heirs be named by power). Raises
    :class:`~lawspeaker.core.notation.OrderSyntaxError` for unreadable text."""
    match = _ALLOCATION.match(text)
    if match is None:
        raise OrderSyntaxError(text, 0, "an allocation looks like '2 DP to F Per - Ylg'")
    number = match.group(1)
    if not (number.isascii() and number.isdigit()) or int(number[:5]) < 1:
        raise OrderSyntaxError(text, 0, f"'{number or '?'} DP': an allocation is a whole "
                               "number of DP, at least 1 (S9 §9.0)")
    if len(number) > 3:  # an overflow waiting to happen, never a real allotment
        shown = number if len(number) <= 12 else number[:12] + "…"
        raise OrderSyntaxError(text, 0, f"'{shown} DP': an allocation is at most "
                               f"{MAX_POINTS} DP")
    points = int(number)
    order = parse_order(game_map, match.group(2), "", capitals=capitals)
    return Allocation(power, points, order)


def is_dp_controlled(position: Position, unit: Unit) -> bool:
    return position.kind_of(unit.power) in DP_KINDS


def allotment(variant: Variant, position: Position, power: str) -> int:
    """DP a major power may spend this orders phase (S9 §9.2), or by the
    variant's ``dp_allotment`` (:func:`unit_allotment`)."""
    major = variant.powers.get(power)
    if major is None:
        return 0
    if variant.dp_allotment:
        return unit_allotment(variant, position, power)
    total = 0
    if major.capital and position.owners.get(major.capital) == power:
        total += 1  # controls its own capital
    heir = position.unmarried_heir(power)
    if heir is not None and heir.location == major.capital:
        total += 1  # an unmarried heir in its capital
    for state in position.powers_in_play.values():
        if state.kind in ("thrall", "vassal") and power in state.controllers:
            total += 1  # each controlled thrall or vassal
    return total


def unit_allotment(variant: Variant, position: Position, power: str) -> int:
    """Dissolution §5.2: ``per_unit`` DP per unit, at most ``unit_cap`` from
    units, ``oil`` more for controlling any oil centre (even one a US fleet
    occupies, §4.6.1), at least ``minimum``; a Player in Exile gets ``exile``
    (§5.3)."""
    rule = variant.dp_allotment
    if power in position.removed:
        return 0  # §5.3: the GM stripped this exile of its DP privileges
    if power in position.exiles:
        return rule.get("exile", 1)
    units = len(position.units_of(power)) * rule.get("per_unit", 1)
    cap = rule.get("unit_cap")
    total = min(units, cap) if cap is not None else units
    if any(position.owners.get(c) == power for c in variant.oil_centres):
        total += rule.get("oil", 0)
    return max(total, rule.get("minimum", 0))


def attacks(variant: Variant, position: Position, order: Order, target: str,
            rules: Rules | None = None) -> bool:
    """Whether ``order`` attacks, or supports an attack on, a unit of the
    minor power ``target``, for the Attacking & Allocating rule (S9 §9.0).

    With ``attack_allocating=legal`` (default) only a legal Move into the
    minor's space, or a legal Support of a move there, counts: an illegal
    order is not carried out (the unit holds, DATC 4.E.1), and a Convoy
    neither attacks nor supports (the convoyed army attacks; it counts when it
    is the power's own). With ``attack_allocating=any`` every Move, Support or
    Convoy order aimed at the minor's space counts as written, legal or not.
    """
    rules = rules or variant.rules
    unit = position.units.get(_aimed_at(order, rules))
    if unit is None or unit.power != target:
        return False
    return _counts(variant, position, order, rules)


def _aimed_at(order: Order, rules: Rules) -> str:
    """The space an order attacks, or supports an attack on (with ``any``, convoys one
    to), for :func:`attacks`; ``""`` for any other order."""
    if isinstance(order, Move):
        return order.target_province
    if isinstance(order, SupportMove) or (
            isinstance(order, Convoy) and rules.attack_allocating == "any"):
        return province_of(order.target)
    return ""


def _counts(variant: Variant, position: Position, order: Order, rules: Rules) -> bool:
    """Whether an order aimed at a unit counts as attacking it (see :func:`attacks`)."""
    if rules.attack_allocating == "any":
        return True
    return movement_problem(variant.map, position.units, order,
                            wing_anywhere=rules.wing_support == "anywhere") is None


def allocation_problem(variant: Variant, position: Position, allocation: Allocation,
                       own_orders: Iterable[Order], others: Iterable[Allocation] = (),
                       *, rules: Rules | None = None) -> str | None:
    """Why an allocation must be rejected, naming the rule; ``None`` if not.

    ``own_orders`` are the allocating power's orders this turn; ``others``
    its other allocations this turn (for the allotment); ``rules`` the game's
    rules (``attack_allocating``; default: the variant's). To check many
    allocations of one turn, :class:`AllocationCheck` works each answer out once.
    """
    return AllocationCheck(variant, position, own_orders, rules).problem(allocation, others)


class AllocationCheck:
    """The allocation rules for one turn's orders (:func:`allocation_problem`).

    Which minors each power attacks (S9 §9.0) and each power's allotment (§9.2)
    depend only on the turn, not on the allocation, so each is worked out the
    first time it is asked and kept."""

    def __init__(self, variant: Variant, position: Position, orders: Iterable[Order],
                 rules: Rules | None = None) -> None:
        self.variant = variant
        self.position = position
        self.orders = tuple(orders)
        self.rules = rules
        self._attacked: dict[str, frozenset[str]] = {}
        self._allotments: dict[str, int] = {}

    def attacking(self, power: str, minor: str) -> bool:
        """Whether an order of ``power`` attacks ``minor``, a power whose units DP
        control (see :func:`attacks`)."""
        attacked = self._attacked.get(power)
        if attacked is None:
            attacked = self._attacked[power] = self._attacked_by(power)
        return minor in attacked

    def _attacked_by(self, power: str) -> frozenset[str]:
        """The DP-controlled powers that ``power``'s orders attack, in one pass over them."""
        variant, position = self.variant, self.position
        rules = self.rules or variant.rules
        found: set[str] = set()
        for order in self.orders:
            if order.power != power:
                continue
            unit = position.units.get(_aimed_at(order, rules))
            if unit is not None and unit.power not in found \
                    and is_dp_controlled(position, unit) \
                    and _counts(variant, position, order, rules):
                found.add(unit.power)
        return frozenset(found)

    def allotment(self, power: str) -> int:
        known = self._allotments.get(power)
        if known is None:
            known = self._allotments[power] = allotment(self.variant, self.position, power)
        return known

    def problem(self, allocation: Allocation, others: Iterable[Allocation] = ()) -> str | None:
        """Why ``allocation`` must be rejected, given the same power's ``others``."""
        variant, position = self.variant, self.position
        unit = position.units.get(allocation.order.province)
        if allocation.points < 1:
            return "an allocation must be at least 1 DP"
        if unit is None or not is_dp_controlled(position, unit):
            where = variant.map.name_of(allocation.order.province)
            if variant.nuclear:  # Dissolution §5: "the orders of Neutral units (both Minor
                # and Nuclear)"
                return (f"there is no neutral unit in {where}: DP only set orders for neutral "
                        "units, the minor powers' and the nuclear powers' (Dissolution §5)")
            return f"there is no neutral unit in {where}: DP only set orders for minor " \
                "powers (S9 §9.0)"
        state = position.powers_in_play[unit.power]
        if state.kind == "vassal" and allocation.power not in state.controllers:
            return f"only the powers controlling {unit.power} may allocate DP to it (S9 §9.1 C)"
        nuclear = variant.nuclear.get(unit.power)
        deceivable = nuclear is None or nuclear.deception  # Dissolution §9.1: not the US Navy
        if state.kind != "vassal" and deceivable and self.attacking(allocation.power,
                                                                    unit.power):
            if variant.uses("neutral_limits"):
                return (f"Deception rule (Dissolution §9.1): {allocation.power} attacks, or "
                        f"supports or convoys an attack on, {unit.power} this turn, so may "
                        "not allocate DP to it")
            return (f"Attacking & Allocating rule (S9 §9.0): {allocation.power} attacks or "
                    f"supports an attack on {unit.power} this turn, so may not allocate DP "
                    "to it")
        others = tuple(others)
        if nuclear is not None:  # Dissolution §11.4.1
            earlier = [(position.units[a.order.province].power, a.points) for a in others
                       if a.order.province in position.units]
            capped = favor_cap_problem(variant, position, allocation.power, nuclear.name,
                                       allocation.points, earlier)
            if capped is not None:
                return capped
        spent = allocation.points + sum(a.points for a in others)
        limit = self.allotment(allocation.power)
        if spent > limit:
            return (f"DP allotment exceeded (S9 §9.2): {allocation.power} has {limit} DP this "
                    f"turn and would spend {spent}")
        return None


@dataclass(frozen=True)
class DPResolution:
    orders: Mapping[str, Order]
    """Province of each DP-controlled unit -> its chosen order (public)."""
    tallies: Mapping[str, tuple[tuple[Order, int], ...]] = field(default_factory=dict)
    """Secret: DP counted for each proposed order of each unit."""
    rejected: tuple[tuple[Allocation, str], ...] = ()
    """Secret: allocations not counted, with the reason."""

    def public(self) -> dict[str, Order]:
        return dict(self.orders)

    def for_power(self, power: str) -> tuple[tuple[Allocation, str], ...]:
        """The rejections a power may see: only its own."""
        return tuple((a, why) for a, why in self.rejected if a.power == power)


_UNIT_FIRST = ("power", "unit_type", "location")
_OTHER_FIELDS: dict[type, tuple[str, ...] | None] = {}
"""Order class -> its constructor's fields after :data:`_UNIT_FIRST`, found once per class
(``None``: a class that does not start with them)."""


def normalise_order(order: Order, unit: Unit) -> Order:
    """The proposed order as the unit's own order, so equal proposals tally
    together however they were written (unit types are ignored, DATC 4.C.2)."""
    cls = type(order)
    if cls not in _OTHER_FIELDS:
        names = tuple(f.name for f in fields(order) if f.init)
        _OTHER_FIELDS[cls] = names[3:] if names[:3] == _UNIT_FIRST else None
    rest = _OTHER_FIELDS[cls]
    if rest is None:
        changes: dict[str, object] = {"power": unit.power, "unit_type": unit.type,
                                      "location": unit.location}
        if hasattr(order, "supported_type"):
            changes["supported_type"] = None
        return replace(order, **changes)  # type: ignore[type-var, arg-type]
    # A plain constructor call: dataclasses.replace looks up the fields on every call.
    return cls(unit.power, unit.type, unit.location,
               *[None if name == "supported_type" else getattr(order, name) for name in rest])


def ignored_because(variant: Variant, position: Position, allocation: Allocation,
                    rules: Rules | None = None) -> str | None:
    """Why the DP of an allocation (one that breaks no allocation rule) will be
    ignored: the order it asks of the unit is illegal, citing the rule; else
    ``None``. No neutral unit performs an illegal order, and DP on one count
    for nothing (Dissolution §5.1.2 item 4a; S9 §9.0 and OOD §9.0: the order
    with the most DP "will be given to the unit", which an illegal one cannot)."""
    rules = rules or variant.rules
    unit = position.units.get(allocation.order.province)
    if unit is None:
        return None
    return _ignored(variant, position, normalise_order(allocation.order, unit), rules)


def _ignored(variant: Variant, position: Position, order: Order, rules: Rules) -> str | None:
    """:func:`ignored_because` for the order as the unit's own (:func:`normalise_order`)."""
    illegal = movement_problem(variant.map, position.units, order,
                               wing_anywhere=rules.wing_support == "anywhere")  # §3.1
    if illegal is None and isinstance(order, Marry):
        illegal = marry_problem(variant, position, order)  # S9 §9.1 A, §10.3
    if illegal is None:
        illegal = order_problem(variant, position, order)  # Dissolution §9.2, §9.3
    if illegal is None:
        return None
    if variant.uses("neutral_limits"):
        return (f"the order is illegal ({variant.cite(illegal)}); DP allocated to illegal "
                "orders are ignored (Dissolution §5.1.2 item 4a)")
    return variant.cite(f"the order is illegal ({illegal}); the order with the most DP is "
                        "given to the unit, which cannot be given an illegal one, so these "
                        "DP count for nothing (S9 §9.0)")


def resolve_allocations(variant: Variant, position: Position, orders: Iterable[Order],
                        allocations: Iterable[Allocation], rules: Rules | None = None
                        ) -> DPResolution:
    """Choose the order of every DP-controlled unit from the allocations."""
    orders = list(orders)
    rules = rules or variant.rules
    by_power: dict[str, list[Allocation]] = {}
    rejected: list[tuple[Allocation, str]] = []
    votes: dict[str, dict[Order, int]] = {}
    check = AllocationCheck(variant, position, orders, rules)
    ignoring: dict[Order, str | None] = {}  # the same order asked twice is judged once
    for allocation in allocations:
        earlier = by_power.setdefault(allocation.power, [])
        problem = check.problem(allocation, earlier)
        if problem is not None:
            rejected.append((allocation, f"Rejected: {problem}"))
            continue
        earlier.append(allocation)
        unit = position.units[allocation.order.province]
        order = normalise_order(allocation.order, unit)
        if order not in ignoring:
            ignoring[order] = _ignored(variant, position, order, rules)
        ignored = ignoring[order]
        if ignored is not None:
            rejected.append((allocation, f"Ignored: {ignored}"))
            continue
        weight = 2 if allocation.power in position.powers_in_play[unit.power].controllers \
            and position.kind_of(unit.power) == "thrall" else 1  # S9 §9.1 B
        tally = votes.setdefault(unit.province, {})
        tally[order] = tally.get(order, 0) + allocation.points * weight
    chosen: dict[str, Order] = {}
    tallies: dict[str, tuple[tuple[Order, int], ...]] = {}
    for prov, unit in sorted(position.units.items()):
        if not is_dp_controlled(position, unit):
            continue
        tally = votes.get(prov, {})
        ranked = sorted(tally.items(), key=lambda kv: -kv[1])
        tallies[prov] = tuple(ranked)
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            chosen[prov] = ranked[0][0]
        else:
            chosen[prov] = default_order(variant, position, unit)  # tie or no DP
    return DPResolution(chosen, tallies, tuple(rejected))
