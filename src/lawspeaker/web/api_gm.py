"""The GM's part of the JSON API: what the GM does on the game page, for bots
and scripts, through the same service calls and the same authorisation.

The GM's actions are routes made from the service's table
(:data:`lawspeaker.service.actions.ACTIONS`): one per action, at the path it
names, dispatching through :meth:`GameService.act` with the caller's viewer
(:func:`.auth.api_viewer`), so the API agrees with the web page, the CLI and
Discord on names, arguments and messages; the service refuses (403) whoever is
not a GM of that game. Creating a game needs the server's GM token.
"""

from __future__ import annotations

import inspect
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, create_model

from ..service import GM, Viewer
from ..service.actions import ACTIONS, ActionResult, GMAction
from ..service.deadlines import Schedule, check_schedule
from .auth import api_grant, api_viewer, public_base, service
from .offers import offered_variant

__all__ = ["router"]

router = APIRouter(prefix="/api/v1", tags=["GM"])


class NewGame(BaseModel):
    variant: str = Field(description="s9-complete, s9-basic, ood, dissolution, standard, ...",
                         max_length=200)
    name: str = Field(max_length=100)
    rules: dict[str, str | bool | int | float] = Field(
        default_factory=dict, description="House rules: option -> value; a number or a "
                                          "boolean where the rule is one (true: yes)")
    players: dict[str, str] = Field(default_factory=dict,
                                    description="Power -> the player's name")
    phase_minutes: int | None = Field(None, ge=1, description="Phase length; none: the GM "
                                                              "processes by hand")
    grace_minutes: int = Field(0, ge=0)
    timezone: str = Field("UTC", max_length=64, description="e.g. Europe/Berlin")


class ScheduleOut(BaseModel):
    phase_minutes: int | None
    grace_minutes: int
    timezone: str
    deadline: str | None = Field(description="ISO 8601, UTC")
    paused: bool


class Created(BaseModel):
    name: str
    variant: str
    phase: str
    schedule: ScheduleOut


class Seats(BaseModel):
    seats: list[str] = Field(description="Seats with a live link (never the links)")


def _schedule(s: Schedule) -> ScheduleOut:
    return ScheduleOut(phase_minutes=s.phase_minutes, grace_minutes=s.grace_minutes,
                       timezone=s.timezone, paused=s.paused,
                       deadline=s.deadline.isoformat() if s.deadline else None)


@router.post("/games", summary="Create a game (the server's GM)", response_model=Created)
def create(request: Request, body: NewGame) -> Created:
    grant = api_grant(request)
    if grant is None or grant.game is not None:
        raise HTTPException(403, "only the server's GM may create games")
    svc = service(request)
    check_schedule(body.phase_minutes, body.grace_minutes, body.timezone.strip() or "UTC")
    variant = offered_variant(request, body.variant)  # a name, never a path
    rules = {key: _rule_text(value) for key, value in body.rules.items()}
    info = svc.create_game(variant, body.name, rules, body.players, actor=GM)
    if body.phase_minutes or body.grace_minutes or body.timezone.strip() not in ("", "UTC"):
        svc.set_schedule(info.name, body.phase_minutes, body.grace_minutes,
                         body.timezone.strip() or "UTC", actor=GM)
    return Created(name=info.name, variant=info.variant, phase=info.phase,
                   schedule=_schedule(svc.schedule(info.name, actor=GM)))


def _rule_text(value: str | bool | int | float) -> str:
    """A house rule's value as the service reads it: ``true`` -> ``yes``, ``2`` and
    ``2.0`` -> ``2``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@router.get("/games/{name}/links", summary="Seats with a live secret link (GM)",
            response_model=Seats)
def seats(request: Request, name: str) -> Seats:
    return Seats(seats=service(request).linked_seats(name, actor=api_viewer(request, name)))


@router.get("/games/{name}/preview", summary="The results preview waiting for review (GM)")
def preview(request: Request, name: str) -> dict[str, Any]:
    """With the house rule ``review=yes``, ``POST .../process`` adjudicates into a
    preview only the GM sees: its results post (public and secret parts), the next
    phase, whether it is stale. ``{"preview": null}`` when there is none."""
    found = service(request).preview(name, actor=api_viewer(request, name))
    return {"preview": None if found is None else found.as_dict()}


# --- the GM's actions, one route each, made from the service's table ---------------------

def _answer(request: Request, name: str, action: GMAction, done: ActionResult,
            viewer: Viewer) -> dict[str, Any]:
    """The JSON shape: ``done`` (the sentence every front end gives) and the
    action's data; a new link also as a URL on this server, a processed phase
    with its public results post."""
    out: dict[str, Any] = {"done": done.message, **done.data}
    if "token" in out:
        out["link"] = f"{public_base(request)}/join/{out['token']}"
    if action.name in ("process", "publish") and "processed" in out:
        out["results"] = service(request).export(name, out["processed"], "text", actor=viewer)
    return out


def _body_model(action: GMAction) -> type[BaseModel] | None:
    fields: dict[str, Any] = {
        p.name: (str | int | None, Field(None, description=p.help + (
            "" if p.kind != "minutes" else " (minutes, or text such as 12h, 2d)")))
        for p in action.params if not p.path}
    if not fields:
        return None
    # Extra fields are kept, so the table refuses them with its own sentence.
    return create_model(f"{action.name.title().replace('-', '')}In",
                        __config__=ConfigDict(extra="allow"), **fields)


def _add(action: GMAction) -> None:
    method, path = action.http
    body_model = _body_model(action)
    path_params = [p for p in action.params if p.path]

    def run(request: Request, name: str, body: dict[str, Any]) -> dict[str, Any]:
        # JSON null for a duration is "none" (no deadline); for anything else, not given
        kinds = {p.name: p.kind for p in action.params}
        raw: dict[str, object] = {k: "none" if v is None else v for k, v in body.items()
                                  if v is not None or kinds.get(k) == "minutes"}
        raw.update({p.name: request.path_params[p.name] for p in path_params})
        viewer = api_viewer(request, name)
        done = service(request).act(name, action.name, raw, actor=viewer)
        return _answer(request, name, action, done, viewer)

    def endpoint(request: Request, name: str, body: BaseModel | None = None
                 ) -> dict[str, Any]:
        return run(request, name, body.model_dump(exclude_unset=True) if body is not None else {})

    # FastAPI reads the body's model from the signature: this action's own (the
    # module's annotations are strings, so the real types are given here).
    endpoint.__annotations__ = {"request": Request, "name": str, "return": dict[str, Any]}
    if body_model is not None:
        endpoint.__annotations__["body"] = body_model | None
    else:
        endpoint.__signature__ = inspect.signature(endpoint).replace(  # type: ignore[attr-defined]
            parameters=[inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                          annotation=Request),
                        inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                          annotation=str)])

    endpoint.__name__ = action.name.replace("-", "_")
    router.add_api_route(
        path, endpoint, methods=[method], summary=f"{action.summary} (GM)",
        description=f"Changes: {action.changes}. Answers `done` (what was done, as every "
                    "front end says it) and the action's data. A bad argument: 400 with "
                    "the same sentence as the web page, the CLI and Discord give.",
        openapi_extra={"parameters": [
            {"name": p.name, "in": "path", "required": True, "description": p.help,
             "schema": {"type": "string"}} for p in path_params]} if path_params else None)


for _action in ACTIONS.values():
    _add(_action)
