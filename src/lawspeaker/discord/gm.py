"""The GM's slash commands (the ``gm`` group), and ``/join``.

Every command of the group is refused to anyone the service does not take
for the game's GM (:func:`_gm`), before anything is read; the service checks
again in each call. Two commands come before a game has a GM here:
``/gm create`` (a member who may manage the Discord server creates a game and
becomes its GM) and ``/join`` (a secret link from the web, a power's or the
GM's, gives its seat to the Discord user who redeems it: one identity model
for both front ends).
"""

from __future__ import annotations

from collections.abc import Callable

from ..service import GM, PUBLIC, Forbidden, GameService
from ..variants import available_variants
from .context import Context, Handler, Refused
from .interaction import PLATFORM, Interaction, Member, Reply
from .text import report_text

__all__ = ["BEFORE_GAME", "HANDLERS", "create", "join"]


def _gm(ctx: Context) -> None:
    if not ctx.viewer.gm:
        raise Forbidden(f"only the GM of {ctx.game} may do that")


def create(svc: GameService, inter: Interaction) -> list[Reply]:
    """A new game bound to this channel; its creator is its GM."""
    if inter.is_dm or not inter.guild:
        raise Refused("create a game in a channel of your Discord server (it becomes the "
                      "game's public channel)")
    if not inter.may_manage:
        raise Forbidden("only members who may manage this server may create games")
    variant = str(inter.options.get("variant") or "").strip()
    if variant not in available_variants():
        raise Refused(f"unknown variant '{variant[:60]}': choose one of "
                      + ", ".join(available_variants()))
    rules = _pairs(str(inter.options.get("rules") or ""))
    name = str(inter.options.get("name") or "")
    if svc.channel(PLATFORM, inter.channel) is not None:
        raise Refused("this channel already serves a game (/gm unbind first)")
    info = svc.create_game(variant, name, rules=rules, actor=GM)
    svc.bind_member(PLATFORM, inter.user, info.name, "gm", actor=GM)
    svc.bind_channel(PLATFORM, inter.guild, inter.channel, info.name, actor=GM)
    return [Reply(f"**{info.name}** ({info.title}) is created; this channel is its public "
                  f"channel, <@{inter.user}> its GM. It starts in {info.phase}.\n"
                  "Next: `/gm seat` each power, `/gm private` in each player's private "
                  "channel, `/gm deadline`.")]


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


def bind(ctx: Context) -> list[Reply]:
    _gm(ctx)
    if ctx.inter.is_dm:
        raise Refused("bind a channel of your server, not a DM")
    ctx.service.bind_channel(PLATFORM, ctx.inter.guild, ctx.inter.channel, ctx.game,
                             None, actor=ctx.viewer)
    return [Reply(f"This channel is {ctx.game}'s public channel: results, maps and new "
                  "phases are posted here.")]


def unbind(ctx: Context) -> list[Reply]:
    _gm(ctx)
    if ctx.binding is None:
        raise Refused("this channel serves no game")
    ctx.service.unbind_channel(PLATFORM, ctx.inter.channel, actor=ctx.viewer)
    return [Reply(f"This channel no longer serves {ctx.game}.")]


def private(ctx: Context) -> list[Reply]:
    _gm(ctx)
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
    _gm(ctx)
    user = ctx.option("user")
    if not isinstance(user, Member):
        raise Refused("name the player (option user)")
    power = str(ctx.option("power"))
    held = ctx.service.bind_member(PLATFORM, user.id, ctx.game, power, actor=ctx.viewer)
    ctx.service.set_player(ctx.game, held.role, user.name, actor=ctx.viewer)
    return [Reply(f"<@{user.id}> plays {held.role} in {ctx.game}.")]


def cogm(ctx: Context) -> list[Reply]:
    _gm(ctx)
    user = ctx.option("user")
    if not isinstance(user, Member):
        raise Refused("name the co-GM (option user)")
    ctx.service.bind_member(PLATFORM, user.id, ctx.game, "gm", actor=ctx.viewer)
    return [Reply(f"<@{user.id}> is a GM of {ctx.game} too.")]


def deadline(ctx: Context) -> list[Reply]:
    _gm(ctx)
    hours = int(ctx.option("hours", 0))  # type: ignore[call-overload]
    current = ctx.service.schedule(ctx.game, actor=ctx.viewer)
    grace = int(ctx.option("grace", current.grace_minutes))  # type: ignore[call-overload]
    zone = str(ctx.option("timezone", current.timezone or "UTC"))
    schedule = ctx.service.set_schedule(ctx.game, hours * 60 if hours else None, grace, zone,
                                        actor=ctx.viewer)
    return [Reply(f"{ctx.game}: {schedule.deadline_text()} (grace {schedule.grace_minutes} "
                  "min).")]


def extend(ctx: Context) -> list[Reply]:
    _gm(ctx)
    hours = int(ctx.option("hours", 0))  # type: ignore[call-overload]
    schedule = ctx.service.extend(ctx.game, hours * 60, actor=ctx.viewer)
    return [Reply(f"{ctx.game}: the GM extended the {schedule.deadline_text()}.")]


def pause(ctx: Context) -> list[Reply]:
    _gm(ctx)
    ctx.service.pause(ctx.game, actor=ctx.viewer)
    return [Reply(f"{ctx.game} is paused by the GM.")]


