"""Convoy chains: which spaces a convoyed army may step between.

Standard Diplomacy chains fleets on open sea (DATC 4.A). Dissolution adds
wings (§3.3): a wing convoys an army across any terrain, treats every
bordering space as adjacent, chains with fleets, and counts as adjacent to
every other wing on the map, for convoys only. One set of step rules serves
the legality checks (is a stated path a chain at all?) and the resolver
(does the chain of convoying units still hold?), so both agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .board import Unit
from .geography import GameMap, Terrain, UnitType

__all__ = ["carrier_is_wing", "find_chain", "path_problem", "step_ok"]


def carrier_is_wing(units: Mapping[str, Unit], province: str) -> bool:
    unit = units.get(province)
    return unit is not None and unit.type is UnitType.WING


def step_ok(game_map: GameMap, here: str, here_wing: bool, there: str, there_wing: bool) -> bool:
    """Whether a convoy may step from ``here`` to ``there`` (either may be the army's
    origin or destination, which count as non-wings)."""
    if here_wing and there_wing:
        return True  # Dissolution §3.3: any wing is adjacent to any other wing for convoys
    if here_wing or there_wing:
        return there in game_map.touching(here)  # §3.3 (2): every neighbouring space
    return there in game_map.convoy_links(here)


def path_problem(game_map: GameMap, units: Mapping[str, Unit], src: str,
                 path: Iterable[str], dst: str) -> str | None:
    """Why an explicit convoy path (Dissolution §3.10.1) cannot carry an army, or ``None``.

    A space of the path counts as a wing when a wing stands there, and as a
    fleet's space otherwise; whether those units really convoy is for the
    resolver to decide.
    """
    provs = game_map.provinces
    hops = [src, *path, dst]
    # §3.3: "a Wing may convoy an Army to attack another Wing": the last step is
    # wing to wing when a wing stands in the destination.
    wings = [False, *(carrier_is_wing(units, p) for p in path), carrier_is_wing(units, dst)]
    for p, wing in zip(hops[1:-1], wings[1:-1], strict=True):
        if p in (src, dst):
            return f"the convoy path cannot pass through {provs[p].name}"
        if not wing and not provs[p].can_convoy:
            return (f"{provs[p].name} cannot carry a convoy (only open sea with a fleet, or a "
                    "wing)")
    for i in range(len(hops) - 1):
        a, b = hops[i], hops[i + 1]
        if not step_ok(game_map, a, wings[i], b, wings[i + 1]):
            return f"the convoy path goes from {provs[a].name} to {provs[b].name}, which do " \
                   "not border each other"
    return None


def find_chain(game_map: GameMap, carriers: Mapping[str, bool], src: str, dst: str,
               usable: Callable[[str], bool] = lambda p: True,
               dst_wing: bool = False) -> tuple[str, ...] | None:
    """A chain of ``carriers`` (province -> is it a wing) from ``src`` to ``dst``
    whose every carrier is ``usable``, or ``None``. Breadth first, so the
    shortest such chain; the destination must not be a sea. ``dst_wing``: a
    wing stands in the destination (§3.3: any wing reaches it)."""
    if game_map.provinces[dst].terrain is Terrain.SEA:
        return None
    came: dict[str, str] = {}
    frontier = [c for c, wing in carriers.items()
                if step_ok(game_map, src, False, c, wing) and usable(c)]
    for c in frontier:
        came[c] = src
    while frontier:
        nxt: list[str] = []
        for here in frontier:
            wing = carriers[here]
            if step_ok(game_map, here, wing, dst, dst_wing):
                chain = [here]
                while came[chain[-1]] != src:
                    chain.append(came[chain[-1]])
                return tuple(reversed(chain))
            for there, there_wing in carriers.items():
                if there not in came and step_ok(game_map, here, wing, there, there_wing) \
                        and usable(there):
                    came[there] = here
                    nxt.append(there)
        frontier = nxt
    return None
