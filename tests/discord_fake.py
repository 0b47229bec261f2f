"""A fake Discord server for the bot's handlers: who can read each channel,
and where each reply lands.

It delivers replies as the glue (lawspeaker.discord.bot.Sender) does: an
ephemeral answer to a slash command is read by its user alone; a plain
answer by everyone who can read the channel; a reply aimed at a channel by
that channel's readers, at a user by that user; an answer to a message in
the message's channel, unless it is a secret the handler marked ephemeral
(then the glue DMs it to the author). Every delivery is logged with its
readers, so a test can ask who has read what.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lawspeaker.discord.handlers import Handlers
from lawspeaker.discord.herald import Herald
from lawspeaker.discord.interaction import Attachment, Interaction, Member, Reply
from lawspeaker.service import GameService

GUILD = "1000"
AESIR_POST = "F Asg - Ida\n2 DP to F Permyak Marry Heir Asgard"
VANIR_POST = "F Noa - Lei\nA Van - Hin"
POSTS = {"alice": AESIR_POST, "bob": VANIR_POST}
POWERS = {"alice": "Aesir", "bob": "Vanir"}


@dataclass(frozen=True)
class Delivery:
    reply: Reply
    readers: frozenset[str]
    by: str
    """The command or ``message`` or ``herald``."""
    user: str = ""
    """Who asked (empty: the herald)."""


@dataclass
class FakeDiscord:
    service: GameService
    users: tuple[str, ...]
    admins: tuple[str, ...] = ("gm",)
    channels: dict[str, frozenset[str] | None] = field(default_factory=dict)
    """Channel id -> who may read it (None: everybody: a shared channel)."""
    log: list[Delivery] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.handlers = Handlers(self.service)
        self.herald = Herald(self.service, scheduler=True)
        self.handlers.after = self.herald.announce

    # --- the server -------------------------------------------------------------------

    def shared(self, channel: str) -> str:
        self.channels[channel] = None
        return channel

    def private(self, channel: str, *readers: str) -> str:
        self.channels[channel] = frozenset(readers)
        return channel

    @staticmethod
    def dm(user: str) -> str:
        return f"dm-{user}"

    def readers(self, channel: str) -> frozenset[str]:
        if channel.startswith("dm-"):
            return frozenset({channel[3:]})
        seen = self.channels[channel]
        return frozenset(self.users) if seen is None else seen

    def _inter(self, user: str, channel: str, **kw: Any) -> Interaction:
        dm = channel.startswith("dm-")
        visibility = "dm" if dm else ("shared" if self.channels[channel] is None else "private")
        return Interaction(user=user, user_name=user.title(), channel=channel,
                           guild="" if dm else GUILD, visibility=visibility,
                           may_manage=user in self.admins and not dm, **kw)

    # --- what users do ------------------------------------------------------------------

    def slash(self, user: str, channel: str, command: str, /,
              **options: Any) -> list[Delivery]:
        options = {k: (Member(v[1:], v[1:].title()) if isinstance(v, str) and
                       v.startswith("@") else v) for k, v in options.items()}
        inter = self._inter(user, channel, command=command, options=options)
        return self._deliver(inter, self.handlers.command(inter), command, message=False)

    def say(self, user: str, channel: str, text: str,
            files: tuple[Attachment, ...] = ()) -> list[Delivery]:
        inter = self._inter(user, channel, text=text, attachments=files)
        return self._deliver(inter, self.handlers.message(inter), "message", message=True)

    def tick(self, at: datetime | None = None) -> list[Delivery]:
        out = [self._aimed(reply, "herald") for reply in self.herald.tick(at)]
        self.log += out
        return out

    # --- delivery -----------------------------------------------------------------------

    def _deliver(self, inter: Interaction, replies: list[Reply], by: str,
                 message: bool) -> list[Delivery]:
        out = []
        for reply in replies:
            if not reply.in_place:
                out.append(self._aimed(reply, by))
            elif message:
                readers = frozenset({inter.user}) if reply.secret and reply.ephemeral \
                    else self.readers(inter.channel)
                out.append(Delivery(reply, readers, by))
            else:
                readers = frozenset({inter.user}) if reply.ephemeral \
                    else self.readers(inter.channel)
                out.append(Delivery(reply, readers, by))
        out = [Delivery(x.reply, x.readers, x.by, inter.user) for x in out]
        self.log += out
        return out

    def _aimed(self, reply: Reply, by: str) -> Delivery:
        if reply.channel is not None:
            return Delivery(reply, self.readers(reply.channel), by)
        return Delivery(reply, frozenset({reply.user or ""}), by)

    def seen_by(self, user: str) -> str:
        """Everything ``user`` has read, as one text."""
        return "\n".join(d.reply.content for d in self.log if user in d.readers)


def text(deliveries: list[Delivery]) -> str:
    return "\n".join(d.reply.content for d in deliveries)


def saga(service: GameService, rules: str | None = None) -> FakeDiscord:
    """Saga, created from Discord: the GM, Aesir (alice) and Vanir (bob), each
    with a private channel, and carol, who only watches. ``rules``: the
    ``/gm create`` option (default: none, so the GM reviews results before
    they are published, as in every game made on Discord)."""
    discord = FakeDiscord(service, users=("gm", "alice", "bob", "carol"))
    discord.shared("saga")
    discord.private("aesir", "alice", "gm")
    discord.private("vanir", "bob", "gm")
    extra = {} if rules is None else {"rules": rules}
    assert "is created" in text(discord.slash("gm", "saga", "gm create", variant="s9-complete",
                                              name="Saga", **extra))
    discord.slash("gm", "saga", "gm seat", power="Aesir", user="@alice")
    discord.slash("gm", "saga", "gm seat", power="Vanir", user="@bob")
    discord.slash("gm", "aesir", "gm private", power="Aesir", game="Saga")
    discord.slash("gm", "vanir", "gm private", power="Vanir", game="Saga")
    discord.log.clear()
    return discord
