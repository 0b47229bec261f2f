"""Random legal play, for simulations, soak tests and bot baselines.

:func:`random_orders` gives every unit of the major powers a legal order
for the current phase; :func:`random_allocations` spends each major power's
DP on legal proposals for DP-controlled units without breaking the Attacking
& Allocating rule (S9 §9.0, §9.2); :func:`play` runs a whole game with them.

With the ``heirs`` component (S9 Complete, §7.1, §10) random play also:

* orders every unmarried heir: usually Hold, sometimes Marry a minor power
  (a thrall marriage, §10.3), and in the orders phase before the Census it
  pairs heirs for vassal marriages with matching orders at a legal marriage
  location (§10.4);
* votes DP for a minor's ``Marry`` when its own heir asks for that minor
  (§9.1 A, §10.3 C), and spends a controller's DP on its vassals' mobile
  units (§9.1 C, §10.5.1);
* retreats, builds and removes for vassals on orders from one or both
  controllers, sometimes conflicting (§10.5.2);
* builds heirs where the rules allow (§8.3).

Everything is driven by the ``random.Random`` passed in, and nothing is
chosen in the hash order of a set or dict, so a seed replays a game exactly
whatever ``PYTHONHASHSEED`` is.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.board import PhaseKind, Position
from ..core.geography import Terrain, UnitType
from ..core.notation import format_order
from ..core.orders import (
    Build,
    BuildHeir,
    Disband,
    EmbassyOrder,
    HeirHold,
    HeirMarry,
    Marry,
    Order,
    Remove,
    Retreat,
)
from ..core.ruleset import BuildRule, Rules
from ..engine.adjustments import adjustment_counts, heir_builds_possible
from ..engine.phases import Adjudication, adjudicate, initial_position
from ..engine.retreats import retreat_options
from ..rules.dp import Allocation, AllocationCheck
from ..rules.favor import FavorBoard, favor_board, value_of
from ..rules.marriages import heir_order_problem, marry_problem, vassal_marriage_phase
from ..rules.vp import emergent_sites, wing_build_problem
from ..variants import Variant
from .options import board_of, unit_options

__all__ = ["drop_a_player", "may_build", "play", "random_allocations", "random_orders",
           "random_posts", "unit_options"]

THRALL_MARRIAGE = 0.25
"""Chance that an unmarried heir proposes to a minor power (S9 §10.3)."""
VASSAL_MARRIAGE = 0.5
"""Chance that an unmarried heir seeks a partner heir before the Census (§10.4)."""
JILTED = 0.15
"""Chance that a vassal proposal is one-sided, so that it fails (§10.4 3)."""
MARRY_VOTE = 0.75
"""Chance that a power backs its own heir's thrall proposal with all its DP."""
HEIR_BUILD = 0.8
"""Chance that a power builds an heir when it may (S9 §8.3)."""
WING_BUILD = 0.3
"""Chance that a build is a wing when the power may build one (Dissolution §4.4)."""


