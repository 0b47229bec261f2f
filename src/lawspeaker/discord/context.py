"""A command's situation (:class:`Context`): who asks, where, about which
game and as whom, and where its answer may be shown.

Secrecy, as on the web: orders, DP and ballots go only to a DM, to the
power's private channel, or in an ephemeral reply (:meth:`Context.secret`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..service import GameService, ServiceError, Viewer
from ..service.chat import ChannelBinding
from .interaction import Attachment, Interaction, Reply

__all__ = ["MAX_POST", "Context", "Handler", "Refused", "with_lines"]

MAX_POST = 20_000
"""The longest post of orders taken (a long Dissolution post is a few thousand)."""


class Refused(ServiceError):
    """A request the bot itself refuses (no game here, not a private channel, ...)."""


@dataclass(frozen=True)
class Context:
    """One command's situation: who, where, which game, and as whom."""

    inter: Interaction
    service: GameService
    game: str
    viewer: Viewer
    binding: ChannelBinding | None
    """The channel's binding, when the channel serves this game."""

    def option(self, name: str, default: object = None) -> object:
        value = self.inter.options.get(name)
        return default if value is None or value == "" else value

    def power(self) -> str:
        """The power a player command is for: the player's own; the GM names one."""
        named = self.option("power")
        if self.viewer.power is not None:
            if named and str(named).strip().lower() != self.viewer.power.lower():
                raise Refused(f"you play {self.viewer.power}, not {named}")
            return self.viewer.power
        if self.viewer.gm:
            if named:
                return str(named)
            if self.binding is not None and self.binding.power:
                return self.binding.power
            raise Refused("name the power (option power)")
        raise Refused(f"you hold no seat in {self.game}; the GM seats players with /gm seat")

    def private_to(self, power: str | None) -> bool:
        """Whether a plain reply here is read only by ``power``'s player and the
        GM (``power`` None: by the GM alone)."""
        if self.inter.is_dm:
            return True
        return (power is not None and self.inter.visibility == "private"
                and self.binding is not None and self.binding.power == power)

    def secret(self, content: str, power: str | None,
               files: tuple[Attachment, ...] = ()) -> Reply:
        """A reply holding ``power``'s secrets (``power`` None: the GM's alone, such
        as every power's orders or a preview): plain where only its player and
        the GM read it, else ephemeral (a message, never ephemeral, is only
        handled where it is private)."""
        return Reply(content, ephemeral=not self.private_to(power), secret=True, files=files)

    def note(self, content: str) -> Reply:
        """A reply for the user alone that holds no secret (an acknowledgement)."""
        return Reply(content, ephemeral=not self.inter.is_dm)


Handler = Callable[[Context], list[Reply]]


def with_lines(text: str) -> str:
    """A one-line slash option as a post: ``;`` separates lines."""
    return "\n".join(part.strip() for part in text.split(";"))
