"""Limits on neutral units' orders and on DP spent on them (Dissolution §9, §11.4).

With the ``neutral_limits`` component, DP-chosen orders of minor and nuclear
units are bound by rules that give neutral powers "some personality and
sense of self-preservation" (§9). They are preventative: an order breaking
one is illegal, DP on it are ignored, and no neutral unit ever performs it
(§5.1.2 (4)).

* **Cohesion** (§9.2): a neutral unit may not attack, or support or convoy an
  attack on, a unit of its own power; a paired minor's two armies are one
  power (§9.2.1). The US Navy is exempt (``cohesion: false``) but never acts
  against the powers it ``spares``, NATO and Israel (§9.2.3).
* **Prejudice** (§9.3, §11.4.3): a nuclear unit supports or convoys one
  player's attack on another player's unit, or on another player's empty
  centre, only if the attacker's Favor value is higher than the defender's.
* **Barred spaces** (§8.5.4): a US fleet may not be ordered into the Unified
  Deep Water System.
* **Favor cap** (§11.4.1): a player's DP on all of one nuclear power's units
  together may not exceed its Favor value with that power.
* **Default orders** (§5.1.3, §9.2.1): Hold, except that each army of a paired
  minor with both armies present supports the other to hold.

The Deception rule (§9.1) is the DP module's Attacking & Allocating check
(``attack_allocating: any`` counts convoys too), from which nuclear powers
with ``deception: false`` (the US Navy) are exempt.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.board import Position, Unit
from ..core.geography import province_of
from ..core.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from ..variants import Variant
from .favor import favor_of

__all__ = ["default_order", "favor", "favor_cap_problem", "order_problem"]

EXILE_FAVOR = 1
"""Dissolution §5.3: an exile has a Favor value of 1 with every nuclear power."""


def favor(variant: Variant, position: Position, player: str, nuclear: str) -> int:
    """``player``'s Favor value with ``nuclear`` (Dissolution §11.3; 1 for an exile, §5.3):
    the number of its Embassy's space on the Favor Map, or, in a position without
    one (a test case, an old save), the plain number set for it."""
    if player in position.exiles:
        return EXILE_FAVOR
    on_board = favor_of(position, player, nuclear)  # Dissolution §11.3
    if on_board is not None:
        return on_board
    mine = position.favor.get(player)
    if mine is None:
        mine = variant.favor.get(player, {})
    return mine.get(nuclear, 0)


def _target(order: Order) -> str | None:
    """The province an order attacks, or supports or convoys an attack on."""
    if isinstance(order, Move):
        return order.target_province
    if isinstance(order, SupportMove | Convoy):
        return order.target_province
    return None


def _attacker(position: Position, order: Order) -> Unit | None:
    """The unit whose attack a support or convoy helps."""
    if isinstance(order, SupportMove):
        return position.units.get(order.supported_province)
    if isinstance(order, Convoy):
        return position.units.get(order.army_province)
    return None


def order_problem(variant: Variant, position: Position, order: Order) -> str | None:
    """Why a neutral unit may not be given ``order`` (Cohesion, Prejudice, barred
    spaces), or ``None``. Only with the ``neutral_limits`` component."""
    if not variant.uses("neutral_limits"):
        return None
    unit = position.units.get(order.province)
    if unit is None:
        return None
    nuclear = variant.nuclear.get(unit.power)
    if nuclear is not None and isinstance(order, Move) and order.target_province in nuclear.barred:
        return (f"{unit.power} units may not enter {variant.map.name_of(order.target_province)} "
                "(Dissolution §8.5.4)")
    into = _target(order)
    if into is None:
        return None
    defender = position.units.get(into)
    if defender is not None and defender.province != unit.province:
        if nuclear is not None and defender.power in nuclear.spares:
            return (f"{unit.power} never acts against {defender.power} units "
                    "(Dissolution §9.2.3)")
        cohesive = nuclear is None or nuclear.cohesion
        if cohesive and defender.power == unit.power:
            return (f"Cohesion: a unit of {unit.power} may not attack, or support or convoy "
                    f"an attack on, another unit of {unit.power} (Dissolution §9.2)")
    if nuclear is not None and isinstance(order, SupportMove | Convoy):
        return _prejudice(variant, position, nuclear.name, order, into, defender)
    return None


def _prejudice(variant: Variant, position: Position, nuclear: str, order: Order, into: str,
               defender: Unit | None) -> str | None:
    """Dissolution §9.3: help one player against another only for higher Favor."""
    attacker = _attacker(position, order)
    if attacker is None or attacker.power not in variant.powers:
        return None
    if defender is not None:
        target = defender.power
    elif variant.map.provinces[into].is_sc:
        target = position.owners.get(into, "")
    else:
        return None
    if target not in variant.powers or target == attacker.power:
        return None
    mine = favor(variant, position, attacker.power, nuclear)
    theirs = favor(variant, position, target, nuclear)
    if mine > theirs:
        return None
    return (f"Prejudice: {nuclear} helps {attacker.power} against {target} only if "
            f"{attacker.power}'s Favor ({mine}) is higher than {target}'s ({theirs}) "
            "(Dissolution §9.3)")


def favor_cap_problem(variant: Variant, position: Position, power: str, nuclear: str,
                      points: int, earlier: Iterable[tuple[str, int]]) -> str | None:
    """Dissolution §11.4.1: ``power``'s DP on all ``nuclear``'s units together may
    not exceed its Favor value with it. ``earlier``: (nuclear power, DP) of the
    power's allocations already counted this phase."""
    if not variant.uses("neutral_limits"):
        return None
    cap = favor(variant, position, power, nuclear)
    spent = points + sum(p for n, p in earlier if n == nuclear)
    if spent <= cap:
        return None
    return (f"Favor limit (Dissolution §11.4.1): {power} has a Favor value of {cap} with "
            f"{nuclear}, so may allocate at most {cap} DP to its units, and would allocate "
            f"{spent}")


def default_order(variant: Variant, position: Position, unit: Unit) -> Order:
    """The order a neutral unit gets on a tie or without DP (Dissolution §5.1.3):
    Hold, or for a paired minor with both armies present, support of its
    partner to hold (§9.2.1)."""
    partner = _partner(variant, position, unit)
    if partner is not None:
        return SupportHold(unit.power, unit.type, unit.location, None, partner.location)
    return Hold(unit.power, unit.type, unit.location)


def _partner(variant: Variant, position: Position, unit: Unit) -> Unit | None:
    """The other army of ``unit``'s paired minor, when both are on the board
    (Dissolution §3.5.3: with one army left, the pair is an ordinary minor)."""
    for pair, centres in variant.minor_pairs.items():
        if unit.power != pair or unit.province not in centres:
            continue
        others = [position.units.get(c) for c in centres if c != unit.province]
        mate = next((u for u in others if u is not None and u.power == pair), None)
        if mate is not None and province_of(mate.location) != unit.province:
            return mate
    return None
