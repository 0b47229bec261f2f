"""The map file of a variant: provinces, coasts and links, checked as they are read.

:func:`build_map` turns ``map.yaml``'s ``provinces`` into a
:class:`~lawspeaker.core.geography.GameMap` and reports through the folder's
:class:`~lawspeaker.variants.loader_yaml.Reader` every link that is one-sided,
touches the wrong terrain or names an unknown place, and every name two provinces
share, each with its line. It is the loader's first section: the rest of the
variant is checked against the map it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.geography import (
    COAST_NAMES,
    GameMap,
    Province,
    Terrain,
    normalise_name,
    province_of,
)
from .loader_yaml import Reader, line_of
from .model import Seed

__all__ = ["build_map", "read_seeds"]


def build_map(reader: Reader, file: str, raw: Mapping[str, Any]) -> GameMap:
    provinces: list[Province] = []
    links = _Links()
    for key, body in raw.items():
        line = line_of(raw, key)
        key = str(key)
        if key != key.lower() or "/" in key or " " in key:
            reader.problem(file, line,
                           f"province key '{key}' must be lower-case, no '/' or spaces")
        if not isinstance(body, Mapping):
            reader.problem(file, line, f"{key}: must be a mapping")
            continue
        province = _province(reader, file, key, body, line)
        provinces.append(province)
        links.read(reader, file, key, body, province.coasts)
    game_map = GameMap.build(provinces, links.army, links.fleet)
    _check_links(reader, file, game_map, links.army, links.fleet, links.both, links.lines)
    _check_names(reader, file, raw, game_map)
    return game_map


def _province(reader: Reader, file: str, key: str, body: Mapping[str, Any],
              line: int | None) -> Province:
    """The province ``key`` of ``body`` but its links, each bad field reported and
    read as its default."""
    try:
        terrain = Terrain(str(body.get("type", "")))
    except ValueError:
        reader.problem(file, line, f"{key}: type must be one of "
                       f"{', '.join(t.value for t in Terrain)}")
        terrain = Terrain.LAND
    coasts = tuple(c for _, c in reader.items(file, body, "coasts", key))
    for c in coasts:
        if c not in COAST_NAMES:
            reader.problem(file, line_of(body, "coasts"), f"{key}: unknown coast '{c}'")
    if coasts and terrain is not Terrain.COASTAL:
        reader.problem(file, line_of(body, "coasts"), f"{key}: only coastal spaces have coasts")
    flags = frozenset(f for _, f in reader.items(file, body, "flags", key))
    for word in ("canal", "island"):
        if body.get(word):
            flags |= {word}
    can_convoy = bool(body.get("convoy", terrain is Terrain.SEA and
                               not flags & {"canal", "island"}))
    xy = body.get("xy")
    if xy is not None and (len(xy) != 2 or not all(isinstance(v, int | float) for v in xy)):
        reader.problem(file, line_of(body, "xy"), f"{key}: xy must be two numbers")
        xy = None
    sc = body.get("sc", 0) or 0
    if not isinstance(sc, int) or sc < 0:
        reader.problem(file, line_of(body, "sc"), f"{key}: sc must be a positive integer")
        sc = 0
    if "name" not in body:
        reader.problem(file, line, f"{key}: missing 'name'")
    return Province(
        key=key, name=str(body.get("name", key)), terrain=terrain, sc_value=sc,
        coasts=coasts, aliases=tuple(a for _, a in reader.items(file, body, "aliases", key)),
        can_convoy=can_convoy, xy=tuple(xy) if xy else None, flags=flags,
    )


@dataclass
class _Links:
    """The links of the provinces read so far, as each lists them, and the line of
    each (source, target, ``army`` or ``fleet``) for :func:`_check_links`."""

    army: dict[str, set[str]] = field(default_factory=dict)
    fleet: dict[str, set[str]] = field(default_factory=dict)
    both: dict[str, set[str]] = field(default_factory=dict)
    """The links listed under ``both``, which must be on both sides."""
    lines: dict[tuple[str, str, str], int | None] = field(default_factory=dict)

    def read(self, reader: Reader, file: str, key: str, body: Mapping[str, Any],
             coasts: tuple[str, ...]) -> None:
        """The ``links`` of province ``key``: ``both`` and ``army`` lists, and
        ``fleet`` as one list or, with coasts, one per coast."""
        links = reader.mapping(file, body, "links", key)
        for kind in links:
            if kind not in ("both", "army", "fleet"):
                reader.problem(file, line_of(links, kind), f"{key}: unknown link list '{kind}'")
        for kind in ("both", "army"):
            for i, target in reader.items(file, links, kind, key):
                self.lines[(key, target, "army")] = line_of(links[kind], i)
                self.army.setdefault(key, set()).add(target)
                if kind == "both":
                    self.lines[(key, target, "fleet")] = line_of(links[kind], i)
                    self.both.setdefault(key, set()).add(target)
        fl = links.get("fleet", ()) or ()
        if isinstance(fl, str):
            reader.problem(file, line_of(links, "fleet"), f"{key}: 'fleet' must be a list")
            fl = ()
        if isinstance(fl, Mapping):
            if not coasts:
                reader.problem(file, line_of(links, "fleet"),
                               f"{key}: per-coast fleet links but no coasts declared")
            for coast, targets in fl.items():
                if str(coast) not in coasts:
                    reader.problem(file, line_of(fl, coast), f"{key}: undeclared coast '{coast}'")
                self._fleet(f"{key}/{coast}", targets or ())
        else:
            if coasts and fl:
                reader.problem(file, line_of(links, "fleet"),
                               f"{key}: has coasts, so fleet links must be listed per coast")
            self._fleet(key, fl)
        for target in self.both.get(key, ()):
            self.fleet.setdefault(key, set()).add(target)

    def _fleet(self, loc: str, targets: Any) -> None:
        for i, target in enumerate(targets):
            self.lines[(loc, str(target), "fleet")] = line_of(targets, i)
            self.fleet.setdefault(loc, set()).add(str(target))


def _check_links(reader: Reader, file: str, game_map: GameMap, army: dict[str, set[str]],
                 fleet: dict[str, set[str]], both: dict[str, set[str]],
                 lines: dict[tuple[str, str, str], int | None]) -> None:
    provs = game_map.provinces
    for src, targets in army.items():
        for dst in targets:
            at = lines.get((src, dst, "army"))
            if dst not in provs:
                reader.problem(file, at, f"{src}: links to unknown province '{dst}'")
                continue
            if dst == src:
                reader.problem(file, at, f"{src}: links to itself")
            for end in (src, dst):
                if provs[end].terrain in (Terrain.SEA, Terrain.IMPASSABLE):
                    reader.problem(file, at, f"{src}-{dst}: army link touches "
                                   f"{provs[end].terrain.value} space {end}")
                    break
            if src not in army.get(dst, ()):
                reader.problem(file, at, f"{src}-{dst}: army link not listed under {dst}")
            elif (dst in both.get(src, ())) != (src in both.get(dst, ())):
                reader.problem(file, at, f"{src}-{dst}: 'both' on one side only; "
                               f"list it under 'both' in {src} and {dst}")
    for src, targets in fleet.items():
        for dst in targets:
            at = lines.get((src, dst, "fleet"))
            dprov = provs.get(province_of(dst))
            if dprov is None:
                reader.problem(file, at, f"{src}: links to unknown province '{dst}'")
                continue
            if province_of(dst) == province_of(src):
                reader.problem(file, at, f"{src}: links to its own province")
            if dprov.coasts and "/" not in dst:
                reader.problem(file, at, f"{src}: fleet link to '{dst}' must name a coast "
                               f"({', '.join(dprov.locations)})")
                continue
            if dst not in game_map.fleet_links:
                reader.problem(file, at, f"{src}: unknown location '{dst}'")
                continue
            for end in (src, dst):
                terrain = provs[province_of(end)].terrain
                if terrain in (Terrain.LAND, Terrain.IMPASSABLE):
                    reader.problem(file, at, f"{src}-{dst}: fleet link touches "
                                   f"{terrain.value} space {province_of(end)}")
                    break
            if src not in fleet.get(dst, ()):
                reader.problem(file, at, f"{src}-{dst}: fleet link not listed under {dst}")


def _check_names(reader: Reader, file: str, raw: Mapping[str, Any], game_map: GameMap) -> None:
    seen: dict[str, str] = {}
    for prov in game_map.provinces.values():
        for text in {prov.key, prov.name, *prov.aliases}:
            norm = normalise_name(text)
            owner = seen.setdefault(norm, prov.key)
            if owner != prov.key:
                reader.problem(file, line_of(raw, prov.key),
                               f"{prov.key}: name '{text}' is also used by {owner}")


def read_seeds(reader: Reader, file: str, raw: Any, game_map: GameMap) -> tuple[Seed, ...]:
    """``seeds:`` beside ``provinces:`` in ``map.yaml``: province key -> a list of
    ``[x, y]`` in the provinces' own ``xy`` units, extra points its territory
    grows from (docs/maps.md). An unknown province, a point that is not two
    numbers and a point off the map (outside the span of the provinces'
    ``xy``) are reported with their line."""
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        reader.problem(file, line_of(raw), "seeds: must map each province to a list of [x, y]")
        return ()
    xys = [p.xy for p in game_map.provinces.values() if p.xy is not None]
    if not xys:
        return ()
    lo_x, hi_x = min(x for x, _ in xys), max(x for x, _ in xys)
    lo_y, hi_y = min(y for _, y in xys), max(y for _, y in xys)
    out: list[Seed] = []
    for key, points in raw.items():
        line = line_of(raw, key)
        key = str(key)
        if key not in game_map.provinces:
            reader.problem(file, line, f"seeds: '{key}' is not a province of this map")
            continue
        if not isinstance(points, list):
            reader.problem(file, line, f"seeds: {key}: must be a list of [x, y]")
            continue
        for i, point in enumerate(points):
            at = line_of(points, i) or line
            if (not isinstance(point, list) or len(point) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool)
                               for v in point)):
                reader.problem(file, at, f"seeds: {key}: {point!r} is not [x, y] (two numbers)")
                continue
            x, y = float(point[0]), float(point[1])
            if not (lo_x <= x <= hi_x and lo_y <= y <= hi_y):
                reader.problem(file, at, f"seeds: {key}: [{point[0]}, {point[1]}] is off the map "
                               f"(the provinces' xy span x {lo_x:g} to {hi_x:g}, "
                               f"y {lo_y:g} to {hi_y:g})")
                continue
            out.append(Seed(key, (x, y), file, at))
    return tuple(out)