def random_orders(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    """A random legal order for every unit and unmarried heir the major powers
    must order; in retreats and adjustments also the orders controllers give
    their vassals (S9 §10.5.2). Powers in ``position.dropped`` give none: a
    dropped player sends no orders (§3.4.2)."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        orders = _movement(variant, position, rng)
        if variant.uses("heirs"):
            orders += _heir_orders(variant, position, rng)
        return orders
    if kind is PhaseKind.RETREAT:
        return _retreats(variant, position, rng)
    if kind is PhaseKind.ADJUSTMENT:
        orders = _adjustments(variant, position, rng)
        if variant.uses("favor_map") and position.embassies:
            orders += _embassy_orders(variant, position, rng)
        return orders
    return []


def _embassy_orders(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    """Random Winter orders for the Embassies (Dissolution §11.5): moves inside the
    slice, supports (across a slice border too) and holds; some illegal ones too
    (too many moves, a support from a perimeter), which the engine must refuse."""
    board = favor_board(variant)
    orders: list[Order] = []
    for player, mine in sorted(position.embassies.items()):
        if player in position.dropped:
            continue
        for space in sorted(mine.values()):
            roll = rng.random()
            if roll < 0.4:
                to = rng.choice(_favor_neighbours(board, space, True))
                orders.append(EmbassyOrder(player, None, space, "-", to))
            elif roll < 0.6 and value_of(space):
                into = rng.choice(_favor_neighbours(board, space, False))
                near = [n for n in _favor_neighbours(board, into, True) if n != space]
                if near:
                    orders.append(EmbassyOrder(player, None, space, "S", into, rng.choice(near)))
            else:
                orders.append(EmbassyOrder(player, None, space))
    return orders


_FAVOR_NEIGHBOURS: dict[tuple[FavorBoard, str, bool], tuple[str, ...]] = {}


def _favor_neighbours(board: FavorBoard, space: str, same_slice: bool) -> tuple[str, ...]:
    """``board.neighbours``, each answer kept: a Favor board is immutable (compared
    by identity), and there is one per board file."""
    key = (board, space, same_slice)
    known = _FAVOR_NEIGHBOURS.get(key)
    if known is None:
        known = _FAVOR_NEIGHBOURS[key] = board.neighbours(space, same_slice=same_slice)
    return known


def _movement(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    orders: list[Order] = []
    board = board_of(variant, position)
    for _, unit in sorted(position.units.items()):
        if board.kind_of(unit.power) != "major" or unit.power in position.dropped:
            continue
        moves = board.moves(unit)
        # Mostly moves, so that games are lively; otherwise anything legal (the
        # supports and convoys are looked for only then).
        orders.append(rng.choice(moves) if moves and rng.random() < 0.6
                      else rng.choice(board.options_and_moves(unit)[0]))
    return orders


def _heir_orders(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    """One order for each unmarried heir (S9 §7.1): Hold or Marry.

    Before the Census, heirs are paired for vassal marriages (§10.4): both
    get matching orders at a centre of one of them that is not a home centre
    of either and holds no unit but the owner's. Every order given is legal
    (:func:`~lawspeaker.rules.marriages.heir_order_problem`).
    """
    single = [p for p in sorted(variant.powers)
              if p not in position.dropped and position.unmarried_heir(p) is not None]
    orders: list[Order] = []
    if vassal_marriage_phase(variant, position):
        rng.shuffle(single)
        waiting = list(single)
        single = []
        while waiting:
            power = waiting.pop(0)
            proposals = _vassal_proposals(variant, position, power, waiting) \
                if rng.random() < VASSAL_MARRIAGE else []
            if not proposals:
                single.append(power)
                continue
            mine, theirs = rng.choice(proposals)
            orders.append(mine)
            if rng.random() < JILTED:
                continue  # the partner was not asked: a public, failed attempt (§10.4.1)
            orders.append(theirs)
            waiting.remove(theirs.power)
        single.sort()
    kind_of = board_of(variant, position).kind_of
    units = position.units
    minors = [prov for prov, owner in sorted(position.owners.items())
              if kind_of(owner) == "minor" and prov in units
              and units[prov].power == owner]  # §10.3 A
    for power in single:
        heir = position.unmarried_heir(power)
        assert heir is not None
        order: Order = HeirHold(power, None, heir.location)
        if minors and rng.random() < THRALL_MARRIAGE:
            order = HeirMarry(power, None, heir.location, rng.choice(minors))
        assert heir_order_problem(variant, position, order) is None, order
        orders.append(order)
    return orders


def _vassal_proposals(variant: Variant, position: Position, power: str,
                      partners: list[str]) -> list[tuple[HeirMarry, HeirMarry]]:
    """Legal pairs of matching vassal-marriage orders of ``power`` with each
    of ``partners`` at each possible marriage location (S9 §10.4 1-3)."""
    out = []
    mine = position.unmarried_heir(power)
    assert mine is not None
    for partner in partners:
        theirs = position.unmarried_heir(partner)
        assert theirs is not None
        homes = variant.powers[power].homes + variant.powers[partner].homes
        for where in sorted(set(position.centres_of(power) + position.centres_of(partner))):
            if where in homes:
                continue  # never a home centre of either (§10.4), so need not be asked
            ask = HeirMarry(power, None, mine.location, theirs.location, True, where)
            answer = HeirMarry(partner, None, theirs.location, mine.location, True, where)
            if heir_order_problem(variant, position, ask) is None and \
                    heir_order_problem(variant, position, answer) is None:
                out.append((ask, answer))
    return out


def _retreats(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    """Retreat or disband each mobile dislodged unit; a vassal's is ordered by
    one of its controllers, or by both, possibly differently (S9 §10.5.2)."""
    orders: list[Order] = []
    for _, dislodged in sorted(position.dislodged.items()):
        unit = dislodged.unit
        givers = _givers(position, unit.power, rng)
        options = retreat_options(variant, position, dislodged)
        for giver in givers:
            if options and rng.random() < 0.85:
                orders.append(Retreat(giver, unit.type, unit.location, rng.choice(options)))
            else:
                orders.append(Disband(giver, unit.type, unit.location))
    return orders


def _givers(position: Position, power: str, rng: random.Random) -> list[str]:
    """Who orders ``power``'s retreats and adjustments: a major itself; a
    vassal's controllers, one or both (S9 §10.5.2); nobody for minors and
    thralls, whose units are stationary and rebuild by themselves (§7.2, §8.4)."""
    kind = position.kind_of(power)
    if kind == "major":
        return [] if power in position.dropped else [power]
    if kind != "vassal":
        return []
    controllers = [p for p in position.controllers_of(power) if p not in position.dropped]
    roll = rng.random()
    if roll < 0.3 or not controllers:
        return controllers
    return [rng.choice(controllers)] if roll < 0.95 else []


def _adjustments(variant: Variant, position: Position, rng: random.Random) -> list[Order]:
    """Builds and removals for majors and vassals (S9 §8.2, §8.4, §10.5.2),
    and heir builds where allowed (§8.3)."""
    orders: list[Order] = []
    for power, owed in sorted(adjustment_counts(variant, position).items()):
        for giver in _givers(position, power, rng):
            orders += _adjust(variant, position, power, owed, giver, rng)
    for power in heir_builds_possible(variant, position):
        major = variant.powers[power]
        if power not in position.dropped and rng.random() < HEIR_BUILD:
            orders.append(BuildHeir(power, None, rng.choice([major.capital or "", ""])))
    return orders


def _adjust(variant: Variant, position: Position, power: str, owed: int, giver: str,
            rng: random.Random) -> list[Order]:
    """``giver``'s adjustment orders for ``power`` (itself, or a vassal it controls)."""
    orders: list[Order] = []
    if owed < 0:
        units = sorted(position.units_of(power), key=lambda u: u.province)
        for unit in rng.sample(units, min(-owed, len(units))):
            orders.append(Remove(giver, unit.type, unit.location))
    elif owed > 0:
        sites = [p for p in sorted(position.centres_of(power)) if p not in position.units
                 and may_build(variant, position, power, p)]
        wing = wing_build_problem(variant, position, power) is None  # Dissolution §4.4
        for prov in rng.sample(sites, min(owed, len(sites))):
            province = variant.map.provinces[prov]
            if wing and rng.random() < WING_BUILD:
                orders.append(Build(giver, UnitType.WING, prov))
                wing = False
            elif province.terrain is Terrain.LAND or rng.random() < 0.5:
                orders.append(Build(giver, UnitType.ARMY, prov))
            else:
                orders.append(Build(giver, UnitType.FLEET, rng.choice(province.locations)))
    return orders


def may_build(variant: Variant, position: Position, power: str, prov: str) -> bool:
    """A vassal builds only in its capital (S9 §8.4); a major in its home
    centres, anywhere it owns under ``builds: owned`` (§8.1, §8.2), or in its
    emergent build locations (Dissolution §4.3)."""
    if position.kind_of(power) == "vassal":
        return prov == position.powers_in_play[power].capital
    if variant.rules.builds is BuildRule.EMERGENT:
        return prov in emergent_sites(variant, position, power)
    major = variant.powers.get(power)
    return variant.rules.builds is BuildRule.OWNED or (major is not None and prov in major.homes)


def random_allocations(variant: Variant, position: Position, orders: list[Order],
                       rng: random.Random) -> list[Allocation]:
    """Each major spends its DP (S9 §9.2) on random legal proposals.

    First it backs its own heir's thrall proposal, usually with all its DP,
    voting the minor's ``Marry`` (§9.1 A, §10.3 C); then it proposes orders
    for the units of the vassals it controls (§9.1 C), often agreeing with a
    co-controller's earlier vote; then any DP left go to random neutral units,
    sometimes to marry a random unmarried heir. Every allocation passes
    :func:`~lawspeaker.rules.dp.allocation_problem` against ``orders``. Dropped
    players allocate nothing.
    """
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return []
    ruled = board_of(variant, position).ruled()
    out: list[Allocation] = []
    if not ruled:
        return out
    heirs = sorted(h.location for h in position.heirs if not h.married)
    check = AllocationCheck(variant, position, orders)
    votes: dict[str, list[HeirMarry]] = {}  # each heir's thrall proposals (§10.3 C)
    for given in orders:
        if isinstance(given, HeirMarry) and not given.to_heir:
            votes.setdefault(given.power, []).append(given)
    for power in sorted(variant.powers):  # exiles too, 1 DP each (Dissolution §5.3)
        if power not in position.dropped:
            out.extend(_spend(variant, position, power, votes.get(power, []), heirs, out, rng,
                              check))
    return out


def _spend(variant: Variant, position: Position, power: str, votes: list[HeirMarry],
           heirs: list[str], earlier: list[Allocation], rng: random.Random,
           check: AllocationCheck) -> list[Allocation]:
    """One power's allocations (see :func:`random_allocations`); ``votes`` are the
    power's heir's thrall proposals among the orders, ``earlier`` the other
    powers' allocations so far, ``heirs`` the unmarried heirs, ``check`` the
    allocation rules for the turn's orders."""
    budget = check.allotment(power)
    mine: list[Allocation] = []
    spent = 0
    board = board_of(variant, position)
    for given in votes:
        if rng.random() < MARRY_VOTE:
            unit = position.units[given.partner]
            spent = _offer(check, mine, spent, budget, power,
                           Marry(unit.power, unit.type, unit.location, heir=given.location),
                           budget)
    for unit in board.vassal_units():
        if power in position.controllers_of(unit.power) and rng.random() < 0.8:
            voted = [a.order for a in earlier if a.order.province == unit.province]
            spent = _offer(check, mine, spent, budget, power,
                           voted[0] if voted and rng.random() < 0.6
                           else rng.choice(board.options_and_moves(unit)[0]))
    ruled = board.ruled()
    for _ in range(budget * 2):
        if spent >= budget:
            break
        unit = rng.choice(ruled)
        if heirs and board.kind_of(unit.power) == "minor" and rng.random() < 0.1:
            marry = Marry(unit.power, unit.type, unit.location, heir=rng.choice(heirs))
            assert marry_problem(variant, position, marry) is None
            order: Order = marry
        else:
            order = rng.choice(board.neutral_options(unit))
        spent = _offer(check, mine, spent, budget, power, order)
    return mine


def _offer(check: AllocationCheck, mine: list[Allocation], spent: int, budget: int,
           power: str, order: Order, points: int = 1) -> int:
    """Add ``points`` DP (at most those left) to ``order`` to ``mine`` if the rules
    allow (S9 §9.0, §9.2); the DP spent afterwards."""
    left = budget - spent
    if left <= 0:
        return spent
    allocation = Allocation(power, min(points, left), order)
    if check.problem(allocation, mine) is not None:
        return spent
    mine.append(allocation)
    return spent + allocation.points


def drop_a_player(variant: Variant, position: Position, rng: random.Random) -> Position:
    """The GM drops a random surviving major power, which the next Autumn
    Census eliminates early (S9 §3.4.2), as :meth:`Game.force_elimination`."""
    alive = sorted({o for o in position.owners.values() if o in variant.powers}
                   - position.dropped)
    if not alive:
        return position
    return position.replace(dropped=position.dropped | {rng.choice(alive)})


def play(variant: Variant, rng: random.Random, years: int, rules: Rules | None = None,
         check: Callable[[Position, Adjudication], None] | None = None,
         drop_chance: float = 0.0) -> Position:
    """Play random legal orders (and DP) for up to ``years`` game years.

    ``check`` is called after every phase with the new position and the
    adjudication, so tests can assert invariants throughout. ``drop_chance``
    (default 0, off) is the chance, before each Autumn orders phase of a
    variant with heirs, that the GM drops a player (:func:`drop_a_player`,
    S9 §3.4.2); the dropped power sends no orders until the Census ends it.
    """
    rules = rules or variant.rules
    position = initial_position(variant)
    last_year = variant.first_year + years - 1
    while position.result is None and position.phase.year <= last_year:
        if drop_chance > 0 and variant.uses("heirs") and position.phase.season == "Autumn" \
                and position.phase.kind is PhaseKind.MOVEMENT and rng.random() < drop_chance:
            position = drop_a_player(variant, position, rng)
        orders = random_orders(variant, position, rng)
        allocations = random_allocations(variant, position, orders, rng) \
            if variant.uses("diplomacy_points") else []
        result = adjudicate(variant, position, orders, rules, allocations)
        position = result.position
        if check is not None:
            check(position, result)
    return position


def random_posts(variant: Variant, position: Position, rng: random.Random
                 ) -> tuple[dict[str, str], list[Order], list[Allocation]]:
    """Random legal orders and DP written out as each player would post them
    (full names, ``2 DP to ...``), for driving a kept game as players do; with
    the orders and allocations themselves, to replay them on the engine."""
    orders = random_orders(variant, position, rng)
    allocations = random_allocations(variant, position, orders, rng) \
        if variant.uses("diplomacy_points") else []
    lines: dict[str, list[str]] = {}
    for order in orders:
        lines.setdefault(order.power, []).append(format_order(order, variant.map, long=True))
    for a in allocations:
        lines.setdefault(a.power, []).append(
            f"{a.points} DP to {format_order(a.order, variant.map, long=True)}")
    posts = {power: f"{power}:\n" + "\n".join(body) + "\n" for power, body in lines.items()}
    return posts, orders, allocations

