"""Territories: each province's area, derived from its point and the adjacency.

Nothing here is drawn by hand. The map's area (the drawing's own canvas, in
pixels, y down) is cut into a fine grid of cells; each cell is land or sea
(from the variant's coastline where it has one, else from the kind of the
nearest province point). Every province then grows from its point at once,
nearest first (so the regions are the cells of the points, as far as the
rules allow), land provinces over land cells and seas over sea cells, under
one constraint: a cell may be taken by province P only if none of its eight
neighbouring cells belongs to a province that is not adjacent to P in the
rules. Two provinces that are not adjacent can therefore never touch; cells
nobody may take stay unowned (the background). The regions are vectorised
(the union of their cells), simplified together as one coverage so that
shared borders stay shared, and the adjacent pairs left without a border of
visible length are the map's ``crossings`` (drawn as arrows).

The result is a pure function of the map data (and the coastline file), so
it is deterministic; it is computed once per map and kept on disk, keyed by
a hash of both.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry

from ..core.geography import GameMap, Terrain, province_of
from .territory_connect import connect_pairs

__all__ = ["GRID_CELLS", "Territories", "build_territories", "cache_key", "dump_territories",
           "load_territories", "rule_pairs"]

GRID_CELLS = 420
"""Cells along the longer side of the map: fine enough for narrow straits,
coarse enough to build the largest map in a few seconds."""

VERSION = 10
"""Bumped whenever the construction changes, so old disk caches are ignored."""

Pair = tuple[str, str]


@dataclass(frozen=True)
class Territories:
    """Every province's area, in canvas coordinates."""

    regions: dict[str, BaseGeometry]
    """Province key -> its Polygon or MultiPolygon (may be empty only if the
    province's point lies off the grid)."""
    crossings: tuple[Pair, ...]
    """Pairs adjacent in the rules whose areas share no visible border."""
    land: BaseGeometry
    """All land cells (owned or not): what is drawn as land under the regions."""
    cell: float
    """The grid's cell size, in canvas units."""


def rule_pairs(game_map: GameMap) -> set[Pair]:
    """Every pair of provinces adjacent in the rules (any unit type), sorted."""
    out: set[Pair] = set()
    for links in (game_map.army_links, game_map.fleet_links):
        for src, targets in links.items():
            for dst in targets:
                a, b = province_of(src), province_of(dst)
                if a != b:
                    out.add((min(a, b), max(a, b)))
    return out


def build_territories(game_map: GameMap, points: dict[str, tuple[float, float]],
                      size: tuple[float, float], coast: BaseGeometry | None = None,
                      cache_dir: Path | None = None, cache_salt: str = "",
                      shipped: Path | None = None,
                      seeds: tuple[tuple[str, float, float], ...] = ()) -> Territories:
    """The territories of ``game_map`` with each province grown from its point
    in ``points`` (canvas units) over a canvas of ``size`` (width, height).

    ``coast`` is the land (canvas units) of a real coastline: land provinces
    grow only over it and seas only off it, and each area is cut to it.
    Without one, land and sea are wherever the land and sea provinces grow.
    With ``cache_dir``, the result is kept there, keyed by a hash of the map's
    provinces, links, points, size and ``cache_salt`` (the coastline's hash);
    ``shipped`` is a read-only folder of such files, looked at first.
    ``seeds`` are extra points (province, x, y in canvas units) that grow like
    the province's own point (``seeds:`` in map.yaml).
    """
    name = f"territories-{cache_key(game_map, points, size, cache_salt, seeds)}.json"
    for folder in (shipped, cache_dir):
        if folder is not None and (folder / name).is_file():
            try:
                return load_territories((folder / name).read_text(encoding="utf-8"))
            except (ValueError, KeyError, shapely.errors.GEOSException):
                pass  # a damaged cache is rebuilt
    path = cache_dir / name if cache_dir is not None else None
    result = _build(game_map, points, size, coast, seeds)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(dump_territories(result), encoding="utf-8")
            tmp.replace(path)
        except OSError:
            pass  # a read-only place: compute again next time
    return result


