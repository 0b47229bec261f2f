"""The Favor Map (Dissolution §11): the board the Favor values come from.

Each surviving player has one Embassy in each of five slices, one per nuclear
power (§11.1, §3.4); the number in the label of the Embassy's space is the
player's Favor value with that power (§11.3), which caps DP (§11.4.1), decides
Prejudice (§9.3) and, at zero, bars retreats into the power's territory and
brings Nuclear Retaliation (§11.4.2). Kicks (§11.7.1-2) and Winter retreats
(§11.7.3) move Embassies by the GM's algorithm, which lives here; Winter orders
are in :mod:`lawspeaker.rules.favor_orders`, violations in :mod:`lawspeaker.rules.violations`.

The board is variant data (``favor.yaml`` next to ``variant.yaml``, read when
the variant has the ``favor_map`` component). The official image is missing,
so the board is a reconstruction: axial hex coordinates that satisfy every
stated fact (``tests/test_favor_map.py``), boards ``A`` (default) and ``B``
(rules option ``favor_board``), and named setups (``default``, ``legacy``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

from ..core.board import Position
from ..core.ruleset import Rules
from ..variants import Variant

__all__ = ["EXILE_FAVOR", "FavorBoard", "closed_territory", "favor_board", "favor_of",
           "format_setup", "kick", "kick_all", "named_setup", "parse_setup",
           "retreat_destination", "setup_for_rules", "setup_problems", "value_of"]

EXILE_FAVOR = 1
"""Dissolution §5.3: an exile has no Embassies and counts as Favor 1 everywhere."""

Embassies = Mapping[str, Mapping[str, str]]
"""Player -> nuclear power -> the space of its Embassy in that power's slice."""


def value_of(space: str) -> int:
    """The Favor value in a space's label: ``U2j`` -> 2, a perimeter ``R0z`` -> 0 (§11.1.2)."""
    return int(space[1])


def _letter(space: str) -> str:
    return space[2]


@dataclass(frozen=True, eq=False)  # one value per board file: compared (and cached) by identity
class FavorBoard:
    """The hexes of the five slices, their perimeters and which spaces border.

    Immutable. ``coords`` gives each hex its axial coordinates; two hexes
    border when their hex distance is 1 and their slices are the same or
    share a border (§11.5.1). A perimeter borders the value-1 hexes of its
    slice and nothing else (§11.1.3)."""

    name: str
    slices: Mapping[str, str]
    """Slice letter -> nuclear power, in order around the centre (§11.1.1)."""
    coords: Mapping[str, tuple[int, int]]
    borders: frozenset[frozenset[str]]
    """Pairs of slice letters that share a border (§11.5.1)."""
    reconstructed: bool = True
    setups: Mapping[str, Embassies] = field(default_factory=dict)
    kicks_also: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Nuclear power -> the powers a violation against it also kicks (§11.6.4)."""
    permission_also: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Nuclear power -> the powers whose permission counts as its own (§11.6.4)."""

    @property
    def letters(self) -> Mapping[str, str]:
        """Nuclear power -> its slice letter."""
        return {nuclear: letter for letter, nuclear in self.slices.items()}

    def perimeter(self, nuclear: str) -> str:
        return f"{self.letters[nuclear]}0z"

    def spaces(self, nuclear: str) -> tuple[str, ...]:
        """Every space of the power's slice, hexes sorted, then the perimeter."""
        letter = self.letters[nuclear]
        return (*sorted(s for s in self.coords if s[0] == letter), f"{letter}0z")

    def nuclear_of(self, space: str) -> str:
        return self.slices[space[0]]

    def is_space(self, space: str) -> bool:
        return space in self.coords or (len(space) == 3 and space[0] in self.slices
                                        and space[1:] == "0z")

    def distance(self, a: str, b: str) -> int:
        """Hexes between two hexes, counted across the board, never through a perimeter
        (Ex 11.7.4.1: R2j-R1q is 4)."""
        (q1, r1), (q2, r2) = self.coords[a], self.coords[b]
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def borders_on(self, a: str, b: str) -> bool:
        """Whether two spaces border (§11.1.3, §11.5.1)."""
        if a == b:
            return False
        if value_of(a) == 0 or value_of(b) == 0:  # §11.1.3: the perimeter and its 1-hexes
            return a[0] == b[0] and value_of(a) + value_of(b) == 1
        if a[0] != b[0] and frozenset((a[0], b[0])) not in self.borders:
            return False
        return self.distance(a, b) == 1

    def neighbours(self, space: str, same_slice: bool = False) -> tuple[str, ...]:
        """The spaces bordering ``space``; with ``same_slice``, only its own slice's
        (§11.5.1: moves stay in the slice, supports may cross a shared border)."""
        pool = [s for s in (*self.coords, *(f"{x}0z" for x in self.slices))
                if not same_slice or s[0] == space[0]]
        return tuple(sorted(s for s in pool if self.borders_on(space, s)))


