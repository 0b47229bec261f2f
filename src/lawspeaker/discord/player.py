"""The players' slash commands: orders, checks, the map, the status, ballots.

Each function takes a :class:`~.handlers.Context` and returns replies. What a
command may show is the service's decision (the context's viewer is what the
service made of the user's seat); where it may be shown is the context's
(:meth:`~.handlers.Context.secret`).
"""

from __future__ import annotations

from ..service import PUBLIC
from .context import MAX_POST, Context, Handler, Refused, with_lines
from .interaction import Attachment, Reply
from .text import report_text, status_text

__all__ = ["HANDLERS", "MAP_WIDTH"]

MAP_WIDTH = 1600
"""Maps are sent at most this wide (Discord shows larger images shrunk)."""


def orders(ctx: Context) -> list[Reply]:
    power = ctx.power()
    text = with_lines(str(ctx.option("text", "")))
    if len(text) > MAX_POST:
        raise Refused(f"a post may be at most {MAX_POST} characters; nothing was kept")
    report = ctx.service.submit(ctx.game, power, text, actor=ctx.viewer,
                                phase=_phase(ctx))
    return [ctx.secret(report_text(report), report.power)]


def check(ctx: Context) -> list[Reply]:
    power = ctx.power()
    report = ctx.service.check(ctx.game, power, with_lines(str(ctx.option("text", ""))),
                               actor=ctx.viewer)
    return [ctx.secret(report_text(report, sent=False), report.power)]


def myorders(ctx: Context) -> list[Reply]:
    """The standing orders and DP, and the check of each line that stands
    (from every post this phase: a later order for a unit replaces an earlier)."""
    power = ctx.power()
    report = ctx.service.submissions(ctx.game, power, actor=ctx.viewer)
    posts = ctx.service.posts(ctx.game, power, actor=ctx.viewer)
    checked = [f"post {post.number}, {line}" for post in posts for line in post.lines
               if line.number in post.standing]
    text = report_text(report)
    if checked:
        text += "\nThe check of the lines that stand:\n```\n" + "\n".join(checked) + "\n```"
    if posts:
        text += f"\n{len(posts)} post(s) this phase; the last at " \
                f"{posts[-1].at:%d %b %H:%M} UTC."
    return [ctx.secret(text, report.power)]


def template(ctx: Context) -> list[Reply]:
    power = ctx.power()
    text = ctx.service.template(ctx.game, power, actor=ctx.viewer)
    return [ctx.secret(f"```\n{text}\n```", power)]


def show_map(ctx: Context) -> list[Reply]:
    """The map: a processed phase's public results, or the current phase with
    the orders the user may see (their own, the GM's all): then secret."""
    phase = _phase(ctx)
    with_orders = bool(ctx.option("orders", False))
    current = phase is None or _is_current(ctx, phase)
    secret_orders = with_orders and current and ctx.viewer is not PUBLIC and (
        ctx.viewer.gm or ctx.viewer.power is not None)
    png = ctx.service.picture(ctx.game, phase, orders=with_orders, fmt="png",
                              actor=ctx.viewer if secret_orders else PUBLIC,
                              max_width=MAP_WIDTH)
    assert isinstance(png, bytes)
    label = phase or ctx.service.game(ctx.game, actor=ctx.viewer).phase
    files = (Attachment(f"{_slug(ctx.game)}.png", png),)
    if secret_orders:
        owner = None if ctx.viewer.gm else ctx.viewer.power
        return [ctx.secret(f"{ctx.game}, {label}: the map with the orders you may see",
                           owner, files=files)]
    return [Reply(f"{ctx.game}, {label}", files=files)]


def status(ctx: Context) -> list[Reply]:
    st = ctx.service.status(ctx.game, actor=ctx.viewer)
    text = status_text(ctx.game, st, ctx.service.schedule(ctx.game, actor=ctx.viewer),
                       ctx.service.ready(ctx.game, actor=ctx.viewer),
                       ctx.service.under_review(ctx.game, actor=ctx.viewer))
    return [Reply(text)]


def rules(ctx: Context) -> list[Reply]:
    """The rules in force, house rules marked (public, as on the game's web page)."""
    lines = [f"{key} = {value}{' (house rule)' if house else ''}"
             for key, value, house in ctx.service.rules_in_force(ctx.game, actor=ctx.viewer)]
    return [ctx.note(f"**{ctx.game}**: the rules in force\n```\n" + "\n".join(lines)
                     + "\n```")]


def results(ctx: Context) -> list[Reply]:
    """The public results post of a processed phase (never DP, until revealed)."""
    post = ctx.service.export(ctx.game, _phase(ctx), fmt="markdown", actor=PUBLIC)
    return [Reply(post)]


def draw(ctx: Context) -> list[Reply]:
    power = ctx.power()
    vote = bool(ctx.option("vote"))
    tally = ctx.service.vote_draw(ctx.game, power, vote, actor=ctx.viewer)
    text = (f"Your vote for {power}: {'for' if vote else 'against'} a draw (secret). "
            f"{tally.cast} of {len(tally.voters)} have voted; the rule is {tally.rule}"
            + ("; the draw has passed." if tally.passed else "."))
    return [ctx.secret(text, power)]


def ready(ctx: Context) -> list[Reply]:
    power = ctx.power()
    value = bool(ctx.option("value"))
    ctx.service.set_ready(ctx.game, power, value, actor=ctx.viewer)
    return [ctx.note(f"{power} is {'ready' if value else 'not ready'} for this phase.")]


def _phase(ctx: Context) -> str | None:
    value = ctx.option("phase")
    return str(value).strip() if value else None


def _is_current(ctx: Context, phase: str) -> bool:
    info = ctx.service.game(ctx.game, actor=ctx.viewer)
    return phase.lower() in (info.phase.lower(), info.phase_code.lower())


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name).strip("-").lower() or "map"


HANDLERS: dict[str, Handler] = {
    "orders": orders, "check": check, "myorders": myorders, "template": template,
    "map": show_map, "status": status, "results": results, "rules": rules, "draw": draw,
    "ready": ready,
}