def _build(game_map: GameMap, points: dict[str, tuple[float, float]],
           size: tuple[float, float], coast: BaseGeometry | None,
           seeds: tuple[tuple[str, float, float], ...] = ()) -> Territories:
    width, height = size
    cell = max(width, height) / GRID_CELLS
    nx, ny = math.ceil(width / cell), math.ceil(height / cell)
    xs = (np.arange(nx) + 0.5) * cell
    ys = (np.arange(ny) + 0.5) * cell
    gx, gy = np.meshgrid(xs, ys)
    keys = sorted(points)
    index = {k: i for i, k in enumerate(keys)}
    provs = game_map.provinces
    kinds = np.array([provs[k].terrain is not Terrain.SEA for k in keys])
    px = np.array([points[k][0] for k in keys])
    py = np.array([points[k][1] for k in keys])
    land = None
    if coast is not None:
        land = shapely.contains_xy(coast, gx, gy)
        # an impassable space is of the ground under its point (OOD §5.5's
        # unnamed sea north of Novgorod is water, Crete and Sardinia land)
        for i, k in enumerate(keys):
            if provs[k].terrain is Terrain.IMPASSABLE:
                cx = min(max(int(px[i] / cell), 0), nx - 1)
                cy = min(max(int(py[i] / cell), 0), ny - 1)
                kinds[i] = bool(land[cy, cx])
        px, py = _onto_kind(px, py, kinds, land, cell)
    extra = tuple((index[k], x, y) for k, x, y in sorted(seeds) if k in index)
    owner = _refine(keys, index, game_map, (px, py), kinds, land, (ny, nx), cell, extra)
    owner = _connect(keys, index, game_map, owner, (px, py), kinds, land, cell)
    regions = _vectorise(keys, owner, cell, (width, height), rule_pairs(game_map))
    if coast is not None:  # each area follows the real coastline
        land_geom = _clip(coast, (width, height))
        regions = _follow_coast(regions, dict(zip(keys, kinds.tolist(), strict=True)), land_geom,
                                rule_pairs(game_map))
    else:  # no coastline: the land is where land provinces grew
        land_geom = _cells_union(np.isin(owner, np.flatnonzero(kinds)), cell, (width, height))
    crossings = _crossings(rule_pairs(game_map), regions, cell)
    return Territories(regions, crossings, land_geom, cell)


def _follow_coast(regions: dict[str, BaseGeometry], is_land: dict[str, bool],
                  land: BaseGeometry, allowed: set[Pair]) -> dict[str, BaseGeometry]:
    """Each area cut to its side of the real coastline. The pieces cut off (the
    sea part of a land province's cells, the land part of a sea's) go to the
    area of the other kind they share the longest edge with, if the rules
    let those two touch; else they stay unowned."""
    from .adjacency_check import shared_length

    cut: dict[str, BaseGeometry] = {}
    pieces: list[tuple[str, BaseGeometry]] = []
    for key, geom in sorted(regions.items()):
        keep = geom.intersection(land) if is_land[key] else geom.difference(land)
        lost = geom.difference(land) if is_land[key] else geom.intersection(land)
        cut[key] = _polygonal(shapely.make_valid(keep))
        lost = _polygonal(shapely.make_valid(lost))
        parts = lost.geoms if isinstance(lost, MultiPolygon) else [lost]
        pieces += [(key, part) for part in parts if not part.is_empty and part.area > 1e-6]
    keys = sorted(cut)
    tree = shapely.STRtree([cut[k] for k in keys])
    gained: dict[str, list[BaseGeometry]] = {}
    for origin, piece in pieces:
        best: tuple[float, str] | None = None
        for j in tree.query(piece, predicate="dwithin", distance=1e-6).tolist():
            other = keys[j]
            if other == origin or is_land[other] == is_land[origin]:
                continue
            length = shared_length(piece, cut[other])
            if length > 0 and (best is None or length > best[0]):
                best = (length, other)
        if best is None:
            continue
        # the piece may only join an area allowed next to everything it touches
        owner = best[1]
        near = [keys[j] for j in tree.query(piece.buffer(1e-3), predicate="intersects").tolist()]
        if all(n == owner or (min(n, owner), max(n, owner)) in allowed for n in near):
            gained.setdefault(owner, []).append(piece)
    for key, extra in gained.items():
        cut[key] = _polygonal(shapely.make_valid(shapely.union_all([cut[key], *extra])))
    return cut


