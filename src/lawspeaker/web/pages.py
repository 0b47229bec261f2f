"""HTML pages for GMs and players: Jinja2 templates, htmx for checking
orders as they are typed; every form carries the CSRF token.

Each route finds the viewer (:func:`.auth.viewer`) and asks the service;
what a page shows of orders and DP is what the service returns for that
viewer, nothing more.
"""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from ..service import GM, PUBLIC, Forbidden, NotFound, PhaseChanged, ServiceError, Viewer
from ..service.actions import ACTIONS
from ..service.deadlines import check_schedule
from ..sim.bots import bot_names
from .auth import (
    check_csrf,
    conflicts,
    csrf_token,
    forget,
    grants,
    public_base,
    remember,
    server_gm,
    service,
    sign_out,
    throttle,
    viewer,
)
from .offers import offered_variant
from .sizes import MAX_PNG_WIDTH, MAX_POST

__all__ = ["render", "router"]

router = APIRouter(include_in_schema=False)


def render(request: Request, template: str, context: dict[str, Any], status: int = 200
           ) -> HTMLResponse:
    context = {"request": request, "csrf": csrf_token(request),
               "flash": request.session.pop("flash", None), "q": quote, **context}
    return request.app.state.templates.TemplateResponse(  # type: ignore[no-any-return]
        request, template, context, status_code=status)


def _back(request: Request, name: str, message: str) -> RedirectResponse:
    request.session["flash"] = message
    return RedirectResponse(f"/games/{quote(name, safe='')}", status_code=303)


def _text(text: str) -> str:
    if len(text) > MAX_POST:
        raise HTTPException(413, f"a post of orders is at most {MAX_POST} characters")
    return text


@router.get("/")
def index(request: Request) -> Response:
    svc = service(request)
    mine = {g.game for g in grants(request)}
    return render(request, "index.html", {
        "games": svc.list_games(), "server_gm": server_gm(request), "mine": mine,
        "variants": sorted(request.app.state.variants)})


@router.get("/join/{token}")
def join(request: Request, token: str) -> Response:
    """Sign in by a secret link: at once in a fresh browser (or one signed in
    elsewhere); a browser signed in as somebody else in that game is asked first."""
    try:
        grant = service(request).redeem(token)
    except NotFound as exc:
        return render(request, "error.html", {"status": 404, "message": str(exc)}, 404)
    others = conflicts(request, grant)
    if others:
        return render(request, "join.html", {
            "token": token, "new": _who(grant), "others": [_who(g) for g in others]})
    return _signed_in(request, grant)


@router.post("/join/{token}")
def join_confirmed(request: Request, token: str, csrf: str = Form("")) -> Response:
    check_csrf(request, csrf)
    try:
        grant = service(request).redeem(token)
    except NotFound as exc:
        return render(request, "error.html", {"status": 404, "message": str(exc)}, 404)
    forget(request, conflicts(request, grant))
    return _signed_in(request, grant)


def _signed_in(request: Request, grant: Any) -> Response:
    remember(request, grant)
    csrf_token(request)
    where = "/" if grant.game is None else f"/games/{quote(grant.game, safe='')}"
    return RedirectResponse(where, status_code=303)


def _who(grant: Any) -> str:
    if grant.game is None:
        return "the server's GM (GM of every game)"
    return f"{'the GM' if grant.viewer.gm else grant.viewer.power} in {grant.game}"


@router.post("/logout")
def logout(request: Request, csrf: str = Form("")) -> Response:
    check_csrf(request, csrf)
    sign_out(request)
    return RedirectResponse("/", status_code=303)


