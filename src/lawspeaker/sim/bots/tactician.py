"""``tactician``: the strongest bot we have without a trained model.

In each orders phase, for each of its powers, it

1. values the board (:class:`~.valuation.Valuation`): centres it does not
   control, its own centres where an enemy stands next to them, and for every
   unit how close it is to centres worth taking;
2. builds candidate order sets: a greedy plan (each unit to its most valuable
   free destination, units with nothing better to do supporting attacks into
   occupied spaces), noisy variations of it, and plans built around the most
   promising convoys of its own armies by its own fleets and wings
   (:mod:`.convoying`; explicit paths in Dissolution, §3.10.1);
3. gives each set the DP that may swing it (S9 §9): all its DP to the Marry of
   the minor its heir proposes to (§10.3 C), or to a neutral unit's support of
   its most valuable attack, or to move a neutral out of the way;
4. adjudicates every candidate with the engine against a few samples of
   plausible replies by everyone else (random legal orders and DP), and plays
   the set with the best mean score.

Its unmarried heir proposes to the nearest minor (a thrall marriage, S9
§10.3); with no minor left to marry, before the Census, to the heir that a
convention every tactician computes alike from the public position pairs it
with (a vassal marriage, §10.4; :mod:`.matchmaking`), and then its units leave
the marriage location and the partner's capital alone (§10.4 4, 5).

Retreats go to the most valuable space, builds to the sites nearest centres
worth taking (the unit type that gets there soonest; a wing where Dissolution
§4.4 allows one), removals take the least useful units, heirs are built
whenever allowed (S9 §8.3); vassals it controls are ordered the same way in
retreats and adjustments (§10.5.2). Winter Embassy orders (Dissolution §11.5)
are random legal ones. Everything is drawn from the ``random.Random`` given,
so a seed replays a game exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...core import orders as o
from ...core.board import PhaseKind, Position, Unit
from ...core.geography import Terrain, UnitType
from ...core.legality import movement_problem
from ...core.orders import Order
from ...engine.adjustments import adjustment_counts, heir_builds_possible
from ...engine.phases import adjudicate
from ...engine.retreats import retreat_options
from ...rules.dp import Allocation, allocation_problem, allotment, is_dp_controlled
from ...rules.marriages import heir_order_problem
from ...rules.neutral_limits import order_problem
from ...rules.vp import wing_build_problem
from ...variants import Variant
from ..randomplay import may_build, random_allocations, random_orders, unit_options
from .base import Moves
from .convoying import ConvoyRoute, carriers_of, convoy_routes
from .matchmaking import vassal_proposals
from .valuation import FAR, Valuation, distances

__all__ = ["Tactician"]


@dataclass(frozen=True)
class _Candidate:
    orders: list[Order]
    allocations: list[Allocation]


class Tactician:
    """See the module's docstring. ``candidates`` order sets are tried against
    ``samples`` sets of replies each phase."""

    name = "tactician"

    def __init__(self, candidates: int = 6, samples: int = 3, convoys: int = 2) -> None:
        self.candidates = candidates
        self.samples = samples
        self.convoys = convoys

    def play(self, variant: Variant, position: Position, powers: Sequence[str],
             rng: random.Random) -> Moves:
        kind = position.phase.kind
        out = Moves()
        replies: list[tuple[list[Order], list[Allocation]]] | None = None
        for power in sorted(set(powers) - position.dropped):
            if kind is PhaseKind.MOVEMENT:
                if replies is None:
                    replies = self._replies(variant, position, rng)
                out += self._movement(variant, position, power, rng, replies)
            elif kind is PhaseKind.RETREAT:
                out += Moves(_retreats(variant, position, power))
            elif kind is PhaseKind.ADJUSTMENT:
                out += Moves(_adjustments(variant, position, power, rng))
        return out

    # --- orders phases -------------------------------------------------------------------

    def _replies(self, variant: Variant, position: Position, rng: random.Random
                 ) -> list[tuple[list[Order], list[Allocation]]]:
        """Plausible moves by everyone else, ``samples`` of them: a random legal order
        for every unit of a major power (mostly moves, as :mod:`..randomplay` plays),
        each unit's options worked out once; one random set of DP, shared."""
        options = [(u.power, unit_options(variant, position, u))
                   for _, u in sorted(position.units.items())
                   if position.kind_of(u.power) == "major" and u.power not in position.dropped]
        out: list[tuple[list[Order], list[Allocation]]] = []
        allocations: list[Allocation] | None = None
        for _ in range(self.samples):
            orders: list[Order] = []
            for _power, choices in options:
                moves = [order for order in choices if isinstance(order, o.Move)]
                orders.append(rng.choice(moves if moves and rng.random() < 0.6 else choices))
            if allocations is None:
                allocations = random_allocations(variant, position, orders, rng) \
                    if variant.uses("diplomacy_points") else []
            out.append((orders, allocations))
        return out

    def _movement(self, variant: Variant, position: Position, power: str,
                  rng: random.Random, replies: list[tuple[list[Order], list[Allocation]]]
                  ) -> Moves:
        valuation = Valuation(variant, position, power)
        units = [u for _, u in sorted(position.units.items())
                 if u.power == power and position.kind_of(power) == "major"]
        heir_orders = _heir_orders(variant, position, power)
        spared = _spared(variant, position, power, heir_orders)
        options = {u.province: [order for order in unit_options(variant, position, u)
                                if getattr(order, "target_province", None) not in spared]
                   for u in units}
        budget = allotment(variant, position, power) \
            if variant.uses("diplomacy_points") else 0
        plans = [_plan(variant, position, valuation, units, options, None)]
        for i in range(1, self.candidates):
            plans.append(_plan(variant, position, valuation, units, options,
                               rng if i % 2 else None, noise=0.25 + 0.1 * i,
                               support=i % 3 != 2))
        for route in _convoy_plans(variant, position, valuation, units, self.convoys,
                                   spared):
            fixed = {order.province: order for order in route.orders}
            plans.append(_plan(variant, position, valuation, units, options, None,
                               fixed=fixed))
        candidates: list[_Candidate] = []
        seen: set[tuple[Order, ...]] = set()
        for plan in plans:
            key = tuple(plan)
            if key in seen:
                continue
            seen.add(key)
            orders = plan + heir_orders
            vassal = _vassal_proposals(variant, position, power, valuation, orders, budget)
            candidates.append(_Candidate(orders, vassal + _spend(
                variant, position, power, orders, budget - sum(a.points for a in vassal),
                vassal)))
        if len(candidates) == 1 or not units:
            best = candidates[0]
        else:
            best = max(candidates, key=lambda c: self._mean_score(
                variant, position, power, valuation, c, replies))
        return Moves(best.orders, best.allocations)

    @staticmethod
    def _mean_score(variant: Variant, position: Position, power: str, valuation: Valuation,
                    candidate: _Candidate,
                    replies: list[tuple[list[Order], list[Allocation]]]) -> float:
        total = 0.0
        for orders, allocations in replies:
            theirs = [order for order in orders if order.power != power]
            spent = [a for a in allocations if a.power != power]
            result = adjudicate(variant, position, theirs + candidate.orders, None,
                                spent + candidate.allocations)
            total += valuation.score(result.position)
        return total / max(len(replies), 1)