def _onto_kind(px: np.ndarray, py: np.ndarray, kinds: np.ndarray, land: np.ndarray,
               cell: float) -> tuple[np.ndarray, np.ndarray]:
    """Each point moved to the nearest cell of its kind (a coastal province's
    point may lie just off the real coast, a sea's on a headland)."""
    ny, nx = land.shape
    cys, cxs = np.indices(land.shape)
    px, py = px.copy(), py.copy()
    for i, is_land in enumerate(kinds.tolist()):
        cx = min(max(int(px[i] / cell), 0), nx - 1)
        cy = min(max(int(py[i] / cell), 0), ny - 1)
        if bool(land[cy, cx]) == is_land:
            continue
        d = (cxs - cx) ** 2 + (cys - cy) ** 2
        d = np.where(land == is_land, d, np.iinfo(np.int64).max)
        y, x = np.unravel_index(int(np.argmin(d)), d.shape)
        px[i], py[i] = (x + 0.5) * cell, (y + 0.5) * cell
    return px, py


ROUNDS = 14
"""Refinement rounds at most (each one growth of the whole grid)."""
PATIENCE = 4
"""...and stop after this many rounds without fewer such pairs."""
GAIN = 1.15
"""How much an adjacent pair without a border gains in reach each round."""


def _refine(keys: list[str], index: dict[str, int], game_map: GameMap,
            seeds: tuple[np.ndarray, np.ndarray], kinds: np.ndarray, land: np.ndarray | None,
            shape: tuple[int, int], cell: float,
            base: tuple[tuple[int, float, float], ...] = ()) -> np.ndarray:
    """Grow (from each province's point and the ``base`` extra points), then
    give the provinces of each adjacent pair left without a border more reach
    (a weighted Voronoi: distance divided by the weight), and grow
    again; keep the growth with the fewest such pairs."""
    pairs = [(index[a], index[b]) for a, b in sorted(rule_pairs(game_map))
             if a in index and b in index]
    weights = [1.0] * len(keys)
    best_weights = weights
    best: tuple[int, np.ndarray] | None = None
    stale = 0
    for _ in range(ROUNDS):
        owner = _grow(keys, index, game_map, seeds, kinds, land, shape, cell, weights, base)
        missing = _missing(owner, pairs, cell)
        if best is None or len(missing) < best[0]:
            best, stale, best_weights = (len(missing), owner), 0, list(weights)
        else:
            stale += 1
        if not missing or stale >= PATIENCE:
            break
        for a, b in missing:
            weights[a] *= GAIN
            weights[b] *= GAIN
    assert best is not None
    owner = best[1]
    weights = best_weights
    # then a corridor of extra points from each such pair's points towards the
    # other, kept only where it leaves fewer such pairs and no area in pieces
    extra = base
    missing = _missing(owner, pairs, cell)
    pieces = _pieces(owner, len(keys))
    sizes = np.bincount(owner.ravel(), minlength=len(keys) + 1)[:-1]
    for a, b in list(missing):
        trial = extra + _corridor(a, b, seeds, kinds, land, cell)
        grown = _grow(keys, index, game_map, seeds, kinds, land, shape, cell, weights, trial)
        now = _missing(grown, pairs, cell)
        kept = np.bincount(grown.ravel(), minlength=len(keys) + 1)[:-1]
        if len(now) < len(missing) and _pieces(grown, len(keys)) <= pieces \
                and bool(np.all(kept >= sizes * KEEP)):
            extra, owner, missing = trial, grown, now
    return owner


KEEP = 0.5
"""A corridor may not take more than half of any province's first area."""


CORRIDOR = (0.15, 0.3, 0.42)
"""Where a pair's extra points go, as fractions of the way to the other's
point (the other's at the mirror fractions): they meet near the middle."""


