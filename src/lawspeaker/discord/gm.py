"""The GM's slash commands (the ``gm`` group), and ``/join``.

Every action of the service's table (:data:`lawspeaker.service.actions.ACTIONS`)
is the command ``/gm <action>`` (:mod:`.commands`), answered by one function,
:func:`action`: it hands the command's options, as given, to
:meth:`GameService.act`, which refuses anyone but the game's GM before it
reads an argument, checks each argument and answers in the sentence every
front end gives. The other functions here are the commands Discord alone
has: making a game here, binding channels and users to it, the GM's view of
orders and of a preview.

Who may do what is the service's decision, never this module's: each command
here makes a service call that refuses a user who is not the game's GM, and
a refused command changes nothing. Two commands come before a game has a GM
here: ``/gm create`` (a member Discord lets manage the server creates a game
and becomes its GM) and ``/join`` (a secret link from the web, a power's or
the GM's, gives its seat to the Discord user who redeems it: one identity
model for both front ends).

With the house rule ``review=yes`` (the default of games made here),
``/gm process`` adjudicates into a preview: the answer, with its secret DP
section and its map, goes to the GM alone (:meth:`Context.secret` with no
power); ``/gm publish`` makes it the next phase, and the herald posts the
results as for any processed phase.
"""

from __future__ import annotations

from collections.abc import Callable

from ..service import GM, PUBLIC, Forbidden, GameService
from ..service.house_rules import review_on
from ..service.review import Preview
from ..variants import available_variants
from .commands import ACTION_COMMANDS
from .context import Context, Handler, Refused
from .interaction import PLATFORM, Attachment, Interaction, Member, Reply
from .player import MAP_WIDTH
from .text import publish_time, report_text

__all__ = ["ANNOUNCED", "BEFORE_GAME", "HANDLERS", "action", "create", "join"]

ANNOUNCED = frozenset({"pause", "resume", "extend", "schedule", "draw-rule", "player", "bot",
                       "eliminate", "remove-exile", "rule", "reveal-dp"})
"""Actions whose answer is posted where the command was used, for the players to
read (a new deadline, a ruling). Any other action's answer is the GM's alone:
a processed or rolled-back phase is announced by the herald, a preview and a
secret link are secrets, and an action added to the table later stays quiet
until it is named here."""


def create(svc: GameService, inter: Interaction) -> list[Reply]:
    """A new game bound to this channel; its creator is its GM. Its results wait
    for the GM's review (``review=yes``) unless the rules given say ``review=no``."""
    if inter.is_dm or not inter.guild:
        raise Refused("create a game in a channel of your Discord server (it becomes the "
                      "game's public channel)")
    if not inter.may_manage:  # Discord's permission, not a seat in a game
        raise Forbidden("only members who may manage this server may create games")
    variant = str(inter.options.get("variant") or "").strip()
    if variant not in available_variants():
        raise Refused(f"unknown variant '{variant[:60]}': choose one of "
                      + ", ".join(available_variants()))
    rules = _pairs(str(inter.options.get("rules") or ""))
    rules.setdefault("review", "yes")
    name = str(inter.options.get("name") or "")
    if svc.channel(PLATFORM, inter.channel) is not None:
        raise Refused("this channel already serves a game (/gm unbind first)")
    info = svc.create_game(variant, name, rules=rules, actor=GM)
    svc.bind_member(PLATFORM, inter.user, info.name, "gm", actor=GM)
    svc.bind_channel(PLATFORM, inter.guild, inter.channel, info.name, actor=GM)
    review = ("Results wait for your review: `/gm process` shows them to you alone, "
              "`/gm publish` posts them here, `/gm discard` drops them (`/gm rule "
              "key:review value:no` publishes at once)." if review_on(rules) else
              "`/gm process` posts the results here at once.")
    return [Reply(f"**{info.name}** ({info.title}) is created; this channel is its public "
                  f"channel, <@{inter.user}> its GM. It starts in {info.phase}.\n"
                  "Next: `/gm seat` each power, `/gm private` in each player's private "
                  f"channel, `/gm schedule`. {review}")]


def join(svc: GameService, inter: Interaction) -> list[Reply]:
    """Redeem a secret link: its seat (a power, or GM) is the user's here."""
    token = str(inter.options.get("link") or "").strip().rstrip("/").rsplit("/", 1)[-1]
    grant = svc.redeem(token)  # NotFound: not valid
    game = grant.game or str(inter.options.get("game") or "").strip()
    if not game:
        raise Refused("this is the server's GM link: name the game too (option game)")
    svc.game(game, actor=PUBLIC)
    role = "gm" if grant.viewer.gm else str(grant.viewer.power)
    svc.bind_member(PLATFORM, inter.user, game, role, actor=GM)
    if role != "gm":
        svc.set_player(game, role, inter.user_name, actor=GM)
    seat = "the GM" if role == "gm" else role
    return [Reply(f"You are {seat} in {game} here now.", ephemeral=not inter.is_dm)]


# --- the service's GM actions ----------------------------------------------------------

def action(ctx: Context) -> list[Reply]:
    """Any ``/gm <action>`` of the service's table: the options as given (all but
    ``game``) are the action's raw arguments; the service checks who asks, then
    each argument, and answers."""
    name = ACTION_COMMANDS[ctx.inter.command]
    raw = {key: value for key, value in ctx.inter.options.items() if key != "game"}
    done = ctx.service.act(ctx.game, name, raw, actor=ctx.viewer)
    if "preview" in done.data:
        found = ctx.service.preview(ctx.game, actor=ctx.viewer)
        if found is not None:
            return _preview(ctx, found, done.message)
    if "token" in done.data:
        token = done.data["token"]
        return [ctx.secret(f"{done.message}\nThe player sends the bot `/join link:{token}` "
                           "(best in a DM to the bot), or opens /join/" + token + " on the "
                           "game's web server. Only you see this.", None)]
    if name in ANNOUNCED:
        return [Reply(done.message)]
    return [ctx.note(done.message)]


