"""The bot's answers: every slash command and every message, as plain code.

:class:`Handlers` takes an :class:`~.interaction.Interaction` and returns the
:class:`~.interaction.Reply` values to send; it holds the game service and
nothing of discord.py. It finds the game a command is about (the ``game``
option, the channel's game, or the user's only game), asks the service who
the user is in it (:meth:`GameService.chat_viewer`: the GM, a power's player
or the public) and hands the command to its function in :mod:`.player` or
:mod:`.gm`. Every refusal is one line for the user, never a traceback.

Secrecy, as on the web: orders, DP and ballots go only to a DM, to the
power's private channel, or in an ephemeral reply (:meth:`Context.secret`).
A message is read as orders only in a DM or a power's private channel, and
only when its first line starts with ``orders`` or it is a code block; any
other message is conversation and left alone.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from limits import parse, storage, strategies

from ..service import PUBLIC, GameService, ServiceError
from ..service.actions import ACTIONS
from ..store import StoreBusy
from ..variants import VariantError
from . import gm, player
from .commands import COMMANDS
from .context import MAX_POST, Context, Handler, Refused
from .interaction import PLATFORM, Interaction, Reply

__all__ = ["Handlers", "orders_body"]

log = logging.getLogger("lawspeaker.discord")

THROTTLED = frozenset({"orders", "check"})
CHANGES_PHASE = frozenset(f"gm {a.name}" for a in ACTIONS.values()
                          if a.history in ("processed", "undone"))
"""The GM's actions that may change the game's phase (process, publish, undo):
the herald's announcement follows at once."""
SENDS = "30/minute"
"""Posts one user may send or check (messages, /orders, /check) in any moving minute."""


