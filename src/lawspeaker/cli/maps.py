"""Map commands: ``map check`` validates a variant's data files."""

from __future__ import annotations

import click

from ..variants import check_variant, load_variant
from . import main


@main.group("map")
def map_group() -> None:
    """Inspect and validate variant maps."""


@map_group.command("check")
@click.argument("variant")
def map_check(variant: str) -> None:
    """Validate VARIANT (a bundled name or a folder) and list every problem."""
    problems = check_variant(variant)
    for problem in problems:
        click.echo(str(problem))
    if problems:
        raise click.ClickException(f"{len(problems)} problem(s) in {variant}")
    var = load_variant(variant)
    provinces = var.map.provinces.values()
    scs = sum(1 for p in provinces if p.is_sc)
    click.echo(f"{var.name}: OK — {len(var.map.provinces)} provinces, {scs} supply centres, "
               f"{len(var.powers)} powers, {len(var.starting_units)} starting units"
               + (" (map reconstructed; see the variant's notes)" if var.reconstructed else ""))
