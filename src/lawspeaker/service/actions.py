"""The GM's actions, each defined once.

Every GM action (process, publish, pause, extend, eliminate, ...) is one
:class:`GMAction` in :data:`ACTIONS`: its name, its arguments with their types and
limits (:class:`Param`), who may run it, what it changes, the history entry it
writes and the answer it gives. The front ends are made from this table or
dispatch through :func:`perform`: the web page's GM forms (``POST
/games/{name}/gm/{action}``), the JSON API (one route per action, at the path the
action names), the CLI (``lawspeaker game ACTION NAME ...``) and the Discord
commands (``/gm ACTION``). So the four agree on names, arguments, validation and
wording, a bad argument gets the same sentence everywhere, and a new action is one
definition here plus its tests.

Who may run an action is decided here and in the service call it makes, never in a
front end: :func:`perform` refuses anyone but a GM of the game before it reads an
argument, and the call refuses again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .types import MAX_MINUTES, NotFound, ServiceError, Viewer, require_gm

if TYPE_CHECKING:
    from .deadlines import Schedule

GameService = Any
"""The facade (:class:`lawspeaker.service.games.GameService`), which imports this
table: named, not imported, so the table stays light (the CLI builds its help from
it without loading the store) and the import graph keeps no circle."""

__all__ = ["ACTIONS", "ActionResult", "GMAction", "Param", "perform"]

Kind = Literal["text", "power", "seat", "minutes", "choice", "phase", "bot"]


@dataclass(frozen=True, slots=True)
class Param:
    """One argument of an action: how every front end asks for it and checks it."""

    name: str
    kind: Kind
    help: str
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    low: int = 0
    """``minutes``: the least accepted (0 allows "none")."""
    high: int = MAX_MINUTES
    max_length: int = 200
    path: bool = False
    """The JSON API takes it from the route's path (``/powers/{power}/...``)."""

    def parse(self, action: str, raw: object) -> Any:
        """The value of a raw argument (a form field, a JSON value, a command-line
        word, a slash-command option), or a :class:`ServiceError` saying what is
        wrong with it in words every front end shows alike."""
        where = f"{action}: {self.name}"
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if self.required:
                raise ServiceError(f"{where} is missing ({self.help})")
            return self.default
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise ServiceError(f"{where} must be {self._what()}")
        text = str(raw).strip()
        if len(text) > self.max_length:
            raise ServiceError(f"{where} is at most {self.max_length} characters")
        if self.kind == "minutes":
            if self.low == 0 and text.lower() in ("none", "off", "no"):
                return 0
            return self._minutes(where, raw)
        if self.kind in ("choice", "bot"):
            choices = self.choices or _bot_names()
            value = text.lower()
            if value not in choices:
                raise ServiceError(f"{where} must be one of {', '.join(choices)} "
                                   f"(not '{text[:40]}')")
            return value
        return text

    def _minutes(self, where: str, raw: object) -> int | None:
        minutes = duration_minutes(raw)
        if minutes is None:
            raise ServiceError(f"{where} must be {self._what()} (not '{str(raw)[:40]}')")
        if minutes == 0 and self.low == 0:
            return 0
        if not max(self.low, 1) <= minutes <= self.high:
            least = "0 (none)" if self.low == 0 else f"{self.low} min"
            raise ServiceError(f"{where} must be from {least} to {self.high // (60 * 24)} "
                               "days")
        return minutes

    def _what(self) -> str:
        if self.kind == "minutes":
            return "a duration: minutes (90), or with a unit: 90m, 12h, 1.5h, 2d"
        if self.kind in ("choice", "bot"):
            return "one of " + ", ".join(self.choices or _bot_names())
        return "text"

    @property
    def json_type(self) -> str:
        return "integer" if self.kind == "minutes" else "string"


@dataclass(frozen=True, slots=True)
class ActionResult:
    """The answer every front end gives: ``message`` (a sentence for the GM) and
    ``data`` (what the JSON API adds: the schedule, the phase, a preview, ...)."""

    message: str
    data: Mapping[str, Any] = field(default_factory=dict)


Runner = Callable[[GameService, str, Viewer, dict[str, Any]], ActionResult]