def _corridor(a: int, b: int, seeds: tuple[np.ndarray, np.ndarray], kinds: np.ndarray,
              land: np.ndarray | None, cell: float) -> tuple[tuple[int, float, float], ...]:
    ax, ay = float(seeds[0][a]), float(seeds[1][a])
    bx, by = float(seeds[0][b]), float(seeds[1][b])
    out = []
    for t in CORRIDOR:
        for who, u in ((a, t), (b, 1 - t)):
            x, y = ax + (bx - ax) * u, ay + (by - ay) * u
            if land is not None:
                cy = min(max(int(y / cell), 0), land.shape[0] - 1)
                cx = min(max(int(x / cell), 0), land.shape[1] - 1)
                if bool(land[cy, cx]) != bool(kinds[who]):
                    continue
            out.append((who, x, y))
    return tuple(out)


def _connect(keys: list[str], index: dict[str, int], game_map: GameMap, owner: np.ndarray,
             seeds: tuple[np.ndarray, np.ndarray], kinds: np.ndarray, land: np.ndarray | None,
             cell: float) -> np.ndarray:
    """A corridor for each adjacent pair still without a border, where one
    fits (render/territory_connect.py)."""
    pairs = [(index[a], index[b]) for a, b in sorted(rule_pairs(game_map))
             if a in index and b in index]
    missing = _missing(owner, pairs, cell)
    if not missing:
        return owner
    ny, nx = owner.shape
    fixed = np.zeros(owner.shape, dtype=bool)
    for sx, sy in zip(seeds[0].tolist(), seeds[1].tolist(), strict=True):
        fixed[min(max(int(sy / cell), 0), ny - 1), min(max(int(sx / cell), 0), nx - 1)] = True
    everywhere = np.ones(owner.shape, dtype=bool)

    def fit(i: int) -> np.ndarray:
        return everywhere if land is None else land == bool(kinds[i])

    return connect_pairs(owner, missing, _allowed(keys, index, game_map), fit, fixed,
                         lambda grid: _missing(grid, pairs, cell))


def _allowed(keys: list[str], index: dict[str, int], game_map: GameMap) -> np.ndarray:
    """``allowed[i, j]``: province i may touch j (the last index: nobody)."""
    n = len(keys)
    allowed = np.zeros((n + 1, n + 1), dtype=bool)
    allowed[:, n] = True
    allowed[n, :] = True
    for i in range(n):
        allowed[i, i] = True
    for a, b in rule_pairs(game_map):
        if a in index and b in index:
            allowed[index[a], index[b]] = allowed[index[b], index[a]] = True
    return allowed


def _pieces(owner: np.ndarray, n: int) -> int:
    """How many connected pieces the provinces' areas make, all together."""
    ny, nx = owner.shape
    grid = owner.tolist()
    seen = [[False] * nx for _ in range(ny)]
    count = 0
    for y0 in range(ny):
        for x0 in range(nx):
            if seen[y0][x0] or grid[y0][x0] == n:
                continue
            count += 1
            who = grid[y0][x0]
            stack = [(x0, y0)]
            seen[y0][x0] = True
            while stack:
                x, y = stack.pop()
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    x2, y2 = x + dx, y + dy
                    if 0 <= x2 < nx and 0 <= y2 < ny and not seen[y2][x2] \
                            and grid[y2][x2] == who:
                        seen[y2][x2] = True
                        stack.append((x2, y2))
    return count


def _missing(owner: np.ndarray, pairs: list[tuple[int, int]], cell: float
             ) -> list[tuple[int, int]]:
    """The adjacent pairs whose cells share fewer edges than a visible border."""
    from .adjacency_check import VISIBLE

    n = int(owner.max()) + 1
    counts: dict[int, int] = {}
    for a, b in ((owner[:, 1:], owner[:, :-1]), (owner[1:, :], owner[:-1, :])):
        diff = a != b
        lo = np.minimum(a[diff], b[diff]).astype(np.int64)
        hi = np.maximum(a[diff], b[diff]).astype(np.int64)
        codes, num = np.unique(lo * n + hi, return_counts=True)
        for code, count in zip(codes.tolist(), num.tolist(), strict=True):
            counts[code] = counts.get(code, 0) + count
    need = math.ceil(VISIBLE * 1.5 / cell)
    return [(a, b) for a, b in pairs
            if counts.get(min(a, b) * n + max(a, b), 0) < need]


