"""Helpers shared by the command modules."""

from __future__ import annotations

from collections.abc import Iterable

import click

__all__ = ["options"]


def options(pairs: Iterable[str], hint: str = "--rules") -> dict[str, str]:
    """``KEY=VALUE`` pairs as a dict; a pair without ``=`` is a usage error."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"'{pair}' is not key=value", param_hint=hint)
        out[key.strip()] = value.strip()
    return out
