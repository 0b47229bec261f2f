"""Corridors: the last step of growing the territories (render/territories.py).

After the growth, some pairs adjacent in the rules may still have no border:
a third province, or a strip of cells nobody may take, lies between them.
For each such pair this step looks for the cheapest chain of cells from one
area to the other (cells nobody took cost little, cells of a third province
more) that the first province may take under the growth's own rule (land
provinces over land, seas over sea, no cell next to a province it is not
adjacent to), widens it by a cell on each side, and keeps it only if the
pair then shares a border, no other pair loses its border, no province's
area falls into pieces and every province keeps most of its area. Nothing
here ever puts two provinces that are not adjacent next to each other, so
the growth's invariant holds; and every choice is made in a fixed order, so
the result is deterministic.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np

__all__ = ["connect_pairs"]

REACH = 24
"""The longest corridor tried, in cells: a longer one would be a thin snake
across the map, which reads worse than the crossing arrow it replaces."""
KEEP = 0.7
"""A corridor may take at most 30% of a third province's area."""
FOREIGN = 4.0
"""What a cell of a third province costs, against 1 for a cell nobody took."""

Pair = tuple[int, int]


def connect_pairs(owner: np.ndarray, missing: list[Pair], allowed: np.ndarray,
                  fit: Callable[[int], np.ndarray], fixed: np.ndarray,
                  still_missing: Callable[[np.ndarray], list[Pair]]) -> np.ndarray:
    """``owner`` (province index per cell; ``len(allowed) - 1`` for nobody)
    with a corridor laid for each pair of ``missing`` where one fits.

    ``allowed[i, j]``: i may touch j. ``fit(i)``: the cells of the right kind
    for province i. ``fixed``: cells never taken (each province's own point).
    ``still_missing`` lists the pairs of a grid still without a border.
    """
    n = allowed.shape[0] - 1
    base_sizes = np.bincount(owner.ravel(), minlength=n + 1)[:n]
    missing = list(missing)
    for a, b in sorted(missing):
        if (a, b) not in missing:
            continue  # joined already by an earlier corridor
        best: np.ndarray | None = None
        for src, dst in ((a, b), (b, a)):
            trial = _try(owner, src, dst, allowed, fit(src), fixed, base_sizes)
            if trial is None:
                continue
            now = still_missing(trial)
            if (a, b) in now or not set(now) <= set(missing):
                continue
            if best is None or int(np.count_nonzero(trial != owner)) < \
                    int(np.count_nonzero(best != owner)):
                best = trial
        if best is not None:
            owner = best
            missing = still_missing(owner)
    return owner


TRIES = 4
"""Corridors tried per direction: each new one avoids the provinces the last
one would have cut in two or taken too much of."""


def _try(owner: np.ndarray, src: int, dst: int, allowed: np.ndarray, fit: np.ndarray,
         fixed: np.ndarray, base_sizes: np.ndarray) -> np.ndarray | None:
    """The grid with a corridor of ``src`` to ``dst`` that takes no more than
    it may of any province, or ``None``. A province the corridor cuts keeps
    its largest piece; the pieces cut off go to ``src`` where it may take
    them, else to nobody."""
    n = allowed.shape[0] - 1
    banned = np.zeros(owner.shape, dtype=bool)
    for _ in range(TRIES):
        cells = _corridor(owner, src, dst, allowed, fit & ~banned, fixed)
        if cells is None:
            return None
        trial = owner.copy()
        trial[cells] = src
        hurt = []
        for who in sorted(set(owner[cells].tolist()) - {n, src}):
            parts = _parts(trial == who)
            for part in parts[1:]:  # all but the largest
                ys, xs = zip(*part, strict=True)
                trial[list(ys), list(xs)] = n
            if parts[1:]:
                free = _free_of(trial, src, allowed, fit, fixed)
                for part in parts[1:]:
                    ys, xs = zip(*part, strict=True)
                    if bool(np.all(free[list(ys), list(xs)])):
                        trial[list(ys), list(xs)] = src
            if np.count_nonzero(trial == who) < base_sizes[who] * KEEP \
                    or bool(np.any(fixed & (owner == who) & (trial != who))):
                hurt.append(who)
        if not hurt:
            return trial
        banned |= np.isin(owner, hurt)
    return None


