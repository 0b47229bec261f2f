"""The ``lawspeaker`` command group that every command module registers on."""

from __future__ import annotations

import click


@click.group()
@click.version_option(package_name="lawspeaker")
def main() -> None:
    """Adjudicator and rules engine for DP-based Diplomacy variants."""
