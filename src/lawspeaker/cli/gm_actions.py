"""``lawspeaker game ACTION NAME ...``: the GM's actions, made from the service's table.

Every action of :data:`lawspeaker.service.actions.ACTIONS` is a command of the
``game`` group with the action's name: its required arguments are positional, in
the table's order, its optional ones ``--options`` (``phase_minutes`` becomes
``--phase-minutes``), and its help is the table's. The words typed are handed to
:meth:`~lawspeaker.service.GameService.act` as they are, so the service checks them
and a bad one gets the sentence the web page, the JSON API and Discord give
(``game extend Saga soon`` → ``Error: extend: minutes must be a duration: ...``).
The command prints the action's answer.

A few commands keep the shapes the CLI had before the table (:data:`FORMS`):
``game rule NAME KEY=VALUE`` (or ``KEY VALUE``), ``game bot NAME POWER [BOT]``;
``process`` and ``publish`` print the results post, ``link`` the secret token.

The table lives in the service, which loads SQLAlchemy, so the commands are made
when one is first asked for (:class:`.game.GameGroup`), never for ``lawspeaker
--help``. ``game preview`` (a read, not an action) is written out here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import click

from .game import FORMATS, GameGroup, _gm, _q, _run, _service, game_group

if TYPE_CHECKING:
    from ..service import GameService
    from ..service.actions import ActionResult, GMAction, Param

__all__ = ["FORMS", "Form", "action_command", "action_commands"]

Show = Callable[["GameService", str, "ActionResult"], None]
"""Prints an action's answer: the service, the game's name, the answer."""


@dataclass(frozen=True)
class Form:
    """Where an action's command differs from the shape made from the table."""

    positional: tuple[str, ...] = ()
    """Optional arguments taken as optional positional words (``bot ... [BOT]``)."""
    pair: tuple[str, str] | None = None
    """Two arguments given as ``KEY=VALUE`` in one word, or as two words."""
    show: Show | None = None
    """Prints the answer (default: its message)."""
    note: str = ""
    """A paragraph the command's help adds to the table's."""


def _show_message(svc: GameService, name: str, done: ActionResult) -> None:
    click.echo(done.message)


def _show_results(svc: GameService, name: str, done: ActionResult) -> None:
    """A processed or published phase: its public results post, as ``game export``
    prints it; a preview: its post with the secret DP section (the GM's eyes)."""
    preview = done.data.get("preview")
    if preview is not None:
        click.echo(preview["secret_post"], nl=False)
        click.echo(f"\n{done.message}")
        click.echo("This is a preview only the GM sees (with the secret DP section: never "
                   "post it); the game stays in its phase and players see nothing new.")
        click.echo(f"Next: lawspeaker game publish {_q(name)}, or "
                   f"lawspeaker game discard {_q(name)}")
        return
    click.echo(svc.export(name, done.data["processed"], "text", actor=_gm()), nl=False)


def _show_link(svc: GameService, name: str, done: ActionResult) -> None:
    token = done.data["token"]
    click.echo(done.message)
    click.echo(f"Token: {token}")
    click.echo(f"Link: /join/{token}  (after the server's address, e.g. "
               f"https://dip.example.org/join/{token})")
    click.echo(f"Warning: the link is secret: whoever opens it plays as {done.data['seat']}. "
               "It is shown only this once.")


FORMS: dict[str, Form] = {
    "process": Form(show=_show_results, note="Prints the results post; with the house rule "
                    "review=yes, the preview (with its secret DP section) and the commands "
                    "that publish or discard it."),
    "publish": Form(show=_show_results, note="Prints the published results post."),
    "bot": Form(positional=("bot",)),
    "rule": Form(pair=("key", "value"), note="Give KEY=VALUE as one word "
                 "(reveal_dp_at_end=yes), or KEY and VALUE as two."),
    "link": Form(show=_show_link, note="Prints the token and the path /join/TOKEN: put "
                 "the server's address before it. Keep it secret."),
}
"""The CLI's own shapes of some actions (see the module's docstring)."""