def _grow(keys: list[str], index: dict[str, int], game_map: GameMap,
          seeds: tuple[np.ndarray, np.ndarray], kinds: np.ndarray, land: np.ndarray | None,
          shape: tuple[int, int], cell: float, weights: list[float],
          extra: tuple[tuple[int, float, float], ...] = ()) -> np.ndarray:
    """Multi-source growth, nearest cell first, under the adjacency constraint;
    with a ``land`` mask, land provinces only over land and seas over sea.
    ``extra`` seeds (province, x, y) grow like the province's own point (each
    cell is reached from the seed it is nearest to)."""
    ny, nx = shape
    n = len(keys)
    allowed_l = _allowed(keys, index, game_map).tolist()  # index n: unowned, allowed next to all
    owner = [[n] * nx for _ in range(ny)]
    land_l = land.tolist() if land is not None else None
    kinds_l = kinds.tolist()
    px, py = seeds[0].tolist(), seeds[1].tolist()
    w = weights
    heap: list[tuple[float, int, int, int, float, float]] = []
    for i, sx, sy in [*((i, px[i], py[i]) for i in range(n)), *extra]:
        cx = min(max(int(sx / cell), 0), nx - 1)
        cy = min(max(int(sy / cell), 0), ny - 1)
        heap.append((0.0, i, cx, cy, sx, sy))
    heapq.heapify(heap)
    seeded = set()
    while heap:
        _, i, cx, cy, sx, sy = heapq.heappop(heap)
        if owner[cy][cx] != n:
            continue
        first = i not in seeded
        if not first:
            if land_l is not None and land_l[cy][cx] != kinds_l[i]:
                continue
            ok = True
            row_allowed = allowed_l[i]
            for yy in range(max(cy - 1, 0), min(cy + 2, ny)):
                row = owner[yy]
                for xx in range(max(cx - 1, 0), min(cx + 2, nx)):
                    if not row_allowed[row[xx]]:
                        ok = False
                        break
                if not ok:
                    break
            if not ok:
                continue
        seeded.add(i)
        owner[cy][cx] = i
        for dx, dy in _AROUND:
            x2, y2 = cx + dx, cy + dy
            if 0 <= x2 < nx and 0 <= y2 < ny and owner[y2][x2] == n:
                d = math.hypot((x2 + 0.5) * cell - sx, (y2 + 0.5) * cell - sy) / w[i]
                heapq.heappush(heap, (d, i, x2, y2, sx, sy))
    return np.array(owner, dtype=np.int32)


_AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
"""Growth steps: diagonal too, so a region can follow a gap one cell wide."""


def _runs(mask: np.ndarray, cell: float) -> list[Polygon]:
    """The cells of ``mask`` as one box per horizontal run."""
    out = []
    for y in range(mask.shape[0]):
        row = mask[y]
        if not row.any():
            continue
        padded = np.concatenate(([False], row, [False])).astype(np.int8)
        edges = np.flatnonzero(np.diff(padded))
        for start, stop in zip(edges[::2], edges[1::2], strict=True):
            out.append(box(start * cell, y * cell, stop * cell, (y + 1) * cell))
    return out


def _clip(geom: BaseGeometry, size: tuple[float, float]) -> BaseGeometry:
    return geom.intersection(box(0, 0, size[0], size[1]))


def _cells_union(mask: np.ndarray, cell: float, size: tuple[float, float]) -> BaseGeometry:
    union = shapely.union_all(_runs(mask, cell))
    return _clip(shapely.simplify(union, cell * 0.45), size)


