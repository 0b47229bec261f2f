"""GameMap.convoy_routes_from finds every minimal convoy route from one province in
one search; on every bundled map it gives, for each destination, exactly the spaces
that the rule's own definition gives when asked one destination at a time (DATC
6.G.7, 6.G.19: a route is minimal when no fleet on it could be left out)."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker.core.geography import GameMap, Terrain


def one_destination(game_map: GameMap, src: str, dst: str) -> frozenset[str]:
    """The definition, for one destination: every induced chain of convoy spaces
    from ``src`` (each new space touches only the one before it, and ``src`` only
    as the first step) that ends at the first space bordering ``dst``."""
    provs = game_map.provinces
    links = game_map.convoy_links
    found: set[str] = set()

    def extend(path: list[str]) -> None:
        for nxt in links(path[-1]):
            if nxt in path or not provs[nxt].can_convoy:
                continue
            touching = links(nxt)
            if any(p in touching for p in path[:-1]):
                continue
            if dst in touching:
                found.update(path[1:])
                found.add(nxt)
                continue
            extend([*path, nxt])

    if provs[src].terrain is Terrain.COASTAL and provs[dst].terrain is Terrain.COASTAL:
        extend([src])
    return frozenset(found)


@pytest.mark.parametrize("name", ["dissolution", "ood", "s9-complete", "standard"])
def test_routes_from_one_province_are_those_of_the_definition(name: str) -> None:
    game_map = lawspeaker.load_variant(name).map
    coastal = sorted(p for p, prov in game_map.provinces.items()
                     if prov.terrain is Terrain.COASTAL)
    routes = 0
    for src in sorted(game_map.provinces):
        found = game_map.convoy_routes_from(src)
        for dst in coastal:
            if dst != src:
                expected = one_destination(game_map, src, dst)
                assert found.get(dst, frozenset()) == expected, (src, dst)
                assert game_map.convoy_route_seas(src, dst) == expected, (src, dst)
        assert all(game_map.provinces[d].terrain is Terrain.COASTAL and d != src and seas
                   for d, seas in found.items())
        routes += len(found)
    assert routes > 100  # the map has convoys to compare


def test_a_route_ends_at_the_first_sea_bordering_the_destination() -> None:
    """Standard: London to Belgium goes through the North Sea or the English Channel;
    a longer chain through both is not minimal (DATC 6.G.7)."""
    game_map = lawspeaker.load_variant("standard").map
    assert game_map.convoy_routes_from("lon")["bel"] == {"nth", "eng"}
    assert "nth" in game_map.convoy_routes_from("lon")["nwy"]
    assert game_map.convoy_routes_from("mun") == {}  # inland: no convoy starts there
