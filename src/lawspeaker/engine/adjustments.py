"""The adjustment phase: builds, removals and civil disorder.

A power with more centres than units may build the difference, one unit per
vacant centre it owns and may build in (home centres under standard rules;
any owned centre when the variant says so, S9 §8.1). A power with fewer
centres must remove the difference; orders are taken one by one in the
order given, extra ones are void (DATC 4.D.4-4.D.6), and missing removals are
chosen by the civil-disorder rule of the rules edition (DATC 4.D.8):

* 2023: units farthest from an owned centre go first, counting every border
  whatever the unit type; units on a centre go last; fleets before armies;
  then alphabetically by province name.
* 2000: farthest from a home centre first, fleets along fleet routes and
  armies over land or water; fleets before armies; then alphabetically.

Builds a power does not use are listed as waived. With the ``heirs``
component (S9 §8.2-§8.4): a vassal builds only in its capital, on orders from
either controller (the dowry giver's legal orders win, and a waive is an order
like any other, §10.5.2 (4)); minors and thralls rebuild by themselves; and a major may
build an heir in its capital, which is not a unit and needs no build (§8.3).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from operator import attrgetter

from ..core.board import Heir, Position, Unit, thawed
from ..core.geography import Terrain, UnitType, province_of
from ..core.orders import Build, BuildHeir, Order, Remove, Waive
from ..core.results import OrderResult, Outcome
from ..core.ruleset import BuildRule, Edition, Rules
from ..rules.vp import all_points, emergent_sites, unit_allowance, wing_build_problem
from ..variants import Variant

__all__ = [
    "AdjustmentResult",
    "adjustment_counts",
    "adjustments_owed",
    "heir_build_problem",
    "heir_builds_possible",
    "minor_rebuilds",
    "resolve_adjustments",
]


@dataclass(frozen=True)
class AdjustmentResult:
    results: tuple[OrderResult, ...]
    units: dict[str, Unit]
    heirs: tuple[Heir, ...] = ()
    heir_built: dict[str, int] | None = None


def adjustment_counts(variant: Variant, position: Position) -> dict[str, int]:
    """Builds (positive) or removals (negative) owed by each power that
    orders its own adjustments: majors and vassals (S9 §10.5). Minors and
    thralls rebuild automatically (§8.4); a thrall's or vassal's centres and
    units never count for its controller (§3.2)."""
    counts: dict[str, int] = {}
    units: dict[str, int] = {}
    for unit in position.units.values():
        power = unit.power
        units[power] = units.get(power, 0) + 1
    centres: dict[str, int] = {}
    for owner in position.owners.values():
        centres[owner] = centres.get(owner, 0) + 1
    powers = set(units)
    powers.update(centres)
    for d in position.dislodged.values():
        powers.add(d.unit.power)
    in_play = position.powers_in_play
    vp = all_points(variant, position) if variant.uses("victory_points") else None
    for power in powers:
        state = in_play.get(power)
        if state is not None and state.kind not in ("major", "vassal"):
            continue  # nuclear powers never adjust either (Dissolution §4.5)
        have = units.get(power, 0)
        if vp is not None:  # Dissolution §4.2: ⌈VP/2⌉ units
            counts[power] = unit_allowance(variant, position, power, vp) - have
        else:
            counts[power] = centres.get(power, 0) - have
    return counts


def adjustments_owed(variant: Variant, position: Position) -> bool:
    """Whether any power owes builds or removals (:func:`adjustment_counts` not all zero)."""
    if position.powers_in_play or variant.uses("victory_points"):
        return any(adjustment_counts(variant, position).values())
    # Only major powers: one owes something exactly when its units and its centres
    # differ in number, as they do for some power when the totals differ; else the
    # two lists of owners differ. Sorting them is done in C, faster than counting
    # each power's.
    units, owners = position.units, position.owners
    if len(units) != len(owners):
        return True
    return sorted(map(_POWER, units.values())) != sorted(owners.values())


_POWER = attrgetter("power")


def heir_build_problem(variant: Variant, position: Position, power: str) -> str | None:
    """Why ``power`` may not build an heir this Winter (S9 §8.3), or ``None``."""
    major = variant.powers.get(power)
    if not variant.uses("heirs") or major is None or not major.capital:
        return f"{power} cannot build heirs"
    capital = variant.map.name_of(major.capital)
    if position.owners.get(major.capital) != power:
        return f"{power} does not control its capital {capital} (S9 §8.3)"
    if any(h.location == major.capital for h in position.heirs):
        return f"{capital} already contains an heir (S9 §8.3)"
    if position.heir_built.get(power) == position.phase.year - 1:
        return f"{power} built an heir last Winter: at most every other Winter (S9 §8.3)"
    return None


def heir_builds_possible(variant: Variant, position: Position) -> list[str]:
    """Major powers that may build an heir this Winter."""
    if not variant.uses("heirs"):
        return []
    return [p for p in sorted(variant.powers) if heir_build_problem(variant, position, p) is None]


def minor_rebuilds(variant: Variant, position: Position) -> list[Unit]:
    """Units minor and thrall powers build by themselves this winter (S9
    §8.4): one in each vacant centre they own, of the type that started there,
    on the coast it started on (OOD §8.2: Toledo west coast, Lübeck east coast)."""
    out: list[Unit] = []
    in_play = position.powers_in_play
    if not any(s.kind in ("minor", "thrall") for s in in_play.values()):
        return out  # no minor or thrall power: nobody rebuilds, and no centre is looked at
    for prov, owner in sorted(position.owners.items()):
        state = in_play.get(owner)
        if state is None or state.kind not in ("minor", "thrall") or prov in position.units:
            continue
        utype = variant.starting_type(prov)
        if utype is not None:
            loc = variant.starting_location(prov) or prov
            if not variant.map.is_valid_location(utype, loc):  # a fleet given no coast
                loc = variant.map.provinces[prov].locations[0]
            out.append(Unit(owner, utype, loc, stationary=True))
    return out


def resolve_adjustments(variant: Variant, position: Position, orders: Iterable[Order],
                        rules: Rules | None = None) -> AdjustmentResult:
    rules = rules or variant.rules
    counts = adjustment_counts(variant, position)
    units = thawed(position.units)
    results: list[OrderResult] = []
    used: dict[str, int] = {}
    removed: set[str] = set()
    heirs = list(position.heirs)
    heir_built = thawed(position.heir_built)
    orders = list(orders)
    heir_orders = [o for o in orders if isinstance(o, BuildHeir)]
    judged, overridden = _vassal_orders(variant, position, rules, counts,
                                        [o for o in orders if not isinstance(o, BuildHeir)])
    results.extend(overridden)
    for order, given in judged:
        power = order.power
        owed = counts.get(power, 0)
        verdict = _judge(variant, position, units, rules, order, owed, used.get(power, 0),
                         removed)
        results.append(OrderResult(given, verdict.outcome, verdict.reason))
        if verdict.outcome is Outcome.SUCCEEDS:
            used[power] = used.get(power, 0) + 1
            if isinstance(order, Build):
                loc = _build_location(variant, order)
                assert loc is not None
                utype = _build_type(variant, order)
                # A wing is stationary (Dissolution §3.3 (1))
                units[order.province] = Unit(power, utype, loc,
                                             stationary=utype is UnitType.WING)
            elif isinstance(order, Remove):
                removed.add(order.province)
                del units[order.province]
    for power, owed in sorted(counts.items()):
        missing = -owed - used.get(power, 0)
        if owed >= 0 or missing <= 0:
            continue
        own = [u for u in units.values() if u.power == power]
        for unit in _civil_disorder_order(variant, position, own, rules)[:missing]:
            del units[unit.province]
            results.append(OrderResult(Remove(power, unit.type, unit.location), Outcome.SUCCEEDS,
                                       "Removed by civil disorder", implicit=True))
    for power, owed in sorted(counts.items()):
        for _ in range(owed - used.get(power, 0)):  # DATC 4.D.7: an unused build is waived
            results.append(OrderResult(Waive(power, None, ""), Outcome.SUCCEEDS,
                                       "Build not used: waived", implicit=True))
    for unit in minor_rebuilds(variant, position):
        units[unit.province] = unit
        results.append(OrderResult(Build(unit.power, unit.type, unit.location), Outcome.SUCCEEDS,
                                   "Rebuilt by the minor power (S9 §8.4)", implicit=True))
    for order in heir_orders:
        results.append(_build_heir(variant, position, order, heirs, heir_built))
    return AdjustmentResult(tuple(results), units, tuple(heirs), heir_built)


def _build_heir(variant: Variant, position: Position, order: BuildHeir, heirs: list[Heir],
                heir_built: dict[str, int]) -> OrderResult:
    """``Build Heir`` (S9 §8.3): an heir appears in the capital."""
    major = variant.powers.get(order.power)
    capital = major.capital if major else None
    if order.location and order.location != capital:
        return OrderResult(order, Outcome.ILLEGAL, "Illegal: an heir is built only in its "
                           "power's capital (S9 §7.1, §8.3)")
    if heir_built.get(order.power) == position.phase.year:
        return OrderResult(order, Outcome.FAILS, "Void: an heir was already built this Winter")
    problem = heir_build_problem(variant, position, order.power)
    if problem is not None or capital is None:
        return OrderResult(order, Outcome.ILLEGAL, f"Illegal: {problem}")
    heirs.append(Heir(order.power, capital, False))
    heir_built[order.power] = position.phase.year
    return OrderResult(order, Outcome.SUCCEEDS,
                       f"Builds an heir in {variant.map.name_of(capital)}")


def _vassal_orders(variant: Variant, position: Position, rules: Rules, counts: dict[str, int],
                   orders: list[Order]) -> tuple[list[tuple[Order, Order]], list[OrderResult]]:
    """Pair each order with the order to judge: a controller's Build in its
    vassal's centre, or Remove of its vassal's unit, is judged as the
    vassal's. When both controllers order a vassal, S9 §10.5.2 picks one:
    legal orders beat illegal ones, then the dowry giver's win."""
    judged: list[tuple[Order, Order]] = []
    by_vassal: dict[str, dict[str, list[tuple[Order, Order]]]] = {}
    for order in orders:
        vassal = _vassal_of(position, order, counts)
        if vassal is None:
            judged.append((order, order))
        else:
            as_vassal = replace(order, power=vassal)  # type: ignore[type-var]
            by_vassal.setdefault(vassal, {}).setdefault(order.power, []).append(
                (as_vassal, order))
    overridden: list[OrderResult] = []
    for vassal, by_power in sorted(by_vassal.items()):
        giver = position.controllers_of(vassal)[0]
        if len(by_power) > 1:
            owed = counts.get(vassal, 0)
            legal = {p: _all_legal(variant, position, rules, owed, pairs)
                     for p, pairs in by_power.items()}
            winner = max(by_power, key=lambda p: (legal[p], p == giver))
            for power, pairs in by_power.items():
                if power != winner:
                    overridden.extend(OrderResult(
                        given, Outcome.FAILS,
                        f"Overridden: {winner}'s orders for {vassal} stand (S9 §10.5.2)")
                        for _, given in pairs)
            by_power = {winner: by_power[winner]}
        for pairs in by_power.values():
            judged.extend(pairs)
    return judged, overridden


