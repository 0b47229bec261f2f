"""The balance lab: play many bot games and sum them up.

:func:`run_lab` plays ``games`` games of a :class:`LabSpec` on this process,
on local worker processes (``concurrent.futures``), or on a Dask cluster
(``dask.distributed``, given the scheduler's address; the workers need
lawspeaker installed). Games are cut into chunks; game ``i`` is seeded by
:func:`~lawspeaker.sim.match.game_seed` ``(seed, i)`` whatever chunk and
worker plays it, and the records are put back in order, so :func:`summarise`
gives the same ``summary.json`` for a seed on any number of workers anywhere.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from ..variants import Variant, load_variant
from .bots import bot_named
from .match import game_seed, play_match

__all__ = ["LabError", "LabSpec", "run_chunk", "run_lab", "summarise"]


class LabError(ValueError):
    """A lab run that cannot start: an unknown bot or power, a bad count."""


@dataclass(frozen=True)
class LabSpec:
    variant: str
    games: int
    seed: int
    seating: Mapping[str, str] = field(default_factory=dict)
    """Power -> bot name, for every major power of the variant."""
    max_years: int | None = None

    @classmethod
    def build(cls, variant: str, games: int, seed: int, bots: Mapping[str, str],
              default_bot: str = "random", max_years: int | None = None) -> LabSpec:
        """Check the names and seat ``default_bot`` wherever ``bots`` names none."""
        var = _variant(variant)
        if games < 1:
            raise LabError("--games must be at least 1")
        if max_years is not None and max_years < 1:
            raise LabError("--max-years must be at least 1")
        seating = {}
        for given, bot in bots.items():
            try:
                power = var.power_named(given)
            except (KeyError, ValueError):
                raise LabError(f"--bots {given}={bot}: {variant} has no power '{given}' "
                               f"(powers: {', '.join(sorted(var.powers))})") from None
            seating[power] = bot
        for power in var.powers:
            seating.setdefault(power, default_bot)
        for bot in set(seating.values()):
            try:
                bot_named(bot)
            except ValueError as exc:
                raise LabError(str(exc)) from None
        return cls(var.name, games, seed, dict(sorted(seating.items())), max_years)


_VARIANTS: dict[str, Variant] = {}


def _variant(name: str) -> Variant:
    if name not in _VARIANTS:
        try:
            _VARIANTS[name] = load_variant(name)
        except Exception as exc:  # an unknown name or a broken folder
            raise LabError(f"cannot load variant '{name}': {exc}") from None
    return _VARIANTS[name]


def run_chunk(spec: LabSpec, indices: list[int]) -> list[dict[str, Any]]:
    """Play games ``indices`` of ``spec`` here; their records as plain dicts."""
    variant = _variant(spec.variant)
    return [play_match(variant, spec.seating, game_seed(spec.seed, i), i,
                       spec.max_years).to_dict() for i in indices]


def _chunks(games: int, workers: int) -> list[list[int]]:
    size = max(1, min(20, games // max(workers * 8, 1)))
    return [list(range(start, min(start + size, games))) for start in range(0, games, size)]


def run_lab(spec: LabSpec, workers: int = 1, scheduler: str | None = None,
            progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Play every game of ``spec``; ``progress(n)`` is called as each n games finish.

    ``scheduler`` (``tcp://HOST:PORT``) runs the chunks on that Dask cluster;
    otherwise ``workers`` local processes (1: this process) do."""
    step = progress or (lambda n: None)
    records: list[dict[str, Any]] = []
    if scheduler:
        chunks = _chunks(spec.games, 16)
        try:
            from distributed import Client
            from distributed import as_completed as dask_completed
        except ImportError:
            raise LabError("--scheduler needs Dask: pip install 'lawspeaker[lab]'") from None
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise LabError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        with client:
            futures = client.map(run_chunk, [spec] * len(chunks), chunks, pure=False)
            for future in dask_completed(futures):
                done = future.result()
                records += done
                step(len(done))
    elif workers > 1:
        chunks = _chunks(spec.games, workers)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_chunk, spec, chunk) for chunk in chunks]
            for future in as_completed(futures):
                done = future.result()
                records += done
                step(len(done))
    else:
        for chunk in _chunks(spec.games, 1):
            done = run_chunk(spec, chunk)
            records += done
            step(len(done))
    return sorted(records, key=lambda r: r["index"])


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def _r(x: float) -> float:
    return round(x, 4)