@dataclass(frozen=True, slots=True)
class GMAction:
    name: str
    """As every front end names it: ``remove-exile``, ``/gm remove-exile``."""
    summary: str
    """One line of help (CLI, Discord, OpenAPI, the web page's title)."""
    changes: str
    """What it changes, for the docs and the OpenAPI description."""
    history: str
    """The kind of the history entry it writes (:meth:`GameService.history`)."""
    run: Runner
    params: tuple[Param, ...] = ()
    http: tuple[str, str] = ("POST", "")
    """The JSON API's method and path below ``/api/v1`` (``{name}`` the game)."""
    who: Literal["gm"] = "gm"
    """Who may run it: a GM of the game (the server's GM is GM of every game)."""

    def parse(self, raw: Mapping[str, object]) -> dict[str, Any]:
        known = {p.name for p in self.params}
        extra = sorted(k for k in raw if k not in known)
        if extra:
            takes = ", ".join(sorted(known)) or "no arguments"
            raise ServiceError(f"{self.name} takes {takes}, not {', '.join(extra)}")
        return {p.name: p.parse(self.name, raw.get(p.name)) for p in self.params}


def perform(service: GameService, game: str, action: str, raw: Mapping[str, object],
            actor: Viewer) -> ActionResult:
    """Run the GM action ``action`` on ``game`` with raw arguments, as ``actor``."""
    found = ACTIONS.get(action)
    if found is None:
        raise NotFound(f"there is no GM action '{action[:40]}' (actions: "
                       f"{', '.join(ACTIONS)})")
    require_gm(actor)  # before any argument is read
    return found.run(service, game, actor, found.parse(raw))


def duration_minutes(raw: object) -> int | None:
    """Minutes from ``90``, ``90m``, ``12h``, ``1.5h``, ``2d`` (None: unreadable)."""
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return round(raw) if math.isfinite(raw) and raw >= 0 else None
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hours?|d|days?)?\s*",
                         str(raw).lower())
    if not found:
        return None
    unit = (found.group(2) or "m")[0]
    return round(float(found.group(1)) * {"m": 1, "h": 60, "d": 60 * 24}[unit])


def _bot_names() -> tuple[str, ...]:
    from ..sim.bots import bot_names

    return tuple(bot_names())


# --- the actions ------------------------------------------------------------------------

_PHASE = Param("phase", "phase", "the phase you mean, as your page shows it (S1901M): "
               "nothing is done if the game has moved on", required=False, max_length=100)
_POWER = Param("power", "power", "the power", path=True, max_length=100)


def _length(minutes: int) -> str:
    if minutes % (60 * 24) == 0:
        return f"{minutes // (60 * 24)} day(s)"
    if minutes % 60 == 0:
        return f"{minutes // 60} hour(s)"
    return f"{minutes} min"


def _schedule(s: Schedule) -> dict[str, Any]:
    return {"phase_minutes": s.phase_minutes, "grace_minutes": s.grace_minutes,
            "timezone": s.timezone, "paused": s.paused,
            "deadline": s.deadline.isoformat() if s.deadline else None}


