"""Winter orders on the Favor Map (Dissolution §11.5), resolved by the movement resolver.

Embassies hold, move inside their slice and support, across a slice border too
(§11.5.1); they are ordered with the adjustments and resolved after them
(§2.2.3). Rather than a second adjudicator, the Favor board is turned into a
second :class:`~lawspeaker.core.geography.GameMap` and the orders into ordinary
holds, moves and supports of armies, which :func:`~lawspeaker.core.resolver.resolve_movement`
adjudicates exactly as it does the geographic map. The one special space is the
perimeter (§11.5.2), which holds any number of Embassies, is never dislodged
and gives no support: it becomes one space per player (``I0z.PA``), bordering
the slice's 1-hexes, which only that player's Embassy can ever enter, so it
can hold them all and nobody can dislodge them. What the resolver cannot know,
which orders the rules allow (§11.5.1-§11.5.4), is checked here first, and the
dislodged Embassies are then placed by the GM's algorithm (§11.7.3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, partial

from ..core.board import Position, Unit
from ..core.geography import GameMap, Province, Terrain, UnitType
from ..core.orders import EmbassyOrder, Hold, Move, Order, SupportHold, SupportMove
from ..core.resolver import resolve_movement
from ..core.results import OrderResult, Outcome
from ..core.ruleset import Rules
from ..variants import Variant
from .favor import FavorBoard, favor_board, retreat_destination, value_of

__all__ = ["WinterResult", "embassy_problem", "move_limit", "must_hold", "resolve_winter"]


@dataclass(frozen=True)
class WinterResult:
    results: tuple[OrderResult, ...]
    embassies: Mapping[str, Mapping[str, str]]
    """The Embassies after the orders and the retreats."""
    events: tuple[str, ...]
    """The Winter retreats, published with the results (§11.7.3)."""
    retreats: tuple[tuple[str, str, str], ...] = ()
    """``(player, from, to)`` per Winter retreat, as in ``events``."""


def must_hold(variant: Variant, position: Position, player: str) -> dict[str, str]:
    """Nuclear power -> why the player's Embassy in its slice must hold this Winter
    (§11.5.3): kicked this Spring or Autumn, units in its territory at the start of
    the Winter, or Nuclear Retaliation suffered."""
    why: dict[str, str] = {}
    for nuclear in position.retaliated.get(player, ()):
        why[nuclear] = f"{player} suffered {nuclear}'s Nuclear Retaliation (Dissolution §11.5.3)"
    mine = {u.province for u in position.units.values() if u.power == player}
    for nuclear, power in variant.nuclear.items():
        if not mine.isdisjoint(power.territories):
            why[nuclear] = (f"{player} has units in {nuclear}'s territory at the start of the "
                            "Winter (Dissolution §11.5.3)")
    for nuclear in position.kicked.get(player, ()):
        why[nuclear] = f"{player}'s {nuclear} Embassy was kicked this year (Dissolution §11.5.3)"
    return why


def move_limit(position: Position, player: str) -> int:
    """At most three Embassies move each Winter, two after any kick (§11.5.4)."""
    return 2 if position.kicked.get(player) else 3


def _player(variant: Variant, text: str) -> str | None:
    low = text.strip().lower()
    for name, power in variant.powers.items():
        if low in (name.lower(), power.abbreviation.lower(), power.adjective.lower()):
            return name
    return None


def _holder(variant: Variant, position: Position, board: FavorBoard, space: str,
            written: str) -> tuple[str | None, str | None]:
    """The player whose Embassy is on ``space``, or why it cannot be told."""
    nuclear = board.nuclear_of(space)
    there = sorted(p for p, e in position.embassies.items() if e.get(nuclear) == space)
    if written:
        who = _player(variant, written)
        if who is None:
            return None, f"'{written}' names no player"
        if who not in there:
            return None, f"{who} has no Embassy on {space}"
        return who, None
    if len(there) > 1:  # §11.5.2, Ex 11.5.2.1-2
        names = ", ".join(variant.powers[p].abbreviation for p in there)
        return None, (f"{space} holds several Embassies ({names}): name the one supported, like "
                      f"'S {variant.powers[there[0]].abbreviation} {space} ...' "
                      "(Dissolution §11.5.2)")
    return (there[0], None) if there else (None, f"there is no Embassy on {space}")


def embassy_problem(variant: Variant, position: Position, order: EmbassyOrder,
                    board: FavorBoard | None = None,
                    holds: Mapping[str, str] | None = None) -> str | None:
    """Why an Embassy's Winter order is illegal, or ``None`` (§11.5.1-§11.5.3; the
    move limit of §11.5.4 depends on the player's other orders: :func:`resolve_winter`).
    ``holds``: :func:`must_hold` of the order's player, when already worked out."""
    if not variant.uses("favor_map") or not position.embassies:
        return "there is no Favor Map in this game"
    board = board or favor_board(variant)
    here = order.location
    if not board.is_space(here):
        return f"{here} is not a space of the Favor Map (Dissolution §11.1.2)"
    nuclear = board.nuclear_of(here)
    if position.embassies.get(order.power, {}).get(nuclear) != here:
        return f"{order.power or 'nobody'} has no Embassy on {here}"
    if order.action != "H":
        if holds is None:
            holds = must_hold(variant, position, order.power)
        why = holds.get(nuclear)
        if why:
            return f"the Embassy must hold: {why}"
    if order.action == "-":
        if not board.is_space(order.target) or order.target[0] != here[0]:
            return f"an Embassy never leaves its slice (Dissolution §11.5.1): {order.target}"
        if not board.borders_on(here, order.target):
            return f"{order.target} does not border {here}"
        return None
    if order.action != "S":
        return None
    if value_of(here) == 0:
        return "an Embassy in a perimeter cannot give support (Dissolution §11.5.2)"
    into = order.target or order.supported
    if not board.is_space(order.supported) or not board.is_space(into):
        return f"{order.supported} is not a space of the Favor Map"
    if not board.borders_on(here, into):
        return f"{into} does not border {here}, so {here} cannot support there"
    if order.target and (order.target[0] != order.supported[0]
                         or not board.borders_on(order.supported, order.target)):
        return f"the Embassy on {order.supported} cannot move to {order.target}"
    _, problem = _holder(variant, position, board, order.supported, order.supported_power)
    return problem


