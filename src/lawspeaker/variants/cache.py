"""The bundled variants, kept compiled between runs.

Reading a variant's YAML and checking it takes 100-800 ms; the finished
:class:`~lawspeaker.variants.model.Variant` loads from a pickle in about a
millisecond. :func:`load_bundled` keeps one pickle per bundled variant in the
user's cache directory (``$LAWSPEAKER_CACHE_DIR``, else
``$XDG_CACHE_HOME/lawspeaker``, else ``~/.cache/lawspeaker``), named by a key
that changes whenever anything it was built from changes:

* every file of every bundled variant (a variant may use another's map), by content;
* the source files of the code whose objects are pickled (``core``, ``variants``),
  by size and modification time, and where the package is installed.

A pickle that is missing, unreadable, not owned by this user or stale is
ignored and rebuilt. Pickles are written to a temporary file and renamed into
place, so processes loading at the same time never read half a file. A cache
directory that cannot be written is not an error: the variant is just loaded
from its files each time. ``LAWSPEAKER_CACHE_DIR=off`` turns the cache off.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path

from .model import Variant

__all__ = ["cache_dir", "is_bundled", "load_bundled"]

_PACKAGE = Path(__file__).resolve().parent.parent
_BUNDLED = Path(__file__).resolve().parent
_CODE = ("core", "variants")
"""The packages whose classes a pickled variant is made of."""


def cache_dir() -> Path | None:
    """Where compiled variants are kept, or ``None`` when the cache is off."""
    chosen = os.environ.get("LAWSPEAKER_CACHE_DIR")
    if chosen:
        return None if chosen.lower() == "off" else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lawspeaker"


@functools.lru_cache(maxsize=1)
def _key() -> str:
    """What a compiled variant was built from (see the module's docstring)."""
    digest = hashlib.sha256(f"lawspeaker {_PACKAGE}\n".encode())
    for path in sorted(_BUNDLED.glob("*/*")):
        if path.is_file() and path.suffix in (".yaml", ".yml"):
            digest.update(f"{path.relative_to(_BUNDLED).as_posix()}\n".encode())
            digest.update(path.read_bytes())
    for package in _CODE:
        for path in sorted((_PACKAGE / package).glob("*.py")):
            stat = path.stat()
            digest.update(f"{package}/{path.name} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def _install() -> str:
    """This installation, so that several (virtual environments, checkouts) sharing
    one cache directory keep their own files and never remove each other's."""
    return hashlib.sha256(str(_PACKAGE).encode()).hexdigest()[:8]


def is_bundled(directory: Path) -> bool:
    """Whether ``directory`` is one of the variants shipped in the package."""
    return directory.resolve().parent == _BUNDLED


def load_bundled(directory: Path, build: Callable[[Path], Variant]) -> Variant:
    """The bundled variant in ``directory``: from the cache when it is current,
    else ``build(directory)``, which is then kept for the next run."""
    where = cache_dir()
    if where is None:
        return build(directory)
    try:
        key = _key()
    except OSError:
        return build(directory)
    file = where / f"{directory.name}-{_install()}-{key}.pickle"
    kept = _read(file)
    if kept is not None:
        return kept
    variant = build(directory)
    _write(where, file, variant)
    return variant


def _read(file: Path) -> Variant | None:
    try:
        with open(file, "rb") as f:
            if hasattr(os, "getuid") and os.fstat(f.fileno()).st_uid != os.getuid():
                return None  # only this user's own files are unpickled
            variant = pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception:  # unreadable, truncated, from other code: rebuilt
        return None
    return variant if isinstance(variant, Variant) else None


def _write(where: Path, file: Path, variant: Variant) -> None:
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temp = tempfile.mkstemp(dir=where, prefix=f".{file.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as f:
                pickle.dump(variant, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, file)  # atomic: a reader sees the old file or the whole new one
        except BaseException:
            os.unlink(temp)
            raise
        for old in where.glob("*.pickle"):
            if old != file and _folder_of(old) == _folder_of(file):
                old.unlink(missing_ok=True)  # built from files or code that changed since
    except (OSError, pickle.PicklingError):
        pass  # a cache that cannot be written only costs time


def _folder_of(file: Path) -> str:
    """The variant and installation a cache file belongs to:
    ``s9-basic-<install>-<key>.pickle`` -> ``s9-basic-<install>``."""
    return file.name.rsplit("-", 1)[0]
