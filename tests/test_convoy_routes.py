"""core/convoy_routes.py: every minimal convoy route from one province, found in one
search, is what GameMap.convoy_route_seas gives one destination at a time (DATC
6.G.7, 6.G.19), on every bundled map."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker.core.convoy_routes import convoy_routes_from
from lawspeaker.core.geography import Terrain


@pytest.mark.parametrize("name", ["dissolution", "ood", "s9-complete", "standard"])
def test_routes_from_one_province_are_those_asked_one_by_one(name: str) -> None:
    game_map = lawspeaker.load_variant(name).map
    coastal = sorted(p for p, prov in game_map.provinces.items()
                     if prov.terrain is Terrain.COASTAL)
    routes = 0
    for src in sorted(game_map.provinces):
        found = convoy_routes_from(game_map, src)
        for dst in coastal:
            if dst != src:
                assert found.get(dst, frozenset()) == game_map.convoy_route_seas(src, dst), \
                    (src, dst)
        assert all(game_map.provinces[d].terrain is Terrain.COASTAL and d != src and seas
                   for d, seas in found.items())
        routes += len(found)
    assert routes > 100  # the map has convoys to compare


def test_a_route_ends_at_the_first_sea_bordering_the_destination() -> None:
    """Standard: London to Belgium goes through the North Sea or the English Channel;
    a longer chain through both is not minimal (DATC 6.G.7)."""
    game_map = lawspeaker.load_variant("standard").map
    assert convoy_routes_from(game_map, "lon")["bel"] == {"nth", "eng"}
    assert "nth" in convoy_routes_from(game_map, "lon")["nwy"]
    assert convoy_routes_from(game_map, "mun") == {}  # inland: no convoy starts there