def _vassal_of(position: Position, order: Order, counts: dict[str, int]) -> str | None:
    """The vassal a controller's adjustment order is for, if any. A waive is
    an order too (S9 §10.5.2 (4)): ``Waive Permyak`` waives the build of the
    vassal whose capital is Permyak; a bare ``Waive`` from a controller with no
    builds of its own is for its one vassal that has a build."""
    if isinstance(order, Build) or (isinstance(order, Waive) and order.location):
        owner = position.owners.get(order.province, "")
    elif isinstance(order, Remove) and order.province in position.units:
        owner = position.units[order.province].power
    elif isinstance(order, Waive) and counts.get(order.power, 0) <= 0:
        owed = [v for v, n in counts.items() if n > 0 and position.kind_of(v) == "vassal"
                and order.power in position.controllers_of(v)]
        return owed[0] if len(owed) == 1 else None
    else:
        return None
    if position.kind_of(owner) == "vassal" and order.power in position.controllers_of(owner):
        return owner
    return None


def _all_legal(variant: Variant, position: Position, rules: Rules, owed: int,
               pairs: list[tuple[Order, Order]]) -> bool:
    units = thawed(position.units)
    return all(_judge(variant, position, units, rules, order, owed, 0, set()).outcome
               is not Outcome.ILLEGAL for order, _ in pairs)