def _plan(variant: Variant, position: Position, valuation: Valuation, units: list[Unit],
          options: dict[str, list[Order]], rng: random.Random | None, noise: float = 0.0,
          support: bool = True, fixed: dict[str, Order] | None = None) -> list[Order]:
    """One candidate order set: each unit to its most valuable destination not
    already taken by another of the power's units (noisy when ``rng`` is given),
    then idle units support attacks into occupied spaces. ``fixed`` (province ->
    order) are orders given in advance, a convoy's (their destinations are taken)."""
    fixed = fixed or {}
    autumn = _before_census(variant, position)

    def worth(unit: Unit, order: Order) -> float:
        if isinstance(order, o.Move):
            value = valuation.potential(unit.type, order.target)
        elif isinstance(order, o.Hold):
            value = valuation.potential(unit.type, unit.location)
            if valuation.worth.get(unit.province, 0) > 0:
                value *= 1.6 if autumn else 1.2  # stay to take or keep it (S9 §2.1)
        else:
            return -1.0
        if rng is not None:
            value *= 1 + rng.uniform(-noise, noise)
        return value

    ranked = {u.province: sorted(((worth(u, order), i, order) for i, order in
                                  enumerate(options[u.province])
                                  if isinstance(order, o.Move | o.Hold)),
                                 key=lambda t: (-t[0], t[1]))
              for u in units}
    chosen: dict[str, tuple[float, Order]] = {}
    claimed: set[str] = set()
    for prov, order in fixed.items():
        into = order.target_province if isinstance(order, o.Move) else prov
        chosen[prov] = (math.inf, order)  # never turned into a support below
        claimed.add(into)
    for unit in sorted((u for u in units if u.province not in fixed),
                       key=lambda u: (-ranked[u.province][0][0], u.province)):
        for value, _, order in ranked[unit.province]:
            into = order.target.split("/")[0] if isinstance(order, o.Move) else unit.province
            if into not in claimed:
                claimed.add(into)
                chosen[unit.province] = (value, order)
                break
        else:  # every space it could be in is taken by the others' plans: it holds
            chosen[unit.province] = (0.0, o.Hold(unit.power, unit.type, unit.location))
    if support:
        _add_supports(position, units, options, chosen)
    return [chosen[u.province][1] for u in units if u.province in chosen]


