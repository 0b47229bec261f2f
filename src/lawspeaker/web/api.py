"""The JSON API for bots and scripts, over the same service and authorisation.

Authenticate with the token of a secret link: ``Authorization: Bearer
TOKEN``. Without one, a caller is the public. The OpenAPI description is at
``/api/openapi.json`` (browsable at ``/api/docs``). Errors are
``{"error": "..."}`` with 400 (refused), 401 (bad token), 403 (not yours),
404, 413 (too large) or 422 (malformed).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from .auth import api_grant, api_viewer, public_base, service, throttle
from .sizes import MAX_PNG_WIDTH, MAX_POST

__all__ = ["router"]

router = APIRouter(prefix="/api/v1", tags=["games"])


class Post(BaseModel):
    text: str = Field(max_length=MAX_POST, description="Orders and DP allocations as a "
                                                       "player writes them, one per line")
    phase: str | None = Field(None, max_length=100, description=(
        "The phase the post is written for, as a code (`S1901M`, the game's `phase_code`) "
        "or label. If another phase is open when it arrives (the GM or the deadline "
        "processed it meanwhile) nothing is kept and the answer is 409, naming the phase "
        "now open. Without it the post goes to whatever phase is open on arrival."))


class Flag(BaseModel):
    value: bool = Field(description="ready: done with this phase; draw: vote for a draw")


class Line(BaseModel):
    number: int
    text: str = Field(description="The line as written")
    status: str = Field(description="accepted, illegal (kept; the unit holds), twice, "
                                    "rejected (a DP allocation breaking a rule), ignored (a DP "
                                    "allocation kept whose order is illegal: its DP will be "
                                    "ignored), unreadable")
    message: str
    canonical: str = Field(description="The order as the adjudicator read it")


class Cap(BaseModel):
    on: str = Field(description="The neutral power whose units it limits")
    cap: int
    spent: int
    left: int
    rule: str


class Limits(BaseModel):
    allotment: int = Field(description="DP this phase (S9 §9.2; Dissolution §5.2)")
    spent: int
    left: int
    rule: str
    caps: list[Cap] = Field(description="Each further cap: in Dissolution the Favor value "
                                        "with each nuclear power (§11.4.1)")


class Report(BaseModel):
    power: str
    phase: str
    lines: list[Line] = Field(description="This post's lines, each answered")
    orders: list[str] = Field(description="The standing orders after it")
    allocations: list[str] = Field(description="The standing DP allocations (secret)")
    dp_left: int | None
    limits: Limits | None = Field(description="None when no DP are allocated this phase")
    phase_code: str = Field(description="The phase this post is part of (`S1901M`)")
    ok: bool


class PostOut(BaseModel):
    number: int = Field(description="1 for the power's first post this phase, ...")
    power: str
    author: str
    at: str = Field(description="ISO 8601, UTC")
    text: str = Field(description="The post exactly as written")
    lines: list[Line]
    standing: list[int] = Field(description="Line numbers no later post replaced")


def _report(report: Any) -> dict[str, Any]:
    out = asdict(report)
    out["ok"] = report.ok
    return out


@router.get("/me", summary="What the bearer token grants")
def me(request: Request) -> dict[str, Any]:
    grant = api_grant(request)
    if grant is None:
        return {"game": None, "role": "public"}
    return {"game": grant.game, "role": "server-gm" if grant.game is None else str(grant.viewer)}


@router.get("/games", summary="Every game on the server (public)")
def games(request: Request) -> list[dict[str, Any]]:
    return [{"name": g.name, "variant": g.variant, "phase": g.phase, "result": g.result}
            for g in service(request).list_games()]


@router.get("/games/{name}", summary="A game: phase, deadline, who is due, ready, draw vote")
def game(request: Request, name: str) -> dict[str, Any]:
    svc = service(request)
    v = api_viewer(request, name)
    info = svc.game(name, actor=v)
    status = svc.status(name, actor=v)
    schedule = svc.schedule(name, actor=v)
    tally = svc.draw_tally(name, actor=v)
    return {
        "name": info.name, "variant": info.variant, "title": info.title, "rules": info.rules,
        "phase": info.phase, "phase_code": info.phase_code, "result": info.result,
        "players": info.players,
        "deadline": schedule.deadline.isoformat() if schedule.deadline else None,
        "timezone": schedule.timezone, "paused": schedule.paused,
        "grace_minutes": schedule.grace_minutes,
        "expected": list(status.expected), "submitted": list(status.submitted),
        "missing": list(status.missing), "ready": list(svc.ready(name, actor=v)),
        "under_review": svc.under_review(name, actor=v),
        "centres": {p.power: p.count for p in status.powers},
        "draw": {"rule": tally.rule, "voters": list(tally.voters), "cast": tally.cast,
                 "passed": tally.passed},
    }


@router.get("/games/{name}/powers/{power}/orders",
            summary="A power's standing orders and DP this phase (that power and the GM)",
            response_model=Report)
def orders(request: Request, name: str, power: str) -> dict[str, Any]:
    return _report(service(request).submissions(name, power, actor=api_viewer(request, name)))


@router.post("/games/{name}/powers/{power}/orders",
             summary="Submit a post of orders and DP; each line is answered",
             response_model=Report)
def submit(request: Request, name: str, power: str, post: Post) -> dict[str, Any]:
    throttle(request, "send", name, power)
    return _report(service(request).submit(name, power, post.text, actor=api_viewer(request, name),
                                           phase=post.phase))


@router.post("/games/{name}/powers/{power}/check",
             summary="Check a post line by line; nothing is kept", response_model=Report)
def check(request: Request, name: str, power: str, post: Post) -> dict[str, Any]:
    throttle(request, "check", name, power)
    return _report(service(request).check(name, power, post.text, actor=api_viewer(request, name)))


@router.get("/games/{name}/powers/{power}/posts", response_model=list[PostOut],
            summary="Every post of a power this phase, as written, each line answered "
                    "(that power and the GM)")
def posts(request: Request, name: str, power: str) -> list[dict[str, Any]]:
    return [{**asdict(p), "at": p.at.isoformat()} for p in
            service(request).posts(name, power, actor=api_viewer(request, name))]


@router.get("/games/{name}/posts", response_model=list[PostOut],
            summary="Every power's posts this phase (GM)")
def all_posts(request: Request, name: str) -> list[dict[str, Any]]:
    return [{**asdict(p), "at": p.at.isoformat()} for p in
            service(request).posts(name, None, actor=api_viewer(request, name))]


@router.get("/games/{name}/powers/{power}/options",
            summary="Each unit's legal orders now (that power and the GM)")
def options(request: Request, name: str, power: str) -> list[dict[str, Any]]:
    return [asdict(o) for o in
            service(request).unit_options(name, power, actor=api_viewer(request, name))]


@router.post("/games/{name}/powers/{power}/ready", summary="Set or clear the ready flag")
def ready(request: Request, name: str, power: str, flag: Flag) -> dict[str, Any]:
    svc = service(request)
    v = api_viewer(request, name)
    svc.set_ready(name, power, flag.value, actor=v)
    return {"ready": list(svc.ready(name, actor=v))}


@router.post("/games/{name}/powers/{power}/draw", summary="Cast a secret draw ballot")
def draw(request: Request, name: str, power: str, flag: Flag) -> dict[str, Any]:
    tally = service(request).vote_draw(name, power, flag.value, actor=api_viewer(request, name))
    return {"rule": tally.rule, "cast": tally.cast, "passed": tally.passed}


@router.get("/games/{name}/results", summary="A processed phase's results post")
def results(request: Request, name: str, phase: str | None = None,
            fmt: Literal["text", "markdown", "bbcode"] = "text", gm: bool = False
            ) -> dict[str, Any]:
    """``gm=true``: with the secret DP section (GMs only)."""
    v = api_viewer(request, name)
    return {"text": service(request).export(name, phase, fmt, gm=gm, actor=v,
                                            map_base=public_base(request))}


@router.get("/games/{name}/explain", summary="Why each result of a processed phase is what "
                                            "it is")
def explain(request: Request, name: str, phase: str | None = None, power: str | None = None,
            fmt: Literal["text", "markdown", "bbcode"] = "text", gm: bool = False
            ) -> dict[str, Any]:
    """The strengths compared, the supports that counted, the rule that decided.
    DP behind neutral units' orders as the caller may see them: a player its
    own allocations, ``gm=true`` (GMs only) every one."""
    v = api_viewer(request, name)
    return {"text": service(request).explain(name, phase, actor=v, power=power, fmt=fmt, gm=gm)}


@router.get("/games/{name}/history", summary="The public log of the game")
def history(request: Request, name: str) -> list[dict[str, Any]]:
    return [{"at": h.at.isoformat(), "actor": h.actor, "kind": h.kind, "summary": h.summary,
             "phase": h.phase, "undone": h.undone}
            for h in service(request).history(name, actor=api_viewer(request, name))]


@router.get("/games/{name}/map.svg", summary="The map (SVG); with orders as the caller may "
                                             "see them", response_class=Response)
def map_svg(request: Request, name: str, phase: str | None = None, orders: bool = False,
            board: Literal["map", "favor"] = "map",
            palette: Literal["standard", "colorblind"] = "standard") -> Response:
    """``board=favor``: Dissolution's Favor Map (§11), Embassy orders as the caller may see
    them. ``palette=colorblind``: the colour-blind-safe palette (docs/maps.md)."""
    svg = service(request).picture(name, phase, orders=orders, fmt="svg",
                                   actor=api_viewer(request, name), board=board,
                                   palette=palette)
    return Response(svg, media_type="image/svg+xml")


@router.get("/games/{name}/map.png", summary="The map (PNG, at most 2,000 px wide); with "
                                             "orders as the caller may see them",
            response_class=Response)
def map_png(request: Request, name: str, phase: str | None = None, orders: bool = False,
            board: Literal["map", "favor"] = "map",
            palette: Literal["standard", "colorblind"] = "standard") -> Response:
    """The SVG's picture, scaled down to a width forums and Discord accept."""
    png = service(request).picture(name, phase, orders=orders, fmt="png",
                                   actor=api_viewer(request, name), board=board,
                                   max_width=MAX_PNG_WIDTH, palette=palette)
    return Response(png, media_type="image/png")



