"""The slash commands: names, descriptions and options, as plain data.

The glue (:mod:`.bot`) registers exactly these with Discord, and the
handlers (:mod:`.handlers`) answer exactly these, so the two cannot drift
apart (a test checks every command has a handler and the reverse). Commands
of the ``gm`` group are the GM's: the handlers refuse them to anyone the
service does not take for the game's GM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["COMMANDS", "GROUPS", "CommandSpec", "OptionSpec"]

Kind = Literal["text", "int", "bool", "user"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    kind: Kind
    description: str
    required: bool = False


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


COMMANDS: tuple[CommandSpec, ...] = (
    # --- players ----------------------------------------------------------------------
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
    _c("draw", "Vote on a draw (secret ballot: only the tally is public)",
       OptionSpec("vote", "bool", "yes: for a draw; no: against", True), _GAME, _POWER),
    _c("ready", "Say you are done with this phase (or not)",
       OptionSpec("value", "bool", "yes: ready; no: not ready", True), _GAME, _POWER),
    _c("join", "Take your seat with the secret link the GM sent you (best in a DM to the bot)",
       OptionSpec("link", "text", "The link (or its token)", True),
       OptionSpec("game", "text", "The game, for the server's GM link only")),
    _c("help", "How to play a lawspeaker game here"),
    # --- the GM ----------------------------------------------------------------------
    _c("gm create", "Create a game, bound to this channel (needs Manage Server)",
       OptionSpec("variant", "text", "standard, s9-basic, s9-complete, ood, dissolution", True),
       OptionSpec("name", "text", "The game's name", True),
       OptionSpec("rules", "text", "House rules as key=value, separated by ','")),
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
    _c("gm deadline", "Set how long each phase runs (0: no deadline), grace and time zone",
       OptionSpec("hours", "int", "Hours a phase runs; 0: the GM processes by hand", True),
       OptionSpec("grace", "int", "Minutes late orders are still awaited"),
       OptionSpec("timezone", "text", "Where deadlines are read, e.g. Europe/Berlin"), _GAME),
    _c("gm extend", "Move the deadline later",
       OptionSpec("hours", "int", "By how many hours", True), _GAME),
    _c("gm pause", "Pause the game (the deadline stops)", _GAME),
    _c("gm resume", "Resume a paused game", _GAME),
    _c("gm process", "Adjudicate the phase now; results and map are posted", _PHASE, _GAME),
    _c("gm rollback", "Roll back to an earlier phase (default: the one before)",
       OptionSpec("to", "text", "The phase to go back to"), _GAME),
    _c("gm eliminate", "A dropped player's power is eliminated at the next Census (S9 §3.4.2)",
       OptionSpec("power", "text", "The power", True), _GAME),
    _c("gm exile", "Remove a Player in Exile from the game (Dissolution §5.3)",
       OptionSpec("power", "text", "The power", True), _GAME),
    _c("gm rule", "Set a house rule (without key: list the rules in force)",
       OptionSpec("key", "text", "The option"), OptionSpec("value", "text", "Its value"), _GAME),
    _c("gm drawrule", "How draw votes pass: none, unanimous or majority",
       OptionSpec("rule", "text", "none, unanimous or majority", True), _GAME),
    _c("gm orders", "A power's standing orders and DP (or every power's), privately",
       OptionSpec("power", "text", "The power (default: every power)"), _GAME),
    _c("gm reveal", "After the game: reveal every DP allocation (S9 §9.0)", _GAME),
    _c("gm bot", "Give a power's seat to a bot until a player is seated (docs/bots.md)",
       OptionSpec("power", "text", "The power", True),
       OptionSpec("bot", "text", "random, hold or tactician (default: tactician)"), _GAME),
)
