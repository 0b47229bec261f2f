"""Victory points: unit counts, victory, emergent builds and wings.

With the ``victory_points`` component (Dissolution §1.4, §4.2) a centre is
worth its VP value (1 or 2), and a player may have as many units as half its
VP, rounded up, instead of one per centre. A player's centre occupied by a
nuclear unit at the adjustment (in practice a US Navy fleet, the only mobile
one, §4.6) still belongs to it and still gives its oil (§5.2.2), but its VP
count for neither victory nor the unit count (§4.6.1): the *effective* VP.

The end of the year (§2.1.5) runs in the Census before the Winter: captures
(nuclear units never capture, §4.6, §8.5.1), VP, victory, then elimination:
a player with no centre becomes a Player in Exile (§5.3), while one reduced
to 0 VP only by occupation keeps playing and disbands its units (§4.6.2).

Emergent builds (rules option ``builds: emergent``, §4.3) need the history of
where each player has built, kept in :attr:`Position.built_in`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..core.board import Position, Unit, thawed
from ..core.geography import UnitType
from ..variants import Variant

__all__ = [
    "WING_BUILD_VP",
    "all_points",
    "emergent_sites",
    "occupied_by_nuclear",
    "points",
    "unit_allowance",
    "wing_build_problem",
    "year_end_events",
]

WING_BUILD_VP = 12
"""Dissolution §4.4 (2): a player builds a wing only with at least 12 VP."""


def occupied_by_nuclear(position: Position) -> frozenset[str]:
    """Provinces holding a nuclear power's unit (Dissolution §4.6)."""
    nuclear = {n for n, s in position.powers_in_play.items() if s.kind == "nuclear"}
    return frozenset(p for p, u in position.units.items() if u.power in nuclear)


def points(variant: Variant, position: Position, power: str) -> int:
    """``power``'s effective VP: the values of its centres, less those a nuclear
    unit occupies (Dissolution §1.4, §4.6.1)."""
    return all_points(variant, position).get(power, 0)


def all_points(variant: Variant, position: Position) -> dict[str, int]:
    """:func:`points` of every power owning a centre, worked out in one pass."""
    blocked = occupied_by_nuclear(position)
    provinces = variant.map.provinces
    totals: dict[str, int] = {}
    for centre, owner in position.owners.items():
        if centre not in blocked:
            totals[owner] = totals.get(owner, 0) + provinces[centre].sc_value
    return totals


def unit_allowance(variant: Variant, position: Position, power: str,
                   vp: Mapping[str, int] | None = None) -> int:
    """How many units ``power`` may have: ⌈VP/2⌉ (Dissolution §4.2). ``vp``: every
    power's points (:func:`all_points`), when already worked out."""
    if vp is None:
        vp = all_points(variant, position)
    return math.ceil(vp.get(power, 0) / 2)


def emergent_sites(variant: Variant, position: Position, power: str) -> frozenset[str]:
    """Centres eligible for ``power``'s builds (Dissolution §4.3): its home
    centres, centres bordering one, and centres bordering any centre it has
    built in before. Ownership and vacancy are checked by the build itself."""
    major = variant.powers.get(power)
    homes = set(major.homes) if major else set()
    seeds = homes | set(position.built_in.get(power, ()))
    touching = variant.map.touching
    near = {n for s in seeds for n in touching(s)}
    sites = homes | {n for n in near if variant.map.provinces[n].is_sc}
    return frozenset(sites)


def wing_build_problem(variant: Variant, position: Position, power: str,
                       units: Mapping[str, Unit] | None = None) -> str | None:
    """Why ``power`` may not build a wing now, or ``None`` (Dissolution §4.4):
    at most one wing at a time, and only with at least 12 VP. ``units`` are
    the units after this phase's earlier builds, when they differ."""
    if not variant.uses("wings"):
        return "there are no wings in this variant"
    board = units if units is not None else position.units
    if any(u.power == power and u.type is UnitType.WING for u in board.values()):
        return f"{power} already has a wing: at most one at a time (Dissolution §4.4)"
    vp = points(variant, position, power)
    if vp < WING_BUILD_VP:
        return (f"{power} has {vp} VP: a wing is built only with at least {WING_BUILD_VP} VP "
                "(Dissolution §4.4)")
    return None


def year_end_events(variant: Variant, position: Position) -> tuple[Position, list[str]]:
    """Steps 5-6 of the end of the year (Dissolution §2.1.5), after captures:
    eliminations into exile, and each surviving player's VP and unit count."""
    events: list[str] = []
    owning = set(position.owners.values())
    exiles = set(position.exiles)
    vp_of = all_points(variant, position)
    for name in sorted(variant.powers):
        if name in exiles or name in position.removed:
            continue
        if name not in owning:
            exiles.add(name)
            events.append(f"{name} is eliminated: it controls no supply centre "
                          "(Dissolution §2.1.5); it may go on as a Player in Exile, "
                          "allocating 1 DP each orders phase (Dissolution §5.3)")
            continue
        vp = vp_of.get(name, 0)
        allowed = unit_allowance(variant, position, name, vp_of)
        if vp == 0:
            events.append(f"{name} has 0 VP: its centres are occupied by the US Navy, so it is "
                          "not eliminated but must disband all its units (Dissolution §4.6.2)")
        else:
            events.append(f"{name}: {vp} VP, {allowed} unit{'s' if allowed != 1 else ''} "
                          "(Dissolution §4.2)")
    favor = thawed(position.favor)
    embassies = thawed(position.embassies)
    for name in exiles - set(position.exiles):
        favor.pop(name, None)  # §5.3: an exile's Favor is 1 with every nuclear power
        if embassies.pop(name, None) is not None:  # §4.1, §11.1: its Embassies are disbanded
            events.append(f"{name}'s Embassies leave the Favor Map (Dissolution §4.1)")
    return position.replace(exiles=exiles, favor=favor, embassies=embassies), events