@cache
def _read(path: Path, board: str) -> FavorBoard:
    from ruamel.yaml import YAML  # only when a Favor Map is first read, not at start-up

    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    slices = {str(k): str(v) for k, v in data["slices"].items()}
    boards = data["boards"]
    if board not in boards:
        raise ValueError(f"no Favor board '{board}' in {path.name} "
                         f"(boards: {', '.join(sorted(boards))})")
    coords = {str(k): (int(v[0]), int(v[1])) for k, v in boards[board].items()}
    order = list(slices)
    setups = {str(name): MappingProxyType({
        str(player): MappingProxyType({slices[order[i]]: str(s) for i, s in enumerate(spaces)})
        for player, spaces in players.items()}) for name, players in data["setups"].items()}
    return FavorBoard(board, MappingProxyType(slices), MappingProxyType(coords),
                      frozenset(frozenset(map(str, pair)) for pair in data["borders"]),
                      bool(data.get("reconstructed", True)), MappingProxyType(setups),
                      _lists(data.get("kicks_also")), _lists(data.get("permission_also")))


def _lists(data: Mapping[str, Iterable[str]] | None) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({str(k): tuple(map(str, v)) for k, v in (data or {}).items()})


def favor_board(variant: Variant, board: str | None = None) -> FavorBoard:
    """The variant's Favor board (``favor.yaml`` next to ``variant.yaml``); ``board``
    defaults to the rules option ``favor_board``."""
    if variant.path is None or not variant.uses("favor_map"):
        raise ValueError(f"{variant.name} has no Favor Map (component favor_map)")
    return _read(variant.favor_path or variant.path / "favor.yaml",
                 board or variant.rules.favor_board)


def named_setup(variant: Variant, name: str = "default", board: str | None = None) -> Embassies:
    """A setup from the variant's data: ``default`` (§11.2.2) or ``legacy`` (§11.7.4)."""
    setups = favor_board(variant, board).setups
    if name not in setups:
        raise ValueError(f"no Favor setup '{name}' (setups: {', '.join(sorted(setups))})")
    return setups[name]


def parse_setup(variant: Variant, text: str, board: FavorBoard | None = None) -> Embassies:
    """A GM's own setup written inline (§11.2: "the GM may supply another valid
    setup"), as the rules option ``favor_setup`` takes it, so that it is stored with
    the game's house rules: ``Egypt=N2j,U1p,I1q,B1p,R1p;Ethiopia=...``. Players are
    named by name or abbreviation (``SA``); each space names its slice, so the
    order of the five does not matter. Players left out keep their places of the
    ``default`` setup. Raises ``ValueError`` naming every problem; the result is
    checked with :func:`setup_problems`."""
    board = board or favor_board(variant)
    embassies = {p: dict(e) for p, e in board.setups["default"].items()}
    problems: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        who, eq, spaces = part.partition("=")
        player = _player_named(variant, who)
        if not eq or player is None:
            problems.append(f"'{part}': expected 'Player=N.., U.., I.., B.., R..' with a "
                            "player's name or abbreviation")
            continue
        mine: dict[str, str] = {}
        for space in filter(None, (x.strip() for x in spaces.split(","))):
            if not board.is_space(space):
                problems.append(f"{player}: {space} is not a space of the Favor Map (§11.1.2)")
            elif board.nuclear_of(space) in mine:
                problems.append(f"{player}: two Embassies in the {board.nuclear_of(space)} "
                                "slice (§11.1: one in each)")
            else:
                mine[board.nuclear_of(space)] = space
        embassies[player] = mine
    problems += setup_problems(variant, embassies, board)
    if problems:
        raise ValueError("favor_setup is not a valid setup: " + "; ".join(problems))
    return MappingProxyType({p: MappingProxyType(e) for p, e in embassies.items()})


def _player_named(variant: Variant, text: str) -> str | None:
    low = text.strip().lower()
    return next((name for name, power in variant.powers.items()
                 if low in (name.lower(), power.abbreviation.lower())), None)


def format_setup(variant: Variant, embassies: Embassies, board: FavorBoard | None = None) -> str:
    """A setup in the inline form :func:`parse_setup` reads."""
    board = board or favor_board(variant)
    return ";".join(f"{variant.powers[p].abbreviation}="
                    + ",".join(embassies[p][n] for n in board.slices.values() if n in embassies[p])
                    for p in sorted(embassies))


def setup_for_rules(variant: Variant, rules: Rules | None = None) -> Embassies:
    """The Embassies a game starts with under its rules: the setup ``favor_setup``
    names (``default``, ``legacy``) or the GM's own written inline (:func:`parse_setup`)."""
    rules = rules or variant.rules
    board = favor_board(variant, rules.favor_board)
    if "=" in rules.favor_setup:
        return parse_setup(variant, rules.favor_setup, board)
    return named_setup(variant, rules.favor_setup, rules.favor_board)


