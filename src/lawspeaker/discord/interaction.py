"""The values the Discord front end's handlers speak in, free of discord.py.

The glue (:mod:`.bot`) turns each slash command or message Discord sends into
an :class:`Interaction` and sends back each :class:`Reply` a handler returns;
the handlers (:mod:`.handlers`, :mod:`.gm`) and the herald (:mod:`.herald`)
never see discord.py, so tests drive them with recorded interactions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["PLATFORM", "Attachment", "Interaction", "Member", "Reply", "Visibility"]

PLATFORM = "discord"
"""The name that keeps Discord's ids apart in the store's chat bindings."""

Visibility = Literal["dm", "private", "shared"]
"""Where a command was used: a DM with the bot; a channel @everyone cannot see
(a player's private channel, a GM's channel); any other channel."""


@dataclass(frozen=True)
class Interaction:
    """One slash command (``command`` set) or one message (``text`` set)."""

    user: str
    """The Discord user's id (a snowflake, as text)."""
    user_name: str
    channel: str
    guild: str = ""
    """The server's id; empty in a DM."""
    visibility: Visibility = "shared"
    command: str = ""
    """The slash command, its group first: ``gm create``, ``orders``."""
    options: dict[str, Any] = field(default_factory=dict)
    """The options as given: text, numbers, flags; a user option is a :class:`Member`."""
    text: str = ""
    """A message's content (orders pasted as on a forum)."""
    attachments: tuple[Attachment, ...] = ()
    may_manage: bool = False
    """The user may manage the server (Discord's Manage Server permission):
    may create games and bind channels of new games."""

    @property
    def is_dm(self) -> bool:
        return self.visibility == "dm"


@dataclass(frozen=True)
class Member:
    """A Discord user named in an option (``/gm seat power:Aesir user:@alice``)."""

    id: str
    name: str


@dataclass(frozen=True)
class Attachment:
    """A file to send with a reply (a map PNG), or one a user sent."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Reply:
    """What to send: in answer to the interaction (``channel`` and ``user``
    None), to another channel (``channel``), or to a user's DMs (``user``).
    ``ephemeral``: only the interacting user sees it (slash commands only;
    the glue never sends an ephemeral reply anywhere else)."""

    content: str
    ephemeral: bool = False
    files: tuple[Attachment, ...] = ()
    channel: str | None = None
    user: str | None = None
    secret: bool = False
    """It holds orders, DP or a ballot: the handlers send it only where its
    power's player (and the GM) alone can read it. Checked by the tests."""

    @property
    def in_place(self) -> bool:
        return self.channel is None and self.user is None
