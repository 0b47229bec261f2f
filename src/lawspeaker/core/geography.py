"""The map: provinces, coasts and who can move where.

A *province* is a named space on the board. A *location* is where a unit
stands: the province key for most spaces (``"lon"``), or the province key and a
coast for provinces with split coasts (``"spa/nc"``). Armies move between
provinces; fleets move between locations, so a fleet on the north coast of
Spain cannot reach the Gulf of Lyon even though Spain borders it (DATC 6.B.5).

Adjacency is stored per unit type, exactly as rulebook diagrams draw it:
army-only borders, fleet-only borders and borders both can cross. The map is
immutable once built; every query is a dictionary look-up, because the
resolver asks these questions many thousands of times per second.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

__all__ = [
    "COAST_NAMES",
    "GameMap",
    "Province",
    "Terrain",
    "UnitType",
    "UnknownNameError",
    "normalise_name",
    "province_of",
]


class Terrain(StrEnum):
    LAND = "land"
    COASTAL = "coastal"
    SEA = "sea"
    IMPASSABLE = "impassable"


class UnitType(StrEnum):
    """A unit's kind. Its value is the letter used in order notation."""

    ARMY = "A"
    FLEET = "F"
    WING = "W"
    """An air base (Dissolution §3.3): stationary, on land, and adjacent to
    every bordering land and sea space (coasts ignored)."""

    @property
    def noun(self) -> str:
        return {"A": "army", "F": "fleet", "W": "wing"}[self.value]


_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET
_WING: Final = UnitType.WING
"""Read once: each use of an enum member is a class look-up."""


#: Spoken names of the coast codes used after a slash (``spa/nc``).
COAST_NAMES: Mapping[str, str] = {
    "nc": "north coast",
    "sc": "south coast",
    "ec": "east coast",
    "wc": "west coast",
    "ne": "north-east coast",
    "nw": "north-west coast",
    "se": "south-east coast",
    "sw": "south-west coast",
}


def province_of(location: str) -> str:
    """The province key of a location: ``"spa/nc"`` -> ``"spa"``."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


_NON_WORD = re.compile(r"[^a-z0-9 ]+")


def normalise_name(text: str) -> str:
    """Lower-case, strip diacritics and punctuation, collapse spaces.

    ``"Lübeck"``, ``"lubeck"`` and ``"LUBECK"`` all normalise alike, so
    players may type names with or without diacritics.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    plain = plain.replace("-", " ").replace("_", " ")
    plain = _NON_WORD.sub("", plain)
    return " ".join(plain.split())


class UnknownNameError(ValueError):
    """A name that resolves to no province, or to several."""

    def __init__(self, text: str, candidates: Iterable[str], ambiguous: bool = False) -> None:
        self.text = text
        self.candidates = tuple(candidates)
        self.ambiguous = ambiguous
        if ambiguous:
            message = f"'{text}' is ambiguous: it could be {', '.join(self.candidates)}"
        elif self.candidates:
            message = f"unknown space '{text}'; did you mean {', '.join(self.candidates)}?"
        else:
            message = f"unknown space '{text}'"
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Province:
    key: str
    name: str
    terrain: Terrain
    sc_value: int = 0
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    can_convoy: bool = False
    """Whether a fleet here may convoy: open sea, unless a canal or island."""
    xy: tuple[float, float] | None = None
    flags: frozenset[str] = frozenset()
    """Extra space kinds from the data (``canal``, ``island``, ``reconstructed``)."""

    def __reduce__(self) -> tuple[type[Province], tuple[object, ...]]:
        # Pickled as a constructor call: the compiled build (mypyc) cannot restore a
        # frozen class field by field (the compiled-variant cache pickles maps).
        return (Province, (self.key, self.name, self.terrain, self.sc_value, self.coasts,
                           self.aliases, self.can_convoy, self.xy, self.flags))

    @property
    def is_sc(self) -> bool:
        return self.sc_value > 0

    @property
    def locations(self) -> tuple[str, ...]:
        """Where a fleet may stand here: each coast, or the province itself."""
        if self.coasts:
            return tuple(f"{self.key}/{c}" for c in self.coasts)
        return (self.key,)


