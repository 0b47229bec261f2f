"""Engine commands: ``adjudicate`` one phase from files, run ``datc`` case
files, list ``variants``. They keep no state; kept games are :mod:`.game`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..board import Position
from ..datc import load_errata, run_files
from ..dp import Allocation
from ..notation import format_order
from ..orders import Order
from ..phases import adjudicate as adjudicate_phase
from ..phases import initial_position
from ..posts import read_post
from ..results import Outcome
from ..variants import Variant, VariantError, available_variants, load_variant
from . import main
from ._common import options

EXAMPLES = Path(__file__).parent.parent / "examples"


@main.command()
@click.argument("orders_file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--variant", default="standard", show_default=True, help="Variant name or folder.")
@click.option("--position", "position_file", type=click.Path(exists=True, dir_okay=False),
              help="Start from a position saved as JSON (default: the variant's start).")
@click.option("--save", type=click.Path(dir_okay=False), help="Write the next position as JSON.")
@click.option("--rules", "rule_pairs", multiple=True, metavar="KEY=VALUE",
              help="Override a rules option, e.g. edition=2000.")
@click.option("--gm", is_flag=True,
              help="Also print the secret DP allocations and how each was counted.")
def adjudicate(orders_file: str | None, variant: str, position_file: str | None,
               save: str | None, rule_pairs: tuple[str, ...], gm: bool) -> None:
    """Adjudicate one phase from ORDERS_FILE and print the results.

    The file has one order per line, each after a power header line
    ('England:') or prefixed with the power ('England: F Lon - Nth'). In DP
    variants, DP allocations go in the same way ('Aesir: 2 DP to F Per - Ylg').
    Without ORDERS_FILE, a bundled example for the variant is adjudicated.
    The printed results are public: DP allocations stay secret unless --gm.
    """
    try:
        var = load_variant(variant)
        rules = var.rules.with_options(**options(rule_pairs))
    except (VariantError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    path = Path(orders_file) if orders_file else EXAMPLES / f"{var.name}.txt"
    if not path.exists():
        raise click.ClickException(f"no bundled example for {var.name}; give an orders file")
    position = (Position.from_json(Path(position_file).read_text(encoding="utf-8"))
                if position_file else initial_position(var))
    orders, allocations, errors = _read_orders(var, path, position)
    if errors:
        for line, message in errors:
            click.echo(f"{path}:{line}: {message}", err=True)
        raise click.ClickException(f"{len(errors)} order(s) could not be read; nothing was "
                                   "adjudicated")
    result = adjudicate_phase(var, position, orders, rules, allocations)
    click.echo(f"{var.title}: {var.phase_label(result.phase)}")
    marks = {Outcome.SUCCEEDS: " ", Outcome.FAILS: "*", Outcome.ILLEGAL: "!"}
    neutral = {p for p in position.powers_in_play}
    for power in sorted({r.order.power for r in result.results} - neutral):
        click.echo(f"\n{power}:")
        for r in result.results:
            if r.order.power == power:
                click.echo(f" {marks[r.outcome]} {format_order(r.order, var.map, long=True)}: "
                           f"{r.reason}")
    if neutral:
        # S9 §9.0: the winning order of each neutral unit is public, never who voted.
        click.echo("\nNeutral units (orders chosen by DP):")
        for r in result.results:
            if r.order.power in neutral:
                click.echo(f" {marks[r.outcome]} {r.order.power}: "
                           f"{format_order(r.order, var.map, long=True)}: {r.reason}")
    if gm and result.dp is not None:
        click.echo("\nGM only — DP allocations:")
        rejected = dict((id(a), why) for a, why in result.dp.rejected)
        for a in allocations:
            click.echo(f"   {a.power}: {a} -> {rejected.get(id(a), 'counted')}")
    if result.events:
        click.echo("\nCensus:")  # S9 §2.2 step 3, public
        for event in result.events:
            click.echo(f"  {event}")
    nxt = result.position
    if nxt.result:
        click.echo(f"\nGame over: {nxt.result}")
    click.echo(f"\nNext: {var.phase_label(nxt.phase)}")
    for _, d in sorted(nxt.dislodged.items()):
        click.echo(f"  must retreat: {d.unit.power} {d.unit.type.value} "
                   f"{var.map.name_of(d.unit.location)}")
    if save:
        Path(save).write_text(nxt.to_json(), encoding="utf-8")
        click.echo(f"Position saved to {save}")


def _read_orders(var: Variant, path: Path, position: Position
                 ) -> tuple[list[Order], list[Allocation], list[tuple[int, str]]]:
    lines = read_post(var, path.read_bytes(), position.phase.kind)
    orders = [line.order for line in lines if line.order is not None]
    allocations = [line.allocation for line in lines if line.allocation is not None]
    errors = [(line.number, line.error) for line in lines if line.error is not None]
    return orders, allocations, errors


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--rules", "rule_pairs", multiple=True, metavar="KEY=VALUE",
              help="Override a rules option for every case, e.g. edition=2000.")
@click.option("--errata", type=click.Path(exists=True, dir_okay=False),
              help="File of 'CASE-ID reason' lines: cases known to expect the wrong thing.")
@click.option("-v", "--verbose", is_flag=True, help="Print every order's result.")
def datc(files: tuple[str, ...], rule_pairs: tuple[str, ...], errata: str | None,
         verbose: bool) -> None:
    """Run adjudicator test-case files (jDip/godip DATC text format)."""
    try:
        reports = run_files(files, options(rule_pairs), load_errata(errata) if errata else None)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    passed = failed = known = 0
    for report in reports:
        status = report.status
        case = report.case
        click.echo(f"{status:7} {case.id}  ({Path(case.file).name}:{case.line})")
        if status == "ERRATUM":
            known += 1
            click.echo(f"        erratum: {report.erratum}")
        elif report.passed:
            passed += 1
        else:
            failed += 1
            for problem in report.problems:
                click.echo(f"        {problem}")
        if verbose or status == "FAIL":
            for r in report.results:
                click.echo(f"        {r.order.power}: {r.order} -> {r.reason}")
    summary = f"{passed} passed, {failed} failed"
    if known:
        summary += f", {known} known errata"
    click.echo(summary)
    sys.exit(1 if failed else 0)


@main.command()
def variants() -> None:
    """List the bundled variants."""
    for name in available_variants():
        var = load_variant(name)
        click.echo(f"{name}: {var.title}")