@router.post("/games")
def create(request: Request, csrf: str = Form(""), variant: str = Form(...),
           name: str = Form(...), rules: str = Form(""), phase_hours: str = Form(""),
           grace_minutes: str = Form("0"), timezone: str = Form("UTC")) -> Response:
    check_csrf(request, csrf)
    if not server_gm(request):
        raise HTTPException(403, "only the server's GM may create games (open the link "
                                 "'lawspeaker serve' printed)")
    svc = service(request)
    pairs = {}
    for line in rules.replace(",", "\n").splitlines():
        if line.strip():
            key, sep, value = line.partition("=")
            if not sep:
                raise ServiceError(f"house rule '{line.strip()}' is not key=value")
            pairs[key.strip()] = value.strip()
    hours = _number(phase_hours, "the phase length")
    grace = _number(grace_minutes, "the grace period") or 0
    minutes = round(hours * 60) if hours else None
    check_schedule(minutes, round(grace), timezone.strip() or "UTC")  # before any write
    info = svc.create_game(offered_variant(request, variant), name, pairs, actor=GM)
    if hours or timezone.strip() not in ("", "UTC") or grace:
        svc.set_schedule(info.name, minutes, round(grace), timezone.strip() or "UTC", actor=GM)
    return _back(request, info.name, f"Game '{info.name}' created. Add players below: each "
                                     "gets a secret link to send them.")


def _number(text: str, what: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text) if len(text) <= 20 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ServiceError(f"{what} must be a number, not '{text[:20]}'")
    if value < 0:
        raise ServiceError(f"{what} cannot be negative")
    if value > 10_000_000:
        raise ServiceError(f"{what} is too large")
    return value


PALETTE_COOKIE = "ls_palette"
"""The viewer's palette, remembered per browser (a year): not a secret, not signed."""


def palette_of(request: Request, asked: str | None = None) -> str | None:
    """The palette a viewer chose: ``asked`` (a query parameter; an unknown name
    is a clear error), else the one their browser remembers, else ``None``
    (the standard palette)."""
    from ..render.palette import PALETTES

    if asked is not None:
        name = asked.strip().lower()
        if name not in PALETTES:
            raise ServiceError(f"unknown palette '{asked[:40]}' (one of: {', '.join(PALETTES)})")
    else:
        name = request.cookies.get(PALETTE_COOKIE, "")
    return name if name in PALETTES and name != "standard" else None


def _remember_palette(request: Request, response: Response, asked: str | None) -> Response:
    """The choice made on a page (``?palette=``) is kept for the viewer's next pages."""
    if asked is not None:
        response.set_cookie(PALETTE_COOKIE, palette_of(request, asked) or "standard",
                            max_age=365 * 24 * 3600, samesite="lax", httponly=True)
    return response


@router.get("/games/{name}")
def game_page(request: Request, name: str, palette: str | None = None) -> Response:
    return _remember_palette(request, render(request, "game.html", _game_context(
        request, name, palette=palette_of(request, palette))), palette)


def _game_context(request: Request, name: str, **extra: Any) -> dict[str, Any]:
    svc = service(request)
    v = viewer(request, name)
    info = svc.game(name, actor=v)
    status = svc.status(name, actor=v)
    ctx: dict[str, Any] = {
        "info": info, "status": status, "viewer": v, "schedule": svc.schedule(name, actor=v),
        "ready": svc.ready(name, actor=v), "tally": svc.draw_tally(name, actor=v),
        "history": [h for h in svc.history(name,
                                           actor=v) if h.kind == "processed" and not h.undone],
        "events": svc.history(name, actor=v)[-12:], "report": None, "text": None,
        "rules_in_force": svc.rules_in_force(name, actor=v),
        "favor_map": svc.variant_of(name,
                                    actor=v).uses("favor_map"), "palette": palette_of(request),
        **extra}
    ctx["latest"] = svc.export(name, None, "text", gm=v.gm, actor=v, mine=True) \
        if ctx["history"] else None
    if v.power:
        ctx["mine"] = svc.submissions(name, v.power, actor=v)
        ctx["options"] = svc.unit_options(name, v.power, actor=v)
        ctx["my_vote"] = svc.my_vote(name, v.power, actor=v)
        ctx["my_posts"] = svc.posts(name, v.power, actor=v)
        ctx["duties"], ctx["example"] = svc.due(name, v.power, actor=v)
        ctx["focus"] = _focus(request, name, v.power)
        if ctx["text"] is None:
            standing = [o.split("  (illegal:")[0] for o in ctx["mine"].orders]
            standing += [a.split("  (ignored:")[0] for a in ctx["mine"].allocations]
            ctx["text"] = "\n".join(standing) + "\n" if standing else \
                svc.template(name, v.power, actor=v)
    ctx["under_review"] = svc.under_review(name, actor=v)
    if v.gm:
        ctx["preview"] = svc.preview(name, actor=v) if ctx["under_review"] else None
        powers = sorted(set(status.expected) | set(status.submitted))
        ctx["all"] = {p: svc.submissions(name, p, actor=v) for p in powers}
        ctx["all_posts"] = svc.posts(name, None, actor=v)
        ctx["seats"] = svc.linked_seats(name, actor=v)
        ctx["powers"] = sorted(svc.variant_of(name, actor=v).powers)
        ctx["backdrop"] = svc.backdrop(name, actor=v)
        ctx["bots"], ctx["bot_seats"] = bot_names(), svc.bot_seats(name, actor=v)
    return ctx