def _convoy_plans(variant: Variant, position: Position, valuation: Valuation,
                  units: list[Unit], most: int, spared: set[str]) -> list[ConvoyRoute]:
    """The power's ``most`` most promising convoys of its own armies by its own
    fleets and wings (:mod:`.convoying`): those that bring an army nearer
    centres worth taking than any move on its own could, the greatest gain first;
    none into ``spared``."""
    if most <= 0 or not units:
        return []
    carriers = carriers_of(variant, position, units[0].power)
    if not carriers:
        return []
    game_map = variant.map
    offers: list[tuple[float, str, str, ConvoyRoute]] = []
    for army in units:
        if army.type is not UnitType.ARMY:
            continue
        walk = max([valuation.potential(UnitType.ARMY, army.location)]
                   + [valuation.potential(UnitType.ARMY, t)
                      for t in sorted(game_map.neighbours(UnitType.ARMY, army.location))])
        for route in convoy_routes(variant, position, army, carriers):
            gain = valuation.potential(UnitType.ARMY, route.move.target) - walk
            if gain > 0 and route.move.target_province not in spared:
                offers.append((-gain, army.province, route.move.target, route))
    offers.sort(key=lambda t: t[:3])
    return [route for *_, route in offers[:most]]


def _add_supports(position: Position, units: list[Unit], options: dict[str, list[Order]],
                  chosen: dict[str, tuple[float, Order]]) -> None:
    """Units whose own order is worth little support an attack into a space
    another power's unit stands in, the most valuable attack first."""
    attacks = sorted(((v, order) for v, order in chosen.values()
                      if isinstance(order, o.Move) and v < math.inf
                      and order.target.split("/")[0] in position.units
                      and position.units[order.target.split("/")[0]].power != order.power),
                     key=lambda t: -t[0])
    for value, attack in attacks:
        for unit in units:
            own_value, own = chosen[unit.province]
            if own is attack or own_value >= 0.6 * value:
                continue
            for option in options[unit.province]:
                if isinstance(option, o.SupportMove) and option.supported == attack.location \
                        and option.target == attack.target:
                    chosen[unit.province] = (value, option)
                    break
            else:
                continue
            break


def _before_census(variant: Variant, position: Position) -> bool:
    """Whether this orders phase is the last before centres change hands."""
    phases = variant.phases
    index = next((i for i, (s, k) in enumerate(phases)
                  if s == position.phase.season and k is position.phase.kind), 0)
    return not any(k is PhaseKind.MOVEMENT for _, k in phases[index + 1:])


