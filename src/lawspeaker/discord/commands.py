"""The slash commands: names, descriptions and options, as plain data.

The glue (:mod:`.bot`) registers exactly these with Discord, and the
handlers (:mod:`.handlers`) answer exactly these, so the two cannot drift
apart (a test checks every command has a handler and the reverse).

The GM's actions are not written here: each action of the service's table
(:data:`lawspeaker.service.actions.ACTIONS`) is the command ``/gm <action>``,
made from the table (:func:`action_spec`): its summary is the description,
its arguments the options, by the same names, with the table's help and
required flags; a ``minutes`` argument is a text option (``90``, ``12h``,
``2d``) and a ``choice`` or ``bot`` argument offers its choices. The handler
hands the options to the service as they are (:func:`.gm.action`), so a bad
one gets the service's sentence. Only the commands Discord alone has (making
a game here, binding channels and users, the GM's view of orders and of a
preview) are written out below.

Who may run a command is never decided here nor in the handlers: the service
refuses a GM's action, or a read of what only the GM sees, to anyone else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..service.actions import ACTIONS, GMAction, Param

__all__ = ["ACTION_COMMANDS", "COMMANDS", "GROUPS", "CommandSpec", "OptionSpec",
           "action_spec", "bot_names"]

Kind = Literal["text", "int", "bool", "user"]

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
"""What Discord takes as a command's or an option's name."""
MAX_DESCRIPTION = 100
"""Discord's longest description of a command or an option."""
MAX_CHOICES = 25
"""Discord's most choices of an option."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    kind: Kind
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    """The values Discord offers (and takes) for a text option; empty: any text."""


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    """Group first, as the handlers key it: ``gm create``, ``orders``."""
    description: str
    options: tuple[OptionSpec, ...] = ()

    @property
    def group(self) -> str | None:
        return self.name.split()[0] if " " in self.name else None

    @property
    def leaf(self) -> str:
        return self.name.split()[-1]


GROUPS = {"gm": "The GM's commands (the game's GM only)"}

_GAME = OptionSpec("game", "text", "The game (default: this channel's game, or your only game)")
_POWER = OptionSpec("power", "text", "The power (default: yours; the GM names one)")
_PHASE = OptionSpec("phase", "text", "A phase: its code (S1901M), label or number")


def _c(name: str, description: str, *options: OptionSpec) -> CommandSpec:
    return CommandSpec(name, description, options)


def bot_names() -> tuple[str, ...]:
    from ..sim.bots import bot_names as names

    return tuple(names())


def _describe(text: str, default: object = None) -> str:
    """A table's help as a Discord description: capitalised, the default named,
    at most :data:`MAX_DESCRIPTION` characters."""
    text = text[:1].upper() + text[1:]
    if default is not None and "default" not in text:
        text += f" (default: {default})"
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"


def _option(param: Param) -> OptionSpec:
    """An action's argument as a slash-command option of the same name."""
    choices = param.choices or (bot_names() if param.kind == "bot" else ())
    return OptionSpec(param.name, "text", _describe(param.help, param.default),
                      param.required, choices if len(choices) <= MAX_CHOICES else ())


def action_spec(action: GMAction) -> CommandSpec:
    """``/gm <action>``, made from the service's table; required options first
    (Discord's order), then the game."""
    options = [_option(p) for p in action.params]
    if any(o.name == _GAME.name for o in options):  # pragma: no cover - a table's mistake
        raise ValueError(f"the action {action.name} has an argument named game")
    options.sort(key=lambda o: not o.required)
    return CommandSpec(f"gm {action.name}", _describe(action.summary), (*options, _GAME))


PLAYER_COMMANDS: tuple[CommandSpec, ...] = (
    _c("orders", "Send orders and DP allocations (separate lines with ';'); "
       "only you and the GM see them",
       OptionSpec("text", "text", "Orders and DP, e.g. F Asg - Ida; 2 DP to F Permyak H", True),
       _GAME, _POWER, _PHASE),
    _c("check", "Check orders without sending them (only you see the answer)",
       OptionSpec("text", "text", "Orders and DP, lines separated by ';'", True), _GAME, _POWER),
    _c("myorders", "Your standing orders, DP allocations and the check of them (private)",
       _GAME, _POWER),
    _c("template", "Your units and what each may do this phase (private)", _GAME, _POWER),
    _c("map", "The map as a PNG (with orders: the results, or your own orders now)",
       _PHASE, OptionSpec("orders", "bool", "Draw the orders too"), _GAME, _POWER),
    _c("status", "The turn at a glance: centres, DP, who has not sent orders", _GAME),
    _c("results", "The results post of a processed phase", _PHASE, _GAME),
    _c("rules", "The rules in force, house rules marked", _GAME),
    _c("draw", "Vote on a draw (secret ballot: only the tally is public)",
       OptionSpec("vote", "bool", "yes: for a draw; no: against", True), _GAME, _POWER),
    _c("ready", "Say you are done with this phase (or not)",
       OptionSpec("value", "bool", "yes: ready; no: not ready", True), _GAME, _POWER),
    _c("join", "Take your seat with the secret link the GM sent you (best in a DM to the bot)",
       OptionSpec("link", "text", "The link (or its token)", True),
       OptionSpec("game", "text", "The game, for the server's GM link only")),
    _c("help", "How to play a lawspeaker game here"),
)

DISCORD_GM_COMMANDS: tuple[CommandSpec, ...] = (
    _c("gm create", "Create a game, bound to this channel (needs Manage Server)",
       OptionSpec("variant", "text", "standard, s9-basic, s9-complete, ood, dissolution", True),
       OptionSpec("name", "text", "The game's name", True),
       OptionSpec("rules", "text", "House rules as key=value, separated by ',' "
                  "(default: review=yes)")),
    _c("gm bind", "Make this channel a game's public channel (results are posted here)",
       OptionSpec("game", "text", "The game", True)),
    _c("gm unbind", "This channel no longer serves its game"),
    _c("gm private", "Make this channel (hidden from @everyone) a power's private channel",
       OptionSpec("power", "text", "The power", True), _GAME),
    _c("gm seat", "Seat a Discord user on a power (replaces its player)",
       OptionSpec("power", "text", "The power", True),
       OptionSpec("user", "user", "The player", True), _GAME),
    _c("gm cogm", "Make a Discord user a GM of the game too",
       OptionSpec("user", "user", "The co-GM", True), _GAME),
    _c("gm orders", "A power's standing orders and DP (or every power's), privately",
       OptionSpec("power", "text", "The power (default: every power)"), _GAME),
    _c("gm preview", "The results waiting for your review, with their map (only you see them)",
       _GAME),
)
"""The GM's commands Discord alone has: no action of the service's table."""

ACTION_COMMANDS: dict[str, str] = {f"gm {name}": name for name in ACTIONS}
"""``/gm <action>`` -> the action of the service's table it runs."""

COMMANDS: tuple[CommandSpec, ...] = (
    *PLAYER_COMMANDS, *DISCORD_GM_COMMANDS, *(action_spec(a) for a in ACTIONS.values()))
"""Every slash command: the players', the GM's Discord-only ones, the GM's actions."""

_clash = {c.name for c in DISCORD_GM_COMMANDS} & set(ACTION_COMMANDS)
if _clash:  # pragma: no cover - a new action named as a Discord-only command
    raise RuntimeError(f"commands named twice: {sorted(_clash)}")
