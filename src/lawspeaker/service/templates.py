"""A power's order template: its units and what each may do, as a post to fill in.

The template is itself a valid post (every unit holds, a retreating unit
disbands, builds are waived), with the choices as ``#`` comments, so a player
can edit lines in place and paste the result back.
"""

from __future__ import annotations

from ..core.board import PhaseKind, Position
from ..core.geography import GameMap
from ..core.legality import movement_problem
from ..core.orders import Move
from ..core.ruleset import Rules
from ..engine.adjustments import adjustment_counts, heir_build_problem
from ..engine.retreats import retreat_options
from ..rules.dp import allotment
from ..variants import Variant

__all__ = ["duties", "example_order", "order_template"]


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
        out += _embassy_lines(variant, position, power, rules or variant.rules)
    return variant.cite("\n".join(out)) + "\n"


def _embassy_lines(variant: Variant, position: Position, power: str, rules: Rules
                   ) -> list[str]:
    """A player's Embassies and what each may do this Winter (Dissolution §11.5):
    hold, move within its slice, or support; required holds (§11.5.3) and the
    move limit (§11.5.4) said."""
    mine = position.embassies.get(power) if variant.uses("favor_map") else None
    if not mine:
        return []
    from ..rules.favor import favor_board
    from ..rules.favor_orders import move_limit, must_hold

    board = favor_board(variant, rules.favor_board)
    holds = must_hold(variant, position, power)
    out = [f"# Embassies (Favor Map, Dissolution §11.5): each holds, moves within its slice "
           f"or supports; at most {move_limit(position, power)} may move this Winter "
           "(Dissolution §11.5.4)"]
    for nuclear, space in sorted(mine.items()):
        if nuclear in holds:
            note = f"{nuclear}: must hold: {holds[nuclear]}"
        else:
            moves = ", ".join(board.neighbours(space, same_slice=True))
            note = f"{nuclear}: may move to {moves}" + ("" if space.endswith("0z")
                                                        else ", or support")
        out.append(f"E {space} H".ljust(34) + f"# {note}")
    return out


def example_order(variant: Variant, position: Position, power: str,
                  rules: Rules | None = None) -> str:
    """One order of the kind this phase takes, for this power, as players write
    it: an example to show beside the order box."""
    lines = [line.split("#")[0].strip()
             for line in order_template(variant, position, power, rules).splitlines()[3:]]
    lines = [line for line in lines if line and line != "Waive"]
    game_map = variant.map
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        for unit in sorted(position.units_of(power), key=lambda u: u.province):
            for t in sorted(game_map.neighbours(unit.type, unit.location)):
                if not unit.stationary and movement_problem(
                        game_map, position.units, Move(power, unit.type, unit.location, t)) \
                        is None:
                    return (f"{unit.type.value} {game_map.name_of(unit.location)} - "
                            f"{game_map.name_of(t)}")
    if kind is PhaseKind.RETREAT:
        for _, d in sorted(position.dislodged.items()):
            options = retreat_options(variant, position, d)
            if d.unit.power == power and options and not d.unit.stationary:
                return (f"{d.unit.type.value} {game_map.name_of(d.unit.location)} - "
                        f"{game_map.name_of(options[0])}")
    if kind is PhaseKind.ADJUSTMENT:
        owed = adjustment_counts(variant, position).get(power, 0)
        if owed > 0:
            sites = _build_sites(variant, position, power, rules or variant.rules)
            if sites:
                return f"Build A {game_map.name_of(sites[0])}"
        units = sorted(position.units_of(power), key=lambda u: u.province)
        if owed < 0 and units:
            return f"Remove {units[0].type.value} {game_map.name_of(units[0].location)}"
        mine = position.embassies.get(power) if variant.uses("favor_map") else None
        if mine and owed == 0:  # Dissolution §11.5: the Winter's Embassy orders
            from ..rules.favor import favor_board
            from ..rules.favor_orders import must_hold

            board = favor_board(variant, (rules or variant.rules).favor_board)
            holds = must_hold(variant, position, power)
            for nuclear, space in sorted(mine.items()):
                moves = board.neighbours(space, same_slice=True)
                if nuclear not in holds and moves:
                    return f"E {space} - {moves[-1]}"
        if variant.uses("heirs") and heir_build_problem(variant, position, power) is None:
            return "Build Heir"  # S9 §8.3
    if lines:
        return lines[0]
    major = variant.powers.get(power)  # nothing to order: the form, in this map's names
    home = game_map.name_of(major.homes[0] if major and major.homes
                            else sorted(game_map.provinces)[0])
    return f"Build A {home}" if kind is PhaseKind.ADJUSTMENT else f"A {home} H"


