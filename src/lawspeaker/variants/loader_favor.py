"""Checking a variant's ``favor.yaml`` (Dissolution §11, the Favor Map).

The board is variant data a GM may replace (the official image is missing and
the shipped one is a reconstruction), so ``lawspeaker map check`` must report a
broken file the way it reports the rest of the variant: every problem with its
file and line, never a traceback. :func:`check_favor` reads the file as written
(round-trip YAML, for the lines), checks its shape and every rule of the board
the engine relies on, then the setups against §11.2, and leaves the reading
proper to :mod:`lawspeaker.rules.favor`, which can then assume a valid file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .loader_yaml import line_of
from .model import Variant

FILE = "favor.yaml"
HEXES_PER_SLICE = 20
"""§11.1: each slice has 20 hexes (and a perimeter, which has no coordinates)."""

Report = Callable[[str, "int | None", str], None]


def check_favor(variant: Variant, data: Any, report: Report) -> None:
    """Report every problem of ``favor.yaml``'s parsed ``data`` through ``report(file, line,
    message)``. ``data`` is ``None`` when the file could not be read (already reported)."""
    if data is None:
        return
    if not isinstance(data, Mapping):
        report(FILE, None, "must be a mapping with slices, borders, boards and setups")
        return
    for key in ("slices", "borders", "boards", "setups"):
        if key not in data:
            report(FILE, None, f"'{key}' is missing (Dissolution §11.1)")
    slices = _slices(variant, data, report)
    if not slices:
        return
    _borders(data, slices, report)
    boards = _boards(data, slices, report)
    _setups(variant, data, slices, boards, report)
    for key in ("kicks_also", "permission_also"):
        links = data.get(key) or {}
        if not isinstance(links, Mapping):
            report(FILE, line_of(data, key), f"'{key}' must map a nuclear power to a list")
            continue
        for power, others in links.items():
            for name in [power, *(others if isinstance(others, list) else [others])]:
                if str(name) not in variant.nuclear:
                    report(FILE, line_of(links, power), f"{key}: '{name}' is not a nuclear power "
                           f"of the variant ({', '.join(sorted(variant.nuclear))})")


def _slices(variant: Variant, data: Mapping[str, Any], report: Report) -> dict[str, str]:
    raw = data.get("slices")
    if not isinstance(raw, Mapping):
        if raw is not None:
            report(FILE, line_of(data, "slices"), "'slices' must map a slice letter to a "
                   "nuclear power, like 'N: NATO'")
        return {}
    slices: dict[str, str] = {}
    for letter, power in raw.items():
        line = line_of(raw, letter)
        if not re.fullmatch(r"[A-Z]", str(letter)):
            report(FILE, line, f"slice '{letter}' must be one capital letter (§11.1.2)")
        elif str(power) not in variant.nuclear:
            report(FILE, line, f"slice {letter}: '{power}' is not a nuclear power of the "
                   f"variant ({', '.join(sorted(variant.nuclear))})")
        else:
            slices[str(letter)] = str(power)
    missing = sorted(set(variant.nuclear) - set(raw.values()))
    if missing:
        report(FILE, line_of(data, "slices"), f"no slice for {', '.join(missing)} (§11.1.1: one "
               "per nuclear power)")
    return slices


def _borders(data: Mapping[str, Any], slices: Mapping[str, str], report: Report) -> None:
    raw = data.get("borders")
    if raw is None:
        return
    if not isinstance(raw, list):
        report(FILE, line_of(data, "borders"), "'borders' must be a list of slice pairs, "
               "like [[N, U], [U, I]]")
        return
    for i, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2 and all(str(x) in slices for x in pair)):
            report(FILE, line_of(raw, i), f"border {pair}: expected two slice letters of "
                   f"{', '.join(slices)} (§11.5.1)")


def _boards(data: Mapping[str, Any], slices: Mapping[str, str], report: Report
            ) -> dict[str, set[str]]:
    """Each board's hexes, for the setups' check."""
    raw = data.get("boards")
    if not isinstance(raw, Mapping):
        if raw is not None:
            report(FILE, line_of(data, "boards"), "'boards' must map a board name to its hexes")
        return {}
    default = data.get("default_board", "A")
    if str(default) not in {str(b) for b in raw}:
        report(FILE, line_of(data, "default_board"), f"default_board '{default}' is not one of "
               f"the boards ({', '.join(map(str, raw))})")
    boards: dict[str, set[str]] = {}
    label = re.compile(rf"[{''.join(slices)}][1-5][a-z]")
    for name, hexes in raw.items():
        if not isinstance(hexes, Mapping):
            report(FILE, line_of(raw, name), f"board {name} must map each hex to [q, r]")
            continue
        seen: dict[tuple[int, int], str] = {}
        for space, qr in hexes.items():
            line = line_of(hexes, space)
            if not label.fullmatch(str(space)):
                report(FILE, line, f"board {name}: '{space}' is not a hex label: slice letter, "
                       "Favor value 1-5, sorting letter, like U2j (§11.1.2)")
                continue
            if not (isinstance(qr, list) and len(qr) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in qr)):
                report(FILE, line, f"board {name}: {space} needs axial coordinates [q, r], "
                       f"two whole numbers, not {qr}")
                continue
            key = (qr[0], qr[1])
            if key in seen:
                report(FILE, line, f"board {name}: {space} and {seen[key]} are both at {qr}")
            seen[key] = str(space)
        counted = {s: sum(1 for h in hexes if str(h)[0] == s) for s in slices}
        for letter, count in counted.items():
            if count != HEXES_PER_SLICE:
                report(FILE, line_of(raw, name), f"board {name}: slice {letter} has {count} hexes, "
                       f"not {HEXES_PER_SLICE} (§11.1)")
        boards[str(name)] = {str(h) for h in hexes}
    return boards


def _setups(variant: Variant, data: Mapping[str, Any], slices: Mapping[str, str],
            boards: Mapping[str, set[str]], report: Report) -> None:
    """§11.2: each player one Embassy per slice, one per hex; the ``default`` setup
    also on hexes of the player's §7 Favor values (``legacy`` is §11.7.4's older map)."""
    raw = data.get("setups")
    if not isinstance(raw, Mapping):
        if raw is not None:
            report(FILE, line_of(data, "setups"), "'setups' must map a setup name to its players")
        return
    if "default" not in raw:
        report(FILE, line_of(data, "setups"), "no 'default' setup (§11.2.2)")
    hexes = set.union(*boards.values()) if boards else set()
    order = list(slices)
    for name, players in raw.items():
        if not isinstance(players, Mapping):
            report(FILE, line_of(raw, name), f"setup {name} must map each player to its spaces")
            continue
        for player in sorted(set(variant.powers) - {str(p) for p in players}):
            report(FILE, line_of(raw, name), f"setup {name}: no Embassies for {player} (§11.1)")
        taken: dict[str, str] = {}
        for player, spaces in players.items():
            line = line_of(players, player)
            if str(player) not in variant.powers:
                report(FILE, line, f"setup {name}: '{player}' is not a player")
                continue
            if not (isinstance(spaces, list) and len(spaces) == len(order)):
                report(FILE, line, f"setup {name}: {player} needs {len(order)} spaces, one per "
                       f"slice in the order {', '.join(order)}")
                continue
            for letter, space in zip(order, map(str, spaces), strict=True):
                if space[:1] != letter or (space not in hexes and space != f"{letter}0z"):
                    report(FILE, line, f"setup {name}: {player}'s {slices[letter]} Embassy must "
                           f"be on a space of slice {letter}, not {space}")
                    continue
                want = variant.favor.get(str(player), {}).get(slices[letter], 0)
                if name == "default" and int(space[1]) != want:
                    report(FILE, line, f"setup default: {player}'s {slices[letter]} Embassy is "
                           f"on {space}, of Favor {space[1]}; its §7 Favor value is {want} "
                           "(§11.2)")
                if space[1] != "0" and space in taken:
                    report(FILE, line, f"setup {name}: {space} holds two Embassies, "
                           f"{taken[space]}'s and {player}'s (§11.1.3)")
                taken[space] = str(player)