def _heir_orders(variant: Variant, position: Position, power: str) -> list[Order]:
    """The power's unmarried heir proposes to the nearest minor, the one with
    more centres first (a thrall marriage, S9 §10.3); with no minor left to
    marry, before the Census, to the heir the convention pairs it with (a
    vassal marriage, §10.4; :mod:`.matchmaking`); or holds (§7.1)."""
    heir = position.unmarried_heir(power)
    if heir is None or not variant.uses("heirs"):
        return []
    vassal = vassal_proposals(variant, position).get(power)
    if vassal is not None:
        return [vassal]
    near = distances(variant, UnitType.ARMY)
    minors = sorted((near.get(prov, {}).get(heir.location, FAR),
                     -len(position.centres_of(owner)), prov)
                    for prov, owner in position.owners.items()
                    if position.kind_of(owner) == "minor" and prov in position.units
                    and position.units[prov].power == owner)  # §10.3 A
    for _, _, prov in minors:
        order = o.HeirMarry(power, None, heir.location, prov)
        if heir_order_problem(variant, position, order) is None:
            return [order]
    return [o.HeirHold(power, None, heir.location)]


def _spared(variant: Variant, position: Position, power: str,
            heir_orders: list[Order]) -> set[str]:
    """Spaces the power's units leave alone this phase: when its heir proposes a
    vassal marriage, the marriage location and the partner's capital, whose
    capture would make the marriage fail (S9 §10.4 4, 5); its own centres are
    never captured by its own units."""
    out: set[str] = set()
    for order in heir_orders:
        if isinstance(order, o.HeirMarry) and order.to_heir:
            partner = next((h.power for h in position.heirs
                            if h.location == order.partner and not h.married), None)
            out.add(order.at)
            if partner is not None:
                out.add(variant.powers[partner].capital or "")
    return out - set(position.centres_of(power)) - {""}


def _spend(variant: Variant, position: Position, power: str, orders: list[Order],
           budget: int, earlier: list[Allocation]) -> list[Allocation]:
    """All the power's DP on the one proposal most likely to swing a result:
    its heir's bride's Marry (S9 §10.3 C), else a neutral's support of its
    attack, else a neutral ordered out of the space it attacks (§9.1)."""
    if budget <= 0:
        return []

    def legal(order: Order) -> Allocation | None:
        allocation = Allocation(power, budget, order)
        unit = position.units.get(order.province)
        if unit is None or not is_dp_controlled(position, unit):
            return None
        if movement_problem(variant.map, position.units, order) is not None \
                or order_problem(variant, position, order) is not None:
            return None
        if allocation_problem(variant, position, allocation, orders, earlier) is not None:
            return None
        return allocation

    for given in orders:
        if isinstance(given, o.HeirMarry) and not given.to_heir:
            unit = position.units[given.partner]
            marry = legal(o.Marry(unit.power, unit.type, unit.location, heir=given.location))
            if marry is not None:
                return [marry]
    neutrals = [u for _, u in sorted(position.units.items()) if is_dp_controlled(position, u)]
    for attack in (order for order in orders if isinstance(order, o.Move)):
        into = attack.target.split("/")[0]
        for unit in neutrals:
            if unit.province == into:
                continue
            help_ = legal(o.SupportMove(unit.power, unit.type, unit.location,
                                        _unit_type(position, attack), attack.location,
                                        attack.target))
            if help_ is not None:
                return [help_]
        blocker = position.units.get(into)
        if blocker is not None and is_dp_controlled(position, blocker):
            for away in sorted(variant.map.neighbours(blocker.type, blocker.location)):
                if away.split("/")[0] == attack.province:
                    continue
                out = legal(o.Move(blocker.power, blocker.type, blocker.location, away))
                if out is not None:
                    return [out]
    return []


def _vassal_proposals(variant: Variant, position: Position, power: str, valuation: Valuation,
                      orders: list[Order], budget: int) -> list[Allocation]:
    """1 DP for each unit of a vassal the power controls (S9 §9.1 C, §10.5.1): to
    its most valuable legal move or hold, while DP last (half the allotment at most)."""
    out: list[Allocation] = []
    spare = budget // 2
    for _, unit in sorted(position.units.items()):
        if spare <= 0:
            break
        if position.kind_of(unit.power) != "vassal" or \
                power not in position.controllers_of(unit.power):
            continue
        options = [order for order in unit_options(variant, position, unit)
                   if isinstance(order, o.Move | o.Hold)
                   and order_problem(variant, position, order) is None]
        options.sort(key=lambda order: (-valuation.potential(
            unit.type, order.target if isinstance(order, o.Move) else unit.location), str(order)))
        for option in options:
            allocation = Allocation(power, 1, option)
            if allocation_problem(variant, position, allocation, orders, out) is None:
                out.append(allocation)
                spare -= 1
                break
    return out