def _dp_example(variant: Variant, position: Position) -> str:
    """An allocation line for a neutral unit actually on the board."""
    from ..rules.dp import is_dp_controlled

    unit = next((u for _, u in sorted(position.units.items())
                 if is_dp_controlled(position, u)), None)
    if unit is None:
        return ""
    name = f"{unit.type.value} {variant.map.name_of(unit.location)}"
    return f" (write e.g. '1 DP to {name} H')"


def _build_sites(variant: Variant, position: Position, power: str, rules: Rules) -> list[str]:
    from ..core.ruleset import BuildRule

    major = variant.powers.get(power)
    homes = set(major.homes) if major else set()
    return [prov for prov in sorted(position.centres_of(power))
            if prov not in position.units
            and (rules.builds is BuildRule.OWNED or prov in homes)]


def duties(variant: Variant, position: Position, power: str, rules: Rules | None = None
           ) -> list[str]:
    """What ``power`` must order this phase, one line each: its units, retreats,
    builds or removals, Embassies (with the required holds) and DP; or that
    there is nothing to order."""
    rules = rules or variant.rules
    game_map = variant.map
    kind = position.phase.kind
    out: list[str] = []
    if position.result:
        return [f"Nothing: the game is over ({position.result})"]
    if kind is PhaseKind.MOVEMENT:
        units = sorted(position.units_of(power), key=lambda u: u.province)
        if units:
            out.append(f"An order for each of your {len(units)} unit(s): "
                       + ", ".join(f"{u.type.value} {game_map.name_of(u.location)}"
                                   for u in units) + " (a unit without an order holds)")
        heir = position.unmarried_heir(power)
        if heir is not None and variant.uses("heirs"):
            out.append(f"Your heir in {game_map.name_of(heir.location)}: Hold or Marry "
                       "(S9 §7.1)")
        if variant.uses("diplomacy_points"):
            dp = allotment(variant, position, power)
            if dp:
                out.append(f"{dp} DP to allocate to neutral units' orders if you wish "
                           "(S9 §9.2)" + _dp_example(variant, position))
    elif kind is PhaseKind.RETREAT:
        for _, d in sorted(position.dislodged.items()):
            if d.unit.stationary or (d.unit.power != power
                                     and power not in position.controllers_of(d.unit.power)):
                continue
            options = retreat_options(variant, position, d)
            name = f"{d.unit.type.value} {game_map.name_of(d.unit.location)}"
            out.append(f"{name} was dislodged: retreat it ({_names(game_map, options)}) or "
                       "disband it" if options else f"{name} was dislodged and must disband")
    elif kind is PhaseKind.ADJUSTMENT:
        owed = adjustment_counts(variant, position).get(power, 0)
        if owed > 0:
            sites = _build_sites(variant, position, power, rules)
            out.append(f"{owed} build(s), or waive them; vacant sites: "
                       f"{_names(game_map, sites) or 'none'}")
        elif owed < 0:
            out.append(f"{-owed} removal(s)")
        if variant.uses("heirs") and heir_build_problem(variant, position, power) is None:
            out.append("You may build an heir (S9 §8.3)")
        mine = position.embassies.get(power) if variant.uses("favor_map") else None
        if mine:
            from ..rules.favor_orders import move_limit, must_hold

            holds = must_hold(variant, position, power)
            out.append(f"An order for each of your {len(mine)} Embassies (Dissolution "
                       "§11.5): hold, move within its slice or support; at most "
                       f"{move_limit(position, power)} may move (Dissolution §11.5.4); "
                       "an Embassy without an order holds")
            out += [f"Your {nuclear} Embassy (E {mine[nuclear]}) must hold: {why}"
                    for nuclear, why in sorted(holds.items()) if nuclear in mine]
    return [variant.cite(line) for line in out] or ["Nothing to order this phase"]
