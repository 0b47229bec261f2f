"""The variants this server offers: a request names one by name only."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from fastapi import Request

from ..service import ServiceError
from ..variants import VariantError, available_variants, load_variant


def offered_variants(folders: Iterable[str | Path]) -> dict[str, str]:
    """Name -> what the service loads: every bundled variant by its name, and each
    folder the GM named on the command line by its variant's ``name:``, as its whole
    path. A folder whose name is taken (by a bundled variant or another folder) is
    refused: a game must never get another variant than the one its GM picked.
    Raises ``ValueError`` naming the folder (one that does not load, or a name taken)."""
    bundled = {name.lower() for name in available_variants()}
    offered = {name: name for name in available_variants()}
    for folder in folders:
        try:
            variant = load_variant(folder)
        except VariantError as exc:
            raise ValueError(f"variant folder {folder}: {exc}") from None
        taken = {name.lower(): where for name, where in offered.items()}
        if variant.name.lower() in taken:
            what = ("a bundled variant" if variant.name.lower() in bundled
                    else f"the folder {taken[variant.name.lower()]}")
            raise ValueError(f"variant folder {folder} is named '{variant.name}', as {what} "
                             "is: give it another name: in its variant.yaml")
        offered[variant.name] = str(Path(folder).resolve())
    return offered


def offered_variant(request: Request, name: str) -> str:
    """The variant a request names, by name only: a bundled one or a folder the
    GM gave on the command line (never a path from the request)."""
    offered: dict[str, str] = request.app.state.variants
    if name not in offered:
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise ServiceError(f"unknown variant '{shown}': this server offers "
                           f"{', '.join(sorted(offered))} (a variant from a folder is "
                           "added with 'lawspeaker serve --variant FOLDER')")
    return offered[name]