def summarise(spec: LabSpec, records: list[dict[str, Any]]) -> dict[str, Any]:
    """``summary.json``: per power wins, draws, eliminations, mean final centres
    and top-centre finishes (ties counting); how games ended; and for the report
    centres by year (mean and 95% confidence band), how often each centre
    changed hands, and DP spent per power and on which neutrals."""
    variant = _variant(spec.variant)
    powers = sorted(variant.powers)
    n = len(records)
    stats: dict[str, dict[str, Any]] = {}
    for power in powers:
        finals = [r["final_centres"].get(power, 0) for r in records]
        top = sum(1 for r in records
                  if r["final_centres"].get(power, 0) == max(r["final_centres"].values()))
        stats[power] = {
            "bot": spec.seating[power],
            "wins": sum(1 for r in records if power in r["winners"]),
            "draws": sum(1 for r in records if power in r["drawn"]),
            "eliminated": sum(1 for r in records if power in r["eliminated"]),
            "mean_final_centres": _r(sum(finals) / n),
            "top_centres": top,
            "top_centres_share": _r(top / n),
        }
    endings = {"solo": 0, "draw": 0, "lost": 0, "cap": 0}
    for r in records:
        kind = r["result"].split(":")[0].lower()
        endings[kind if kind in endings else "draw"] += 1
    return {
        "variant": spec.variant,
        "games": n,
        "seed": spec.seed,
        "max_years": spec.max_years,
        "bots": dict(spec.seating),
        "powers": stats,
        "endings": endings,
        "mean_years": _r(sum(len(r["centres_by_year"]) - 1 for r in records) / n),
        "centres_by_year": _by_year(variant, powers, records),
        "centre_changes": _changes(variant, records),
        "dp_spent": _dp(powers, records),
    }


def _by_year(variant: Variant, powers: list[str], records: list[dict[str, Any]]
             ) -> dict[str, Any]:
    years = max(len(r["centres_by_year"]) for r in records)
    out: dict[str, Any] = {"years": [variant.year_label(variant.first_year + i - 1)
                                     if i else "start" for i in range(years)]}
    for power in powers:
        rows = []
        for y in range(years):
            xs = [r["centres_by_year"][min(y, len(r["centres_by_year"]) - 1)].get(power, 0)
                  for r in records]  # a finished game keeps its final centres
            mean = sum(xs) / len(xs)
            sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) \
                if len(xs) > 1 else 0.0
            half = 1.96 * sd / math.sqrt(len(xs))
            rows.append({"mean": _r(mean), "low": _r(mean - half), "high": _r(mean + half)})
        out[power] = rows
    return out


def _changes(variant: Variant, records: list[dict[str, Any]]) -> dict[str, float]:
    centres = sorted(p for p, prov in variant.map.provinces.items() if prov.is_sc)
    n = len(records)
    return {c: _r(sum(r["changes"].get(c, 0) for r in records) / n) for c in centres}


def _dp(powers: list[str], records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    out: dict[str, Any] = {}
    for power in powers:
        on: dict[str, int] = {}
        for r in records:
            for neutral, points in r["dp"].get(power, {}).items():
                on[neutral] = on.get(neutral, 0) + points
        out[power] = {"mean_per_game": _r(sum(on.values()) / n),
                      "on": {k: _r(v / n) for k, v in sorted(on.items())}}
    return out
