"""Texts for players in the names they know.

The resolver writes its reasons as GMs write them in short (``Dislodged by A
Mun (2v1)``, ``Cut by F Noa``), the form the DATC and the rulebooks' examples
use, and the case files compare against. A results post, a web page or a map
names every unit in full (``A Paris - Burgundy``), so its reasons and events
must too: :func:`for_players` rewrites every unit written with a province key
or a short name (``A ida``, ``F Noa``, ``W Khk``) into the province's name
(``A Idavollr``). Stored results are rewritten when shown, so games processed
before this change read the same.
"""

from __future__ import annotations

import re

from .geography import GameMap

__all__ = ["for_players"]

_UNIT = re.compile(r"(?<!\w)([AFW]) ([A-Za-z][A-Za-z0-9_]*(?:/[a-z]{2})?)(?![\w/])")


def for_players(game_map: GameMap, text: str) -> str:
    """``text`` with each ``A key`` / ``F Abbr`` naming a province written out."""
    if not text:
        return text

    def name(match: re.Match[str]) -> str:
        letter, where = match.groups()
        prov, _, coast = where.lower().partition("/")
        if prov not in game_map.provinces:
            return match.group(0)
        location = f"{prov}/{coast}" if coast else prov
        try:
            return f"{letter} {game_map.name_of(location)}"
        except (KeyError, ValueError):
            return f"{letter} {game_map.name_of(prov)}"

    return _UNIT.sub(name, text)