def _build_type(variant: Variant, order: Build) -> UnitType:
    if order.unit_type is not None:
        return order.unit_type
    terrain = variant.map.provinces[order.province].terrain
    return UnitType.ARMY if terrain is Terrain.LAND else UnitType.FLEET


def _build_location(variant: Variant, order: Build) -> str | None:
    """Where the built unit stands; ``None`` if that cannot be settled."""
    prov = variant.map.provinces[order.province]
    utype = _build_type(variant, order)
    if utype is not UnitType.FLEET:
        return prov.key
    if prov.coasts:
        return order.location if order.location in prov.locations else None  # DATC 4.B.7
    return prov.key


def _judge(variant: Variant, position: Position, units: dict[str, Unit], rules: Rules,
           order: Order, owed: int, used: int, removed: set[str]) -> OrderResult:
    def illegal(reason: str) -> OrderResult:
        return OrderResult(order, Outcome.ILLEGAL, f"Illegal: {reason}")

    power = order.power
    if isinstance(order, Build | Waive):
        if owed <= 0:
            return illegal(f"{power} has no builds")
        if used >= owed:
            return OrderResult(order, Outcome.FAILS, f"Void: all {owed} build(s) already used")
        if isinstance(order, Waive):
            return OrderResult(order, Outcome.SUCCEEDS, "Build waived")
        prov = variant.map.provinces[order.province]
        if not prov.is_sc or position.owners.get(prov.key) != power:
            return illegal(f"{power} does not own a supply centre in {prov.name}")
        home = variant.powers.get(power)
        if position.kind_of(power) == "vassal":
            if prov.key != position.powers_in_play[power].capital:
                return illegal("a vassal builds only in its capital (S9 §8.4, §10.5)")
        elif rules.builds is BuildRule.HOME and (home is None or prov.key not in home.homes):
            return illegal(f"{prov.name} is not a home centre of {power}")
        elif rules.builds is BuildRule.EMERGENT and \
                prov.key not in emergent_sites(variant, position, power):
            return illegal(f"{prov.name} is not a build location of {power}: not a home centre, "
                           "nor next to one or to a centre it has built in (Dissolution §4.3)")
        if prov.key in units:
            if prov.key not in position.units:
                return OrderResult(order, Outcome.FAILS,
                                   f"Void: a unit was already built in {prov.name}")
            return illegal(f"{prov.name} is occupied")
        utype = _build_type(variant, order)
        if utype is UnitType.WING:
            problem = wing_build_problem(variant, position, power, units)
            if problem is not None:
                return illegal(problem)
            return OrderResult(order, Outcome.SUCCEEDS, "Builds a wing")
        if order.unit_type is None and prov.terrain is Terrain.COASTAL and \
                order.location == prov.key:
            return illegal("say whether to build an army or a fleet")  # DATC 4.C.3
        if utype is UnitType.FLEET and prov.terrain is Terrain.LAND:
            return illegal(f"a fleet cannot be built in inland {prov.name}")
        if _build_location(variant, order) is None:
            return illegal(f"say which coast of {prov.name} the fleet is built on")
        return OrderResult(order, Outcome.SUCCEEDS, f"Builds {utype.noun}")
    if isinstance(order, Remove):
        if owed >= 0:
            return illegal(f"{power} has no units to remove")
        unit = units.get(order.province)
        if unit is None or unit.power != power:
            if order.province in removed:
                return OrderResult(order, Outcome.FAILS, "Void: unit already removed")
            return illegal(f"{power} has no unit in {variant.map.name_of(order.province)}")
        if used >= -owed:
            return OrderResult(order, Outcome.FAILS, f"Void: all {-owed} removal(s) already made")
        return OrderResult(order, Outcome.SUCCEEDS, "Removed")
    return illegal("only Build, Remove and Waive orders are given in an adjustment phase")


