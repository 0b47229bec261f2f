"""``lawspeaker discord``: the Discord bot on the store (docs/discord.md).

It talks to the same database and game service as ``lawspeaker serve``; both
may run at once. The bot's token comes from ``$LAWSPEAKER_DISCORD_TOKEN``
(never a command-line argument, which other users of the machine can read);
without it the command says how to make a bot and invite it, and exits.
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta

import click

from .root import main

__all__ = ["TOKEN_ENV", "discord_bot"]

TOKEN_ENV = "LAWSPEAKER_DISCORD_TOKEN"

HOW_TO = f"""no bot token: set {TOKEN_ENV} to your bot's token.

To make a bot and invite it (docs/discord.md has the whole walkthrough):
  1. https://discord.com/developers/applications -> New Application; on its Bot page
     press Reset Token and copy the token (keep it secret, like a password).
  2. On the Bot page, switch on the Message Content Intent (the bot reads orders
     pasted in DMs and players' private channels).
  3. OAuth2 -> URL Generator: scopes 'bot' and 'applications.commands'; bot
     permissions View Channels, Send Messages, Send Messages in Threads,
     Attach Files, Read Message History. Open the URL it makes and pick your server.
  4. {TOKEN_ENV}=... lawspeaker discord --guild YOUR_SERVER_ID"""


@main.command("discord")
@click.option("--db", envvar="LAWSPEAKER_DB", metavar="PATH|URL",
              help="The database (default: $LAWSPEAKER_DB, else lawspeaker.db here).")
@click.option("--guild", type=int, default=None, metavar="ID",
              help="Register the commands in this server only (they appear at once; "
                   "without it they are global and may take a while to appear).")
@click.option("--tick", default=15.0, show_default=True,
              help="Seconds between looks for results to post, reminders and deadlines.")
@click.option("--remind-hours", default=12.0, show_default=True,
              help="Remind players without orders this long before the deadline (at most "
                   "a quarter of the phase).")
@click.option("--no-scheduler", is_flag=True,
              help="Leave deadlines to 'lawspeaker serve' (by default the bot processes "
                   "due games too; running both is safe).")
def discord_bot(db: str | None, guild: int | None, tick: float, remind_hours: float,
                no_scheduler: bool) -> None:
    """Run the Discord bot: games in Discord channels, on the same database."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise click.ClickException(HOW_TO)
    try:
        from ..discord.bot import LawspeakerBot
    except ImportError:
        raise click.ClickException("the Discord bot needs discord.py: pip install "
                                   "'lawspeaker[discord]'") from None
    import discord

    from ..discord.handlers import Handlers
    from ..discord.herald import Herald
    from ..service import GameService  # the store and service load only when run
    from ..store import StoreError, database_url, open_store

    try:
        store = open_store(db)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    service = GameService(store)
    herald = Herald(service, remind_before=timedelta(hours=remind_hours),
                    scheduler=not no_scheduler)
    bot = LawspeakerBot(Handlers(service), herald, tick=tick, guild=guild)
    click.echo(f"Discord bot on {database_url(db).split('@')[-1]} (Ctrl+C stops)")
    try:
        bot.run(token, log_level=logging.INFO)
    except discord.LoginFailure:
        raise click.ClickException(f"Discord refused the token in {TOKEN_ENV} (reset it on "
                                   "the bot's page and try again)") from None
    except discord.PrivilegedIntentsRequired:
        raise click.ClickException("switch on the Message Content Intent on the bot's page "
                                   "(Discord developer portal -> your application -> Bot)"
                                   ) from None
    finally:
        store.close()
