"""Every minimal convoy route from one coastal province, found in one search.

:meth:`GameMap.convoy_route_seas` answers for one destination at a time: the
spaces on some *minimal* convoy route (no fleet on it could be left out) from
``src`` to ``dst`` (DATC 6.G.7, 6.G.19). Asking it for every destination walks
the same chains once per destination. :func:`convoy_routes_from` walks them once
and gives the same answer for every destination at the same time; random play
uses it to list the convoys a fleet could give (``sim/options.py``).
"""

from __future__ import annotations

from .geography import GameMap, Terrain

__all__ = ["convoy_routes_from"]


def convoy_routes_from(game_map: GameMap, src: str) -> dict[str, frozenset[str]]:
    """For each coastal province ``dst`` other than ``src``, the spaces on some
    minimal convoy route from ``src`` to it: ``game_map.convoy_route_seas(src,
    dst)`` for every ``dst`` (only those with a route are given).

    The search follows :meth:`GameMap.convoy_route_seas` exactly: a route is an
    induced chain of convoy spaces (each new space touches only the one before
    it, and ``src`` only as the first step), and a chain towards ``dst`` ends at
    the first space bordering ``dst``. So a chain counts for ``dst`` when its
    last space borders ``dst`` and none before it does.
    """
    provs = game_map.provinces
    if provs[src].terrain is not Terrain.COASTAL:
        return {}
    ends = frozenset(d for d, p in provs.items() if p.terrain is Terrain.COASTAL and d != src)
    found: dict[str, set[str]] = {}
    _extend(game_map, ends, [src], frozenset(), found)
    return {d: frozenset(spaces) for d, spaces in found.items()}


def _extend(game_map: GameMap, ends: frozenset[str], path: list[str],
            reached: frozenset[str], found: dict[str, set[str]]) -> None:
    """Extend the chain ``path`` (``src`` first) by one convoy space in every way;
    ``reached`` are the destinations a space of the chain already borders, whose
    own search would have stopped there."""
    provs = game_map.provinces
    links = game_map.convoy_links
    last = path[-1]
    for nxt in links(last):
        if nxt in path or not provs[nxt].can_convoy:
            continue
        touching = links(nxt)
        if any(p in touching for p in path[:-1]):
            continue  # not an induced chain: a shorter one leaves a space out
        here = [d for d in touching if d in ends and d not in reached]
        for d in here:
            spaces = found.setdefault(d, set())
            spaces.update(path[1:])
            spaces.add(nxt)
        still = reached.union(here) if here else reached
        if len(still) < len(ends):  # some destination's search would go on
            _extend(game_map, ends, [*path, nxt], still, found)