def resume(ctx: Context) -> list[Reply]:
    _gm(ctx)
    ctx.service.resume(ctx.game, actor=ctx.viewer)
    deadline = ctx.service.schedule(ctx.game, actor=ctx.viewer).deadline_text()
    return [Reply(f"{ctx.game} resumes: {deadline}.")]


def process(ctx: Context) -> list[Reply]:
    """Process; the herald (``Handlers.after``) posts the results and the map."""
    _gm(ctx)
    phase = ctx.option("phase")
    record = ctx.service.process(ctx.game, actor=ctx.viewer, phase=str(phase) if phase else None)
    return [ctx.note(f"{record.phase} is processed.")]


def rollback(ctx: Context) -> list[Reply]:
    _gm(ctx)
    to = ctx.option("to")
    label = ctx.service.undo(ctx.game, str(to) if to else None, actor=ctx.viewer)
    return [ctx.note(f"Rolled back to {label}.")]


def eliminate(ctx: Context) -> list[Reply]:
    _gm(ctx)
    power = str(ctx.option("power"))
    ctx.service.force_elimination(ctx.game, power, actor=ctx.viewer)
    return [Reply(f"{ctx.game}: {power} is dropped and will be eliminated at the next "
                  "Census (S9 §3.4.2).")]


def exile(ctx: Context) -> list[Reply]:
    _gm(ctx)
    power = str(ctx.option("power"))
    ctx.service.remove_exile(ctx.game, power, actor=ctx.viewer)
    return [Reply(f"{ctx.game}: {power}, in exile, is removed from the game "
                  "(Dissolution §5.3).")]


def bot(ctx: Context) -> list[Reply]:
    """A bot takes the seat (docs/bots.md): it posts through the same path as a
    player as each phase opens, its DP secret like anyone's, until the GM
    seats a player with ``/gm seat``."""
    _gm(ctx)
    power = str(ctx.option("power"))
    name = str(ctx.option("bot", "tactician"))
    ctx.service.seat_bot(ctx.game, power, name, actor=ctx.viewer)
    return [Reply(f"{ctx.game}: {power}'s seat is held by the {name} bot until a player is "
                  "seated.")]


def rule(ctx: Context) -> list[Reply]:
    _gm(ctx)
    key, value = ctx.option("key"), ctx.option("value")
    if key and value is not None:
        ctx.service.set_rule(ctx.game, str(key), str(value), actor=ctx.viewer)
        return [Reply(f"{ctx.game}: house rule {key} = {value}, from this phase on.")]
    if key:
        raise Refused("give the rule's value too (option value)")
    lines = [f"{k} = {v}{' (house rule)' if house else ''}"
             for k, v, house in ctx.service.rules_in_force(ctx.game, actor=ctx.viewer)]
    return [ctx.note("```\n" + "\n".join(lines) + "\n```")]


def drawrule(ctx: Context) -> list[Reply]:
    _gm(ctx)
    rule_name = str(ctx.option("rule", "")).strip().lower()
    ctx.service.set_draw_rule(ctx.game, rule_name, actor=ctx.viewer)
    return [Reply(f"{ctx.game}: a draw passes by the rule '{rule_name}'.")]


def orders(ctx: Context) -> list[Reply]:
    """A power's (or every power's) standing orders and DP: the GM's eyes only."""
    _gm(ctx)
    named = ctx.option("power")
    due = ctx.service.status(ctx.game, actor=ctx.viewer).expected
    powers = [str(named)] if named else list(due)
    reports = [ctx.service.submissions(ctx.game, p, actor=ctx.viewer) for p in powers]
    text = "\n\n".join(report_text(r) for r in reports) or "no power is due this phase"
    owner = reports[0].power if named else None  # every power's: the GM's eyes alone
    return [ctx.secret(text, owner)]


def reveal(ctx: Context) -> list[Reply]:
    _gm(ctx)
    ctx.service.reveal_dp(ctx.game, actor=ctx.viewer)
    return [Reply(f"{ctx.game}: the GM revealed every DP allocation (S9 §9.0); `/results` "
                  "shows them.")]


def _pairs(text: str) -> dict[str, str]:
    out = {}
    for pair in (p for p in text.split(",") if p.strip()):
        key, sep, value = pair.partition("=")
        if not sep:
            raise Refused(f"house rule '{pair.strip()}' is not key=value")
        out[key.strip()] = value.strip()
    return out


HANDLERS: dict[str, Handler] = {
    "gm bind": bind, "gm unbind": unbind, "gm private": private, "gm seat": seat,
    "gm cogm": cogm, "gm deadline": deadline, "gm extend": extend, "gm pause": pause,
    "gm resume": resume, "gm process": process, "gm rollback": rollback,
    "gm eliminate": eliminate, "gm exile": exile, "gm rule": rule, "gm drawrule": drawrule,
    "gm orders": orders, "gm reveal": reveal, "gm bot": bot,
}
"""The commands with a game's context; ``gm create`` and ``join`` come before one."""

BEFORE_GAME: dict[str, Callable[[GameService, Interaction], list[Reply]]] = {
    "gm create": create, "join": join,
}
"""Commands that come before the user has a seat in the game."""
