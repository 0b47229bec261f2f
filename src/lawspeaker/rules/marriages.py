"""Heirs' orders and marriages (S9 §7.1, §10.2-§10.4; the same rules in OOD).

An unmarried heir lives in its power's capital and takes one order from its
owner, without DP: Hold, or Marry. Marriages come in pairs of orders given in
the same orders phase (§10.2):

* **Thrall marriage** (§10.3), in any orders phase: the heir marries a minor
  power, and the minor's unit must be ordered, by DP, to marry that heir. It
  succeeds when (A) the minor had its unit at the start of the phase, (B) the
  heir was ordered to marry it, (C) the minor's chosen order is that Marry,
  and (D) the minor's unit was not dislodged. It takes effect with the
  retreats, before the Census, so an heir can escape a capital about to fall
  (§10.3.1): the heir moves to the minor's centre and the minor becomes the
  heir's power's **thrall**.
* **Vassal marriage** (§10.4), only in the orders phase before the Census:
  two heirs marry each other "at" a marriage location, a centre of one of the
  two powers (the dowry giver) that is not a home centre of either. Checked
  here: conditions 1-3 and the location; agreed marriages wait in
  :attr:`Position.marriages` for the Census, which checks conditions 4-5 and
  creates the vassal (:mod:`lawspeaker.rules.census`).

Marriage attempts are public, even when they fail (§10.3.1, §10.4.1): their
results are ordinary order results. DP votes stay secret (:mod:`lawspeaker.rules.dp`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..core.board import Heir, Marriage, Position, PowerState, thawed
from ..core.orders import HeirHold, HeirMarry, HeirOrder, Marry, Order
from ..core.results import OrderResult, Outcome
from ..variants import Variant

__all__ = [
    "HeirOutcome",
    "heir_order_problem",
    "marry_problem",
    "resolve_heir_orders",
    "vassal_marriage_phase",
]


def vassal_marriage_phase(variant: Variant, position: Position) -> bool:
    """Whether this orders phase is the one before the Census, the only one
    in which heirs may marry each other (S9 §10.4: 'ONLY ... Autumn')."""
    phases = variant.phases
    index = next((i for i, (s, k) in enumerate(phases)
                  if s == position.phase.season and k is position.phase.kind), None)
    if index is None:
        return False
    later = [k.value for _, k in phases[index + 1:]]
    return "census" in later and "movement" not in later[:later.index("census")]


def _heir_in(position: Position, province: str) -> Heir | None:
    return next((h for h in position.heirs if h.location == province and not h.married), None)


def marry_problem(variant: Variant, position: Position, order: Marry) -> str | None:
    """Why a unit's Marry order is illegal (S9 §9.1 A, §10.3), or ``None``."""
    unit = position.units.get(order.province)
    name = variant.map.name_of(order.province)
    if unit is None:
        return f"there is no unit in {name}"
    if position.kind_of(unit.power) != "minor":
        return f"only a minor power's unit may marry an heir (S9 §10.3); {name} is not a minor"
    if _heir_in(position, order.heir) is None:
        return f"there is no unmarried heir in {variant.map.name_of(order.heir)}"
    return None


def heir_order_problem(variant: Variant, position: Position, order: Order) -> str | None:
    """Why an heir's order is illegal now, or ``None`` (S9 §7.1, §10.3, §10.4)."""
    names = variant.map.name_of
    heir = _heir_in(position, order.location)
    if not isinstance(order, HeirHold | HeirMarry):
        return "an heir may only be ordered to Hold or Marry (S9 §7.1)"
    if heir is None or heir.power != order.power:
        return (f"{order.power} has no unmarried heir in {names(order.location)}: only an "
                "unmarried heir takes orders (S9 §7.1)")
    if isinstance(order, HeirHold):
        return None
    if not order.to_heir:
        owner = position.owners.get(order.partner)
        unit = position.units.get(order.partner)
        if owner is None or position.kind_of(owner) != "minor":
            return f"{names(order.partner)} is not a minor power's centre (S9 §10.3)"
        if unit is None or unit.power != owner:
            return f"the minor power in {names(order.partner)} has no unit (S9 §10.3 A)"
        return None
    return _vassal_problem(variant, position, order)