@cache
def _favor_map(board: FavorBoard, abbreviations: tuple[str, ...]) -> GameMap:
    """The Favor board as a map for the resolver: every hex, and one perimeter
    space per player (``I0z.PA``) bordering its slice's 1-hexes."""
    hexes = sorted(board.coords)
    perimeters = [f"{s}0z.{a}" for s in board.slices for a in abbreviations]
    provinces = [Province(k, k.split(".")[0], Terrain.LAND) for k in (*hexes, *perimeters)]
    links = {h: [n for n in board.neighbours(h) if value_of(n)] for h in hexes}
    for p in perimeters:
        ones = [h for h in hexes if h[0] == p[0] and value_of(h) == 1]
        links[p] = ones
        for h in ones:
            links[h].append(p)
    return GameMap.build(provinces, links, {})


def _key(variant: Variant, space: str, player: str) -> str:
    return f"{space}.{variant.powers[player].abbreviation}" if value_of(space) == 0 else space


_ARMY = re.compile(r"\bA ([NUIBR][0-5][a-z])(?:\.[A-Z]+)?")


def _as_written(text: str) -> str:
    """The resolver's words for an Embassy: ``Dislodged by E B1q (2v1)``."""
    return _ARMY.sub(r"E \1", text)


def _reason_as_written(result: OrderResult) -> str:
    return _as_written(result.reason)  # read only when the result's reason is


def resolve_winter(variant: Variant, position: Position, orders: Iterable[EmbassyOrder],
                   rules: Rules | None = None) -> WinterResult:
    """Adjudicate the Embassies' Winter orders (§11.5) and their retreats (§11.7.3)."""
    rules = rules or variant.rules
    board = favor_board(variant, rules.favor_board)
    abbreviations = tuple(sorted(p.abbreviation for p in variant.powers.values()))
    game_map = _favor_map(board, abbreviations)
    units = {_key(variant, s, p): Unit(p, UnitType.ARMY, _key(variant, s, p))
             for p, mine in position.embassies.items() for s in mine.values()}
    results: list[OrderResult] = []
    given: dict[Order, EmbassyOrder] = {}
    moves: dict[str, int] = {}
    holds: dict[str, dict[str, str]] = {}  # must_hold of each player, worked out once
    for order in orders:
        if order.power not in holds:
            holds[order.power] = must_hold(variant, position, order.power)
        problem = embassy_problem(variant, position, order, board, holds[order.power])
        if problem is None and order.action == "-":
            moves[order.power] = moves.get(order.power, 0) + 1
            limit = move_limit(position, order.power)
            if moves[order.power] > limit:  # §11.5.4: the first moves written stand
                problem = (f"at most {limit} Embassies of {order.power} may move this Winter"
                           f"{' after a kick' if limit == 2 else ''} (Dissolution §11.5.4)")
        if problem is not None:
            results.append(OrderResult(order, Outcome.ILLEGAL,
                                       f"Illegal: {variant.cite(problem)}"))
            continue
        given[_translate(variant, position, board, order)] = order
    moved = resolve_movement(game_map, units, list(given), Rules())
    for r in moved.results:
        original = given.get(r.order)
        if original is None:
            if not r.dislodged:
                continue  # an Embassy without orders holds; nothing to publish
            original = EmbassyOrder(r.order.power, None, r.order.location.split(".")[0])
        results.append(r.reworded(partial(_reason_as_written, r), _as_written, original))
    after = {p: dict(e) for p, e in position.embassies.items()}
    for key, unit in moved.units.items():
        after[unit.power][board.nuclear_of(key)] = key.split(".")[0]
    events: list[str] = []
    retreats: list[tuple[str, str, str]] = []
    for key, (unit, attacker) in sorted(moved.dislodged.items(), key=lambda kv: kv[0][2]):
        nuclear = board.nuclear_of(key)
        occupied = [e[nuclear] for p, e in after.items() if p != unit.power]
        to = retreat_destination(board, occupied, key, attacker, moved.standoffs)
        after[unit.power][nuclear] = to
        retreats.append((unit.power, key, to))
        abbreviation = variant.powers[unit.power].abbreviation
        events.append(f"{abbreviation} E {key} - {to}: {unit.power}'s Embassy retreats "
                      f"(Dissolution §11.7.3)")
    return WinterResult(tuple(results), after, tuple(events), tuple(retreats))


def _translate(variant: Variant, position: Position, board: FavorBoard,
               order: EmbassyOrder) -> Order:
    """An Embassy's order as an army's order on the resolver's map."""
    here = _key(variant, order.location, order.power)
    if order.action == "-":
        return Move(order.power, UnitType.ARMY, here, _key(variant, order.target, order.power))
    if order.action == "S":
        holder, _ = _holder(variant, position, board, order.supported, order.supported_power)
        assert holder is not None
        supported = _key(variant, order.supported, holder)
        if not order.target:
            return SupportHold(order.power, UnitType.ARMY, here, UnitType.ARMY, supported)
        return SupportMove(order.power, UnitType.ARMY, here, UnitType.ARMY, supported,
                           _key(variant, order.target, holder))
    return Hold(order.power, UnitType.ARMY, here)
