"""Running adjudicator test cases (``lawspeaker datc FILE...``).

Each case from :mod:`lawspeaker.cases.casefile` is turned into a position and
orders of its variant, adjudicated with the per-phase resolvers, and the
outcome compared with the case's expectations: the units after the phase,
the dislodged units, and the result of any order listed under
``POSTSTATE_RESULTS``. The file format is in ``docs/case-format.md``.

Variants with the ``heirs`` component (S9 Complete) are run differently: the
case builds a whole position (heirs, thralls, vassals, pending marriages...)
and the phase is played with :func:`lawspeaker.engine.phases.adjudicate`, so heir
orders, marriages, the Autumn Census and Winter heir builds are all part of
the case; the expectations are then read from the position it returns (the
start of the next phase that needs orders) and from the Census's report.

An *errata* file lists cases known to expect the wrong thing (for example
transcription errors in a published case file), one ``CASE-ID  reason`` per
line. Such a case is reported as ``ERRATUM`` when it fails as documented; if
it passes, the errata entry is stale and that is reported as a failure.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from ..core.board import Dislodged, Phase, PhaseKind, Position, PowerState, Unit
from ..core.notation import OrderSyntaxError, parse_order
from ..core.orders import BuildHeir, Order
from ..core.resolver import resolve_movement
from ..core.results import OrderResult, Outcome
from ..engine.adjustments import resolve_adjustments
from ..engine.phases import adjudicate
from ..engine.retreats import resolve_retreats, retreat_options
from ..rules.dp import (
    Allocation,
    DPResolution,
    is_allocation,
    normalise_order,
    parse_allocation,
    resolve_allocations,
)
from ..variants import VariantError
from .casefile import Case, Entry, ResultEntry, read_case_file
from .context import CaseContext, CaseError
from .favor import FavorCaseError, FavorSections
from .heirs import HeirSections, heir_sections_used
from .previous import previous_moves
from .report import CaseReport

__all__ = ["CaseReport", "load_errata", "run_case", "run_files"]

_OUTCOMES = {"SUCCESS": Outcome.SUCCEEDS, "FAILURE": Outcome.FAILS, "ILLEGAL": Outcome.ILLEGAL}
_DP_OUTCOMES = {"COUNTED": "", "IGNORED": "Ignored", "REJECTED": "Rejected"}


def load_errata(path: str | Path) -> dict[str, str]:
    """Read ``CASE-ID  reason`` lines (``#`` comments allowed)."""
    errata: dict[str, str] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            case_id, _, reason = line.partition(" ")
            errata[case_id] = reason.strip()
    return errata


def run_files(paths: Iterable[str | Path], overrides: Mapping[str, str] | None = None,
              errata: Mapping[str, str] | None = None) -> list[CaseReport]:
    reports = []
    for path in paths:
        for case in read_case_file(path):
            report = run_case(case, overrides)
            if errata and case.id in errata:
                report.erratum = errata[case.id]
                if not report.problems:
                    report.problems.append("listed as an erratum but passes: "
                                           "remove it from the errata file")
                    report.erratum = None
            reports.append(report)
    return reports


def run_case(case: Case, overrides: Mapping[str, str] | None = None) -> CaseReport:
    """Run one case. Whatever goes wrong is this case's failure, never the run's: a
    problem with the case (an unknown power, a malformed line) is reported as one
    line, and any other exception, a bug in the engine, with its traceback, so
    the other cases still run and the summary counts this one as failed."""
    report = CaseReport(case)
    try:
        _Run(case, overrides or {}, report).run()
    except (CaseError, FavorCaseError, VariantError, ValueError) as exc:
        report.problems.append(f"{case.file}:{case.line}: {exc}")
    except Exception as exc:  # any crash is this case's failure: the run goes on
        report.problems.append(_crash(case, exc))
    return report


_TRACE_HEAD, _TRACE_TAIL = 8, 16


def _crash(case: Case, exc: Exception) -> str:
    """``file:line: case ID raised TypeError: ...`` and the traceback, indented to
    sit under the case's FAIL line. A deep traceback (a ``RecursionError`` has a
    thousand frames) keeps its first and last frames, where the cause shows."""
    frames = list(traceback.extract_tb(exc.__traceback__))
    shown = traceback.format_list(frames)
    if len(frames) > _TRACE_HEAD + _TRACE_TAIL:
        skipped = len(frames) - _TRACE_HEAD - _TRACE_TAIL
        shown = [*traceback.format_list(frames[:_TRACE_HEAD]),
                 f"  ... {skipped} frames left out ...\n",
                 *traceback.format_list(frames[-_TRACE_TAIL:])]
    trace = ["Traceback (most recent call last):\n", *shown,
             *traceback.format_exception_only(type(exc), exc)]
    lines = [f"{case.file}:{case.line}: case {case.id} raised {type(exc).__name__}: {exc}",
             *("  " + line for line in "".join(trace).rstrip().splitlines())]
    return "\n        ".join(lines)


class _Played(NamedTuple):
    """What a phase of a case left: its results, the units after it, the units
    dislodged and, of those, the ones with nowhere to retreat."""

    results: tuple[OrderResult, ...]
    units: list[Unit]
    dislodged: Sequence[Unit] = ()
    doomed: Sequence[Unit] = ()


class _Run:
    """One case played and compared. The runner reads the units and orders, plays the
    phase and checks the units, the dislodged units and the results; it owns what DP
    decided (``dp``, ``allocations``), which the result checks read. A case's heir and
    Favor Map sections are left to their handlers, each created when the case needs it."""

    def __init__(self, case: Case, overrides: Mapping[str, str], report: CaseReport) -> None:
        self.ctx = CaseContext(case, overrides, report)
        self.dp: DPResolution | None = None
        self.allocations: list[tuple[Entry, Allocation]] = []

    def favor(self) -> dict[str, dict[str, int]]:
        """Favor values: the variant's starting values (Dissolution §7), changed
        by ``PRESTATE_FAVOR`` lines (``Saudi Arabia: US Navy 2``)."""
        ctx = self.ctx
        values = {p: dict(f) for p, f in ctx.variant.favor.items()}
        for entry in ctx.case.prestate_favor:
            name, _, number = entry.text.rpartition(" ")
            if name.strip() not in ctx.variant.nuclear:
                raise CaseError(f"line {entry.line}: '{name.strip()}' is not a nuclear power")
            values.setdefault(ctx.power(entry), {})[name.strip()] = int(number)
        return values

    def exiles(self) -> list[str]:
        """``PRESTATE_EXILES``: Players in Exile (Dissolution §5.3)."""
        return [self.ctx.power(e) for e in self.ctx.case.prestate_exiles]

    def read_orders(self, kind: PhaseKind) -> list[Order]:
        """The case's ORDERS; DP allocations among them are kept in ``allocations``."""
        orders: list[Order] = []
        for e in self.ctx.case.orders:
            if is_allocation(e.text):
                self.allocations.append((e, self.ctx.allocation(e)))
            else:
                orders.append(self.ctx.order(e, kind))
        return orders

    def check_chosen(self, position: Position) -> None:
        """POSTSTATE_CHOSEN: the order DP chose for each listed neutral unit."""
        assert self.dp is not None
        ctx = self.ctx
        for entry in ctx.case.poststate_chosen:
            try:
                wanted = parse_order(ctx.variant.map, entry.text, "", capitals=ctx.capitals)
            except OrderSyntaxError as exc:
                raise CaseError(f"line {entry.line}: {exc}") from None
            unit = position.units.get(wanted.province)
            got = self.dp.orders.get(wanted.province)
            if unit is None or got is None:
                ctx.report.problems.append(f"line {entry.line}: no neutral unit in "
                                           f"{wanted.province}")
            elif normalise_order(wanted, unit) != got:
                ctx.report.problems.append(f"line {entry.line}: expected DP to choose "
                                           f"'{entry.text}', chose '{got}'")

    def run(self) -> None:
        ctx = self.ctx
        if ctx.variant.uses("heirs"):
            self.run_with_heirs()
            return
        used = heir_sections_used(ctx.case)
        if used:
            raise CaseError(f"{', '.join(used)} need a variant with heirs (the 'heirs' "
                            f"component); {ctx.variant.name} has none")
        units, position = self.prestate()
        favor = FavorSections(ctx) if ctx.case.favor_map else None
        if favor is not None:  # Dissolution §11: the Embassies, and their POSTSTATE sections
            position = favor.position(position)
        played = self.play(position, self.read_orders(position.phase.kind), favor)
        ctx.report.results = played.results
        if favor is not None:
            favor.check(position)
        self.check_poststate(units, played, position.phase.kind)

    def prestate(self) -> tuple[list[Unit], Position]:
        """The PRESTATE units and the position the case starts from: its phase, the
        owners of the centres, the dislodged units and what dislodged them."""
        ctx = self.ctx
        case = ctx.case
        season, year, kind = case.phase or ("Spring", 1901, "movement")
        phase = Phase(season, year, PhaseKind(kind))
        units = [ctx.unit(e) for e in case.prestate]
        if case.supply_centre_owners is None:
            owners = {h: p.name for p in ctx.variant.powers.values() for h in p.homes}
            owners.update({u.province: u.power for u in units if u.power in ctx.minors
                           and ctx.variant.map.provinces[u.province].is_sc})
        else:
            owners = {u.province: u.power
                      for u in (ctx.unit(e) for e in case.supply_centre_owners)}
        dislodged_units = [ctx.unit(e) for e in case.prestate_dislodged]
        attackers, standoffs = previous_moves(ctx, units, dislodged_units)
        powers = {name: PowerState("minor") for name in ctx.minors}
        powers.update({u.power: PowerState("nuclear") for u in units
                       if u.power in ctx.variant.nuclear})  # Dissolution §8
        return units, Position.from_units(
            ctx.variant.name, phase, units, owners,
            [Dislodged(u, attackers.get(u.province)) for u in dislodged_units], standoffs,
            powers_in_play=powers, favor=self.favor(), exiles=self.exiles())

    def play(self, position: Position, orders: list[Order], favor: FavorSections | None
             ) -> _Played:
        """The phase adjudicated with the resolver of its kind, DP and the Favor Map's
        steps where the case has them."""
        ctx = self.ctx
        kind = position.phase.kind
        if kind is PhaseKind.MOVEMENT:
            if self.allocations or ctx.variant.uses("diplomacy_points"):
                self.dp = resolve_allocations(ctx.variant, position, orders,
                                              [a for _, a in self.allocations], ctx.rules)
                # A neutral unit's order written in ORDERS stands for the order DP chose.
                given = {o.province for o in orders}
                orders = orders + [o for p, o in self.dp.orders.items() if p not in given]
                self.check_chosen(position)
            moved = resolve_movement(ctx.variant.map, position.units, orders, ctx.rules,
                                     ctx.variant.invulnerable_powers)
            after = list(moved.units.values())
            dislodged_after = [u for u, _ in moved.dislodged.values()]
            if favor is not None:  # violations, kicks, Nuclear Retaliation (§11.6, §11.4.2)
                done = favor.after_moves(position, moved).position
                after = list(done.units.values())
                dislodged_after = [d.unit for d in done.dislodged.values()]
            doomed = self.without_retreat(position.phase, moved.units, moved.dislodged,
                                          moved.standoffs)
            return _Played(moved.results, after, dislodged_after, doomed)
        if kind is PhaseKind.RETREAT:
            retreated = resolve_retreats(ctx.variant, position, orders)
            return _Played(retreated.results, list(retreated.units.values()))
        winter: tuple[OrderResult, ...] = ()
        if favor is not None:  # Dissolution §11.5: Embassies are ordered with the builds
            orders, won = favor.winter(position, orders)
            winter = won.results
        adjusted = resolve_adjustments(ctx.variant, position, orders, ctx.rules)
        return _Played(adjusted.results + winter, list(adjusted.units.values()))

    def check_poststate(self, units: list[Unit], played: _Played, kind: PhaseKind) -> None:
        """The units and dislodged units after the phase against POSTSTATE (or the
        PRESTATE's, with POSTSTATE_SAME), then the results."""
        case = self.ctx.case
        if case.poststate_same:
            expected, expected_dislodged = units, []
        elif case.poststate is not None:
            expected = [self.ctx.unit(e) for e in case.poststate]
            expected_dislodged = [self.ctx.unit(e) for e in case.poststate_dislodged]
        elif case.poststate_results or case.favor_map:
            self.check_results(played.results, kind)  # a case may assert only results
            return
        else:
            raise CaseError("the case states no outcome: give POSTSTATE, POSTSTATE_SAME "
                            "or POSTSTATE_RESULTS")
        self.compare("units", expected, played.units)
        # jDip-style files omit dislodged units that have nowhere to retreat.
        listed = {(u.power, u.type, u.location) for u in expected_dislodged}
        dislodged_after = [u for u in played.dislodged
                           if u not in played.doomed or (u.power, u.type, u.location) in listed]
        self.compare("dislodged units", expected_dislodged, dislodged_after)
        self.check_results(played.results, kind)

    def run_with_heirs(self) -> None:
        """A variant with heirs: the case builds a whole position (:class:`HeirSections`)
        and the phase is played with :func:`~lawspeaker.engine.phases.adjudicate`, so the
        Census and Winter heir builds are part of it."""
        ctx = self.ctx
        case = ctx.case
        heirs = HeirSections(ctx)
        phase = heirs.phase()
        position = heirs.position(phase)
        orders = self.read_orders(phase.kind)
        try:
            done = adjudicate(ctx.variant, position, orders, ctx.rules,
                              [a for _, a in self.allocations])
        except (KeyError, ValueError) as exc:
            raise CaseError(f"the engine could not adjudicate the case: {exc!r}") from None
        self.dp = done.dp
        ctx.report.results = done.results
        ctx.report.events = done.events
        if case.poststate_chosen:
            if self.dp is None:
                raise CaseError("POSTSTATE_CHOSEN: no DP were resolved in this case")
            self.check_chosen(position)
        after = done.position
        checks = [case.poststate_same, case.poststate is not None, case.poststate_results,
                  case.poststate_chosen, case.poststate_heirs is not None,
                  case.poststate_supply_centre_owners is not None, case.poststate_powers,
                  case.poststate_game is not None, case.poststate_events]
        if not any(checks):
            raise CaseError("the case states no outcome: give POSTSTATE, POSTSTATE_SAME, "
                            "POSTSTATE_RESULTS or another POSTSTATE_ section")
        if case.poststate_same or case.poststate is not None:
            if case.poststate_same:
                expected = list(position.units.values())
                expected_dislodged: list[Unit] = []
            else:
                expected = [ctx.unit(e) for e in case.poststate or ()]
                expected_dislodged = [ctx.unit(e) for e in case.poststate_dislodged]
            self.compare("units", expected, list(after.units.values()))
            # As in jDip files, dislodged units with no retreat may be left out.
            listed = {(u.power, u.type, u.location) for u in expected_dislodged}
            dislodged_after = [
                d.unit for d in (after.dislodged.values() or done.dislodged)
                if retreat_options(ctx.variant, after, d)
                or (d.unit.power, d.unit.type, d.unit.location) in listed]
            self.compare("dislodged units", expected_dislodged, dislodged_after)
        self.check_results(done.results, phase.kind)
        heirs.check(after, done)

    def without_retreat(self, phase: Phase, units: Mapping[str, Unit],
                        dislodged: Mapping[str, tuple[Unit, str | None]],
                        standoffs: frozenset[str]) -> list[Unit]:
        """Dislodged units with no legal retreat (destroyed at once)."""
        variant = self.ctx.variant
        after = Position.from_units(variant.name, phase, units.values(), {},
                                    [Dislodged(u, frm) for u, frm in dislodged.values()],
                                    standoffs)
        return [d.unit for d in after.dislodged.values()
                if not retreat_options(variant, after, d)]

    def compare(self, what: str, expected: list[Unit], actual: list[Unit]) -> None:
        def key(u: Unit) -> tuple[str, str, str]:
            return (u.power, u.type.value, u.location)

        want = sorted(map(key, expected))
        got = sorted(map(key, actual))
        if want != got:
            missing = [" ".join(k) for k in want if k not in got]
            extra = [" ".join(k) for k in got if k not in want]
            self.ctx.report.problems.append(
                f"{what}: expected but missing [{', '.join(missing)}]; "
                f"unexpected [{', '.join(extra)}]")

    def check_results(self, results: tuple[OrderResult, ...], kind: PhaseKind) -> None:
        used: set[int] = set()
        for entry in self.ctx.case.poststate_results:
            if entry.outcome in _DP_OUTCOMES:
                self.check_allocation(entry)
                continue
            order = self.ctx.order(entry, kind)
            # Identical orders (DATC 6.I.7) are matched with results in turn.
            index = next((i for i, r in enumerate(results) if r.order == order and i not in used),
                         None)
            if index is None:  # the same order written differently (unit types, 'Build Heir')
                index = next((i for i, r in enumerate(results) if i not in used
                              and self.loose(r.order) == self.loose(order)), None)
            if index is None:
                self.ctx.report.problems.append(f"line {entry.line}: no result for '{entry.text}'")
                continue
            used.add(index)
            want = _OUTCOMES[entry.outcome]
            got = results[index]
            if got.outcome is not want:
                self.ctx.report.problems.append(
                    f"line {entry.line}: {entry.power}: {entry.text}: expected {entry.outcome}, "
                    f"got {got.outcome.value.upper()} ({got.reason})")

    def loose(self, order: Order) -> Order:
        """An order without the details a writer may leave out: unit types, and the
        capital of ``Build Heir`` (OOD §8.1)."""
        if isinstance(order, BuildHeir) and not order.location:
            power = self.ctx.variant.powers.get(order.power)
            return dataclasses.replace(order, location=power.capital or "" if power else "")
        changes: dict[str, object] = {"unit_type": None}
        if hasattr(order, "supported_type"):
            changes["supported_type"] = None
        return dataclasses.replace(order, **changes)  # type: ignore[type-var]

    def check_allocation(self, entry: ResultEntry) -> None:
        """COUNTED / IGNORED / REJECTED: what became of a DP allocation."""
        if self.dp is None:
            raise CaseError(f"line {entry.line}: no DP were resolved in this case")
        try:
            wanted = parse_allocation(self.ctx.variant.map, entry.text,
                                      self.ctx.power(Entry(entry.power, entry.text, entry.line)),
                                      capitals=self.ctx.capitals)
        except OrderSyntaxError as exc:
            raise CaseError(f"line {entry.line}: {exc}") from None
        fates = {(a.power, a.points, a.order): why for a, why in self.dp.rejected}
        matches = [e for e, a in self.allocations if (a.power, a.points, a.order) ==
                   (wanted.power, wanted.points, wanted.order)]
        if not matches:
            self.ctx.report.problems.append(f"line {entry.line}: no allocation '{entry.text}' "
                                        "in ORDERS")
            return
        why = fates.get((wanted.power, wanted.points, wanted.order), "")
        got = why.split(":", 1)[0] if why else ""
        if got != _DP_OUTCOMES[entry.outcome]:
            self.ctx.report.problems.append(
                f"line {entry.line}: {entry.power}: {entry.text}: expected {entry.outcome}, "
                f"got {why or 'COUNTED'}")