def _unit_type(position: Position, order: Order) -> UnitType:
    return position.units[order.province].type


# --- retreats and adjustments ---------------------------------------------------------------

def _gives_for(position: Position, power: str, of: str) -> bool:
    """Whether ``power`` orders ``of``'s retreats and adjustments: its own, and
    those of the vassals it controls (S9 §10.5.2)."""
    if of == power:
        return position.kind_of(of) == "major"
    return position.kind_of(of) == "vassal" and power in position.controllers_of(of)


def _retreats(variant: Variant, position: Position, power: str) -> list[Order]:
    """Each dislodged unit to its most valuable retreat, or disbanded."""
    valuation = Valuation(variant, position, power)
    orders: list[Order] = []
    for _, dislodged in sorted(position.dislodged.items()):
        unit = dislodged.unit
        if unit.stationary or not _gives_for(position, power, unit.power):
            continue
        choices = retreat_options(variant, position, dislodged)
        if choices:
            best = max(sorted(choices), key=lambda loc: valuation.potential(unit.type, loc))
            orders.append(o.Retreat(power, unit.type, unit.location, best))
        else:
            orders.append(o.Disband(power, unit.type, unit.location))
    return orders


def _adjustments(variant: Variant, position: Position, power: str,
                 rng: random.Random) -> list[Order]:
    orders: list[Order] = []
    valuation = Valuation(variant, position, power)
    for of, owed in sorted(adjustment_counts(variant, position).items()):
        if not owed or not _gives_for(position, power, of):
            continue
        if owed < 0:
            units = sorted(position.units_of(of), key=lambda u: (
                valuation.potential(u.type, u.location), u.province))
            orders += [o.Remove(power, u.type, u.location) for u in units[:-owed]]
        else:
            orders += _builds(variant, position, valuation, power, of, owed)
    if power in heir_builds_possible(variant, position):
        orders.append(o.BuildHeir(power, None, ""))  # S9 §8.3, in the capital
    if variant.uses("favor_map") and position.embassies.get(power):
        orders += [order for order in random_orders(variant, position, rng)  # Dissolution §11.5
                   if isinstance(order, o.EmbassyOrder) and order.power == power]
    return orders


def _builds(variant: Variant, position: Position, valuation: Valuation, giver: str,
            power: str, owed: int) -> list[Order]:
    """Builds on the free sites nearest centres worth taking, each of the unit
    type that gets there soonest; at most one wing (Dissolution §4.4)."""
    game_map = variant.map
    wing = variant.uses("wings") and wing_build_problem(variant, position, power) is None
    offers: list[tuple[float, str, Order]] = []
    for prov in sorted(position.centres_of(power)):
        if prov in position.units or not may_build(variant, position, power, prov):
            continue
        province = game_map.provinces[prov]
        kinds: list[tuple[UnitType, str]] = [(UnitType.ARMY, prov)] \
            if province.terrain is not Terrain.SEA else []
        if province.terrain is not Terrain.LAND:
            kinds += [(UnitType.FLEET, loc) for loc in province.locations
                      if game_map.is_valid_location(UnitType.FLEET, loc)]
        if wing:
            kinds.append((UnitType.WING, prov))
        for kind, loc in kinds:
            bonus = 0.3 if kind is UnitType.WING else 0.0
            offers.append((valuation.potential(kind, loc) + bonus, loc, o.Build(giver, kind, loc)))
    orders: list[Order] = []
    used: set[str] = set()
    for _, loc, order in sorted(offers, key=lambda t: (-t[0], t[1])):
        prov = loc.split("/")[0]
        if prov in used or (order.unit_type is UnitType.WING and not wing):
            continue
        used.add(prov)
        wing = wing and order.unit_type is not UnitType.WING
        orders.append(order)
        if len(orders) == owed:
            break
    return orders
