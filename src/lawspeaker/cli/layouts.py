"""Layouts of official map images: ``map calibrate`` (click where each
province's unit stands, in a browser page) and the checks ``map check
--layout`` and ``game map --layout`` make (docs/maps.md). The package's
``__init__`` adds ``calibrate`` to the ``map`` group."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ..render.backdrop import Backdrop
    from ..variants import Variant

__all__ = ["check_layout", "map_calibrate", "read_backdrop"]


def check_layout(var: Variant, layout_file: str) -> None:
    """Print every problem of a layout for ``var``; a non-zero exit if any."""
    from ..render.backdrop import Backdrop
    from ..render.maplayout import LayoutError, layout_problems, load_layout

    try:
        layout = load_layout(layout_file)
    except LayoutError as exc:
        raise click.ClickException(str(exc)) from None
    problems = layout_problems(layout, var)
    try:
        Backdrop.from_file(layout_file)
    except LayoutError as exc:
        problems.append(str(exc))
    for problem in problems:
        click.echo(f"{layout_file}: {problem}")
    if problems:
        raise click.ClickException(f"{len(problems)} problem(s) in {layout_file}")
    click.echo(f"{layout_file}: OK — {len(layout.provinces)} places on the "
               f"{layout.size[0]}x{layout.size[1]} image {layout.image}")


def read_backdrop(layout_file: str) -> Backdrop:
    """The image and layout to draw over; a clear error if they cannot be read."""
    from ..render.backdrop import Backdrop
    from ..render.maplayout import LayoutError

    try:
        backdrop = Backdrop.from_file(layout_file)
    except LayoutError as exc:
        raise click.ClickException(str(exc)) from None
    return backdrop


@click.command("calibrate")
@click.argument("variant")
@click.argument("image", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="The layout file to write (default: beside IMAGE, IMAGE-NAME.layout.yaml). "
                   "If it exists, calibrating resumes where it stopped.")
@click.option("--no-browser", is_flag=True, help="Only print the page's address.")
def map_calibrate(variant: str, image: str, output: str | None, no_browser: bool) -> None:
    """Calibrate an official map IMAGE for VARIANT: a page in the browser asks
    for each province (and each split coast) in turn, and you click where its
    unit stands. Every click is saved at once; stop and run the same command
    again to go on."""
    from ..render.maplayout import LayoutError
    from ..variants import VariantError, load_variant
    from ..web.calibrate import Calibration, serve_calibration

    try:
        var = load_variant(variant)
    except VariantError as exc:
        raise click.ClickException(str(exc)) from None
    image_path = Path(image)
    target = Path(output) if output else image_path.with_name(image_path.stem + ".layout.yaml")
    try:
        calibration = Calibration.open(var, image_path, target)
    except LayoutError as exc:
        raise click.ClickException(str(exc)) from None

    def ready(url: str) -> None:
        click.echo(f"Calibrating {image_path} for {var.title}: open {url}")
        click.echo(f"Each click is saved to {target}. Press Ctrl+C (or Finish on the page) "
                   "to stop; run the same command again to go on.")
        if not no_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    serve_calibration(calibration, ready)
    done, total = calibration.progress()
    click.echo(f"{done} of {total} places set in {target}"
               + ("" if done == total else f"; run 'lawspeaker map calibrate {variant} {image}"
                  + (f" -o {output}" if output else "") + "' to go on"))