def _focus(request: Request, name: str, power: str) -> str | None:
    """Where the map opens for a player: the middle of their own units, as
    "x y" in the drawing's pixels (positions are public), or None (the board's
    middle) when they have no unit on the board."""
    from ..render import STYLE, layout_for

    svc = service(request)
    units = svc.position(name, actor=PUBLIC).units_of(power)
    if not units:
        return None
    backdrop = svc.map_backdrop(name, actor=PUBLIC)  # drawn over the official image: its pixels
    variant = svc.variant_of(name, actor=PUBLIC)
    layout = layout_for(variant) if backdrop is None else backdrop.geometry(variant, STYLE)
    points = [layout.at(u.location) for u in units]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return f"{(min(xs) + max(xs)) / 2:.0f} {(min(ys) + max(ys)) / 2:.0f}"


@router.get("/games/{name}/phases/{phase}")
def phase_page(request: Request, name: str, phase: str, palette: str | None = None
               ) -> Response:
    """A processed phase: its results post and map and, in a variant with a
    Favor Map (Dissolution §11), the Favor Map at that phase with the phase's
    Embassy orders and their results (Winter, §11.5)."""
    svc = service(request)
    v = viewer(request, name)
    record = svc.record(name, phase, actor=v)
    post = svc.export(name, phase, "text", gm=v.gm, actor=v, mine=True)
    return _remember_palette(request, render(request, "phase.html", {
        "info": svc.game(name,
                         actor=v), "viewer": v, "phase": phase, "record": record, "post": post,
        "favor_map": svc.variant_of(name, actor=v).uses("favor_map"),
        "palette": palette_of(request, palette)}), palette)


@router.get("/games/{name}/map.svg")
def map_svg(request: Request, name: str, phase: str | None = None, orders: bool = False,
            board: str = "map", palette: str | None = None) -> Response:
    """``palette``: ``colorblind`` or ``standard``; without it, the viewer's remembered choice."""
    v = viewer(request, name)
    svg = service(request).picture(name, phase, orders=orders, fmt="svg", actor=v, board=board,
                                   palette=palette_of(request, palette))
    return Response(svg, media_type="image/svg+xml")


@router.get("/games/{name}/map.png")
def map_png(request: Request, name: str, phase: str | None = None, orders: bool = False,
            board: str = "map", palette: str | None = None) -> Response:
    """The map as a PNG forums and Discord accept (:data:`.sizes.MAX_PNG_WIDTH`),
    with exactly what the SVG shows this viewer, in the palette it asks for."""
    v = viewer(request, name)
    png = service(request).picture(name, phase, orders=orders, fmt="png", actor=v, board=board,
                                   max_width=MAX_PNG_WIDTH, palette=palette_of(request, palette))
    return Response(png, media_type="image/png")


@router.get("/games/{name}/export")
def export(request: Request, name: str, phase: str | None = None, fmt: str = "bbcode",
           gm: bool = False) -> Response:
    v = viewer(request, name)
    text = service(request).export(name, phase, fmt, gm=gm, actor=v,
                                   map_base=public_base(request))
    return Response(text, media_type="text/plain; charset=utf-8")


# --- players -------------------------------------------------------------------------

@router.post("/games/{name}/orders")
def submit(request: Request, name: str, csrf: str = Form(""), power: str = Form(...),
           text: str = Form(...), phase: str = Form("")) -> Response:
    check_csrf(request, csrf)
    throttle(request, "send", name, power)
    v = viewer(request, name)
    try:
        report = service(request).submit(name, power, _text(text), actor=v, phase=phase or None)
    except PhaseChanged as exc:  # written for a phase since processed: keep the text here
        return render(request, "game.html", _game_context(
            request, name, text=text, flash=f"Not sent: {exc}"), status=409)
    return render(request, "game.html", _game_context(request, name, report=report,
                                                      text=text))


