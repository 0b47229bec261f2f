"""A power's order template: its units and what each may do, as a post to fill in.

The template is itself a valid post (every unit holds, a retreating unit
disbands, builds are waived), with the choices as ``#`` comments, so a player
can edit lines in place and paste the result back.
"""

from __future__ import annotations

from .adjustments import adjustment_counts, heir_build_problem
from .board import PhaseKind, Position
from .dp import allotment
from .geography import GameMap
from .legality import movement_problem
from .orders import Move
from .retreats import retreat_options
from .rules import Rules
from .variants import Variant

__all__ = ["order_template"]


def _names(game_map: GameMap, locations: list[str]) -> str:
    return ", ".join(game_map.name_of(loc) for loc in locations)


def order_template(variant: Variant, position: Position, power: str,
                   rules: Rules | None = None) -> str:
    game_map = variant.map
    kind = position.phase.kind
    out = [f"# {power}: {variant.phase_label(position.phase)} ({variant.title})",
           "# One order per line; '#' starts a comment.", f"{power}:"]
    if position.result:
        return "\n".join([out[0], f"# The game is over: {position.result}"]) + "\n"
    if kind is PhaseKind.MOVEMENT:
        units = sorted(position.units_of(power), key=lambda u: u.province)
        for unit in units:
            targets = [t for t in sorted(game_map.neighbours(unit.type, unit.location))
                       if movement_problem(game_map, position.units,
                                           Move(power, unit.type, unit.location, t)) is None]
            name = f"{unit.type.value} {game_map.name_of(unit.location)}"
            note = "stationary: may hold or support" if unit.stationary else \
                f"may move to {_names(game_map, targets)}" if targets else "may hold or support"
            out.append(f"{name} H".ljust(34) + f"# {note}")
        heir = position.unmarried_heir(power)
        if heir is not None and variant.uses("heirs"):
            out.append(f"Heir {game_map.name_of(heir.location)} H".ljust(34)
                       + "# or: Marry <minor power> (S9 §10.3)")
        if variant.uses("diplomacy_points"):
            out.append(f"# DP this phase: {allotment(variant, position, power)}"
                       + _dp_example(variant, position))
        if not units and heir is None:
            out.append("# no units to order")
    elif kind is PhaseKind.RETREAT:
        for _, d in sorted(position.dislodged.items()):
            if d.unit.power != power and power not in position.controllers_of(d.unit.power):
                continue
            if d.unit.stationary:
                continue
            name = f"{d.unit.type.value} {game_map.name_of(d.unit.location)}"
            options = retreat_options(variant, position, d)
            note = f"may retreat to {_names(game_map, options)}" if options \
                else "no retreat possible"
            out.append(f"{name} D".ljust(34) + f"# disband, or {note}")
    elif kind is PhaseKind.ADJUSTMENT:
        owed = adjustment_counts(variant, position).get(power, 0)
        if owed > 0:
            sites = _build_sites(variant, position, power, rules or variant.rules)
            out.append(f"# {owed} build(s); vacant sites: {_names(game_map, sites) or 'none'}")
            out += ["Waive"] * owed
        elif owed < 0:
            units = sorted(position.units_of(power), key=lambda u: u.province)
            out.append(f"# {-owed} removal(s) among: "
                       + ", ".join(f"{u.type.value} {game_map.name_of(u.location)}"
                                   for u in units))
        else:
            out.append("# no builds or removals owed")
        if variant.uses("heirs") and heir_build_problem(variant, position, power) is None:
            out.append("# you may also: Build Heir (S9 §8.3)")
    return variant.cite("\n".join(out)) + "\n"


def _dp_example(variant: Variant, position: Position) -> str:
    """An allocation line for a neutral unit actually on the board."""
    from .dp import is_dp_controlled

    unit = next((u for _, u in sorted(position.units.items())
                 if is_dp_controlled(position, u)), None)
    if unit is None:
        return ""
    name = f"{unit.type.value} {variant.map.name_of(unit.location)}"
    return f" (write e.g. '1 DP to {name} H')"


def _build_sites(variant: Variant, position: Position, power: str, rules: Rules) -> list[str]:
    from .rules import BuildRule

    major = variant.powers.get(power)
    homes = set(major.homes) if major else set()
    return [prov for prov in sorted(position.centres_of(power))
            if prov not in position.units
            and (rules.builds is BuildRule.OWNED or prov in homes)]
