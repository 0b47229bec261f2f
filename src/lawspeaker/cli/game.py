"""``lawspeaker game ...``: the commands a GM runs a kept game with.

Every command works on the store (``--db`` or ``$LAWSPEAKER_DB``, else
``lawspeaker.db`` here) through :class:`lawspeaker.service.GameService`; this
module only reads arguments and prints. Whoever runs these commands holds
the database, so acts as the GM; what a command prints for a power
(``orders``, ``template``) is only that power's, as a player would see it.

The GM's actions (``process``, ``publish``, ``undo``, ``extend``, ``rule``, ...) are
not written here: :mod:`.gm_actions` makes them from the service's table
(:data:`lawspeaker.service.actions.ACTIONS`) when one is first asked for.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ._common import options
from .root import main

if TYPE_CHECKING:
    from ..service import GameService
    from ..service.types import Viewer

# The service and the store (SQLAlchemy) are imported when a command runs, so that
# `lawspeaker --help` and the engine's commands never load them.

FORMATS = ("text", "markdown", "bbcode")
"""The formats of a results post: :data:`lawspeaker.service.export.FORMATS` (a test
checks they agree), written out so the option needs no import of the service."""


@contextmanager
def _service(ctx: click.Context) -> Iterator[GameService]:
    """The service on the chosen database; errors become one ``Error:`` line."""
    from ..service import GameService, ServiceError
    from ..store import StoreError, open_store
    from ..variants import VariantError

    try:
        store = open_store(ctx.obj["db"])
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        yield GameService(store)
    except (ServiceError, VariantError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()


def _gm() -> Viewer:
    """Whoever runs these commands holds the database, so acts as the GM."""
    from ..service import GM

    return GM


def _run(fn: Callable[[GameService], Any]) -> Any:
    with _service(click.get_current_context()) as svc:
        return fn(svc)


class GameGroup(click.Group):
    """The ``game`` group. Besides the commands registered on it, it holds commands
    made when first asked for (``lazy``: functions returning them by name), so that
    ``lawspeaker --help`` need not load the service whose table they are made from."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: list[Callable[[], Mapping[str, click.Command]]] = []

    def _made(self) -> dict[str, click.Command]:
        out: dict[str, click.Command] = {}
        for make in self.lazy:
            out.update(make())
        return out

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self._made()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = self.commands.get(cmd_name)
        return found if found is not None else self._made().get(cmd_name)


@main.group("game", cls=GameGroup)
@click.option("--db", envvar="LAWSPEAKER_DB", metavar="PATH|URL",
              help="The database: a file path or an SQLAlchemy URL "
                   "(default: $LAWSPEAKER_DB, else lawspeaker.db here).")
@click.pass_context
def game_group(ctx: click.Context, db: str | None) -> None:
    """Run kept games: orders, status, processing, history and results posts."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


@game_group.command("new")
@click.argument("variant")
@click.argument("name")
@click.option("--rules", "rule_pairs", multiple=True, metavar="KEY=VALUE",
              help="A house rule kept with the game, e.g. reveal_dp_at_end=yes.")
@click.option("--player", "player_pairs", multiple=True, metavar="POWER=NAME",
              help="Who plays a power (repeatable).")
def new(variant: str, name: str, rule_pairs: tuple[str, ...],
        player_pairs: tuple[str, ...]) -> None:
    """Start a game of VARIANT called NAME."""
    rules = options(rule_pairs)
    players = options(player_pairs, "--player")
    info = _run(lambda s: s.create_game(variant, name, rules, players, actor=_gm()))
    click.echo(f"Created '{info.name}': {info.title}, {info.phase}.")
    if info.rules:
        click.echo("House rules: " + ", ".join(f"{k}={v}" for k, v in info.rules.items()))
    click.echo(f"Next: lawspeaker game template {_q(name)} POWER, then "
               f"lawspeaker game orders {_q(name)} POWER FILE")


@game_group.command("list")
def list_games() -> None:
    """List the games in the database."""
    games = _run(lambda s: s.list_games())
    if not games:
        click.echo("No games yet: lawspeaker game new VARIANT NAME")
    for info in games:
        state = info.result or info.phase
        click.echo(f"{info.name}  ({info.title})  {state}")


@game_group.command("show")
@click.argument("name")
def show(name: str) -> None:
    """A game's variant, house rules, players and phase."""
    info = _run(lambda s: s.game(name, actor=_gm()))
    click.echo(f"{info.name}: {info.title}")
    click.echo(f"Phase: {info.phase} ({info.phase_code})")
    if info.result:
        click.echo(f"Game over: {info.result}")
    rules = ", ".join(f"{k}={v}" for k, v in info.rules.items()) or "none (variant defaults)"
    click.echo(f"House rules: {rules}")
    for power, player in info.players.items():
        click.echo(f"  {power}: {player}")


