"""The ``lawspeaker`` command line.

``lawspeaker adjudicate [ORDERS]``  adjudicate a phase from a text file of orders
``lawspeaker datc FILE...``         run adjudicator test-case files
``lawspeaker map check VARIANT``    validate a variant's data files
``lawspeaker variants``             list bundled variants
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import click

from .board import Position
from .datc import load_errata, run_files
from .dp import Allocation, is_allocation, parse_allocation
from .notation import OrderSyntaxError, format_order, parse_order
from .orders import Order
from .phases import adjudicate as adjudicate_phase
from .phases import initial_position
from .results import Outcome
from .variants import Variant, VariantError, available_variants, check_variant, load_variant

EXAMPLES = Path(__file__).parent / "examples"


def _options(pairs: Iterable[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"'{pair}' is not key=value", param_hint="--rules")
        out[key.strip()] = value.strip()
    return out


@click.group()
@click.version_option(package_name="lawspeaker")
def main() -> None:
    """Adjudicator and rules engine for DP-based Diplomacy variants."""


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
        rules = var.rules.with_options(**_options(rule_pairs))
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
    orders: list[Order] = []
    allocations: list[Allocation] = []
    errors: list[tuple[int, str]] = []
    power = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        try:
            if sep and not rest.strip():
                power = var.power_named(head)
                continue
            who = var.power_named(head) if sep else power
            if not who:
                raise ValueError("no power given: start with a line like 'England:'")
            text = rest if sep else line
            if is_allocation(text):
                allocations.append(parse_allocation(var.map, text, who, var.capital_names()))
            else:
                orders.append(parse_order(var.map, text, who, position.phase.kind,
                                          var.capital_names()))
        except (OrderSyntaxError, ValueError) as exc:
            errors.append((number, str(exc)))
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
        reports = run_files(files, _options(rule_pairs), load_errata(errata) if errata else None)
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


@main.command()
def variants() -> None:
    """List the bundled variants."""
    for name in available_variants():
        var = load_variant(name)
        click.echo(f"{name}: {var.title}")
