"""The what-if sandbox: a phase of a real game adjudicated with orders that
are not sent, and played on for as many phases as the player likes.

A sandbox is a pure function of what it is given: the game's current
position (public), the orders written into it, and the sandbox owner's own
standing orders and DP. Nothing is written to the store, not even a log
line, so a sandbox can neither change the game nor tell anyone that it was
opened. Its later phases are replayed from the written texts on every call
(adjudication takes milliseconds), so no sandbox state lives anywhere but in
the request that asks for it.

Secrecy: a player's sandbox starts from that player's own standing orders
and allocations only; every other power's units hold unless the player
writes their orders, and neutral units get only the DP the player writes
(for any power, hypothetical). The GM's sandbox may start from every power's
standing orders and DP. Everything a sandbox shows, its secret part
included, is therefore either the asker's own or written by the asker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.board import PhaseKind, Position
from ..core.notation import format_order
from ..core.orders import Order
from ..core.results import OrderResult
from ..core.ruleset import Rules
from ..engine.codec import order_from_dict
from ..engine.phases import adjudicate
from ..engine.posts import PostError, read_post
from ..rules.dp import Allocation
from ..variants import Variant
from .export import FORMATS, PhaseRecord, format_record
from .lines import foreign_unit
from .loader import GameLoader, checked_power, phase_code
from .processing import secret_part
from .standing import allocation_of, slot_of, standing_lines
from .status import turn_status
from .types import Forbidden, LineReport, ServiceError, Viewer

__all__ = ["MAX_STEPS", "Sandbox", "SandboxRun", "SandboxStep"]

MAX_STEPS = 12
"""Phases one sandbox may play (three years of S9 Complete's four seasons)."""

BANNER = ("WHAT IF: a sandbox of {game} from {phase}, as {who}. Nothing here was sent, "
          "nothing is kept, and no one else can see it.")


@dataclass(frozen=True)
class SandboxStep:
    """One phase played in the sandbox."""

    phase: str
    """The phase's label as the variant names it."""
    code: str
    lines: tuple[LineReport, ...]
    """Each written line and what became of it (``accepted``, ``unreadable``)."""
    before: Position
    after: Position
    results: tuple[OrderResult, ...]
    record: PhaseRecord
    """The results post, its secret part included (all of it the asker's)."""


@dataclass(frozen=True)
class SandboxRun:
    """A sandbox: the steps played, in order, and where they left the board."""

    game: str
    variant: Variant
    who: str
    """``GM`` or the power whose sandbox this is."""
    start: str
    """The label of the real game's phase the sandbox starts from."""
    start_code: str
    steps: tuple[SandboxStep, ...]
    position: Position
    """The position after the last step: what the next step would start from."""

    @property
    def banner(self) -> str:
        return BANNER.format(game=self.game, phase=self.start, who=self.who)

    def post(self, fmt: str = "text") -> str:
        """Every step's results post, each headed, under the sandbox banner."""
        parts = [self.banner] + [self.post_of(n, fmt) for n in range(len(self.steps))]
        return "\n\n".join(parts).rstrip() + "\n"

    def post_of(self, n: int, fmt: str = "text") -> str:
        """Step ``n``'s results post (0-based), headed with the lines not used."""
        if fmt not in FORMATS:
            raise ServiceError(f"unknown format '{fmt}' ({', '.join(FORMATS)})")
        step = self.steps[n]
        bad = [f"  line {ln.number}: {ln.text.strip()}  ({ln.message})"
               for ln in step.lines if ln.status != "accepted"]
        head = f"--- sandbox step {n + 1}: {step.phase} ---"
        if bad:
            head += "\nNot used (fix and try again):\n" + "\n".join(bad)
        return head + "\n" + format_record(step.record, fmt, secret=True).rstrip() + "\n"


@dataclass(frozen=True)
class _Start:
    game: str
    variant: Variant
    rules: Rules
    position: Position
    label: str
    code: str
    orders: dict[tuple[str, str], Order]
    """Standing orders the sandbox starts from, by (power, slot)."""
    builds: dict[str, list[Order]]
    """Adjustment phases: each power's standing list of builds and removals."""
    allocations: dict[tuple[str, str], Allocation]
    """Standing DP, by (power, the unit it buys an order for)."""


class Sandbox:
    """What-if adjudication from a game's current phase, changing nothing."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def run(self, name: str, steps: Sequence[str], actor: Viewer, *,
            phase: str | None = None, submitted: bool = True) -> SandboxRun:
        """Play ``steps`` (one post of orders per phase, any powers, DP
        included) from the game's current phase.

        ``submitted``: the first step starts from the asker's standing orders
        and DP (the GM's: everybody's); a written line for the same unit, or
        DP for the same unit, replaces the standing one. ``phase`` is the phase
        the asker means; if the game has moved on, :class:`PhaseChanged` says so.
        """
        if not actor.gm and actor.power is None:
            raise Forbidden("a sandbox is for the game's players and its GM")
        if not steps:
            steps = [""]
        if len(steps) > MAX_STEPS:
            raise ServiceError(f"a sandbox plays at most {MAX_STEPS} phases, not {len(steps)}")
        start = self._start(name, actor, phase, submitted)
        who = "GM" if actor.gm else str(actor.power)
        position = start.position
        played: list[SandboxStep] = []
        for n, text in enumerate(steps):
            if position.result:
                raise ServiceError(f"the sandbox's game ended ({position.result}) before "
                                   f"step {n + 1}")
            base = start if n == 0 else None
            played.append(_play(start, position, text, actor, base, step=n + 1))
            position = played[-1].after
        return SandboxRun(name, start.variant, who, start.label, start.code, tuple(played),
                          position)

    def _start(self, name: str, actor: Viewer, phase: str | None, submitted: bool) -> _Start:
        with self.games.read(name) as (s, g):
            if actor.power is not None and not actor.gm:
                checked_power(g.variant, actor.power)
            self.games.expect_phase(s, g, phase, "the sandbox was opened for",
                                    outcome="Reload the page to start from the phase now open.")
            if g.position.result:
                raise ServiceError(f"the game is over ({g.position.result}): there is "
                                   "nothing to try")
            orders: dict[tuple[str, str], Order] = {}
            builds: dict[str, list[Order]] = {}
            allocations: dict[tuple[str, str], Allocation] = {}
            if submitted:
                # A player's own lines only; the GM's sandbox may use everybody's.
                mine = None if actor.gm else actor.power
                kind = g.position.phase.kind
                for power, slots in standing_lines(s, g, mine).items():
                    for slot, rows in sorted(slots.items()):
                        for row in rows:
                            if row.kind == "order":
                                order = order_from_dict(row.order or {})
                                if kind is PhaseKind.ADJUSTMENT:
                                    builds.setdefault(power, []).append(order)
                                else:
                                    orders[(power, slot)] = order
                            elif row.kind == "dp":
                                alloc = allocation_of(row, power)
                                allocations[(power, alloc.order.province)] = alloc
            return _Start(g.row.name, g.variant, g.rules, g.position, g.phase.label,
                          g.phase.code, orders, builds, allocations)


def _play(start: _Start, position: Position, text: str, actor: Viewer,
          base: _Start | None, step: int) -> SandboxStep:
    """One phase: the written post over the standing orders (first step only)."""
    variant = start.variant
    kind = position.phase.kind
    orders = dict(base.orders) if base else {}
    builds = {p: list(os) for p, os in base.builds.items()} if base else {}
    allocations = dict(base.allocations) if base else {}
    reports: list[LineReport] = []
    written_builds: dict[str, list[Order]] = {}
    if text.strip():
        try:
            lines = read_post(variant, text, kind, None if actor.gm else actor.power)
        except PostError as exc:
            raise ServiceError(f"step {step}: {exc}") from None
        for line in lines:
            problem = line.error
            if problem is None and line.power is None:
                problem = "name the power these orders are for (a header such as 'England:')"
            if problem is None and line.order is not None:
                problem = foreign_unit(variant, position, line.order, str(line.power))
            if problem is not None:
                reports.append(LineReport(line.number, line.text, "unreadable", problem, ""))
                continue
            power = str(line.power)
            if line.order is not None:
                slot = slot_of(line.order, kind)
                if kind is PhaseKind.ADJUSTMENT or slot is None:
                    written_builds.setdefault(power, []).append(line.order)
                else:
                    orders[(power, slot)] = line.order
                canonical = format_order(line.order, variant.map, long=True)
            elif line.allocation is not None:
                alloc = line.allocation
                allocations[(power, alloc.order.province)] = alloc
                canonical = (f"{power}: {alloc.points} DP to "
                             f"{format_order(alloc.order, variant.map, long=True)}")
            else:
                continue
            reports.append(LineReport(line.number, line.text, "accepted", "", canonical))
    builds.update(written_builds)  # a power's written list replaces its standing one
    everything = [*orders.values(), *(o for os in builds.values() for o in os)]
    try:
        result = adjudicate(variant, position, everything, start.rules,
                            list(allocations.values()))
    except ValueError as exc:
        raise ServiceError(f"step {step}: {exc}") from None
    record = PhaseRecord.build(variant, start.rules, position, result.position,
                               result.results, tuple(result.events), secret_part(result),
                               revealed=False,
                               game=f"{start.game} (sandbox)",
                               status=turn_status(variant, result.position, start.rules))
    return SandboxStep(variant.phase_label(position.phase), phase_code(position),
                       tuple(reports), position, result.position, tuple(result.results), record)