def setup_problems(variant: Variant, embassies: Embassies,
                   board: FavorBoard | None = None, check_values: bool = True) -> list[str]:
    """Why a GM's setup is not valid, or ``[]`` (§11.2: each player has one Embassy
    per slice, on a hex of its §7 Favor value; one Embassy per hex, §11.1.3)."""
    board = board or favor_board(variant)
    problems: list[str] = []
    taken: dict[str, str] = {}
    for player in sorted(variant.powers):
        mine = embassies.get(player)
        if mine is None:
            problems.append(f"{player} has no Embassies (§11.1: one in each slice)")
            continue
        for nuclear in board.slices.values():
            space = mine.get(nuclear)
            if space is None or not board.is_space(space) or board.nuclear_of(space) != nuclear:
                problems.append(f"{player}'s {nuclear} Embassy must be in the {nuclear} slice, "
                                f"not {space or 'nowhere'} (§11.1)")
                continue
            want = variant.favor.get(player, {}).get(nuclear, 0)
            if check_values and value_of(space) != want:
                problems.append(f"{player}'s {nuclear} Embassy is on {space}, of Favor "
                                f"{value_of(space)}; its §7 Favor value is {want} (§11.2)")
            if value_of(space) and space in taken:
                problems.append(f"{space} holds two Embassies, {taken[space]}'s and {player}'s "
                                "(§11.1.3: one per hex)")
            taken[space] = player
    for player in sorted(set(embassies) - set(variant.powers)):
        problems.append(f"{player} is not a player")
    return problems


def favor_of(position: Position, player: str, nuclear: str) -> int | None:
    """The Favor value the board gives ``player`` with ``nuclear`` (§11.3), 1 for an
    exile (§5.3), or ``None`` when the position has no Favor Map."""
    if player in position.exiles:
        return EXILE_FAVOR
    space = position.embassies.get(player, {}).get(nuclear)
    return None if space is None else value_of(space)


def closed_territory(variant: Variant, position: Position, player: str) -> dict[str, str]:
    """Province -> nuclear power, for the territory of every nuclear power with which
    ``player`` has zero Favor on the board (§11.4.2: no retreats there, and its
    units there suffer Nuclear Retaliation). Empty without a Favor Map in play."""
    closed: dict[str, str] = {}
    if not position.embassies:
        return closed
    for nuclear, power in variant.nuclear.items():
        if favor_of(position, player, nuclear) == 0:
            closed.update(dict.fromkeys(power.territories, nuclear))
    return closed


def _closest(board: FavorBoard, space: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate hex, ties to the first sorting letter (§11.7.1 1b, §11.7.3 1d)."""
    ranked = sorted(candidates, key=lambda c: (board.distance(space, c), _letter(c)))
    return ranked[0] if ranked else None


def kick(board: FavorBoard, occupied: Iterable[str], space: str) -> str:
    """Where an Embassy on ``space`` is kicked to (§11.7.1): the closest vacant hex
    of lower Favor value in its slice, else the perimeter (where it stays, kicked)."""
    taken = set(occupied)
    lower = [s for s in board.coords
             if s[0] == space[0] and value_of(s) < value_of(space) and s not in taken]
    return _closest(board, space, lower) or f"{space[0]}0z"


def retreat_destination(board: FavorBoard, occupied: Iterable[str], space: str,
                        attacker_from: str | None, bounced: Iterable[str]) -> str:
    """Where a dislodged Embassy retreats after Winter orders (§11.7.3): the closest
    vacant hex of equal or lower value in its slice, not the attacker's origin nor a
    hex bounced this Winter, else the perimeter."""
    barred = set(occupied) | set(bounced) | {attacker_from}
    eligible = [s for s in board.coords
                if s[0] == space[0] and value_of(s) <= value_of(space) and s not in barred]
    return _closest(board, space, eligible) or f"{space[0]}0z"


def kick_all(board: FavorBoard, embassies: Embassies, kicks: Iterable[tuple[str, str]]
             ) -> tuple[dict[str, dict[str, str]], list[tuple[str, str, str]]]:
    """Kick the given (player, nuclear) Embassies one at a time
    (§11.7, §11.7.2): within a slice in alphabetical order of the sorting letter of
    the space each is on, an Embassy with more than one kick queued again from
    its new space. Returns the new Embassies and ``(player, from, to)`` per kick."""
    after = {p: dict(e) for p, e in embassies.items()}
    pending: dict[tuple[str, str], int] = {}
    for key in kicks:
        pending[key] = pending.get(key, 0) + 1
    done: list[tuple[str, str, str]] = []
    while pending:
        player, nuclear = min(pending, key=lambda k: (
            list(board.slices.values()).index(k[1]), _letter(after[k[0]][k[1]]), k[0]))
        space = after[player][nuclear]
        occupied = [e[nuclear] for p, e in after.items() if p != player and nuclear in e]
        to = kick(board, occupied, space)
        after[player][nuclear] = to
        done.append((player, space, to))
        pending[(player, nuclear)] -= 1
        if not pending[(player, nuclear)]:
            del pending[(player, nuclear)]
    return after, done