def _vassal_problem(variant: Variant, position: Position, order: HeirMarry) -> str | None:
    names = variant.map.name_of
    if not vassal_marriage_phase(variant, position):
        return "heirs may marry each other only in the orders phase before the Census (S9 §10.4)"
    other = _heir_in(position, order.partner)
    if other is None:
        return f"there is no unmarried heir in {names(order.partner)}"
    if other.power == order.power:
        return "an heir cannot marry its own power's heir"
    if not order.at:
        return ("say where the vassal will have its capital: "
                "'Heir ... Marry Heir ... at <centre>' (S9 §10.4 3)")
    pair = {order.power, other.power}
    giver = position.owners.get(order.at)
    where = names(order.at)
    if giver not in pair:
        return f"the marriage location {where} must be a centre of one of the two powers (§10.4)"
    for power in pair:
        if order.at in variant.powers[power].homes:
            return f"the marriage location {where} is a home centre of {power} (§10.4)"
    for name, state in position.powers_in_play.items():
        if state.kind == "vassal" and set(state.controllers) == pair:
            return f"the two powers already control the vassal {name} together (§10.4 1)"
    unit = position.units.get(order.at)
    if unit is not None and unit.power != giver:
        return f"{where} holds a unit of {unit.power}, not of the dowry giver (§10.4 2)"
    return None


@dataclass(frozen=True)
class HeirOutcome:
    results: tuple[OrderResult, ...]
    heirs: tuple[Heir, ...]
    powers_in_play: Mapping[str, PowerState]
    marriages: tuple[Marriage, ...]


def resolve_heir_orders(variant: Variant, position: Position, orders: Iterable[HeirOrder],
                        unit_orders: Mapping[str, Order], dislodged: Iterable[str]
                        ) -> HeirOutcome:
    """Judge the heirs' orders of one orders phase.

    ``position`` is the position at the start of the phase; ``unit_orders``
    the order each unit actually followed (DP-chosen for neutral units);
    ``dislodged`` the provinces whose units were dislodged. Thrall marriages
    take effect here; vassal marriages are returned as agreed, for the Census.
    """
    names = variant.map.name_of
    results: list[OrderResult] = []
    proposed: dict[str, list[HeirOrder]] = {}
    for order in orders:
        problem = heir_order_problem(variant, position, order)
        if problem is not None:
            results.append(OrderResult(order, Outcome.ILLEGAL, f"Illegal: {problem}"))
        elif order not in proposed.setdefault(order.location, []):
            proposed[order.location].append(order)
    given: dict[str, HeirOrder] = {}
    for where, options in proposed.items():
        if len(options) == 1:
            given[where] = options[0]
            continue
        results.extend(OrderResult(o, Outcome.ILLEGAL, "Illegal: the heir was given "
                                   "conflicting orders, so it holds") for o in options)
    beaten = set(dislodged)
    heirs = list(position.heirs)
    powers = thawed(position.powers_in_play)
    marriages: list[Marriage] = []
    for where, order in sorted(given.items()):
        if isinstance(order, HeirHold):
            results.append(OrderResult(order, Outcome.SUCCEEDS, "Holds"))
            continue
        assert isinstance(order, HeirMarry)
        if order.to_heir:
            other = given.get(order.partner)
            if not (isinstance(other, HeirMarry) and other.to_heir
                    and other.partner == where and other.at == order.at):
                results.append(OrderResult(order, Outcome.FAILS, (
                    f"Fails: the heir in {names(order.partner)} was not ordered to marry this "
                    f"heir at {names(order.at)} (S9 §10.4 3)")))
                continue
            giver = position.owners[order.at]
            receiver = order.power if giver != order.power else other.power
            marriage = Marriage(giver, receiver, order.at)
            if marriage not in marriages:
                marriages.append(marriage)
            results.append(OrderResult(order, Outcome.SUCCEEDS, (
                f"Marriage agreed: a vassal is created in {names(order.at)} at the Census "
                f"unless {names(order.at)} or either capital is captured (S9 §10.4)")))
            continue
        minor = position.units[order.partner]
        chosen = unit_orders.get(order.partner)
        if not (isinstance(chosen, Marry) and chosen.heir == where):
            results.append(OrderResult(order, Outcome.FAILS, (
                f"Fails: the minor power in {names(order.partner)} was ordered "
                f"'{chosen or 'Hold'}', not to marry this heir (S9 §10.3 C)")))
        elif order.partner in beaten:
            results.append(OrderResult(order, Outcome.FAILS, (
                f"Fails: the minor power's unit in {names(order.partner)} was dislodged "
                "(S9 §10.3 D)")))
        else:
            heirs.remove(Heir(order.power, where, False))
            heirs.append(Heir(order.power, order.partner, True))
            powers[minor.power] = PowerState("thrall", (order.power,))
            results.append(OrderResult(order, Outcome.SUCCEEDS, (
                f"Married: {minor.power} becomes a thrall of {order.power} (S9 §10.3)")))
    return HeirOutcome(tuple(results), tuple(heirs), powers, tuple(marriages))
