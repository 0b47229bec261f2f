"""Map commands: ``map check`` validates a variant's data files (and its
territories' adjacency truth), ``map export`` writes its territories as GeoJSON,
``map draw`` draws its board, a position, or a position with the results of
its orders."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .root import main

# The variants, the engine and the drawing code are imported by each command when it
# runs, so that `lawspeaker --help` and the other commands never load them.


@main.group("map")
def map_group() -> None:
    """Inspect, validate and draw variant maps."""


@map_group.command("check")
@click.argument("variant")
@click.option("--layout", "layout_file", type=click.Path(exists=True, dir_okay=False),
              help="Also check this calibrated map layout (map calibrate): missing and "
                   "unknown provinces and coasts, spots outside the image.")
def map_check(variant: str, layout_file: str | None) -> None:
    """Validate VARIANT (a bundled name or a folder) and list every problem.

    Each problem once, as file:line: what is wrong, with its fix below; then
    what the variant holds: provinces, centres, powers and units, minor powers,
    wings and nuclear units. With --layout, the calibrated layout too.
    """
    from ..variants.report import check_report, summary

    report = check_report(variant)
    for line in report.lines():
        click.echo(line)
    if report.problems or report.variant is None:
        count = len(report.problems)
        raise click.ClickException(f"{count} problem{'s' if count != 1 else ''} in {variant}")
    from ..render.territory_export import territory_problems  # shapely loads only here

    drawn = territory_problems(report.variant)  # the territory map tells the adjacency truth
    for problem in drawn:
        click.echo(problem)
    if drawn:
        raise click.ClickException(f"{len(drawn)} problem(s) in {variant}'s territories")
    click.echo(summary(report.variant))
    if layout_file:
        from .layouts import check_layout  # the drawing libraries load only when asked

        check_layout(report.variant, layout_file)


@map_group.command("export")
@click.argument("variant")
@click.option("--geojson", "geojson_file", required=True, type=click.Path(dir_okay=False),
              help="Write the territories as GeoJSON ('-' for standard output).")
def map_export(variant: str, geojson_file: str) -> None:
    """Export VARIANT's territories: one GeoJSON Feature per province, in the
    drawing's own pixels (y down), and the crossings (adjacent pairs without
    a shared border)."""
    import json

    from ..render.territory_export import territory_geojson
    from ..variants import VariantError, load_variant

    try:
        var = load_variant(variant)
    except VariantError as exc:
        raise click.ClickException(str(exc)) from None
    text = json.dumps(territory_geojson(var), ensure_ascii=False)
    if geojson_file == "-":
        click.echo(text)
        return
    try:
        Path(geojson_file).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"{geojson_file}: {exc.strerror}") from None
    crossings = len(json.loads(text)["crossings"])
    click.echo(f"GeoJSON written to {geojson_file} ({len(var.map.provinces)} provinces, "
               f"{crossings} crossing{'' if crossings == 1 else 's'})", err=True)


@map_group.command("draw")
@click.argument("variant")
@click.option("--position", "position_file", type=click.Path(exists=True, dir_okay=False),
              help="Draw this saved position (JSON, as 'adjudicate --save' writes).")
@click.option("--start", is_flag=True, help="Draw the variant's starting position.")
@click.option("--orders", "orders_file", type=click.Path(exists=True, dir_okay=False),
              help="Adjudicate these orders on the position and draw them with their results "
                   "(DP allocations in the file are counted, never drawn).")
@click.option("--format", "fmt", type=click.Choice(["svg", "png"]),
              help="Output format (default: from -o's suffix, else svg).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="File to write (default: standard output).")
@click.option("--scale", type=click.FloatRange(min=0.1, max=8.0), default=1.0,
              show_default=True, help="PNG pixels per map unit.")
@click.option("--favor", is_flag=True,
              help="Draw the Favor Map (Dissolution §11) instead: its Embassies (of the "
                   "position, else the starting setup), with --orders the Winter's Embassy "
                   "orders and their results.")
@click.option("--palette", type=click.Choice(["standard", "colorblind"]), default="standard",
              show_default=True,
              help="Colours: 'colorblind' is safe for deuteranopia and protanopia (Okabe-Ito "
                   "colours; borders told apart by dash too).")
@click.option("--adjacency", is_flag=True,
              help="Draw the node-link adjacency diagram (S9 §4.4) instead of territories.")
def map_draw(variant: str, position_file: str | None, start: bool, orders_file: str | None,
             fmt: str | None, output: str | None, scale: float, favor: bool,
             palette: str, adjacency: bool) -> None:
    """Draw VARIANT's map as SVG or PNG.

    Alone, the bare territory map: every province's area, crossings as
    dashed arrows. With --adjacency, the node-link diagram with every border
    coloured as the S9 adjacency diagram (§4.4) does: army-only red,
    fleet-only blue, both purple. With
    --start or --position, the units, centres and heirs of that position;
    with --orders too, the orders and what became of them. With --favor, the
    Favor Map of a variant that has one (Dissolution).
    """
    from ..core.board import Position
    from ..engine.phases import adjudicate, initial_position
    from ..engine.posts import PostError, read_post
    from ..render import draw, draw_favor  # drawing libraries load only when drawing
    from ..variants import VariantError, load_variant

    try:
        var = load_variant(variant)
    except VariantError as exc:
        raise click.ClickException(str(exc)) from None
    if position_file and start:
        raise click.UsageError("give --position or --start, not both")
    position = None
    if position_file:
        try:
            position = Position.from_json(Path(position_file).read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"{position_file}: {exc}") from None
    elif start or orders_file:
        position = initial_position(var)
    results = None
    if orders_file and position is not None:
        try:
            lines = read_post(var, Path(orders_file).read_bytes(), position.phase.kind)
        except PostError as exc:
            raise click.ClickException(f"{orders_file}: {exc}") from None
        errors = [f"{orders_file}:{line.number}: {line.error}" for line in lines if line.error]
        if errors:
            raise click.ClickException("\n".join(errors))
        orders = [line.order for line in lines if line.order is not None]
        allocations = [line.allocation for line in lines if line.allocation is not None]
        try:
            results = adjudicate(var, position, orders, var.rules, allocations).results
        except ValueError as exc:
            raise click.ClickException(f"{orders_file}: {exc}") from None
    try:
        drawing = (draw_favor(var, position, results=results, palette=palette) if favor
                   else draw(var, position, results=results, palette=palette,
                             view="adjacency" if adjacency else "territories"))
    except (ValueError, KeyError) as exc:
        where = position_file or variant
        raise click.ClickException(f"{where}: {exc}") from None
    fmt = fmt or ("png" if output and output.lower().endswith(".png") else "svg")
    data = drawing.png(scale) if fmt == "png" else drawing.svg().encode("utf-8")
    if output:
        Path(output).write_bytes(data)
        click.echo(f"{fmt.upper()} written to {output} ({drawing.width}x{drawing.height})",
                   err=True)
    elif fmt == "png" and sys.stdout.isatty():
        raise click.UsageError("a PNG is not for a terminal: give -o FILE or redirect")
    else:
        click.echo(data, nl=False)  # bytes go to the binary stream