def _civil_disorder_order(variant: Variant, position: Position, units: list[Unit],
                          rules: Rules) -> list[Unit]:
    """The power's units in the order civil disorder removes them."""
    game_map = variant.map
    provinces = game_map.provinces
    if rules.edition is Edition.R2023:
        owned = {p for p, o in position.owners.items() if o == units[0].power} if units else set()
        distance = _distances(owned, game_map.touching)

        def key_2023(u: Unit) -> tuple[bool, float, bool, str]:
            on_centre = provinces[u.province].is_sc
            return (on_centre, -distance.get(u.province, float("inf")),
                    u.type is not UnitType.FLEET, provinces[u.province].name)

        return sorted(units, key=key_2023)
    power = variant.powers.get(units[0].power) if units else None
    homes = set(power.homes) if power else set()
    army = _distances(homes, game_map.touching)
    fleet_homes = {loc for h in homes for loc in provinces[h].locations}
    fleet = _distances(fleet_homes, lambda loc: game_map.fleet_links.get(loc, frozenset()))

    def key_2000(u: Unit) -> tuple[float, bool, str]:
        dist = army.get(u.province) if u.type is UnitType.ARMY else fleet.get(u.location)
        return (-(dist if dist is not None else float("inf")),
                u.type is not UnitType.FLEET, provinces[province_of(u.location)].name)

    return sorted(units, key=key_2000)


def _distances(sources: set[str], links: Callable[[str], Iterable[str]]) -> dict[str, float]:
    """Breadth-first distance from every node to the nearest source (links are symmetric)."""
    dist: dict[str, float] = {s: 0 for s in sources}
    queue = deque(sources)
    while queue:
        here = queue.popleft()
        for nxt in links(here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist
