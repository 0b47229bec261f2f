"""``lawspeaker simulate``: the balance lab (many bot games, a summary and a report)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from ._common import options
from .root import main


@main.command("simulate")
@click.argument("variant")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The run's seed: the same seed gives the same summary.json.")
@click.option("--bots", "bots", multiple=True, metavar="POWER=BOT",
              help="The bot playing a power (repeatable).")
@click.option("--default-bot", default="random", show_default=True,
              help="The bot for every other power (random, hold, tactician).")
@click.option("--max-years", type=click.IntRange(min=1),
              help="Stop a game after this many years; the survivors draw (default: the "
                   "variant's own limit, else 20).")
@click.option("--workers", type=click.IntRange(min=1),
              help="Local worker processes (default: one per core).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on this Dask cluster (tcp://HOST:PORT) instead of local processes; "
                   "needs pip install 'lawspeaker[lab]' here and on the workers.")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False),
              help="Folder for summary.json and report.html (made if missing).")
def simulate(variant: str, games: int, seed: int, bots: tuple[str, ...], default_bot: str,
             max_years: int | None, workers: int | None, scheduler: str | None,
             out: str) -> None:
    """Play GAMES whole games of VARIANT with bots; write DIR/summary.json and DIR/report.html.

    \b
    lawspeaker simulate s9-complete --games 1000 --seed 7 \\
        --bots Aesir=tactician --default-bot random --out lab/aesir
    """
    from ..sim.lab import LabError, LabSpec, default_workers, run_lab, summarise
    from ..sim.report import render_report  # the lab loads only when it runs

    try:
        spec = LabSpec.build(variant, games, seed, options(bots, "--bots"), default_bot,
                             max_years)
    except LabError as exc:
        raise click.ClickException(str(exc)) from None
    if workers and scheduler:
        raise click.UsageError("give --workers or --scheduler, not both")
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.ClickException(f"cannot make {folder}: {exc.strerror}") from None
    where = f"the Dask cluster at {scheduler}" if scheduler \
        else f"{workers or default_workers()} local worker(s)"
    click.echo(f"{spec.variant}: {games} games, seed {seed}, on {where}", err=True)
    start = time.perf_counter()
    try:
        with click.progressbar(length=games, label="games", file=sys.stderr,
                               show_pos=True, show_eta=True) as bar:
            records = run_lab(spec, workers or default_workers(), scheduler, bar.update)
    except LabError as exc:
        raise click.ClickException(str(exc)) from None
    elapsed = time.perf_counter() - start
    summary = summarise(spec, records)
    (folder / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n",
                                         encoding="utf-8")
    (folder / "report.html").write_text(render_report(summary, elapsed), encoding="utf-8")
    click.echo(f"{games} games in {elapsed:.1f} s ({games / elapsed:.2f} games/s); wrote "
               f"{folder / 'summary.json'} and {folder / 'report.html'}", err=True)
    for power, row in summary["powers"].items():
        click.echo(f"  {power:16s} {row['bot']:10s} top {row['top_centres_share'] * 100:5.1f}%"
                   f"  wins {row['wins']:5d}  mean centres {row['mean_final_centres']:6.2f}")