def _vectorise(keys: list[str], owner: np.ndarray, cell: float,
               size: tuple[float, float], allowed: set[Pair]) -> dict[str, BaseGeometry]:
    geoms = []
    for i in range(len(keys) + 1):  # the last: the cells nobody took
        union = shapely.union_all(_runs(owner == i, cell))
        geoms.append(union if not union.is_empty else Polygon())  # no cell: no area
    # simplified together (the unowned cells too), so a border two regions
    # share stays one line
    simple = shapely.coverage_simplify(np.array(geoms, dtype=object), cell * SMOOTHING,
                                       simplify_boundary=True)
    out = {key: _polygonal(_clip(shapely.make_valid(geom), size))
           for key, geom in zip(keys, simple[:-1], strict=True)}
    # a gap one cell wide between two provinces that must not touch may be
    # squeezed shut: the larger of the two gives way there
    for a, b in _squeezed(out, allowed, cell * GAP):
        big, small = (a, b) if out[a].area >= out[b].area else (b, a)
        cut = out[big].difference(out[small].buffer(cell * GAP))
        out[big] = _polygonal(shapely.make_valid(cut))
    return out


SMOOTHING = 1.6
"""Simplification tolerance, in cells: enough to take out the cells' stairs."""
GAP = 0.25
"""The narrowest gap (in cells) kept between provinces that must not touch."""


def _squeezed(regions: dict[str, BaseGeometry], allowed: set[Pair], gap: float
              ) -> list[Pair]:
    """The pairs of regions that must not touch but came closer than ``gap``."""
    keys = sorted(regions)
    geoms = [regions[k] for k in keys]
    left, right = shapely.STRtree(geoms).query(geoms, predicate="dwithin", distance=gap)
    return sorted((keys[i], keys[j]) for i, j in zip(left.tolist(), right.tolist(), strict=True)
                  if i < j and (keys[i], keys[j]) not in allowed)


def _valid(geom: BaseGeometry) -> BaseGeometry:
    """``geom`` repaired if rounding (dump_territories) made it touch itself."""
    return geom if geom.is_valid else _polygonal(shapely.make_valid(geom))


def _polygonal(geom: BaseGeometry) -> BaseGeometry:
    """Only the polygons of ``geom`` (make_valid and clipping may add lines)."""
    if isinstance(geom, Polygon | MultiPolygon):
        return geom
    parts = [g for g in getattr(geom, "geoms", ()) if isinstance(g, Polygon)]
    parts += [p for g in getattr(geom, "geoms", ()) if isinstance(g, MultiPolygon)
              for p in g.geoms]
    return MultiPolygon(parts) if len(parts) != 1 else parts[0]


def _crossings(pairs: set[Pair], regions: dict[str, BaseGeometry], cell: float
               ) -> tuple[Pair, ...]:
    from .adjacency_check import VISIBLE, shared_length

    out = []
    for a, b in sorted(pairs):
        if a in regions and b in regions and shared_length(regions[a], regions[b]) < VISIBLE:
            out.append((a, b))
    return tuple(out)


def cache_key(game_map: GameMap, points: dict[str, tuple[float, float]],
              size: tuple[float, float], salt: str,
              seeds: tuple[tuple[str, float, float], ...] = ()) -> str:
    data: dict[str, object] = {
        "v": VERSION, "grid": GRID_CELLS, "salt": salt, "size": [round(s, 2) for s in size],
        "points": {k: [round(x, 2), round(y, 2)] for k, (x, y) in sorted(points.items())},
        "terrain": {k: p.terrain.value for k, p in sorted(game_map.provinces.items())},
        "pairs": sorted(rule_pairs(game_map)),
    }
    if seeds:  # only when there are some, so a map without keeps its key
        data["seeds"] = [[k, round(x, 2), round(y, 2)] for k, x, y in sorted(seeds)]
    blob = json.dumps(data, sort_keys=True).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:24]


def dump_territories(t: Territories) -> str:
    return json.dumps({
        "regions": {k: shapely.to_wkt(g, rounding_precision=2) for k, g in t.regions.items()},
        "crossings": [list(p) for p in t.crossings],
        "land": shapely.to_wkt(t.land, rounding_precision=2),
        "cell": t.cell,
    })


def load_territories(text: str) -> Territories:
    data = json.loads(text)
    regions = {k: _valid(shapely.from_wkt(w)) for k, w in data["regions"].items()}
    crossings = tuple((a, b) for a, b in data["crossings"])
    return Territories(regions, crossings, shapely.from_wkt(data["land"]), float(data["cell"]))
