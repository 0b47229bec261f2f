"""The values the game service speaks in: who asks (:class:`Viewer`), what it
refuses (:class:`ServiceError`), and the reports it returns.

Kept apart from :mod:`lawspeaker.service` so the service's parts (the loader,
order entry, processing, records, access, deadlines, ballots, ...) and the
front ends can share them without importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["GM", "MAX_MINUTES", "PUBLIC", "SCHEDULER", "DPCap", "DPLimits", "Forbidden", "GameInfo",
           "HistoryEntry", "LineReport", "NotFound", "PhaseChanged", "ServiceError",
           "SubmissionReport", "Viewer", "checked_name", "require_gm"]


class ServiceError(ValueError):
    """A request the service refuses; the message says why, for the user."""


class NotFound(ServiceError):
    pass


def checked_name(text: str, what: str, longest: int, *, in_url: bool = False) -> str:
    """A game's or a player's name, stripped: 1 to ``longest`` printable
    characters on one line (no NUL, control or bidi characters), else a ServiceError.
    ``in_url`` (a game's name, in ``/games/NAME``): none of ``/ \\ ? # %``."""
    from ..core.safetext import check_name

    try:
        return check_name(text, what, longest, in_url=in_url)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None


class Forbidden(ServiceError):
    pass


class PhaseChanged(ServiceError):
    """A request meant for a phase that is no longer open (processed or rolled
    back meanwhile); nothing was done."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is asking: the GM, one power's player, or anybody (``PUBLIC``)."""

    power: str | None = None
    gm: bool = False
    label: str = ""
    """How the log names this actor, when not ``gm`` or the power (``scheduler``)."""

    @classmethod
    def of(cls, power: str) -> Viewer:
        return cls(power=power)

    def may_act_for(self, power: str) -> bool:
        return self.gm or self.power == power

    def __str__(self) -> str:
        return self.label or ("gm" if self.gm else (self.power or "public"))


def require_gm(actor: Viewer) -> None:
    """Refuse anyone but a GM of the game (the server's GM is GM of every game)."""
    if not actor.gm:
        raise Forbidden("only the GM may do that")


MAX_MINUTES = 60 * 24 * 60
"""Sixty days: a longer phase, grace or extension is a typo."""


GM = Viewer(gm=True)
PUBLIC = Viewer()
SCHEDULER = Viewer(gm=True, label="scheduler")
"""The deadline acting for the GM: it processes, and nothing else."""


@dataclass(frozen=True)
class GameInfo:
    name: str
    variant: str
    title: str
    rules: dict[str, Any]
    """House rules: the options this game changes from the variant's defaults."""
    phase: str
    phase_code: str
    result: str | None
    players: dict[str, str]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class LineReport:
    number: int
    text: str
    status: str
    """``accepted``, ``illegal`` (kept: reported at adjudication, the unit
    holds), ``twice`` (a second order for one unit in one post, settled by the
    rules option ``multiple_orders``), ``rejected`` (a DP allocation that
    breaks a rule; not counted), ``ignored`` (a DP allocation kept whose
    order is illegal, so the rules ignore its DP: Dissolution §5.1.2 item 4a,
    S9 §9.0; a later allocation to the unit replaces it) or ``unreadable``
    (not an order, or an order for another power's unit)."""
    message: str = ""
    canonical: str = ""
    """The order as the adjudicator read it, in full names."""

    def __str__(self) -> str:
        what = self.canonical or self.text.strip()
        if self.status == "accepted":
            return f"line {self.number}: ok         {what}"
        return f"line {self.number}: {self.status:10} {what}: {self.message}"


@dataclass(frozen=True, slots=True)
class DPCap:
    """A cap on the DP one power may put on one neutral power's units together."""

    on: str
    """The neutral power whose units it limits (a nuclear power in Dissolution)."""
    cap: int
    spent: int
    left: int
    rule: str
    """The rule that sets it: ``Dissolution §11.4.1`` (the Favor value with ``on``)."""


@dataclass(frozen=True, slots=True)
class DPLimits:
    """What a power may still allocate this phase (see :func:`.posts.dp_limits`)."""

    allotment: int
    spent: int
    left: int
    rule: str
    """Where the allotment comes from: ``S9 §9.2`` or ``Dissolution §5.2``."""
    caps: tuple[DPCap, ...] = ()


@dataclass(frozen=True)
class SubmissionReport:
    power: str
    phase: str
    lines: tuple[LineReport, ...]
    orders: tuple[str, ...] = ()
    """The power's standing orders for this phase after the submission."""
    allocations: tuple[str, ...] = ()
    """The power's standing DP allocations (secret: author and GM only)."""
    dp_left: int | None = None
    limits: DPLimits | None = None
    """The allotment, DP spent and left, and each cap that applies (None: no DP now)."""
    phase_code: str = ""
    """The phase the post is part of, as a code (``S1901M``): what ``phase`` names."""

    @property
    def ok(self) -> bool:
        return all(line.status == "accepted" for line in self.lines)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    at: datetime
    actor: str
    kind: str
    summary: str
    phase: str | None
    undone: bool = False
