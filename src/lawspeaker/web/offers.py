"""The variants this server offers: a request names one by name only."""

from __future__ import annotations

from fastapi import Request

from ..service import ServiceError


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