@cache
def action_commands() -> dict[str, click.Command]:
    """A command for every action of the service's table, by name."""
    from ..service.actions import ACTIONS

    return {name: action_command(action) for name, action in ACTIONS.items()}


def action_command(action: GMAction) -> click.Command:
    """The ``game`` command running ``action`` (in its :data:`FORMS` shape, if any)."""
    form = FORMS.get(action.name, Form())
    words = [p for p in action.params if _word(p, form)]
    params: list[click.Parameter] = [click.Argument(["name"])]
    for p in action.params:
        if _word(p, form):
            optional = not p.required or (form.pair is not None and p.name == form.pair[1])
            params.append(click.Argument([p.name], required=not optional,
                                         metavar=_word_metavar(p, form, optional)))
        else:
            params.append(click.Option([f"--{p.name.replace('_', '-')}", p.name],
                                       metavar=_metavar(p), help=_describe(p)))

    def run(name: str, **given: str | None) -> None:
        raw: dict[str, object] = {k: v for k, v in given.items() if v is not None}
        if form.pair is not None:
            key, value = form.pair
            if value not in raw and "=" in str(raw.get(key, "")):
                raw[key], _, raw[value] = str(raw[key]).partition("=")
        with _service(click.get_current_context()) as svc:
            done = svc.act(name, action.name, raw, actor=_gm())
            (form.show or _show_message)(svc, name, done)

    return click.Command(action.name, callback=run, params=params,
                         help=_help(action, form, words), short_help=action.summary)


def _word(p: Param, form: Form) -> bool:
    """Whether ``p`` is a positional word (else an ``--option``)."""
    return p.required or p.name in form.positional or (
        form.pair is not None and p.name in form.pair)


def _word_metavar(p: Param, form: Form, optional: bool) -> str:
    word = p.name.upper()
    if form.pair is not None and p.name == form.pair[0]:
        return f"{word}[={form.pair[1].upper()}]"
    return f"[{word}]" if optional else word


def _metavar(p: Param) -> str:
    if p.kind == "minutes":
        return "DURATION"
    if p.kind == "choice":
        return "|".join(p.choices)
    if p.kind == "bot":
        return "BOT"
    return p.name.upper()


def _describe(p: Param) -> str:
    text = p.help
    if p.default is not None:
        text += f" (default: {p.default})"
    return text


def _help(action: GMAction, form: Form, words: list[Param]) -> str:
    out = [f"GM: {action.summary}."]
    if words:
        width = max(len(p.name) for p in words) + 2
        out += ["", "\b", *(f"{p.name.upper():<{width}}{_describe(p)}" for p in words)]
    if form.note:
        out += ["", form.note]
    out += ["", f"Changes: {action.changes}. Recorded in the game's history."]
    return "\n".join(out)


assert isinstance(game_group, GameGroup)
game_group.lazy.append(action_commands)


# --- the preview: a read ------------------------------------------------------------------

@game_group.command("preview")
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True)
@click.option("--public", is_flag=True,
              help="Only what players will see once it is published (no DP section).")
def preview(name: str, fmt: str, public: bool) -> None:
    """GM: the results waiting for your review (house rule review=yes), with the
    secret DP section unless --public. Nobody else sees them before you publish."""
    found = _run(lambda s: s.preview(name, actor=_gm()))
    if found is None:
        click.echo(f"No preview of {name} is waiting (with the house rule review=yes, "
                   f"lawspeaker game process {_q(name)} makes one).")
        return
    click.echo(found.post(fmt, secret=not public), nl=False)
    click.echo(f"\nPreview of {found.phase} (next: {found.next_phase}), made by "
               f"{found.made_by} at {found.made_at:%Y-%m-%d %H:%M} UTC; only the GM sees it.")
    if found.stale:
        click.echo(f"Out of date: {found.stale}. Process again: "
                   f"lawspeaker game process {_q(name)}")
        return
    if found.publish_by is not None:
        click.echo(f"Unless you publish or discard it, the phase is processed at "
                   f"{found.publish_by:%Y-%m-%d %H:%M} UTC.")
    click.echo(f"Next: lawspeaker game publish {_q(name)}, or "
               f"lawspeaker game discard {_q(name)}")
