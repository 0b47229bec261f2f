"""The what-if sandbox on the web: a page beside the order form, and the API.

Both ask :meth:`lawspeaker.service.GameService.whatif`, which writes
nothing. The page keeps no state on the server: every phase the player has
written travels in the form, and each request replays them from the game's
current phase, so a sandbox is as private as the player's own browser.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ..service import Forbidden, NotFound, PhaseChanged, SandboxRun, ServiceError, Viewer
from ..service.sandbox import MAX_STEPS
from .auth import api_viewer, check_csrf, service, throttle, viewer
from .sizes import MAX_POST

__all__ = ["api_router", "page_router"]

page_router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/v1", tags=["games"])


def _seat(v: Viewer) -> str:
    return "gm" if v.gm else str(v.power or "public")


def _svg(run: SandboxRun, n: int) -> str:
    """A step's map: its orders and their results."""
    from ..render import draw

    step = run.steps[n]
    return draw(run.variant, step.before, results=step.results,
                subtitle=f"{run.game}: what if (a sandbox, nothing sent)").svg()


def _picture(run: SandboxRun, n: int) -> str:
    """The map as a data URI the page's image shows: it needs no request of its
    own, because the sandbox exists only in this answer."""
    return "data:image/svg+xml;base64," + base64.b64encode(_svg(run, n).encode()).decode()


def _steps(form: Any) -> list[str]:
    steps = [str(s) for s in form.getlist("step")][:MAX_STEPS]
    if sum(len(s) for s in steps) > MAX_POST * 2:
        raise HTTPException(413, f"a sandbox's orders are at most {MAX_POST * 2} characters")
    return steps


@page_router.get("/games/{name}/sandbox")
def sandbox_page(request: Request, name: str) -> Response:
    return _page(request, name, [""], None, submitted=True, error=None)


@page_router.post("/games/{name}/sandbox")
async def sandbox_run(request: Request, name: str) -> Response:
    form = await request.form()
    check_csrf(request, str(form.get("csrf", "")))
    steps = _steps(form)
    action = str(form.get("action", "run"))
    if action == "drop" and len(steps) > 1:
        steps = steps[:-1]
    submitted = form.get("submitted") == "yes"
    v = viewer(request, name)
    throttle(request, "sandbox", name, _seat(v))
    phase = str(form.get("phase", "")) or None
    try:
        run = service(request).whatif(name, steps or [""], actor=v, phase=phase,
                                      submitted=submitted)
    except (Forbidden, NotFound):
        raise
    except ServiceError as exc:  # said above the boxes, the orders kept for another try
        return _page(request, name, steps, None, submitted, error=str(exc),
                     status=409 if isinstance(exc, PhaseChanged) else 400)
    if action == "next" and len(steps) < MAX_STEPS and not run.position.result:
        steps = [*steps, ""]
    return _page(request, name, steps, run, submitted, error=None)


def _page(request: Request, name: str, steps: list[str], run: SandboxRun | None,
          submitted: bool, error: str | None, status: int = 200) -> Response:
    from .pages import render

    svc = service(request)
    v = viewer(request, name)
    if not v.gm and v.power is None:
        raise HTTPException(403, "the sandbox is for the game's players and its GM: open "
                                 "your secret link first")
    info = svc.game(name, actor=v)
    shown = []
    for n, text in enumerate(steps):
        step = run.steps[n] if run is not None and n < len(run.steps) else None
        shown.append({"text": text, "step": step,
                      "post": run.post_of(n) if run is not None and step else None,
                      "picture": _picture(run, n) if run is not None and step else None})
    next_phase = None
    if run is not None:
        next_phase = run.variant.phase_label(run.position.phase)
    return render(request, "sandbox.html", {
        "info": info, "viewer": v, "steps": shown, "run": run, "submitted": submitted,
        "error": error, "max_steps": MAX_STEPS, "next_phase": next_phase,
        "over": run.position.result if run is not None else None}, status=status)


class SandboxIn(BaseModel):
    steps: list[str] = Field(default_factory=lambda: [""], max_length=MAX_STEPS, description=(
        "One post per phase, from the current one on: orders and DP allocations for any "
        "powers, as players write them (a header such as `France:` names the power; "
        "a player's own lines need none). Units without an order hold."))
    phase: str | None = Field(None, max_length=100, description=(
        "The phase you mean to start from (its code): 409 if the game has moved on."))
    submitted: bool = Field(True, description=(
        "Start from your standing orders and DP (the GM's: every power's); a written line "
        "for the same unit replaces the standing one."))
    fmt: Literal["text", "markdown", "bbcode"] = "text"
    map: bool = Field(False, description="Include each step's map as SVG text")


@api_router.post("/games/{name}/sandbox",
                 summary="What if: adjudicate orders that are not sent (players and GM); "
                         "nothing is kept")
def sandbox_api(request: Request, name: str, body: SandboxIn) -> dict[str, Any]:
    if sum(len(s) for s in body.steps) > MAX_POST * 2:
        raise HTTPException(413, f"a sandbox's orders are at most {MAX_POST * 2} characters")
    v = api_viewer(request, name)
    throttle(request, "sandbox", name, _seat(v))
    run = service(request).whatif(name, body.steps, actor=v, phase=body.phase,
                                  submitted=body.submitted)
    steps = []
    for n, step in enumerate(run.steps):
        out: dict[str, Any] = {
            "phase": step.phase, "phase_code": step.code,
            "lines": [{"number": ln.number, "text": ln.text, "status": ln.status,
                       "message": ln.message, "canonical": ln.canonical}
                      for ln in step.lines],
            "results": run.post_of(n, body.fmt)}
        if body.map:
            out["map_svg"] = _svg(run, n)
        steps.append(out)
    return {"game": run.game, "as": run.who, "start": run.start, "start_code": run.start_code,
            "note": run.banner, "steps": steps,
            "next": run.variant.phase_label(run.position.phase),
            "result": run.position.result}