_NO_ROUTE: frozenset[str] = frozenset()
"""No convoy route (:meth:`GameMap.convoy_route_seas`)."""


@dataclass(frozen=True)
class GameMap:
    """Provinces plus per-unit-type adjacency. Build it with :func:`GameMap.build`."""

    provinces: Mapping[str, Province]
    army_links: Mapping[str, frozenset[str]]
    """Province -> provinces an army may move to."""
    fleet_links: Mapping[str, frozenset[str]]
    """Location -> locations a fleet may move to."""
    _fleet_reach: Mapping[str, frozenset[str]] = field(repr=False, default_factory=dict)
    _touching: Mapping[str, frozenset[str]] = field(repr=False, default_factory=dict)
    _names: Mapping[str, str] = field(repr=False, default_factory=dict)
    _routes: dict[str, dict[str, frozenset[str]]] = field(
        repr=False, default_factory=dict, compare=False, hash=False)
    _convoy_ends: dict[tuple[str, str], tuple[str, ...]] = field(
        repr=False, default_factory=dict, compare=False, hash=False)
    _convoy_steps: dict[str, frozenset[str]] = field(
        repr=False, default_factory=dict, compare=False, hash=False)
    _convoyable: dict[tuple[str, str, str], bool] = field(
        repr=False, default_factory=dict, compare=False, hash=False)
    _kept: list[frozenset[str]] = field(
        repr=False, default_factory=list, compare=False, hash=False)

    def __reduce__(self) -> tuple[type[GameMap], tuple[object, ...]]:
        # As Province.__reduce__; the answers kept for speed are not pickled.
        return (GameMap, (self.provinces, self.army_links, self.fleet_links, self._fleet_reach,
                          self._touching, self._names))

    @classmethod
    def build(
        cls,
        provinces: Iterable[Province],
        army_links: Mapping[str, Iterable[str]],
        fleet_links: Mapping[str, Iterable[str]],
    ) -> GameMap:
        provs = {p.key: p for p in provinces}
        army = {k: frozenset(army_links.get(k, ())) for k in provs}
        fleet: dict[str, frozenset[str]] = {}
        for p in provs.values():
            for loc in p.locations:
                fleet[loc] = frozenset(fleet_links.get(loc, ()))
        reach = {loc: frozenset(province_of(t) for t in ts) for loc, ts in fleet.items()}
        touching: dict[str, set[str]] = {k: set(army[k]) for k in provs}
        for loc, ts in reach.items():
            touching[province_of(loc)].update(ts)
        names: dict[str, str] = {}
        for p in provs.values():
            for text in (p.key, p.name, *p.aliases):
                names.setdefault(normalise_name(text), p.key)
        return cls(
            provinces=provs,
            army_links=army,
            fleet_links=fleet,
            _fleet_reach=reach,
            _touching={k: frozenset(v) for k, v in touching.items()},
            _names=names,
        )

    @property
    def supply_centres(self) -> frozenset[str]:
        """The provinces that are supply centres (kept: the map is immutable)."""
        if not self._kept:
            self._keep()
        return self._kept[0]

    @property
    def convoy_spaces(self) -> frozenset[str]:
        """The provinces where a fleet may convoy (:attr:`Province.can_convoy`)."""
        if not self._kept:
            self._keep()
        return self._kept[1]

    def _keep(self) -> None:
        provs = self.provinces.values()
        self._kept.extend((frozenset(p.key for p in provs if p.is_sc),
                           frozenset(p.key for p in provs if p.can_convoy)))

    # --- adjacency -------------------------------------------------------

    def can_move(self, unit_type: UnitType, src: str, dst: str) -> bool:
        """Whether a unit of this type may move from location ``src`` to ``dst``.

        For a fleet, ``dst`` must name the coast when the province has several.
        """
        if unit_type is _ARMY:
            return dst in self.army_links.get(src, ())
        if unit_type is _WING:
            return province_of(dst) in self._touching.get(province_of(src), ())
        return dst in self.fleet_links.get(src, ())

    def reaches(self, unit_type: UnitType, src: str, province: str) -> bool:
        """Whether the unit could move into ``province`` (any coast).

        This is the test for supports: a fleet may support into a province it
        could enter, whatever coast the supported unit aims at (DATC 6.B.4).
        """
        return province in self.reachable(unit_type, src)

    def reachable(self, unit_type: UnitType, src: str) -> frozenset[str]:
        """Every province a unit of this type at location ``src`` could move into
        (any coast): the provinces it may support into (see :meth:`reaches`)."""
        if unit_type is _ARMY:
            return self.army_links.get(src, frozenset())
        if unit_type is _WING:  # Dissolution §3.3: every neighbouring space
            return self._touching.get(province_of(src), frozenset())
        return self._fleet_reach.get(src, frozenset())

    def fleet_targets(self, src: str, province: str) -> list[str]:
        """The locations of ``province`` a fleet at ``src`` could move to."""
        return [t for t in self.fleet_links.get(src, ()) if province_of(t) == province]

    def neighbours(self, unit_type: UnitType, src: str) -> frozenset[str]:
        if unit_type is _ARMY:
            return self.army_links.get(src, frozenset())
        if unit_type is _WING:
            return self._touching.get(province_of(src), frozenset())
        return self.fleet_links.get(src, frozenset())

    def touching(self, province: str) -> frozenset[str]:
        """Provinces sharing any border with ``province``, whoever can cross it."""
        return self._touching.get(province, frozenset())

    def convoy_links(self, province: str) -> frozenset[str]:
        """Provinces a convoy chain can step to from ``province`` (fleet borders)."""
        steps = self._convoy_steps.get(province)
        if steps is None:  # the map is immutable, so each answer is kept
            out: set[str] = set()
            for loc in self.provinces[province].locations:
                out |= self._fleet_reach.get(loc, frozenset())
            steps = self._convoy_steps[province] = frozenset(out)
        return steps

    def convoy_path_exists(self, src: str, dst: str, seas: Iterable[str] | None = None,
                           avoid: str = "") -> bool:
        """Whether armies could be convoyed from ``src`` to ``dst``.

        The chain may use only convoy-capable spaces, only those in ``seas``
        when given (say, the spaces that hold fleets), and never ``avoid``.
        """
        provs = self.provinces
        if seas is None:  # a question about the map alone, so its answer is kept
            key = (src, dst, avoid)
            known = self._convoyable.get(key)
            if known is None:
                allowed = {p for p in provs if provs[p].can_convoy and p != avoid}
                known = self._convoyable[key] = self._chain_exists(src, dst, allowed)
            return known
        allowed = {p for p in seas if p != avoid and p in provs and provs[p].can_convoy}
        return self._chain_exists(src, dst, allowed)

    def _chain_exists(self, src: str, dst: str, allowed: set[str]) -> bool:
        seen: set[str] = set()
        frontier = [p for p in self.convoy_links(src) if p in allowed]
        while frontier:
            here = frontier.pop()
            if here in seen:
                continue
            seen.add(here)
            links = self.convoy_links(here)
            if dst in links:
                return True
            frontier.extend(p for p in links if p in allowed and p not in seen)
        return False

    def convoy_route_seas(self, src: str, dst: str) -> frozenset[str]:
        """Spaces that lie on some *minimal* convoy route from src to dst.

        A route is minimal when no fleet on it could be left out (no shortcut
        between its spaces). A fleet on no minimal route is never needed for
        the convoy, so its convoy order is impossible (DATC 6.G.7, 6.G.19).
        """
        return self.convoy_routes_from(src).get(dst, _NO_ROUTE)

    def convoy_routes_from(self, src: str) -> Mapping[str, frozenset[str]]:
        """For each coastal province with a convoy route from ``src``, the spaces
        on some minimal route to it (:meth:`convoy_route_seas` for every
        destination), found in one search from ``src`` and kept.

        A route is an induced chain of convoy spaces (each new space touches
        only the one before it, and ``src`` only as the first step), and a
        chain towards a destination ends at the first space bordering it. So a
        chain counts for ``dst`` when its last space borders ``dst`` and none
        before it does; one walk over the chains answers every destination."""
        found = self._routes.get(src)
        if found is None:
            provs = self.provinces
            spaces: dict[str, set[str]] = {}
            if provs[src].terrain is Terrain.COASTAL:
                ends = frozenset(d for d, p in provs.items()
                                 if p.terrain is Terrain.COASTAL and d != src)
                _extend_chains(self, ends, [src], frozenset(), spaces)
            found = self._routes[src] = {d: frozenset(v) for d, v in spaces.items()}
        return found

    def convoy_destinations(self, src: str, sea: str) -> tuple[str, ...]:
        """The coastal provinces, sorted, to which a fleet in ``sea`` may convoy an
        army from ``src``: those with ``sea`` on a minimal route (see
        :meth:`convoy_route_seas`)."""
        key = (src, sea)
        ends = self._convoy_ends.get(key)
        if ends is None:
            provs = self.provinces
            ends = self._convoy_ends[key] = tuple(
                dst for dst in sorted(provs) if provs[dst].terrain is Terrain.COASTAL
                and dst != src and sea in self.convoy_route_seas(src, dst))
        return ends

    def is_valid_location(self, unit_type: UnitType, location: str) -> bool:
        """Whether a unit of this type may stand at ``location``."""
        prov = self.provinces.get(province_of(location))
        if prov is None or prov.terrain is Terrain.IMPASSABLE:
            return False
        if unit_type is not _FLEET:
            # Armies, and wings, which "only ever occupy the land provinces they
            # start in" (Dissolution §3.3), stand on land and ignore coasts.
            return location == prov.key and prov.terrain is not Terrain.SEA
        if prov.terrain is Terrain.LAND:
            return False
        return location in prov.locations

    # --- names ------------------------------------------------------------

    def name_of(self, location: str) -> str:
        """The printed name of a location: ``"Spain (north coast)"``."""
        if "/" not in location:
            return self.provinces[location].name
        prov = self.provinces[province_of(location)]
        coast = location.split("/", 1)[1]
        return f"{prov.name} ({COAST_NAMES.get(coast, coast)})"

    def lookup(self, text: str) -> str:
        """Resolve a typed province name to its key.

        Accepts the key, the full name, any alias, and any prefix of a name or
        alias that picks out one province (S9 §5.1: any space may be named by
        its first three letters). Raises :class:`UnknownNameError` with the
        nearest names otherwise.
        """
        norm = normalise_name(text)
        hit = self._names.get(norm)
        if hit is not None:
            return hit
        if norm:
            found = {key for name, key in self._names.items() if name.startswith(norm)}
            if len(found) == 1:
                return found.pop()
            if len(found) > 1:
                raise UnknownNameError(text, sorted(self.provinces[k].name for k in found),
                                       ambiguous=True)
        close = difflib.get_close_matches(norm, list(self._names), n=3, cutoff=0.6)
        keys = list(dict.fromkeys(self._names[c] for c in close))
        raise UnknownNameError(text, [self.provinces[k].name for k in keys])

    def names_index(self) -> Mapping[str, str]:
        """Every normalised name, alias and key, mapped to its province key."""
        return self._names


def _extend_chains(game_map: GameMap, ends: frozenset[str], path: list[str],
                   reached: frozenset[str], found: dict[str, set[str]]) -> None:
    """Extend the convoy chain ``path`` (its source first) by one convoy space in
    every way (:meth:`GameMap.convoy_routes_from`). ``reached``: the destinations
    a space of the chain already borders, whose own search would stop there."""
    provs = game_map.provinces
    links = game_map.convoy_links
    for nxt in links(path[-1]):
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
            _extend_chains(game_map, ends, [*path, nxt], still, found)