def _process(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    from .review import Preview

    done = svc.process(game, actor=v, phase=a["phase"])
    if isinstance(done, Preview):
        return ActionResult(f"{done.phase} is adjudicated into a preview only you see "
                            f"(next: {done.next_phase}). Publish it, or discard it.",
                            {"preview": done.as_dict()})
    return ActionResult(f"{done.phase} processed. Now: {done.status.phase}.",
                        {"processed": done.phase, "now": done.status.phase})


def _publish(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    record = svc.publish(game, actor=v, phase=a["phase"])
    return ActionResult(f"{record.phase} published. Now: {record.status.phase}.",
                        {"processed": record.phase, "now": record.status.phase})


def _discard(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    label = svc.discard(game, actor=v, phase=a["phase"])
    return ActionResult(f"The preview of {label} is discarded; the game stays in {label}.",
                        {"phase": label})


def _undo(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    label = svc.undo(game, a["to"], actor=v, phase=a["phase"])
    return ActionResult(f"Rolled back to {label}; its orders stand again.", {"phase": label})


def _pause(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.pause(game, actor=v)
    return ActionResult(f"{game} is paused: the deadline is held.",
                        _schedule(svc.schedule(game, actor=v)))


def _resume(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.resume(game, actor=v)
    schedule = svc.schedule(game, actor=v)
    return ActionResult(f"{game} resumes: {schedule.deadline_text()}.", _schedule(schedule))


def _extend(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    schedule = svc.extend(game, a["minutes"], actor=v)
    return ActionResult(f"{game}: the deadline is extended by {_length(a['minutes'])}: "
                        f"{schedule.deadline_text()}.", _schedule(schedule))


def _set_schedule(svc: GameService, game: str, v: Viewer, a: dict[str, Any]
                  ) -> ActionResult:
    current = svc.schedule(game, actor=v)
    length = current.phase_minutes if a["phase_minutes"] is None else a["phase_minutes"]
    grace = current.grace_minutes if a["grace_minutes"] is None else a["grace_minutes"]
    zone = a["timezone"] or current.timezone or "UTC"
    schedule = svc.set_schedule(game, length or None, grace, zone, actor=v)
    length = _length(schedule.phase_minutes) if schedule.phase_minutes else \
        "until the GM processes it"
    return ActionResult(f"{game}: {schedule.deadline_text()} (a phase runs {length}, grace "
                        f"{schedule.grace_minutes} min, time zone {schedule.timezone}).",
                        _schedule(schedule))


def _draw_rule(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.set_draw_rule(game, a["rule"], actor=v)
    return ActionResult(f"{game}: a draw passes by the rule '{a['rule']}'.")


def _player(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.set_player(game, a["power"], a["player"], actor=v)
    return ActionResult(f"{a['power']} is played by {a['player']}.")


def _link(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    seat = a["seat"]
    if a["player"] and seat.lower() != "gm":
        svc.set_player(game, seat, a["player"], actor=v)
    token = svc.issue_link(game, seat, actor=v)
    return ActionResult(f"A new secret link for {seat}: send it to its player privately; "
                        "any older link of the seat no longer works.",
                        {"seat": seat, "token": token})


def _revoke(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    count = svc.revoke_links(game, a["seat"], actor=v)
    return ActionResult(f"{count} link(s) of {a['seat']} revoked.", {"revoked": count})


def _bot(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.seat_bot(game, a["power"], a["bot"], actor=v)
    return ActionResult(f"{a['power']} is played by the {a['bot']} bot until you name a "
                        "player for it.")


def _eliminate(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.force_elimination(game, a["power"], actor=v)
    cite = svc.variant_of(game, actor=v).cite
    return ActionResult(cite(f"{a['power']} is dropped and will be eliminated at the next "
                             "Census (S9 §3.4.2)."))


def _remove_exile(svc: GameService, game: str, v: Viewer, a: dict[str, Any]
                  ) -> ActionResult:
    svc.remove_exile(game, a["power"], actor=v)
    return ActionResult(f"{a['power']} is removed from the game: no more DP "
                        "(Dissolution §5.3).")


def _rule(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    svc.set_rule(game, a["key"], a["value"], actor=v)
    return ActionResult(f"{game}: house rule {a['key']} = {a['value']}, from this phase on.")


def _reveal_dp(svc: GameService, game: str, v: Viewer, a: dict[str, Any]) -> ActionResult:
    from .records import dp_secrecy_rule  # the rule the refusal cites too

    svc.reveal_dp(game, actor=v)
    rule = dp_secrecy_rule(svc.variant_of(game, actor=v))
    return ActionResult(f"{game}: every DP allocation is revealed ({rule}).")


_SEAT = Param("seat", "seat", "a power, or gm for a co-GM of this game", max_length=100)

ACTIONS: dict[str, GMAction] = {a.name: a for a in (
    GMAction("process", "Adjudicate the phase now (with review on: into a preview only you "
             "see)", "the phase and the game's timeline, or a preview", "processed",
             _process, (_PHASE,), ("POST", "/games/{name}/process")),
    GMAction("publish", "Publish the preview: it becomes the next phase, as a Process would",
             "the game's timeline", "processed", _publish, (_PHASE,),
             ("POST", "/games/{name}/publish")),
    GMAction("discard", "Discard the preview; the game stays in its phase", "the preview",
             "review", _discard, (_PHASE,), ("POST", "/games/{name}/discard")),
    GMAction("undo", "Roll back to an earlier phase (default: the one before)",
             "the game's timeline (rolled-back phases stay on record)", "undone", _undo,
             (Param("to", "phase", "the phase to go back to (default: the one before)",
                    required=False, max_length=100), _PHASE),
             ("POST", "/games/{name}/undo")),
    GMAction("pause", "Pause the game: the deadline stops", "the deadline", "pause", _pause,
             (), ("POST", "/games/{name}/pause")),
    GMAction("resume", "Resume a paused game (the time left is given back)", "the deadline",
             "resume", _resume, (), ("POST", "/games/{name}/resume")),
    GMAction("extend", "Move the deadline later", "the deadline", "deadline", _extend,
             (Param("minutes", "minutes", "by how long: 90, 90m, 12h, 2d", low=1),),
             ("POST", "/games/{name}/extend")),
    GMAction("schedule", "Set how long each phase runs, the grace period and the time zone",
             "the deadlines (the current phase's starts now)", "deadline", _set_schedule,
             (Param("phase_minutes", "minutes", "how long a phase runs (12h, 2d); 0 or "
                    "none: no deadline, the GM processes by hand (default: as now)",
                    required=False),
              Param("grace_minutes", "minutes", "how long late orders are still awaited "
                    "(default: as now)", required=False),
              Param("timezone", "text", "where deadlines are read, e.g. Europe/Berlin "
                    "(default: as now)", required=False, max_length=64)),
             ("PUT", "/games/{name}/schedule")),
    GMAction("draw-rule", "How draw votes pass", "the draw rule", "rule", _draw_rule,
             (Param("rule", "choice", "none, unanimous or majority",
                    choices=("none", "unanimous", "majority")),),
             ("PUT", "/games/{name}/draw-rule")),
    GMAction("player", "Record who plays a power (replacing a dropped player)",
             "the power's player", "player", _player,
             (_POWER, Param("player", "text", "the player's name")),
             ("PUT", "/games/{name}/players/{power}")),
    GMAction("link", "Issue a seat's secret link (revokes its old one)",
             "the seat's links (and its player, if named)", "link", _link,
             (_SEAT, Param("player", "text", "the player's name, recorded for the power",
                           required=False)),
             ("POST", "/games/{name}/links")),
    GMAction("revoke", "Revoke a seat's secret links", "the seat's links", "link", _revoke,
             (Param("seat", "seat", "a power, or gm", path=True, max_length=100),),
             ("DELETE", "/games/{name}/links/{seat}")),
    GMAction("bot", "Give a power's seat to a bot until a player is named for it",
             "the power's seat", "player", _bot,
             (_POWER, Param("bot", "bot", "which bot", required=False, default="tactician")),
             ("PUT", "/games/{name}/bots/{power}")),
    GMAction("eliminate", "A dropped player's power is eliminated at the next Census "
             "(S9 §3.4.2)", "the power: eliminated at the next Census", "eliminate",
             _eliminate, (_POWER,), ("POST", "/games/{name}/powers/{power}/eliminate")),
    GMAction("remove-exile", "Remove a Player in Exile from the game (Dissolution §5.3)",
             "the power: no more DP", "remove-exile", _remove_exile, (_POWER,),
             ("POST", "/games/{name}/powers/{power}/remove-exile")),
    GMAction("rule", "Change a house rule from the current phase on", "the house rules",
             "rule", _rule,
             (Param("key", "text", "the option, e.g. reveal_dp_at_end", path=True,
                    max_length=100),
              Param("value", "text", "its value")),
             ("PUT", "/games/{name}/rules/{key}")),
    GMAction("reveal-dp", "After the game: reveal every DP allocation (S9 §9.0)",
             "who may read the DP allocations", "reveal-dp", _reveal_dp, (),
             ("POST", "/games/{name}/reveal-dp")),
)}
"""Every GM action, by name, in the order front ends list them."""
