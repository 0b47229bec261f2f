"""Where a variant named by a designer, a GM or a case file is.

A variant is named by a bundled variant's name (``standard``, in any case) or by
a folder holding a ``variant.yaml`` (or that file itself). A folder is read
relative to the place that names it: the current directory on the command line,
the file's own folder for ``base:`` in a ``variant.yaml`` and for ``VARIANT_ALL``
in a case file. A path keeps its case: ``My Variants/StdDP`` is not ``my variants``.
"""

from __future__ import annotations

from pathlib import Path

from .model import Problem, VariantError

__all__ = ["VARIANTS_DIR", "available_variants", "is_bundled", "locate"]

VARIANTS_DIR = Path(__file__).parent
"""The bundled variants' folders, each ``<name>/variant.yaml``."""


def available_variants() -> list[str]:
    """The bundled variants' names."""
    return sorted(p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.yaml").exists())


def is_bundled(folder: Path) -> bool:
    """Whether ``folder`` is one of the bundled variants' folders."""
    return folder.resolve().parent == VARIANTS_DIR.resolve()


def locate(ref: str | Path, relative_to: Path | None = None, where: str = "") -> Path:
    """The folder of the variant ``ref`` names: a folder with a ``variant.yaml`` (or that
    file), relative to ``relative_to`` (the current directory when ``None``), else a
    bundled variant's name, in any case. Raises :class:`VariantError` saying both were
    tried; ``where`` names the file that names the variant, for that message."""
    text = str(ref).strip()
    path = Path(text).expanduser()
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    if path.is_dir() and (path / "variant.yaml").is_file():
        return path
    if path.name == "variant.yaml" and path.is_file():
        return path.parent
    bundled = {name.lower(): name for name in available_variants()}
    if text.lower() in bundled:
        return VARIANTS_DIR / bundled[text.lower()]
    looked = f"{path.resolve()}/variant.yaml" if text else "(no name given)"
    raise VariantError([Problem(where or text or "variant", None,
                                f"no such variant '{text}': not a bundled variant ("
                                f"{', '.join(available_variants())}) and no folder with a "
                                f"variant.yaml at {looked}",
                                "name a bundled variant, or a folder with a variant.yaml"
                                + (", relative to the file that names it"
                                   if relative_to is not None else ""))])
