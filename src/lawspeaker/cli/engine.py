"""Engine commands: ``adjudicate`` one phase from files, run ``datc`` case
files, list ``variants``. They keep no state; kept games are :mod:`.game`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ._common import options
from .root import main

if TYPE_CHECKING:
    from ..core.board import Position
    from ..core.orders import Order
    from ..core.results import OrderResult
    from ..engine.phases import Adjudication
    from ..rules.dp import Allocation
    from ..variants import Variant

# The engine is imported inside each command, when it runs: `lawspeaker --help`
# and the other commands never load it.

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
@click.option("--explain", is_flag=True,
              help="Under each result, why: the strengths compared, the supports that "
                   "counted and those that did not, the path, the rule that decided.")
def adjudicate(orders_file: str | None, variant: str, position_file: str | None,
               save: str | None, rule_pairs: tuple[str, ...], gm: bool, explain: bool) -> None:
    """Adjudicate one phase from ORDERS_FILE and print the results.

    The file has one order per line, each after a power header line
    ('England:', 'England', '**England**') or prefixed with the power
    ('England: F Lon - Nth'); a pasted forum or Discord post is fine. In DP
    variants, DP allocations go in the same way ('Aesir: 2 DP to F Per - Ylg').
    Without ORDERS_FILE, the variant's bundled first turn is adjudicated.
    The printed results are public: DP allocations stay secret unless --gm.
    Any error stops before anything is printed or saved.
    """
    from ..engine.phases import adjudicate as adjudicate_phase
    from ..engine.phases import initial_position
    from ..engine.positions import PositionError, read_position
    from ..variants import VariantError, load_variant

    try:
        var = load_variant(variant)
        rules = var.rules.with_options(**options(rule_pairs))
    except (VariantError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if position_file and not orders_file:
        raise click.ClickException("give an orders file with --position (without one, the "
                                   "bundled first turn would be replayed on that position)")
    path = Path(orders_file) if orders_file else EXAMPLES / f"{var.name}.txt"
    if not path.exists():
        raise click.ClickException(f"no bundled example for {var.name}; give an orders file")
    target = _save_target(save) if save else None
    try:
        position = initial_position(var, rules)
    except ValueError as exc:  # a GM's own Favor setup (Dissolution §11.2)
        raise click.ClickException(str(exc)) from None
    if position_file:
        try:
            position = read_position(var, Path(position_file).read_bytes())
        except PositionError as exc:
            raise click.ClickException(f"{position_file}: {exc}") from None
    if position.result:
        raise click.ClickException(f"the game is over ({position.result}): there is nothing "
                                   "to adjudicate")
    orders, allocations = _read_orders(var, path, position)
    try:
        result = adjudicate_phase(var, position, orders, rules, allocations)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    nxt_json = result.position.to_json()
    if target is not None:
        try:
            target.write_text(nxt_json, encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot save to {save}: {exc.strerror}") from None
    _print_results(var, position, result, allocations, gm, explain)
    if target is not None:
        click.echo(f"Position saved to {save}")


def _save_target(save: str) -> Path:
    """Where --save writes, checked before anything is adjudicated."""
    target = Path(save)
    if not target.parent.is_dir():
        raise click.ClickException(f"cannot save to {save}: the folder {target.parent} does "
                                   "not exist")
    if target.is_dir():
        raise click.ClickException(f"cannot save to {save}: it is a folder")
    return target


def _read_orders(var: Variant, path: Path, position: Position
                 ) -> tuple[list[Order], list[Allocation]]:
    """The orders and allocations of ``path``; every unreadable line is
    reported with its number and nothing is adjudicated."""
    from ..engine.posts import PostError, decode, read_post

    try:
        text, encoding = decode(path.read_bytes(), str(path))
    except (PostError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    if encoding not in ("UTF-8", "UTF-16"):
        click.echo(f"Note: {path} is not UTF-8; read as {encoding}.", err=True)
    lines = read_post(var, text, position.phase.kind)
    errors = [(line.number, line.error) for line in lines if line.error is not None]
    if errors:
        for number, message in errors:
            click.echo(f"{path}:{number}: {message}", err=True)
        raise click.ClickException(f"{len(errors)} line(s) could not be used; nothing was "
                                   "adjudicated")
    orders = [line.order for line in lines if line.order is not None]
    allocations = [line.allocation for line in lines if line.allocation is not None]
    return orders, allocations


def _print_results(var: Variant, position: Position, result: Adjudication,
                   allocations: list[Allocation], gm: bool, explain: bool = False) -> None:
    from ..core.board import PhaseKind
    from ..core.notation import format_order
    from ..core.results import Outcome
    from ..core.wording import for_players
    from ..engine.retreats import retreat_options

    click.echo(f"{var.title}: {var.phase_label(result.phase)}")
    marks = {Outcome.SUCCEEDS: " ", Outcome.FAILS: "*", Outcome.ILLEGAL: "!"}
    neutral = set(position.powers_in_play)
    for power in sorted({r.order.power for r in result.results} - neutral):
        click.echo(f"\n{power}:")
        for r in result.results:
            if r.order.power == power:
                click.echo(f" {marks[r.outcome]} {format_order(r.order, var.map, long=True)}: "
                           f"{for_players(var.map, r.reason)}")
                _print_why(var, r, explain)
    if neutral & {r.order.power for r in result.results}:
        # S9 §9.0: the winning order of each neutral unit is public, never who voted.
        click.echo("\nNeutral units (orders chosen by DP):")
        for r in result.results:
            if r.order.power in neutral:
                click.echo(f" {marks[r.outcome]} {r.order.power}: "
                           f"{format_order(r.order, var.map, long=True)}: "
                           f"{for_players(var.map, r.reason)}")
                _print_why(var, r, explain)
    if gm and result.dp is not None:
        click.echo("\nGM only — DP allocations:")
        rejected = {id(a): why for a, why in result.dp.rejected}
        for a in allocations:
            click.echo(f"   {a.power}: {a.points} DP to "
                       f"{format_order(a.order, var.map, long=True)} -> "
                       f"{rejected.get(id(a), 'counted')}")
    if result.events:
        has_census = any(kind is PhaseKind.CENSUS for _, kind in var.phases)
        click.echo("\nCensus:" if has_census else "\nSupply centres:")  # S9 §2.2 step 3
        for event in result.events:
            click.echo(f"  {for_players(var.map, event)}")
    nxt = result.position
    if nxt.result:
        click.echo(f"\nGame over: {nxt.result}")
        return
    click.echo(f"\nNext: {var.phase_label(nxt.phase)}")
    for _, d in sorted(nxt.dislodged.items()):
        where = [var.map.name_of(loc) for loc in retreat_options(var, nxt, d)]
        click.echo(f"  must retreat: {d.unit.power} {d.unit.type.value} "
                   f"{var.map.name_of(d.unit.location)} "
                   f"({'to ' + ', '.join(where) if where else 'nowhere to go: disbanded'})")


def _print_why(var: Variant, result: OrderResult, explain: bool, indent: str = "      ") -> None:
    if not explain:
        return
    from ..core.wording import for_players

    for line in result.explanation:
        if line != result.reason:
            click.echo(f"{indent}{for_players(var.map, line)}")


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--rules", "rule_pairs", multiple=True, metavar="KEY=VALUE",
              help="Override a rules option for every case, e.g. edition=2000.")
@click.option("--errata", type=click.Path(exists=True, dir_okay=False),
              help="File of 'CASE-ID reason' lines: cases known to expect the wrong thing.")
@click.option("-v", "--verbose", is_flag=True, help="Print every order's result.")
@click.option("--explain", is_flag=True,
              help="Print every order's result and why: the strengths the resolver compared "
                   "and the rule that decided (implies --verbose).")
def datc(files: tuple[str, ...], rule_pairs: tuple[str, ...], errata: str | None,
         verbose: bool, explain: bool) -> None:
    """Run adjudicator test-case files (jDip/godip DATC text format)."""
    from ..cases.runner import load_errata, run_files

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
        if verbose or explain or status == "FAIL":
            for r in report.results:
                click.echo(f"        {r.order.power}: {r.order} -> {r.reason}")
                if explain:
                    for line in r.explanation:
                        if line != r.reason:
                            click.echo(f"            {line}")
    summary = f"{passed} passed, {failed} failed"
    if known:
        summary += f", {known} known errata"
    click.echo(summary)
    sys.exit(1 if failed else 0)


@main.command()
def variants() -> None:
    """List the bundled variants."""
    from ..variants import available_variants, load_variant

    for name in available_variants():
        var = load_variant(name)
        click.echo(f"{name}: {var.title}")