@game_group.command("orders")
@click.argument("name")
@click.argument("power")
@click.argument("file", required=False, type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--phase", metavar="PHASE", help="The phase the post is for (e.g. S1901M): "
              "refused, and nothing kept, if another phase is open by then.")
def orders(name: str, power: str, file: str | None, phase: str | None) -> None:
    """Submit POWER's orders and DP allocations from FILE ('-' reads stdin).

    Paste a forum or Discord post as it is. Each line is checked at once:
    ok, illegal (kept; the unit will hold), unreadable (with the nearest
    names, or an order for another power's unit), rejected (a DP allocation
    breaking a rule), or ignored (a DP allocation kept whose order is
    illegal: its DP will count for nothing). Without FILE, show the power's
    standing orders. Exits non-zero when a line needs attention.
    """
    if file is None:
        report = _run(lambda s: s.submissions(name, power, actor=_gm()))
    else:
        data = sys.stdin.buffer.read() if file == "-" else _read(file)
        report = _run(lambda s: s.submit(name, power, data, actor=_gm(), phase=phase))
    for line in report.lines:
        click.echo(str(line))
    click.echo(f"{report.power}, {report.phase}: standing orders")
    for text in report.orders or ("(none)",):
        click.echo(f"  {text}")
    if report.allocations or report.dp_left is not None:
        click.echo(f"DP allocations (secret; {report.dp_left} DP left):")
        for text in report.allocations:
            click.echo(f"  {text}")
    if not report.ok:
        raise SystemExit(1)


@game_group.command("template")
@click.argument("name")
@click.argument("power")
def template(name: str, power: str) -> None:
    """POWER's units and what each may do, as a post to fill in."""
    click.echo(_run(lambda s: s.template(name, power, actor=_gm())), nl=False)


@game_group.command("status")
@click.argument("name")
def status(name: str) -> None:
    """The phase and what it needs: centres, builds, DP, retreats, who is missing."""
    st, reviewing = _run(lambda s: (s.status(name, actor=_gm()),
                                    s.under_review(name, actor=_gm())))
    click.echo(f"{name}: {st.phase}")
    if reviewing:
        click.echo(f"Results under review: see them with lawspeaker game preview {_q(name)}, "
                   f"then lawspeaker game publish {_q(name)} (or discard)")
    if st.result:
        click.echo(f"Game over: {st.result}")
        return
    click.echo(f"Victory: {st.victory_target} {'VP' if st.uses_vp else 'centres'}")
    for p in st.powers:
        click.echo(f"  {p.power:12} {st.power_summary(p)}")
    for title, rows in (("Heirs", st.heirs), ("Thralls", st.thralls), ("Vassals", st.vassals),
                        ("Vassal marriages", st.marriages),
                        ("Dropped (eliminated at the next Census)", st.dropped),
                        ("In exile (1 DP each orders phase)", st.exiles),
                        ("Favor", st.favor), ("Winter", st.embassy_orders)):
        if rows:
            click.echo(f"{title}:")
            for row in rows:
                click.echo(f"  {row}")
    for need in st.retreats:
        where = ", ".join(need.options) if need.options else "nowhere: it must disband"
        click.echo(f"Retreat: {need.power}'s {need.unit} may retreat to {where}")
    for power in st.heir_builds:
        click.echo(f"{power} may build an heir (S9 §8.3)")
    click.echo("Submitted: " + (", ".join(st.submitted) or "nobody yet"))
    click.echo("Waiting for: " + (", ".join(st.missing) or "nobody"))