def _parts(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """The pieces (edge to edge) the cells of ``mask`` make, largest first
    (ties in the order of their first cell)."""
    todo = {(y, x) for y, x in np.argwhere(mask).tolist()}
    out = []
    while todo:
        first = min(todo)
        todo.discard(first)
        stack, part = [first], [first]
        while stack:
            y, x = stack.pop()
            for dy, dx in _STEPS:
                if (y + dy, x + dx) in todo:
                    todo.discard((y + dy, x + dx))
                    stack.append((y + dy, x + dx))
                    part.append((y + dy, x + dx))
        out.append(part)
    out.sort(key=lambda p: (-len(p), min(p)))
    return out


def _free_of(owner: np.ndarray, who: int, allowed: np.ndarray, fit: np.ndarray,
             fixed: np.ndarray) -> np.ndarray:
    """The cells ``who`` may take: of its kind, not a province's point, and
    with every one of the eight around them owned by a province it may touch."""
    ok = allowed[who][owner]
    padded = np.pad(ok, 1, constant_values=True)
    ny, nx = owner.shape
    free = fit & ~fixed
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            free &= padded[dy:dy + ny, dx:dx + nx]
    return free


_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _corridor(owner: np.ndarray, src: int, dst: int, allowed: np.ndarray, fit: np.ndarray,
              fixed: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The cells (rows, columns) of the cheapest corridor of ``src`` reaching
    a cell beside ``dst``, widened by one cell each side; ``None`` if none
    within :data:`REACH`."""
    n = allowed.shape[0] - 1
    free = _free_of(owner, src, allowed, fit, fixed) & (owner != src) & (owner != dst)
    ny, nx = owner.shape
    is_dst = owner == dst
    near_dst = np.zeros_like(is_dst)
    near_dst[1:, :] |= is_dst[:-1, :]
    near_dst[:-1, :] |= is_dst[1:, :]
    near_dst[:, 1:] |= is_dst[:, :-1]
    near_dst[:, :-1] |= is_dst[:, 1:]
    free_l = free.tolist()
    own_l = owner.tolist()
    goal_l = near_dst.tolist()
    start = np.argwhere(owner == src)
    heap: list[tuple[float, int, int, int]] = []
    came: dict[tuple[int, int], tuple[int, int] | None] = {}
    cost: dict[tuple[int, int], float] = {}
    for y, x in start.tolist():
        for dx, dy in _STEPS:
            y2, x2 = y + dy, x + dx
            if 0 <= y2 < ny and 0 <= x2 < nx and free_l[y2][x2]:
                step = 1.0 if own_l[y2][x2] == n else FOREIGN
                if step < cost.get((y2, x2), np.inf):
                    cost[(y2, x2)] = step
                    came[(y2, x2)] = None
                    heapq.heappush(heap, (step, 1, y2, x2))
    end: tuple[int, int] | None = None
    done: set[tuple[int, int]] = set()
    while heap:
        c, length, y, x = heapq.heappop(heap)
        if (y, x) in done:
            continue
        done.add((y, x))
        if goal_l[y][x]:
            end = (y, x)
            break
        if length >= REACH:
            continue
        for dx, dy in _STEPS:
            y2, x2 = y + dy, x + dx
            if 0 <= y2 < ny and 0 <= x2 < nx and free_l[y2][x2] and (y2, x2) not in done:
                c2 = c + (1.0 if own_l[y2][x2] == n else FOREIGN)
                if c2 < cost.get((y2, x2), np.inf):
                    cost[(y2, x2)] = c2
                    came[(y2, x2)] = (y, x)
                    heapq.heappush(heap, (c2, length + 1, y2, x2))
    if end is None:
        return None
    path = np.zeros_like(free)
    at: tuple[int, int] | None = end
    while at is not None:
        path[at] = True
        at = came[at]
    # one cell more each side (where the province may take it), so the
    # corridor survives the smoothing of the borders and its end is a border
    wide = path.copy()
    wide[1:, :] |= path[:-1, :]
    wide[:-1, :] |= path[1:, :]
    wide[:, 1:] |= path[:, :-1]
    wide[:, :-1] |= path[:, 1:]
    ey, ex = end  # and a wider end, so the two share a border of some length
    wide[max(ey - 2, 0):ey + 3, max(ex - 2, 0):ex + 3] = True
    wide &= free
    return np.nonzero(wide | path)
