"""The discord.py glue: thin, and the only module that imports discord.py.

:func:`build_tree` registers every command of :data:`.commands.COMMANDS` on
an ``app_commands.CommandTree``; each callback turns Discord's interaction
into an :class:`~.interaction.Interaction` (:func:`interaction_of`), runs the
handler in a worker thread (the service is synchronous) and sends its
replies (:class:`Sender`). Messages go the same way through
:meth:`.handlers.Handlers.message`, and the herald's posts from a loop.

Every slash command is deferred *ephemeral* at once (Discord wants an answer
within three seconds; processing and maps take longer): what only the user
may see follows in that ephemeral answer, and what everybody may see is
posted in the channel as a message of its own. A reply is never made less
private than the handler said.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from .commands import COMMANDS, GROUPS, CommandSpec
from .context import MAX_POST
from .handlers import Handlers
from .herald import Herald
from .interaction import Attachment, Interaction, Member, Reply, Visibility
from .text import chunks

__all__ = ["LawspeakerBot", "build_tree", "interaction_of", "visibility_of"]

log = logging.getLogger("lawspeaker.discord")

_TYPES: dict[str, Any] = {"text": str, "int": int, "bool": bool, "user": discord.User}

Run = Callable[[discord.Interaction, CommandSpec, dict[str, Any]], Awaitable[None]]


def _callback(spec: CommandSpec, run: Run) -> Callable[..., Awaitable[None]]:
    """A coroutine with the command's options as typed parameters, which is
    how discord.py reads a command's options."""

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        await run(interaction, spec, options)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    for option in spec.options:
        kind = _TYPES[option.kind]
        params.append(inspect.Parameter(
            option.name, inspect.Parameter.KEYWORD_ONLY,
            annotation=kind if option.required else kind | None,
            default=inspect.Parameter.empty if option.required else None))
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = spec.leaf
    callback.__qualname__ = spec.leaf
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        o.name: o.description[:100] for o in spec.options}
    callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        o.name: [app_commands.Choice(name=c, value=c) for c in o.choices]
        for o in spec.options if o.choices}
    return callback


def build_tree(client: discord.Client, run: Run) -> app_commands.CommandTree:
    """The command tree with every command and group of :data:`COMMANDS`."""
    tree = app_commands.CommandTree(client)
    groups = {name: app_commands.Group(name=name, description=text)
              for name, text in GROUPS.items()}
    for spec in COMMANDS:
        command = app_commands.Command(name=spec.leaf, description=spec.description[:100],
                                       callback=_callback(spec, run))
        if spec.group is not None:
            groups[spec.group].add_command(command)
        else:
            tree.add_command(command)
    for group in groups.values():
        tree.add_command(group)
    return tree


def visibility_of(channel: object, guild: discord.Guild | None) -> Visibility:
    """A DM; a channel @everyone cannot see and no role is let into (members are
    let in one by one), or a private thread; else shared. Anything the bot
    cannot tell counts as shared."""
    if guild is None or isinstance(channel, discord.DMChannel):
        return "dm"
    if isinstance(channel, discord.Thread):
        return "private" if channel.type is discord.ChannelType.private_thread else "shared"
    if isinstance(channel, discord.abc.GuildChannel):
        if channel.permissions_for(guild.default_role).view_channel:
            return "shared"
        for target, overwrite in channel.overwrites.items():
            # a role may be every player; only members named one by one keep it private
            if isinstance(target, discord.Role) and target != guild.default_role and \
                    overwrite.view_channel:
                return "shared"
        return "private"
    return "shared"


def interaction_of(interaction: discord.Interaction, spec: CommandSpec,
                   options: dict[str, Any]) -> Interaction:
    """Discord's interaction as the handlers' plain value."""
    guild = interaction.guild
    channel = interaction.channel
    if guild is not None and interaction.channel_id is not None:
        channel = guild.get_channel_or_thread(interaction.channel_id) or channel
    return Interaction(
        user=str(interaction.user.id), user_name=interaction.user.display_name,
        channel=str(interaction.channel_id or ""), guild=str(guild.id) if guild else "",
        visibility=visibility_of(channel, guild), command=spec.name,
        options={name: _plain(value) for name, value in options.items()},
        may_manage=bool(guild is not None and interaction.permissions.manage_guild))


