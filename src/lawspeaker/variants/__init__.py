"""Variants are data: a folder with ``variant.yaml`` and a map file.

The format is described in ``docs/variant-format.md``. Loading a variant
validates it; :func:`check_variant` returns every problem found, each with
the file and line it comes from, so a designer editing a map can fix them
all in one pass (``lawspeaker map check VARIANT``).

The package holds the loader beside the data it reads: ``model`` has the types
(Variant, Power, Problem...), ``loader`` reads and checks a folder one section
at a time (``loader_yaml``: the files, problems and lines; ``loader_map``: the map;
``loader_units``: starting units; ``loader_neutrals``: nuclear powers, minor groups,
Favor, the DP allotment; ``loader_favor``: ``favor.yaml``; ``loader_base``: ``base:``;
``loader_components``: which key each component reads), ``locate`` finds a variant by
name or folder, ``report`` is ``map check``'s report and ``template`` the ``variant.yaml``
of ``variant new``; each bundled variant is a folder ``<name>/`` with its
``variant.yaml``, ``map.yaml`` (and ``favor.yaml``).
"""

from __future__ import annotations

import functools
from pathlib import Path

from .locate import VARIANTS_DIR as VARIANTS_DIR
from .locate import available_variants, locate
from .model import KNOWN_COMPONENTS as KNOWN_COMPONENTS
from .model import NuclearPower, Power, Problem, Seed, Variant, VariantError
from .model import YearNames as YearNames

__all__ = [
    "NuclearPower",
    "Power",
    "Problem",
    "Seed",
    "Variant",
    "VariantError",
    "available_variants",
    "check_variant",
    "load_variant",
    "locate",
]


def _variant_dir(name_or_path: str | Path) -> Path:
    return locate(name_or_path)


@functools.lru_cache(maxsize=32)
def _load_cached(directory: Path) -> Variant:
    from .cache import is_bundled, load_bundled

    if is_bundled(directory):  # kept compiled between runs (variants/cache.py)
        return load_bundled(directory, _build)
    return _build(directory)


def _build(directory: Path) -> Variant:
    from .loader import load  # the YAML reader needs the types defined here

    variant, problems = load(directory)
    if problems or variant is None:
        raise VariantError(problems)
    return variant


def load_variant(name_or_path: str | Path) -> Variant:
    """Load a variant folder by path (relative to the current directory), or a
    bundled variant by name (:func:`~lawspeaker.variants.locate.locate`)."""
    return _load_cached(_variant_dir(name_or_path).resolve())


def check_variant(name_or_path: str | Path) -> list[Problem]:
    """Every problem in a variant's files, each with its file and line."""
    try:
        directory = _variant_dir(name_or_path)
    except VariantError as exc:
        return exc.problems
    from .loader import load

    return load(directory)[1]