class Handlers:
    """Answer interactions and messages over one game service."""

    def __init__(self, service: GameService, sends: str = SENDS) -> None:
        self.service = service
        self.table: dict[str, Handler] = {**player.HANDLERS, **gm.HANDLERS}
        self.before_game = gm.BEFORE_GAME
        missing = {c.name for c in COMMANDS} ^ (set(self.table) | set(self.before_game) | {"help"})
        if missing:  # pragma: no cover - caught by the tests
            raise RuntimeError(f"commands and handlers disagree: {sorted(missing)}")
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._sends = parse(sends)
        self.after: Callable[[str], list[Reply]] | None = None
        """Called with a game's name after a command changed its phase (the
        herald's announcement, so results appear at once)."""

    # --- slash commands -----------------------------------------------------------------

    def command(self, inter: Interaction) -> list[Reply]:
        """The replies to one slash command."""
        early = self.before_game.get(inter.command)
        if early is not None:
            return self._guarded(inter, lambda: early(self.service, inter))
        if inter.command == "help":
            return [Reply(HELP, ephemeral=not inter.is_dm)]
        handler = self.table.get(inter.command)
        if handler is None:
            return [Reply(f"unknown command /{inter.command}", ephemeral=True)]

        def run() -> list[Reply]:
            ctx = self.context(inter)
            if inter.command in THROTTLED:
                self.throttle(ctx.game, inter.user)
            replies = handler(ctx)
            if inter.command in CHANGES_PHASE and self.after is not None:
                replies += self.after(ctx.game)
            return replies

        return self._guarded(inter, run)

    def context(self, inter: Interaction, game: str | None = None) -> Context:
        """The game a command is about and who the user is in it."""
        binding = self.service.channel(PLATFORM, inter.channel) if inter.channel else None
        named = game or inter.options.get("game")
        if named:
            name = str(named).strip()
        elif binding is not None:
            name = binding.game
        else:
            name = self._only_game(inter.user)
        info = self.service.game(name, actor=PUBLIC)  # NotFound: "no game named ..."
        if binding is not None and binding.game != info.name:
            binding = None
        viewer = self.service.chat_viewer(PLATFORM, inter.user, info.name)
        return Context(inter, self.service, info.name, viewer, binding)

    def _only_game(self, user: str) -> str:
        seats = self.service.chat_seats(PLATFORM, user)
        names = sorted({seat.game for seat in seats})
        if len(names) == 1:
            return names[0]
        if not names:
            raise Refused("this channel serves no game, and you hold no seat in one: name "
                          "the game (option game)")
        raise Refused("you are in several games (" + ", ".join(names) + "): name one "
                      "(option game)")

    # --- messages -----------------------------------------------------------------------

    def message(self, inter: Interaction) -> list[Reply]:
        """A message: orders pasted in a DM or a power's private channel, else nothing."""
        text = inter.text or "\n".join(  # a long post: Discord sends it as message.txt
            a.data.decode("utf-8", "replace") for a in inter.attachments
            if a.filename.endswith(".txt") and len(a.data) <= MAX_POST)
        body = orders_body(text)
        if body is None:
            return []
        if inter.is_dm:
            return self._guarded(inter, lambda: self._dm_orders(inter, body))
        binding = self.service.channel(PLATFORM, inter.channel)
        if binding is None or binding.power is None or inter.visibility != "private":
            return []  # never read orders where others can see them
        return self._guarded(inter, lambda: self._submit(
            self.context(inter), binding.power or "", body))

    def _dm_orders(self, inter: Interaction, body: str) -> list[Reply]:
        first, _, rest = body.partition("\n")
        game = None
        if first.lower().startswith("game") and ":" in first:
            game, body = first.split(":", 1)[1].strip(), rest
        ctx = self.context(inter, game)
        return self._submit(ctx, ctx.power(), body)

    def _submit(self, ctx: Context, power: str, body: str,
                phase: str | None = None) -> list[Reply]:
        from .text import report_text

        if len(body) > MAX_POST:
            raise Refused(f"a post may be at most {MAX_POST} characters; nothing was kept")
        self.throttle(ctx.game, ctx.inter.user)
        report = ctx.service.submit(ctx.game, power, body, actor=ctx.viewer, phase=phase)
        return [ctx.secret(report_text(report), report.power)]

    def throttle(self, game: str, user: str) -> None:
        if self._limiter.hit(self._sends, "send", game, user):
            return
        reset = self._limiter.get_window_stats(self._sends, "send", game, user).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise Refused(f"too many posts in a short time (at most {self._sends.amount} a "
                      f"minute); nothing was kept, try again in {wait} s")

    # --- errors -------------------------------------------------------------------------

    def _guarded(self, inter: Interaction, call: Callable[[], list[Reply]]) -> list[Reply]:
        try:
            return call()
        except StoreBusy as exc:
            return [_error(inter, str(exc))]
        except (ServiceError, VariantError) as exc:
            return [_error(inter, str(exc))]
        except Exception:
            log.exception("/%s by %s failed", inter.command or "message", inter.user)
            return [_error(inter, "something went wrong on the bot's side; nothing more is "
                                  "known here (the bot's log has the details)")]


def _error(inter: Interaction, message: str) -> Reply:
    return Reply(f"Error: {message}", ephemeral=not inter.is_dm)


def orders_body(text: str) -> str | None:
    """The orders in a message, or None if it is not an orders post: its first
    line starts with ``orders`` (the rest of that line is a title), or it is a
    code block (``` ... ```)."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and len(stripped) > 6:
        inner = stripped[3:-3].lstrip("\n")
        first, _, rest = inner.partition("\n")
        return rest if first.strip().isalpha() and rest else inner  # ```text fences
    first, _, rest = stripped.partition("\n")
    if first.lower().startswith("orders"):
        return rest
    return None


HELP = """**lawspeaker** runs Diplomacy variant games here.
Players: paste your orders and DP allocations in your private channel or a DM to the bot, \
as on a forum, with `orders` on the first line (or the whole post in a code block); every \
line is checked at once and only you and the GM see the answer. Or use `/orders` (lines \
separated by `;`), `/check`, `/myorders`, `/template`, `/map`, `/status`, `/results`, \
`/draw`, `/ready`, `/rules`.
GM: `/gm create`, `/gm seat`, `/gm private`, `/gm schedule`, `/gm process` (with review: \
only you see the results), `/gm publish`, … (docs/discord.md)."""