def _plain(value: Any) -> Any:
    if isinstance(value, discord.User | discord.Member):
        return Member(str(value.id), value.display_name)
    return value


def _files(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(f.data), filename=f.filename) for f in reply.files]


class Sender:
    """Sends replies: in answer to an interaction or a message, to a channel, to a user."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def to_interaction(self, interaction: discord.Interaction,
                             replies: list[Reply]) -> None:
        answered = False
        for reply in replies:
            if not reply.in_place:
                await self.aimed(reply)
            elif reply.ephemeral:
                await self._pieces(reply, lambda text, files: interaction.followup.send(
                    text, files=files, ephemeral=True))
                answered = True
            else:
                channel = interaction.channel
                if not isinstance(channel, discord.abc.Messageable):
                    continue
                await self._pieces(reply, lambda text, files, ch=channel: ch.send(
                    text, files=files))
        if not answered:
            await interaction.delete_original_response()

    async def to_message(self, message: discord.Message, replies: list[Reply]) -> None:
        for reply in replies:
            if not reply.in_place:
                await self.aimed(reply)
            elif reply.secret and reply.ephemeral:  # never more public than asked: a DM
                await self._pieces(reply, lambda text, files: message.author.send(
                    text, files=files))
            else:
                await self._pieces(reply, lambda text, files: message.reply(
                    text, files=files, mention_author=False))

    async def aimed(self, reply: Reply) -> None:
        """A reply to a given channel or a user's DMs (the herald's posts)."""
        try:
            if reply.channel is not None:
                target: Any = self.client.get_channel(int(reply.channel)) or \
                    await self.client.fetch_channel(int(reply.channel))
            else:
                target = await self.client.fetch_user(int(reply.user or 0))
            await self._pieces(reply, lambda text, files: target.send(text, files=files))
        except discord.DiscordException as exc:
            log.warning("could not post to %s: %s", reply.channel or reply.user, exc)

    @staticmethod
    async def _pieces(reply: Reply, send: Callable[[str, list[discord.File]],
                                                   Awaitable[Any]]) -> None:
        parts = chunks(reply.content)
        for number, part in enumerate(parts):
            last = number == len(parts) - 1
            await send(part, _files(reply) if last else [])


class LawspeakerBot(discord.Client):
    """The bot: the command tree, messages, and the herald's loop."""

    def __init__(self, handlers: Handlers, herald: Herald, tick: float = 15.0,
                 guild: int | None = None) -> None:
        intents = discord.Intents.default()
        intents.message_content = True  # orders pasted in DMs and private channels
        super().__init__(intents=intents)
        self.handlers = handlers
        self.herald = herald
        self.tick = tick
        self.guild_id = guild
        self.sender = Sender(self)
        self.tree = build_tree(self, self._run)
        handlers.after = herald.announce

    async def setup_hook(self) -> None:
        if self.guild_id is not None:  # one server: the commands appear at once
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.loop.create_task(self._herald_loop())

    async def _run(self, interaction: discord.Interaction, spec: CommandSpec,
                   options: dict[str, Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        inter = interaction_of(interaction, spec, options)
        replies = await asyncio.to_thread(self.handlers.command, inter)
        await self.sender.to_interaction(interaction, replies)

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        files = tuple([Attachment(a.filename, await a.read()) for a in message.attachments
                       if a.filename.endswith(".txt") and a.size <= MAX_POST][:1])
        if not message.content and not files:
            return
        guild = message.guild
        inter = Interaction(
            user=str(message.author.id), user_name=message.author.display_name,
            channel=str(message.channel.id), guild=str(guild.id) if guild else "",
            visibility=visibility_of(message.channel, guild), text=message.content,
            attachments=files)
        replies = await asyncio.to_thread(self.handlers.message, inter)
        await self.sender.to_message(message, replies)

    async def _herald_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                replies = await asyncio.to_thread(self.herald.tick)
                for reply in replies:
                    await self.sender.aimed(reply)
            except Exception:  # the loop must go on; the log has it
                log.exception("the herald's tick failed")
            await asyncio.sleep(self.tick)