@router.post("/games/{name}/check")
def check(request: Request, name: str, csrf: str = Form(""), power: str = Form(...),
          text: str = Form("")) -> Response:
    check_csrf(request, csrf)
    v = viewer(request, name)
    report = None
    error = None
    if text.strip():
        try:
            throttle(request, "check", name, power)
        except HTTPException as exc:  # said beside the box, where the player looks
            return render(request, "_check.html", {"report": None, "error": exc.detail})
        try:
            report = service(request).check(name, power, _text(text), actor=v)
        except Forbidden:
            raise
        except ServiceError as exc:  # an unreadable post: say why, beside the box
            error = str(exc)
    return render(request, "_check.html", {"report": report, "error": error})


@router.post("/games/{name}/ready")
def ready(request: Request, name: str, csrf: str = Form(""), power: str = Form(...),
          ready: str = Form("yes")) -> Response:
    check_csrf(request, csrf)
    yes = ready == "yes"
    service(request).set_ready(name, power, yes, actor=viewer(request, name))
    return _back(request, name, "Marked ready: the phase may be processed early once every "
                                "power is ready." if yes else "No longer marked ready.")


@router.post("/games/{name}/vote")
def vote(request: Request, name: str, csrf: str = Form(""), power: str = Form(...),
         draw: str = Form(...)) -> Response:
    check_csrf(request, csrf)
    tally = service(request).vote_draw(name, power, draw == "yes", actor=viewer(request, name))
    message = "Your ballot is cast (secret: nobody sees how you voted)."
    if tally.passed:
        message = "The draw passed: the game is over."
    return _back(request, name, message)


# --- the GM ------------------------------------------------------------------------------

@router.post("/games/{name}/gm/{action}")
async def gm_action(request: Request, name: str, action: str) -> Response:
    """A GM action of the service's table (:data:`lawspeaker.service.actions.ACTIONS`):
    the form's fields named as the action's arguments, checked, run and answered by
    the service as on every front end; who may run it is the service's decision."""
    form = await request.form()
    check_csrf(request, str(form.get("csrf", "")))
    found = ACTIONS.get(action)
    if found is None:
        raise HTTPException(404, f"there is no GM action '{action[:40]}'")
    names = {p.name for p in found.params}
    args = {k: str(val) for k, val in form.items() if isinstance(val, str) and k in names}
    return await run_in_threadpool(_gm_do, request, name, action, args,
                                   viewer(request, name))


def _gm_do(request: Request, name: str, action: str, args: dict[str, object], v: Viewer
           ) -> Response:
    svc = service(request)
    try:
        done = svc.act(name, action, args, actor=v)
    except PhaseChanged as exc:  # a double click, a stale page or preview, the deadline
        return _back(request, name, str(exc))
    if "token" in done.data:  # a secret link: shown once, on a page of its own
        return render(request, "link.html", {
            "info": svc.game(name, actor=v), "seat": done.data["seat"],
            "player": args.get("player") or "",
            "link": f"{public_base(request)}/join/{done.data['token']}"})
    return _back(request, name, done.message)


@router.get("/games/{name}/preview/map.svg")
def preview_svg(request: Request, name: str, board: str = "map",
                palette: str | None = None) -> Response:
    """The results map of the preview waiting for review: the GM's eyes only."""
    svg = service(request).preview_picture(name, actor=viewer(request, name), fmt="svg",
                                           board=board, palette=palette_of(request, palette))
    return Response(svg, media_type="image/svg+xml", headers=_PRIVATE)


@router.get("/games/{name}/preview/map.png")
def preview_png(request: Request, name: str, board: str = "map",
                palette: str | None = None) -> Response:
    png = service(request).preview_picture(name, actor=viewer(request, name), fmt="png",
                                           board=board, max_width=MAX_PNG_WIDTH,
                                           palette=palette_of(request, palette))
    return Response(png, media_type="image/png", headers=_PRIVATE)


_PRIVATE = {"Cache-Control": "private, no-store"}
"""A preview is the GM's alone: no shared cache may keep it."""
