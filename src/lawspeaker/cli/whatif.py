"""``lawspeaker game whatif`` and ``game explain``: what would happen, and why
it happened.

The sandbox (:mod:`lawspeaker.service.sandbox`) adjudicates from the game's
current phase and writes nothing: not the orders, not a log line. The
explanations are those kept with each processed phase
(:mod:`lawspeaker.core.resolver_explain`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .game import FORMATS, _read, _run, game_group

if TYPE_CHECKING:
    from ..service import GameService, SandboxRun

# The service (and the store under it) loads only when a command runs.

__all__ = ["explain", "whatif"]


@game_group.command("whatif")
@click.argument("name")
@click.option("--orders", "orders_file", required=True, metavar="FILE",
              type=click.Path(allow_dash=True, dir_okay=False),
              help="Orders and DP allocations for the current phase, any powers, as players "
                   "write them (a header such as 'France:' names the power); '-' reads stdin.")
@click.option("--then", "then_files", multiple=True, metavar="FILE",
              type=click.Path(dir_okay=False),
              help="Orders for the phase after (repeat for each further phase: retreats, "
                   "Winter, the next year). Units without an order hold.")
@click.option("--as", "as_power", metavar="POWER",
              help="A player's sandbox: start from POWER's own orders and DP only, as that "
                   "player's sandbox on the web would. Default: the GM's, from every "
                   "power's standing orders.")
@click.option("--blank", is_flag=True,
              help="Start from no standing orders at all: only what the files say.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--map", "map_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also draw each phase's orders and results (.png or .svg; with several "
                   "phases, FILE-1, FILE-2, ...).")
def whatif(name: str, orders_file: str, then_files: tuple[str, ...], as_power: str | None,
           blank: bool, fmt: str, map_file: str | None) -> None:
    """Print the results post of NAME's current phase adjudicated with the
    orders in FILE, and nothing is changed in the database.

    Every other unit holds unless FILE orders it; neutral units get the DP
    written in FILE (and, without --blank, the DP already allocated by the
    powers whose orders the sandbox starts from).
    """
    import sys

    from ..service import GM, Viewer

    first = sys.stdin.buffer.read() if orders_file == "-" else _read(orders_file)
    texts = [_text(first, orders_file)] + [_text(_read(f), f) for f in then_files]
    actor = Viewer.of(as_power) if as_power else GM

    def play(s: GameService) -> SandboxRun:
        return s.whatif(name, texts, actor=actor, submitted=not blank)

    run = _run(play)
    click.echo(run.post(fmt), nl=False)
    if map_file:
        _draw(run, Path(map_file))


def _text(data: bytes, where: str) -> str:
    from ..engine.posts import PostError, decode_post

    try:
        return decode_post(data, where)
    except PostError as exc:
        raise click.ClickException(str(exc)) from None


def _draw(run: SandboxRun, target: Path) -> None:
    from ..render import draw

    if not target.parent.exists():
        raise click.ClickException(f"cannot write {target}: the folder {target.parent} "
                                   "does not exist")
    for n, step in enumerate(run.steps, 1):
        out = target if len(run.steps) == 1 else target.with_name(
            f"{target.stem}-{n}{target.suffix}")
        draw(run.variant, step.before, results=step.results,
             subtitle=f"{run.game}: what if (sandbox, not sent)").save(out)
        click.echo(f"Map of step {n} ({step.phase}) written to {out}", err=True)


@game_group.command("explain")
@click.argument("name")
@click.option("--phase", metavar="PHASE", help="A processed phase (default: the last).")
@click.option("--power", metavar="POWER", help="Only this power's orders.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--gm", is_flag=True,
              help="Add the DP behind each neutral unit's order: every allocation and what "
                   "each proposed order received (secret: never post it).")
def explain(name: str, phase: str | None, power: str | None, fmt: str, gm: bool) -> None:
    """Why each result of a processed phase is what it is: the strengths
    compared, the supports that counted and those cut or void, the convoy
    path, the rule that decided. Without --gm it says nothing the results
    post does not, so it may be posted beside it."""
    from ..service import GM, PUBLIC

    click.echo(_run(lambda s: s.explain(name, phase, actor=GM if gm else PUBLIC, power=power,
                                        fmt=fmt, gm=gm)),
               nl=False)
