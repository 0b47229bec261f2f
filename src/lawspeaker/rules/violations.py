"""Violations, kicks and Nuclear Retaliation (Dissolution §11.6, §11.7, §11.4.2).

After the orders are adjudicated and before the retreats, the GM finds every
violation a player committed against a nuclear power (§11.6) and kicks the
player's Embassy in that power's slice once per violation (§11.7.1-2); then
every unit of a player at zero Favor with a nuclear power that stands in its
territory is destroyed (§11.4.2), kicks of this very turn included (§11.7.5).
Each violation, kick and destroyed unit is published with its cause.

The three violations (§11.6.1-3) are read from the resolver's results alone
(what was ordered, what moved, what was dislodged or disabled), so the rules
live here and the resolver knows nothing of Favor.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.board import Position, Unit, thawed
from ..core.geography import Terrain
from ..core.orders import Convoy, Move, SupportMove
from ..core.resolver import MovementResult
from ..core.results import OrderResult, Outcome
from ..core.ruleset import Rules
from ..variants import Variant
from .favor import closed_territory, favor_board, kick_all

__all__ = ["FavorAftermath", "Violation", "apply_violations", "find_violations"]


@dataclass(frozen=True)
class Violation:
    player: str
    nuclear: str
    cause: str
    """What the player did, citing the rule (``Ukraine's A Khk disabled ...``)."""

    def __str__(self) -> str:
        return f"Violation by {self.player} against {self.nuclear}: {self.cause}"


@dataclass(frozen=True)
class FavorAftermath:
    position: Position
    violations: tuple[Violation, ...]
    events: tuple[str, ...]
    kicks: tuple[tuple[str, str, str], ...] = ()
    """``(player, from, to)`` per kick, in the order they were made (§11.7.2)."""


def _label(unit: Unit) -> str:
    return f"{unit.type.value} {unit.location.capitalize()}"


def _given(results: Iterable[OrderResult]) -> list[OrderResult]:
    """Orders that were carried out (legal), whatever their outcome: a cut or void
    support is still "permission" (§11.6.3)."""
    return [r for r in results if r.outcome is not Outcome.ILLEGAL and not r.implicit]


def find_violations(variant: Variant, position: Position, moved: MovementResult
                    ) -> list[Violation]:
    """Every violation of this orders phase, in the order §11.6 lists them."""
    units = position.units
    players = set(variant.powers)
    found: list[Violation] = []
    for prov, attacker_prov in sorted(moved.disabled.items()):  # §11.6.1
        target, attacker = units[prov], units.get(attacker_prov)
        if target.power in variant.nuclear and attacker is not None and attacker.power in players:
            found.append(Violation(attacker.power, target.power,
                                   f"{_label(attacker)} disabled {target.power}'s {_label(target)} "
                                   "(Dissolution §11.6.1)"))
    given = _given(moved.results)
    for r in given:  # §11.6.2
        order = r.order
        mover = units.get(order.province)
        if not isinstance(order, Move) or mover is None or mover.power not in players:
            continue
        struck = units.get(order.target_province)
        if struck is None or struck.power not in variant.nuclear:
            continue
        if order.province in variant.nuclear[struck.power].territories:
            found.append(Violation(mover.power, struck.power,
                                   f"{_label(mover)} attacked {struck.power}'s {_label(struck)} "
                                   f"from {struck.power}'s territory (Dissolution §11.6.2)"))
    found.extend(_dislodging(variant, position, moved, given))
    return found


def _dislodging(variant: Variant, position: Position, moved: MovementResult,
                given: list[OrderResult]) -> list[Violation]:
    """§11.6.3: dislodging a unit in a land or canal province in or next to a
    nuclear power's territory, without that power's support or convoy of that
    very attack (US Navy permission counts for NATO, §11.6.4)."""
    board = favor_board(variant)
    game_map = variant.map
    found: list[Violation] = []
    for prov, (victim, _) in sorted(moved.dislodged.items()):
        if game_map.provinces[prov].terrain is Terrain.SEA:
            continue
        attack = next((r.order for r in given if isinstance(r.order, Move)
                       and r.order.target_province == prov and r.outcome is Outcome.SUCCEEDS),
                      None)
        attacker = position.units.get(attack.province) if attack else None
        if attack is None or attacker is None or attacker.power not in variant.powers:
            continue
        near = {prov} | set(game_map.touching(prov))
        for nuclear, power in sorted(variant.nuclear.items()):
            if not near & set(power.territories):
                continue
            granting = {nuclear, *board.permission_also.get(nuclear, ())}
            if not any(_permits(position, r.order, attack, granting) for r in given):
                where = "in" if prov in power.territories else "next to"
                found.append(Violation(
                    attacker.power, nuclear,
                    f"{_label(attacker)} dislodged {victim.power}'s {_label(victim)} {where} "
                    f"{nuclear}'s territory without its permission (Dissolution §11.6.3)"))
    return found


def _permits(position: Position, order: object, attack: Move, granting: set[str]) -> bool:
    """Whether ``order`` is a granting power's support or convoy of exactly ``attack``."""
    if not isinstance(order, SupportMove | Convoy):
        return False
    unit = position.units.get(order.province)
    if unit is None or unit.power not in granting:
        return False
    if isinstance(order, SupportMove):
        return (order.supported_province == attack.province
                and order.target_province == attack.target_province)
    used = attack.via_convoy or bool(attack.path)  # §11.6.3: the army used that convoy
    on_path = not attack.path or order.province in attack.path
    return (order.army_province == attack.province
            and order.target_province == attack.target_province and used and on_path)


def apply_violations(variant: Variant, before: Position, position: Position,
                     moved: MovementResult, rules: Rules,
                     extra: Iterable[Violation] = ()) -> FavorAftermath:
    """Find the violations of the orders ``before`` was given, kick the Embassies
    (§11.7), then Nuclear Retaliation (§11.4.2) on ``position``, the position after
    the moves, with the dislodged units in it. ``extra`` violations are added to
    those found, so a case file can state a violation without staging it
    (``VIOLATIONS``, as the rulebook's kick examples do, Ex 11.7.4.1-4)."""
    violations = [*find_violations(variant, before, moved), *extra]
    events = [str(v) for v in violations]
    if not position.embassies:
        return FavorAftermath(position, tuple(violations), tuple(events))
    board = favor_board(variant, rules.favor_board)
    kicks: list[tuple[str, str]] = []
    for v in violations:
        if v.player in position.embassies:
            kicks.append((v.player, v.nuclear))
            kicks.extend((v.player, also) for also in board.kicks_also.get(v.nuclear, ()))
    embassies, done = kick_all(board, position.embassies, kicks)
    kicked = {p: list(n) for p, n in position.kicked.items()}
    for player, frm, to in done:
        nuclear = board.nuclear_of(frm)
        kicked.setdefault(player, []).append(nuclear)
        abbreviation = variant.powers[player].abbreviation
        events.append(f"{abbreviation} E {frm} - {to}: {player}'s {nuclear} Embassy is kicked "
                      "(Dissolution §11.7.1)")
    after = position.replace(embassies=embassies, kicked=kicked)
    return dataclasses.replace(_retaliate(variant, after, events, violations), kicks=tuple(done))


def _retaliate(variant: Variant, position: Position, events: list[str],
               violations: list[Violation]) -> FavorAftermath:
    """§11.4.2: units in the territory of a nuclear power with which their player
    has zero Favor are destroyed, dislodged or not."""
    units = thawed(position.units)
    dislodged = thawed(position.dislodged)
    retaliated = {p: list(n) for p, n in position.retaliated.items()}
    for player in sorted(variant.powers):
        closed = closed_territory(variant, position, player)
        if not closed:
            continue
        doomed = [u for u in units.values() if u.power == player and u.province in closed]
        doomed += [d.unit for d in dislodged.values()
                   if d.unit.power == player and d.unit.province in closed]
        for unit in sorted(doomed, key=lambda u: u.province):
            nuclear = closed[unit.province]
            if units.get(unit.province) == unit:
                del units[unit.province]
            else:
                dislodged.pop(unit.province, None)
            if nuclear not in retaliated.setdefault(player, []):
                retaliated[player].append(nuclear)
            events.append(f"Nuclear Retaliation: {nuclear} destroys {player}'s {_label(unit)}, "
                          f"in its territory at zero Favor (Dissolution §11.4.2)")
    after = position.replace(units=units, dislodged=dislodged, retaliated=retaliated)
    return FavorAftermath(after, tuple(violations), tuple(events))
