"""The GM's part of the JSON API: what the GM does on the game page, for bots
and scripts, through the same service calls and the same authorisation.

Every route asks the service with the caller's viewer (:func:`.auth.api_viewer`);
the service refuses (403) whoever is not a GM of that game. Creating a game
needs the server's GM token.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from ..service import GM, PUBLIC
from ..service.deadlines import Schedule, check_schedule
from .auth import api_grant, api_viewer, public_base, service
from .offers import offered_variant

__all__ = ["router"]

router = APIRouter(prefix="/api/v1", tags=["GM"])


class NewGame(BaseModel):
    variant: str = Field(description="s9-complete, s9-basic, ood, dissolution, standard, ...",
                         max_length=200)
    name: str = Field(max_length=100)
    rules: dict[str, str] = Field(default_factory=dict,
                                  description="House rules: option -> value")
    players: dict[str, str] = Field(default_factory=dict,
                                    description="Power -> the player's name")
    phase_minutes: int | None = Field(None, ge=1, description="Phase length; none: the GM "
                                                              "processes by hand")
    grace_minutes: int = Field(0, ge=0)
    timezone: str = Field("UTC", max_length=64, description="e.g. Europe/Berlin")


class ScheduleIn(BaseModel):
    phase_minutes: int | None = Field(None, ge=1, description="none: no deadline")
    grace_minutes: int = Field(0, ge=0)
    timezone: str = Field("UTC", max_length=64)


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


class LinkIn(BaseModel):
    seat: str = Field(max_length=100, description="A power, or 'gm' for a co-GM of this game")
    player: str | None = Field(None, max_length=200,
                               description="The player's name (recorded for the power)")


class LinkOut(BaseModel):
    seat: str
    token: str = Field(description="Shown once; the server keeps only its hash")
    link: str


class Seats(BaseModel):
    seats: list[str] = Field(description="Seats with a live link (never the links)")


class Revoked(BaseModel):
    revoked: int


class PlayerIn(BaseModel):
    player: str = Field(min_length=1, max_length=200)


class BotIn(BaseModel):
    bot: str = Field(min_length=1, max_length=40, description="random, hold or tactician")


class Minutes(BaseModel):
    minutes: int = Field(ge=1, le=60 * 24 * 366)


class UndoIn(BaseModel):
    to: str | None = Field(None, max_length=100, description="Roll back to this phase (code, "
                                                             "label or number); none: one")
    phase: str | None = Field(None, max_length=100, description=(
        "The phase the game is at as you see it (`S1902M`): if it has moved on, nothing is "
        "rolled back and the answer is 409"))


class Phase(BaseModel):
    phase: str = Field(description="The current phase after the action")


class RuleIn(BaseModel):
    value: str = Field(max_length=200)


class DrawRuleIn(BaseModel):
    rule: Literal["none", "unanimous", "majority"]


class Done(BaseModel):
    done: str = Field(description="What was done, as the game's log says it")


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
    info = svc.create_game(variant, body.name, body.rules, body.players, actor=GM)
    if body.phase_minutes or body.grace_minutes or body.timezone.strip() not in ("", "UTC"):
        svc.set_schedule(info.name, body.phase_minutes, body.grace_minutes,
                         body.timezone.strip() or "UTC", actor=GM)
    return Created(name=info.name, variant=info.variant, phase=info.phase,
                   schedule=_schedule(svc.schedule(info.name, actor=GM)))


@router.get("/games/{name}/links", summary="Seats with a live secret link (GM)",
            response_model=Seats)
def seats(request: Request, name: str) -> Seats:
    return Seats(seats=service(request).linked_seats(name, actor=api_viewer(request, name)))


@router.post("/games/{name}/links", summary="Issue a seat's secret link; revokes its old one "
                                            "(GM)", response_model=LinkOut)
def issue(request: Request, name: str, body: LinkIn) -> LinkOut:
    svc = service(request)
    v = api_viewer(request, name)
    if not v.gm:  # before anything is written
        raise HTTPException(403, "only the GM may issue links")
    if body.player and body.seat.strip().lower() != "gm":
        svc.set_player(name, body.seat, body.player, actor=v)
    token = svc.issue_link(name, body.seat, actor=v)
    base = public_base(request)
    return LinkOut(seat=body.seat.strip(), token=token, link=f"{base}/join/{token}")


@router.delete("/games/{name}/links/{seat}", summary="Revoke a seat's links (GM)",
               response_model=Revoked)
def revoke(request: Request, name: str, seat: str) -> Revoked:
    return Revoked(revoked=service(request).revoke_links(name, seat,
                                                         actor=api_viewer(request, name)))


@router.put("/games/{name}/players/{power}", summary="Record who plays a power (GM)",
            response_model=Done)
def set_player(request: Request, name: str, power: str, body: PlayerIn) -> Done:
    service(request).set_player(name, power, body.player, actor=api_viewer(request, name))
    return Done(done=f"{power} is played by {body.player}")


@router.put("/games/{name}/bots/{power}",
            summary="Seat a bot at a power until a player is named for it (GM)",
            response_model=Done)
def seat_bot(request: Request, name: str, power: str, body: BotIn) -> Done:
    service(request).seat_bot(name, power, body.bot, actor=api_viewer(request, name))
    return Done(done=f"{power} is played by the {body.bot} bot")


@router.put("/games/{name}/schedule", summary="Set the deadlines (GM)",
            response_model=ScheduleOut)
def set_schedule(request: Request, name: str, body: ScheduleIn) -> ScheduleOut:
    svc = service(request)
    svc.set_schedule(name, body.phase_minutes, body.grace_minutes,
                     body.timezone.strip() or "UTC", actor=api_viewer(request, name))
    return _schedule(svc.schedule(name, actor=PUBLIC))


@router.post("/games/{name}/pause", summary="Pause the deadline (GM)",
             response_model=ScheduleOut)
def pause(request: Request, name: str) -> ScheduleOut:
    svc = service(request)
    svc.pause(name, actor=api_viewer(request, name))
    return _schedule(svc.schedule(name, actor=PUBLIC))


@router.post("/games/{name}/resume", summary="Resume the deadline (GM)",
             response_model=ScheduleOut)
def resume(request: Request, name: str) -> ScheduleOut:
    svc = service(request)
    svc.resume(name, actor=api_viewer(request, name))
    return _schedule(svc.schedule(name, actor=PUBLIC))


@router.post("/games/{name}/extend", summary="Extend the deadline (GM)",
             response_model=ScheduleOut)
def extend(request: Request, name: str, body: Minutes) -> ScheduleOut:
    return _schedule(service(request).extend(name, body.minutes, actor=api_viewer(request, name)))


@router.post("/games/{name}/undo", summary="Roll back one phase, or to a phase (GM)",
             response_model=Phase)
def undo(request: Request, name: str, body: UndoIn | None = None) -> Phase:
    to = body.to if body else None
    return Phase(phase=service(request).undo(name, to=to, actor=api_viewer(request, name),
                                             phase=body.phase if body else None))


@router.post("/games/{name}/powers/{power}/eliminate",
             summary="A dropped player: eliminated at the next Census (S9 §3.4.2; GM)",
             response_model=Done)
def eliminate(request: Request, name: str, power: str) -> Done:
    service(request).force_elimination(name, power, actor=api_viewer(request, name))
    return Done(done=f"{power} is eliminated at the next Census")


@router.post("/games/{name}/powers/{power}/remove-exile",
             summary="Remove a Player in Exile from the game (Dissolution §5.3; GM)",
             response_model=Done)
def remove_exile(request: Request, name: str, power: str) -> Done:
    service(request).remove_exile(name, power, actor=api_viewer(request, name))
    return Done(done=f"{power} is removed from the game")


@router.put("/games/{name}/rules/{key}", summary="Change a house rule (GM)",
            response_model=Done)
def set_rule(request: Request, name: str, key: str, body: RuleIn) -> Done:
    service(request).set_rule(name, key, body.value, actor=api_viewer(request, name))
    return Done(done=f"house rule {key} = {body.value}")


@router.put("/games/{name}/draw-rule", summary="Set the draw rule (GM)", response_model=Done)
def draw_rule(request: Request, name: str, body: DrawRuleIn) -> Done:
    service(request).set_draw_rule(name, body.rule, actor=api_viewer(request, name))
    return Done(done=f"draw rule {body.rule}")


@router.post("/games/{name}/reveal-dp",
             summary="Reveal every DP allocation after the game (S9 §9.0; GM)",
             response_model=Done)
def reveal_dp(request: Request, name: str) -> Done:
    service(request).reveal_dp(name, actor=api_viewer(request, name))
    return Done(done="DP allocations revealed")