@game_group.command("history")
@click.argument("name")
def history(name: str) -> None:
    """Everything that happened in the game, oldest first."""
    for e in _run(lambda s: s.history(name, actor=_gm())):
        mark = " (undone)" if e.undone else ""
        click.echo(f"{e.at:%Y-%m-%d %H:%M}  {e.actor:8} {e.summary}{mark}")


@game_group.command("export")
@click.argument("name")
@click.option("--phase", metavar="PHASE", help="A processed phase (default: the last).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True)
@click.option("--gm", is_flag=True, help="Add the secret DP section (never post it).")
@click.option("--map-url", "map_url", metavar="BASE",
              help="The server's public address (https://dip.example.org): embeds the "
                   "phase's public results map (BASE/games/NAME/map.png) in Markdown and "
                   "BBCode. Without it there is no image line: the CLI has no server.")
def export(name: str, phase: str | None, fmt: str, gm: bool, map_url: str | None) -> None:
    """The results post for a phase, public information only (unless --gm)."""
    if map_url is not None and not map_url.lower().startswith(("http://", "https://")):
        raise click.BadParameter("give the server's address, starting http:// or https://",
                                 param_hint="--map-url")
    click.echo(_run(lambda s: s.export(name, phase, fmt, gm=gm, actor=_gm(), map_base=map_url)),
               nl=False)


@game_group.command("map")
@click.argument("name")
@click.option("--phase", metavar="PHASE", help="A phase of the game (default: the current one).")
@click.option("--orders", is_flag=True,
              help="Draw the phase's orders: its results once processed; before that, "
                   "the standing orders (the GM sees them all).")
@click.option("--format", "fmt", type=click.Choice(["svg", "png"]), default="png",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="The file to write (default: NAME-PHASE.FORMAT here).")
@click.option("--favor", is_flag=True, help="Draw the Favor Map (Dissolution §11).")
@click.option("--palette", type=click.Choice(["standard", "colorblind"]), default="standard",
              show_default=True, help="Colours: 'colorblind' is the colour-blind-safe palette.")
@click.option("--layout", "layout_file", type=click.Path(exists=True, dir_okay=False),
              help="Draw over the official map image this layout file calibrates "
                   "(map calibrate); without it, the game's uploaded image if any.")
@click.option("--png", "png_file", type=click.Path(dir_okay=False),
              help="Write a PNG to this file (the same as --format png -o FILE).")
def game_map(name: str, phase: str | None, orders: bool, fmt: str, output: str | None,
             favor: bool, palette: str, layout_file: str | None, png_file: str | None) -> None:
    """Draw the board of a phase, with its orders and results."""
    if png_file:
        if output:
            raise click.UsageError("give --png FILE or -o FILE, not both")
        fmt, output = "png", png_file
    backdrop = None
    if layout_file:
        from .layouts import read_backdrop  # the drawing libraries load only when drawing

        backdrop = read_backdrop(layout_file)

    def draw(s: GameService) -> tuple[str | bytes, str]:
        s.position(name, phase, actor=_gm())  # NotFound: no such game or phase
        code = phase or s.game(name, actor=_gm()).phase_code
        for problem in backdrop.problems(s.variant_of(name, actor=_gm())) if backdrop else ():
            click.echo(f"Warning: {layout_file}: {problem}", err=True)  # drawn all the same
        return s.picture(name, phase, orders, fmt, actor=_gm(), board="favor" if favor else "map",
                         palette=palette, backdrop=backdrop), code

    picture, code = _run(draw)
    kind = "-favor" if favor else ""
    target = Path(output or f"{_slug(name)}-{code}{kind}{'-orders' if orders else ''}.{fmt}")
    if not target.parent.exists():
        raise click.ClickException(f"cannot write {target}: the folder {target.parent} "
                                   "does not exist")
    if isinstance(picture, bytes):
        target.write_bytes(picture)
    else:
        target.write_text(picture, encoding="utf-8")
    click.echo(f"Map written to {target}")


def _read(file: str) -> bytes:
    try:
        return Path(file).read_bytes()
    except OSError as exc:
        raise click.ClickException(f"cannot read {file}: {exc.strerror}") from None


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-") or "game"


def _q(name: str) -> str:
    return f"'{name}'" if " " in name else name
