"""Convoyed moves for the bots: an army carried by its own power's fleets (and wings).

:func:`convoy_routes` lists, for one army, every legal convoyed move along a
chain of its own power's carriers, with the Convoy orders those carriers must
give: fleets on spaces that may convoy (S9 §4, DATC 4.A), and in Dissolution
wings, which carry armies across any terrain and count as adjacent to each
other for convoys (Dissolution §3.3 (4), (5)). Where the rules want explicit
paths (Dissolution §3.10.1, rules option ``convoy_paths: explicit``) the
army's move names every convoying space in order (``A Cai - Asw - Khm``) and
the convoy orders name only its origin and destination; elsewhere the move
says ``via convoy``. Every order of a route passes the engine's legality
check (:func:`~lawspeaker.core.legality.movement_problem`).

:func:`add_convoys` is how the ``random`` bot convoys: it takes the orders
:mod:`lawspeaker.sim.randomplay` chose and, with some chance for each army
that has a route, rewrites the army's order and its carriers' orders into a
convoy along a random route. The tactician adds routes to its candidate
plans (:mod:`.tactician`). Both draw only from the ``random.Random`` given and
never iterate a set in hash order, so a seed replays a game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...core.board import PhaseKind, Position, Unit
from ...core.convoys import carrier_is_wing, find_chain, step_ok
from ...core.geography import Terrain, UnitType
from ...core.legality import fleet_seas, movement_problem
from ...core.orders import Convoy, Move, Order
from ...variants import Variant

__all__ = ["CONVOY_CHANCE", "ConvoyRoute", "add_convoys", "carriers_of", "convoy_routes"]

CONVOY_CHANCE = 0.35
"""Chance that the random bot convoys an army that one of its routes can carry."""


@dataclass(frozen=True)
class ConvoyRoute:
    """One convoyed move: the army's move and the Convoy order of each carrier."""

    move: Move
    convoys: tuple[Convoy, ...]

    @property
    def orders(self) -> list[Order]:
        return [self.move, *self.convoys]

    @property
    def units(self) -> list[str]:
        """The provinces of the army and of its carriers."""
        return [self.move.province, *(c.province for c in self.convoys)]


def carriers_of(variant: Variant, position: Position, power: str,
                busy: Iterable[str] = ()) -> dict[str, bool]:
    """``power``'s units that could convoy, province -> is it a wing: its fleets
    on spaces that may carry a convoy, and its wings (Dissolution §3.3 (4)),
    except those in ``busy``."""
    provs = variant.map.provinces
    skip = set(busy)
    return {p: u.type is UnitType.WING for p, u in sorted(position.units.items())
            if u.power == power and p not in skip
            and (u.type is UnitType.WING
                 or (u.type is UnitType.FLEET and provs[p].can_convoy))}


def _explicit(variant: Variant) -> bool:
    return variant.rules.convoy_paths == "explicit"


def _touches_a_carrier(variant: Variant, army: Unit, carriers: dict[str, bool]) -> bool:
    game_map = variant.map
    return any(step_ok(game_map, army.province, False, c, wing) for c, wing in carriers.items())


def convoy_routes(variant: Variant, position: Position, army: Unit,
                  carriers: dict[str, bool]) -> list[ConvoyRoute]:
    """Every legal convoyed move of ``army`` to a space it does not border, along
    the shortest chain of ``carriers`` (see :func:`carriers_of`), sorted by
    destination. Empty for a unit that is not an army."""
    if army.type is not UnitType.ARMY or not _touches_a_carrier(variant, army, carriers):
        return []
    game_map = variant.map
    provs = game_map.provinces
    units = position.units
    src = army.province
    explicit = _explicit(variant)
    wings = any(u.type is UnitType.WING for u in units.values())
    seas = fleet_seas(game_map, units)
    reached = _reachable_carriers(variant, src, carriers)
    ends: set[str] = set()
    for c in reached:
        ends |= game_map.touching(c) if carriers[c] else game_map.convoy_links(c)
    out: list[ConvoyRoute] = []
    for dst in sorted(ends):
        province = provs[dst]
        if dst == src or province.terrain in (Terrain.SEA, Terrain.IMPASSABLE) \
                or dst in game_map.army_links.get(army.location, ()):
            continue
        chain = find_chain(game_map, carriers, src, dst, dst_wing=carrier_is_wing(units, dst))
        if chain is None:
            continue
        move = Move(army.power, UnitType.ARMY, army.location, dst,
                    via_convoy=not explicit, path=chain if explicit else ())
        convoys = tuple(Convoy(army.power, units[c].type, units[c].location, army.location, dst)
                        for c in chain)
        if all(movement_problem(game_map, units, o, seas, explicit_paths=explicit,
                                wings=wings) is None for o in (move, *convoys)):
            out.append(ConvoyRoute(move, convoys))
    return out


def _reachable_carriers(variant: Variant, src: str, carriers: dict[str, bool]) -> list[str]:
    """The carriers a chain from ``src`` can reach, breadth first."""
    game_map = variant.map
    seen = [c for c, wing in carriers.items() if step_ok(game_map, src, False, c, wing)]
    frontier = list(seen)
    while frontier:
        nxt = [there for there, there_wing in carriers.items() if there not in seen and any(
            step_ok(game_map, here, carriers[here], there, there_wing) for here in frontier)]
        seen += nxt
        frontier = nxt
    return seen


def add_convoys(variant: Variant, position: Position, orders: list[Order],
                powers: Sequence[str], rng: random.Random,
                chance: float = CONVOY_CHANCE) -> list[Order]:
    """``orders`` with some of ``powers``' armies moved by convoy instead.

    For each army of those powers (in the order of their provinces) that its
    power's unused carriers could convoy, with probability ``chance``: a random
    route of :func:`convoy_routes`; the army's order becomes the convoyed move
    and each carrier's order its Convoy. A unit without an order (a dropped
    power's) is never used. Outside movement phases ``orders`` come back as given.
    """
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return orders
    index = {o.province: i for i, o in enumerate(orders) if o.unit_type is not None}
    out = list(orders)
    busy: set[str] = set()
    for power in sorted(set(powers)):
        if position.kind_of(power) != "major":
            continue
        carriers = {p: w for p, w in carriers_of(variant, position, power).items()
                    if p in index}
        if not carriers:
            continue
        for _, army in sorted(position.units.items()):
            if army.power != power or army.type is not UnitType.ARMY \
                    or army.province in busy or army.province not in index:
                continue
            free = {p: w for p, w in carriers.items() if p not in busy}
            if not _touches_a_carrier(variant, army, free) or rng.random() >= chance:
                continue
            routes = convoy_routes(variant, position, army, free)
            if not routes:
                continue
            route = rng.choice(routes)
            for order in route.orders:
                out[index[order.province]] = order
            busy.update(route.units)
    return out