def preview(ctx: Context) -> list[Reply]:
    """The results waiting for the GM's review (GM only, as the service decides)."""
    found = ctx.service.preview(ctx.game, actor=ctx.viewer)
    if found is None:
        return [ctx.note(f"No results of {ctx.game} wait for review (with the house rule "
                         "review=yes, `/gm process` makes them).")]
    return _preview(ctx, found, f"The results of {found.phase} wait for your review "
                                f"(next: {found.next_phase}; made by {found.made_by}).")


def _preview(ctx: Context, found: Preview, head: str) -> list[Reply]:
    """A preview for the GM's eyes alone: its post with the secret DP section, and
    its map; never in a channel another member reads."""
    png = ctx.service.preview_picture(ctx.game, actor=ctx.viewer, fmt="png",
                                      max_width=MAP_WIDTH)
    assert isinstance(png, bytes)
    lines = [head, "", found.post("markdown", secret=True), ""]
    if found.stale:
        lines.append(f"This preview is out of date ({found.stale}): `/gm process` again.")
    else:
        lines.append("Only you see this: players see nothing until you publish. "
                     "`/gm publish` posts it; `/gm discard` drops it.")
    if found.publish_by is not None:
        lines.append(f"Unless you do, it is published by itself at {publish_time(found)}.")
    slug = "".join(ch if ch.isalnum() else "-" for ch in ctx.game).strip("-").lower()
    files = (Attachment(f"{slug or 'map'}-preview.png", png),)
    return [ctx.secret("\n".join(lines), None, files=files)]


# --- what Discord alone has -------------------------------------------------------------

def bind(ctx: Context) -> list[Reply]:
    if ctx.inter.is_dm:
        raise Refused("bind a channel of your server, not a DM")
    ctx.service.bind_channel(PLATFORM, ctx.inter.guild, ctx.inter.channel, ctx.game,
                             None, actor=ctx.viewer)
    return [Reply(f"This channel is {ctx.game}'s public channel: results, maps and new "
                  "phases are posted here.")]


def unbind(ctx: Context) -> list[Reply]:
    if ctx.binding is None:
        raise Refused("this channel serves no game")
    ctx.service.unbind_channel(PLATFORM, ctx.inter.channel, actor=ctx.viewer)
    return [Reply(f"This channel no longer serves {ctx.game}.")]


def private(ctx: Context) -> list[Reply]:
    if ctx.inter.is_dm:
        raise Refused("a private channel is a channel of your server that only the player, "
                      "you and the bot can see; a DM with the bot is the player's already")
    if ctx.inter.visibility != "private":
        raise Refused("this channel is not private: @everyone can read it. Make it a "
                      "channel only the player, the GM and the bot can see, then try again")
    power = str(ctx.option("power"))
    binding = ctx.service.bind_channel(PLATFORM, ctx.inter.guild, ctx.inter.channel,
                                       ctx.game, power, actor=ctx.viewer)
    return [Reply(f"This is {binding.power}'s private channel in {ctx.game}: paste orders "
                  "here with `orders` on the first line; only this channel sees the answer.")]


def seat(ctx: Context) -> list[Reply]:
    user = ctx.option("user")
    if not isinstance(user, Member):
        raise Refused("name the player (option user)")
    power = str(ctx.option("power"))
    held = ctx.service.bind_member(PLATFORM, user.id, ctx.game, power, actor=ctx.viewer)
    ctx.service.set_player(ctx.game, held.role, user.name, actor=ctx.viewer)
    return [Reply(f"<@{user.id}> plays {held.role} in {ctx.game}.")]


def cogm(ctx: Context) -> list[Reply]:
    user = ctx.option("user")
    if not isinstance(user, Member):
        raise Refused("name the co-GM (option user)")
    ctx.service.bind_member(PLATFORM, user.id, ctx.game, "gm", actor=ctx.viewer)
    return [Reply(f"<@{user.id}> is a GM of {ctx.game} too.")]


def orders(ctx: Context) -> list[Reply]:
    """A power's (or every power's) standing orders and DP, as the service lets
    the user see them (the GM: every power's)."""
    named = ctx.option("power")
    due = ctx.service.status(ctx.game, actor=ctx.viewer).expected
    powers = [str(named)] if named else list(due)
    reports = [ctx.service.submissions(ctx.game, p, actor=ctx.viewer) for p in powers]
    text = "\n\n".join(report_text(r) for r in reports) or "no power is due this phase"
    owner = reports[0].power if named else None  # every power's: the GM's eyes alone
    return [ctx.secret(text, owner)]


def _pairs(text: str) -> dict[str, str]:
    out = {}
    for pair in (p for p in text.split(",") if p.strip()):
        key, sep, value = pair.partition("=")
        if not sep:
            raise Refused(f"house rule '{pair.strip()}' is not key=value")
        out[key.strip()] = value.strip()
    return out


DISCORD_HANDLERS: dict[str, Handler] = {
    "gm bind": bind, "gm unbind": unbind, "gm private": private, "gm seat": seat,
    "gm cogm": cogm, "gm orders": orders, "gm preview": preview,
}
"""The GM's commands Discord alone has."""

HANDLERS: dict[str, Handler] = {**DISCORD_HANDLERS, **dict.fromkeys(ACTION_COMMANDS, action)}
"""The commands with a game's context; ``gm create`` and ``join`` come before one."""

BEFORE_GAME: dict[str, Callable[[GameService, Interaction], list[Reply]]] = {
    "gm create": create, "join": join,
}
"""Commands that come before the user has a seat in the game."""
