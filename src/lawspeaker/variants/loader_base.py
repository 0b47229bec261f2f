"""``base:``: a variant that extends another takes every top-level key it does not set.

A designer writes ``base: standard`` (a bundled variant, by name) or ``base:
../other`` (a folder, relative to the file that says so). The base may have a
base of its own (S9 Complete extends S9 Basic); each key comes from the nearest
file that sets it, and the :class:`~lawspeaker.variants.loader_yaml.Reader`
remembers which file that was, so a problem in an inherited key names the base's
file and line. ``map:`` is read relative to the file that names it; a file
without ``map:`` (and without a base) uses the ``map.yaml`` beside it.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from .loader_yaml import Reader, line_of
from .locate import is_bundled, locate
from .model import VariantError

__all__ = ["keys_set", "merge_bases"]

_NOT_INHERITED = ("name", "base")


def merge_bases(reader: Reader, meta: MutableMapping[str, Any]) -> bool:
    """Fill ``meta`` (the variant's own ``variant.yaml``) from its ``base:`` chain, and
    point ``map`` at the map file relative to the variant's folder. False when a base
    cannot be read (reported)."""
    origins = _merge(reader, meta, reader.dir.resolve(), "", "variant.yaml",
                     [reader.dir.resolve()])
    if origins is None:
        return False
    reader.inherited.update(origins)
    return True


def _shown(reader: Reader, folder: Path) -> str:
    """How problems name a base's folder: relative to the variant's folder, or the
    whole path of a bundled variant's folder."""
    if is_bundled(folder):
        return str(folder.resolve())
    return os.path.relpath(folder.resolve(), reader.dir.resolve()).replace(os.sep, "/")


def _join(shown: str, name: str) -> str:
    return f"{shown}/{name}" if shown and not os.path.isabs(name) else name


def _merge(reader: Reader, meta: MutableMapping[str, Any], here: Path, shown: str,
           file: str, chain: list[Path]) -> dict[str, str] | None:
    """Fill ``meta`` (the file ``file`` in folder ``here``) from its bases; the keys
    taken from a base, each with the file it came from."""
    if "map" in meta:
        meta["map"] = _join(shown, str(meta["map"]))
    ref = meta.get("base")
    if not ref:
        meta.setdefault("map", _join(shown, "map.yaml"))
        return {}
    line = line_of(meta, "base")
    try:
        folder = locate(str(ref), here, file)
    except VariantError as exc:
        problem = exc.problems[0]
        reader.problem(file, line, f"base: {problem.message}", problem.fix)
        return None
    if folder.resolve() in chain:
        reader.problem(file, line, f"base: '{ref}' extends this variant again (a circle of "
                       "bases)", "point base: at a variant that does not extend this one")
        return None
    chain.append(folder.resolve())
    reader.bases.append(folder.resolve())
    base_shown = _shown(reader, folder)
    base_file = _join(base_shown, "variant.yaml")
    base = reader.read(base_file)
    if not isinstance(base, MutableMapping):
        if base is not None:
            reader.problem(base_file, None, "must be a mapping")
        return None
    deeper = _merge(reader, base, folder, base_shown, base_file, chain)
    if deeper is None:
        return None
    origins: dict[str, str] = {}
    for key, value in base.items():
        if key not in meta and key not in _NOT_INHERITED:
            meta[key] = value
            origins[str(key)] = deeper.get(str(key), base_file)
    return origins


def keys_set(folder: Path) -> set[str]:
    """The top-level keys the ``variant.yaml`` in ``folder`` sets, itself or through
    its bases (empty if it cannot be read)."""
    reader = Reader(folder)
    meta = reader.read("variant.yaml")
    if not isinstance(meta, MutableMapping) or not merge_bases(reader, meta):
        return set()
    return {str(k) for k in meta}
