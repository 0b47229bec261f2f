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
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..core.board import Dislodged, Phase, PhaseKind, Position, PowerState, Unit
from ..core.geography import UnitType, province_of
from ..core.notation import OrderSyntaxError, parse_order
from ..core.orders import BuildHeir, Convoy, HeirOrder, Move, Order
from ..core.resolver import resolve_movement
from ..core.results import OrderResult, Outcome
from ..core.ruleset import Edition, Rules
from ..engine.adjustments import resolve_adjustments
from ..engine.phases import minor_name
from ..engine.retreats import resolve_retreats, retreat_options
from ..rules.dp import (
    Allocation,
    DPResolution,
    is_allocation,
    normalise_order,
    parse_allocation,
    resolve_allocations,
)
from ..variants import Variant, VariantError, load_variant
from .casefile import Case, Entry, ResultEntry, read_case_file
from .favor import FavorCaseError, FavorCaseMixin
from .heirs import _HEIR_SECTIONS, HeirCaseMixin, _CaseError
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
    except (_CaseError, FavorCaseError, VariantError, ValueError) as exc:
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


class _Run(HeirCaseMixin, FavorCaseMixin):
    def __init__(self, case: Case, overrides: Mapping[str, str], report: CaseReport) -> None:
        self.case = case
        self.report = report
        self.variant: Variant = load_variant((case.variant or "standard").lower())
        self.rules: Rules = self.variant.rules.with_options(**{**case.rules, **overrides})
        self.minors: set[str] = set()
        self.dp: DPResolution | None = None
        self.allocations: list[tuple[Entry, Allocation]] = []
        self.capitals = self.variant.capital_names()
        self.vassals: dict[str, PowerState] = {}

    def owner(self, entry: Entry, province: str) -> str:
        """The power of a unit line. In variants with minor powers, ``Minor``
        (or any name that is not a major power or a vassal) is the minor power there."""
        try:
            return self.variant.power_named(entry.power, fuzzy=True)
        except ValueError as exc:
            if entry.power.strip() in self.vassals or entry.power.strip() in self.variant.nuclear:
                return entry.power.strip()  # a vassal, or a nuclear power (Dissolution §8)
            if not self.variant.uses("minor_powers"):
                raise _CaseError(f"line {entry.line}: {exc}") from None
        name = (minor_name(self.variant, province) if entry.power.strip().lower() == "minor"
                else entry.power.strip())
        self.minors.add(name)
        return name

    def power(self, entry: Entry) -> str:
        try:
            return self.variant.power_named(entry.power, fuzzy=True)
        except ValueError as exc:
            raise _CaseError(f"line {entry.line}: {exc}") from None

    def unit(self, entry: Entry) -> Unit:
        words = entry.text.split(None, 1)
        if len(words) != 2 or words[0].upper() not in ("A", "F", "W"):
            raise _CaseError(f"line {entry.line}: expected a unit like 'A lon', got "
                             f"'{entry.text}'")
        utype = UnitType(words[0].upper())
        try:
            order = parse_order(self.variant.map, f"{words[0]} {words[1]} H", "")
        except OrderSyntaxError as exc:
            raise _CaseError(f"line {entry.line}: {exc}") from None
        loc = order.location
        prov = self.variant.map.provinces[province_of(loc)]
        if utype is UnitType.FLEET and prov.coasts and "/" not in loc:
            raise _CaseError(f"line {entry.line}: say which coast of {prov.name} the fleet is on")
        power = self.owner(entry, prov.key)
        nuclear = self.variant.nuclear.get(power)
        # Minor units, wings and nuclear units but the US Navy's are stationary
        # (S9 §7.2, Dissolution §3.7).
        stationary = (power in self.minors or utype is UnitType.WING
                      or (nuclear is not None and not nuclear.mobile))
        return Unit(power, utype, loc if utype is UnitType.FLEET else prov.key,
                    stationary=stationary)

    def favor(self) -> dict[str, dict[str, int]]:
        """Favor values: the variant's starting values (Dissolution §7), changed
        by ``PRESTATE_FAVOR`` lines (``Saudi Arabia: US Navy 2``)."""
        values = {p: dict(f) for p, f in self.variant.favor.items()}
        for entry in self.case.prestate_favor:
            name, _, number = entry.text.rpartition(" ")
            if name.strip() not in self.variant.nuclear:
                raise _CaseError(f"line {entry.line}: '{name.strip()}' is not a nuclear power")
            values.setdefault(self.power(entry), {})[name.strip()] = int(number)
        return values

    def exiles(self) -> list[str]:
        """``PRESTATE_EXILES``: Players in Exile (Dissolution §5.3)."""
        return [self.power(e) for e in self.case.prestate_exiles]

    def allocation(self, entry: Entry) -> Allocation:
        try:
            return parse_allocation(self.variant.map, entry.text, self.power(entry),
                                    capitals=self.capitals)
        except OrderSyntaxError as exc:
            raise _CaseError(f"line {entry.line}: {exc}") from None

    def check_chosen(self, position: Position) -> None:
        """POSTSTATE_CHOSEN: the order DP chose for each listed neutral unit."""
        assert self.dp is not None
        for entry in self.case.poststate_chosen:
            try:
                wanted = parse_order(self.variant.map, entry.text, "", capitals=self.capitals)
            except OrderSyntaxError as exc:
                raise _CaseError(f"line {entry.line}: {exc}") from None
            unit = position.units.get(wanted.province)
            got = self.dp.orders.get(wanted.province)
            if unit is None or got is None:
                self.report.problems.append(f"line {entry.line}: no neutral unit in "
                                            f"{wanted.province}")
            elif normalise_order(wanted, unit) != got:
                self.report.problems.append(f"line {entry.line}: expected DP to choose "
                                            f"'{entry.text}', chose '{got}'")

    def order(self, entry: Entry, kind: PhaseKind) -> Order:
        try:
            order = parse_order(self.variant.map, entry.text, "", kind, capitals=self.capitals)
        except OrderSyntaxError as exc:
            raise _CaseError(f"line {entry.line}: {exc}") from None
        if isinstance(order, HeirOrder):  # an heir's order: the power given on the line
            return dataclasses.replace(order, power=self.major_or_vassal(entry))
        # An order's power is a major power, or (DP variants) a minor power,
        # as in PRESTATE_RESULTS lines such as 'FAILURE: Minor: F per - ylg'.
        return dataclasses.replace(order, power=self.owner(entry, order.province))

    def run(self) -> None:
        if self.variant.uses("heirs"):
            self.run_with_heirs()
            return
        optional = ("poststate_heirs", "poststate_supply_centre_owners")  # None when absent
        used = [k for k, attr in _HEIR_SECTIONS.items()
                if (getattr(self.case, attr) is not None if attr in optional
                    else getattr(self.case, attr))]
        if used:
            raise _CaseError(f"{', '.join(used)} need a variant with heirs (the 'heirs' "
                             f"component); {self.variant.name} has none")
        case = self.case
        season, year, kind = case.phase or ("Spring", 1901, "movement")
        phase = Phase(season, year, PhaseKind(kind))
        units = [self.unit(e) for e in case.prestate]
        if case.supply_centre_owners is None:
            owners = {h: p.name for p in self.variant.powers.values() for h in p.homes}
            owners.update({u.province: u.power for u in units if u.power in self.minors
                           and self.variant.map.provinces[u.province].is_sc})
        else:
            owners = {u.province: u.power
                      for u in (self.unit(e) for e in case.supply_centre_owners)}
        dislodged_units = [self.unit(e) for e in case.prestate_dislodged]
        attackers, standoffs = self.previous_moves(units, dislodged_units)
        powers = {name: PowerState("minor") for name in self.minors}
        powers.update({u.power: PowerState("nuclear") for u in units
                       if u.power in self.variant.nuclear})  # Dissolution §8
        position = Position.from_units(
            self.variant.name, phase, units, owners,
            [Dislodged(u, attackers.get(u.province)) for u in dislodged_units], standoffs,
            powers_in_play=powers, favor=self.favor(), exiles=self.exiles())
        if case.favor_map:  # Dissolution §11: the Embassies, and their POSTSTATE sections
            position = self.favor_position(position)
        orders: list[Order] = []
        for e in case.orders:
            if is_allocation(e.text):
                self.allocations.append((e, self.allocation(e)))
            else:
                orders.append(self.order(e, phase.kind))
        dislodged_after: list[Unit] = []
        doomed: list[Unit] = []
        if phase.kind is PhaseKind.MOVEMENT:
            if self.allocations or self.variant.uses("diplomacy_points"):
                self.dp = resolve_allocations(self.variant, position, orders,
                                              [a for _, a in self.allocations], self.rules)
                # A neutral unit's order written in ORDERS stands for the order DP chose.
                given = {o.province for o in orders}
                orders = orders + [o for p, o in self.dp.orders.items() if p not in given]
                self.check_chosen(position)
            moved = resolve_movement(self.variant.map, position.units, orders, self.rules,
                                     self.variant.invulnerable_powers)
            results, after = moved.results, list(moved.units.values())
            dislodged_after = [u for u, _ in moved.dislodged.values()]
            if case.favor_map:  # violations, kicks, Nuclear Retaliation (§11.6, §11.4.2)
                done = self.after_moves(position, moved).position
                after = list(done.units.values())
                dislodged_after = [d.unit for d in done.dislodged.values()]
            doomed = self.without_retreat(phase, moved.units, moved.dislodged, moved.standoffs)
        elif phase.kind is PhaseKind.RETREAT:
            retreated = resolve_retreats(self.variant, position, orders)
            results, after = retreated.results, list(retreated.units.values())
        else:
            winter: tuple[OrderResult, ...] = ()
            if case.favor_map:  # Dissolution §11.5: Embassies are ordered with the builds
                orders, won = self.winter(position, orders)
                winter = won.results
            adjusted = resolve_adjustments(self.variant, position, orders, self.rules)
            results, after = adjusted.results + winter, list(adjusted.units.values())
        self.report.results = results
        if case.favor_map:
            self.check_favor(position)
        if case.poststate_same:
            expected, expected_dislodged = units, []
        elif case.poststate is not None:
            expected = [self.unit(e) for e in case.poststate]
            expected_dislodged = [self.unit(e) for e in case.poststate_dislodged]
        elif case.poststate_results or case.favor_map:
            self.check_results(results, phase.kind)  # a case may assert only results
            return
        else:
            raise _CaseError("the case states no outcome: give POSTSTATE, POSTSTATE_SAME "
                             "or POSTSTATE_RESULTS")
        self.compare("units", expected, after)
        # jDip-style files omit dislodged units that have nowhere to retreat.
        listed = {(u.power, u.type, u.location) for u in expected_dislodged}
        dislodged_after = [u for u in dislodged_after
                           if u not in doomed or (u.power, u.type, u.location) in listed]
        self.compare("dislodged units", expected_dislodged, dislodged_after)
        self.check_results(results, phase.kind)

    def without_retreat(self, phase: Phase, units: Mapping[str, Unit],
                        dislodged: Mapping[str, tuple[Unit, str | None]],
                        standoffs: frozenset[str]) -> list[Unit]:
        """Dislodged units with no legal retreat (destroyed at once)."""
        after = Position.from_units(self.variant.name, phase, units.values(), {},
                                    [Dislodged(u, frm) for u, frm in dislodged.values()],
                                    standoffs)
        return [d.unit for d in after.dislodged.values()
                if not retreat_options(self.variant, after, d)]

    def previous_moves(self, units: list[Unit], dislodged: list[Unit]
                       ) -> tuple[dict[str, str | None], set[str]]:
        """Attackers' origins and standoff spaces, from ``PRESTATE_RESULTS``.

        The previous movement phase is rebuilt from its orders and adjudicated
        again; if that reproduces PRESTATE and PRESTATE_DISLODGED, its
        attackers and standoffs are used. Otherwise (incomplete results) they
        are inferred from the SUCCESS and FAILURE marks.
        """
        replayed = self.replay(units, dislodged)
        if replayed is not None:
            return replayed
        return self.infer_previous_moves(units, dislodged)

    def replay(self, units: list[Unit], dislodged: list[Unit]
               ) -> tuple[dict[str, str | None], set[str]] | None:
        if not self.case.prestate_results:
            return None
        orders = [o for o in (self.order(e, PhaseKind.MOVEMENT)
                              for e in self.case.prestate_results)
                  if not isinstance(o, HeirOrder)]
        after = {u.province: u for u in units}
        beaten = {u.province: u for u in dislodged}
        before: dict[str, Unit] = {}
        moved_from: dict[str, str] = {}
        for order in orders:
            if isinstance(order, Move):
                moved_from[order.target_province] = order.province
        for order in orders:
            prov = order.province
            unit = beaten.get(prov) or after.get(prov)
            if isinstance(order, Move) and moved_from.get(order.target_province) == prov:
                unit = after.get(order.target_province) if unit is None or (
                    unit.power != order.power) else unit
            if unit is None or unit.power != order.power or prov in before:
                return None
            location = order.location if "/" in order.location else unit.location
            if province_of(location) != prov:
                location = prov
            before[prov] = Unit(order.power, order.unit_type or unit.type, location,
                                unit.stationary)
        for u in [*units, *dislodged]:
            if u.province not in before and u not in before.values():
                if u.province in before:
                    return None
                before[u.province] = u
        try:
            moved = resolve_movement(self.variant.map, before, orders, self.rules)
        except (KeyError, ValueError):
            return None
        got_units = sorted(str(u) + u.power for u in moved.units.values())
        got_beaten = sorted(str(u) + u.power for u, _ in moved.dislodged.values())
        if got_units != sorted(str(u) + u.power for u in units) or \
                got_beaten != sorted(str(u) + u.power for u in dislodged):
            return None
        return {p: frm for p, (_, frm) in moved.dislodged.items()}, set(moved.standoffs)

    def infer_previous_moves(self, units: list[Unit], dislodged: list[Unit]
                             ) -> tuple[dict[str, str | None], set[str]]:
        occupied = {u.province for u in units}
        moves: list[tuple[Move, bool]] = []
        convoys: set[tuple[str, str, str]] = set()
        for entry in self.case.prestate_results:
            order = self.order(entry, PhaseKind.MOVEMENT)
            if isinstance(order, Move):
                moves.append((order, entry.outcome == "SUCCESS"))
            elif isinstance(order, Convoy):
                convoys.add((order.power, province_of(order.army), province_of(order.target)))
        attackers: dict[str, str | None] = {}
        for move, ok in moves:
            if not ok:
                continue
            src, dst = move.province, move.target_province
            overland = self.variant.map.can_move(UnitType.ARMY, src, dst) or \
                move.unit_type is UnitType.FLEET
            convoyed = move.via_convoy or not overland or (
                self.rules.edition is Edition.R2023 and (move.power, src, dst) in convoys)
            attackers[dst] = None if convoyed else src
        beaten = {u.province for u in dislodged}
        standoffs = set()
        for move, ok in moves:
            dst = move.target_province
            if ok or dst in occupied:
                continue
            if move.province in beaten and attackers.get(move.province) == dst:
                continue  # lost a head-to-head battle: no standoff (DATC 6.E.1)
            standoffs.add(dst)
        return attackers, standoffs

    def compare(self, what: str, expected: list[Unit], actual: list[Unit]) -> None:
        def key(u: Unit) -> tuple[str, str, str]:
            return (u.power, u.type.value, u.location)

        want = sorted(map(key, expected))
        got = sorted(map(key, actual))
        if want != got:
            missing = [" ".join(k) for k in want if k not in got]
            extra = [" ".join(k) for k in got if k not in want]
            self.report.problems.append(
                f"{what}: expected but missing [{', '.join(missing)}]; "
                f"unexpected [{', '.join(extra)}]")

    def check_results(self, results: tuple[OrderResult, ...], kind: PhaseKind) -> None:
        used: set[int] = set()
        for entry in self.case.poststate_results:
            if entry.outcome in _DP_OUTCOMES:
                self.check_allocation(entry)
                continue
            order = self.order(entry, kind)
            # Identical orders (DATC 6.I.7) are matched with results in turn.
            index = next((i for i, r in enumerate(results) if r.order == order and i not in used),
                         None)
            if index is None:  # the same order written differently (unit types, 'Build Heir')
                index = next((i for i, r in enumerate(results) if i not in used
                              and self.loose(r.order) == self.loose(order)), None)
            if index is None:
                self.report.problems.append(f"line {entry.line}: no result for '{entry.text}'")
                continue
            used.add(index)
            want = _OUTCOMES[entry.outcome]
            got = results[index]
            if got.outcome is not want:
                self.report.problems.append(
                    f"line {entry.line}: {entry.power}: {entry.text}: expected {entry.outcome}, "
                    f"got {got.outcome.value.upper()} ({got.reason})")

    def loose(self, order: Order) -> Order:
        """An order without the details a writer may leave out: unit types, and the
        capital of ``Build Heir`` (OOD §8.1)."""
        if isinstance(order, BuildHeir) and not order.location:
            power = self.variant.powers.get(order.power)
            return dataclasses.replace(order, location=power.capital or "" if power else "")
        changes: dict[str, object] = {"unit_type": None}
        if hasattr(order, "supported_type"):
            changes["supported_type"] = None
        return dataclasses.replace(order, **changes)  # type: ignore[type-var]

    def check_allocation(self, entry: ResultEntry) -> None:
        """COUNTED / IGNORED / REJECTED: what became of a DP allocation."""
        if self.dp is None:
            raise _CaseError(f"line {entry.line}: no DP were resolved in this case")
        try:
            wanted = parse_allocation(self.variant.map, entry.text,
                                      self.power(Entry(entry.power, entry.text, entry.line)),
                                      capitals=self.capitals)
        except OrderSyntaxError as exc:
            raise _CaseError(f"line {entry.line}: {exc}") from None
        fates = {(a.power, a.points, a.order): why for a, why in self.dp.rejected}
        matches = [e for e, a in self.allocations if (a.power, a.points, a.order) ==
                   (wanted.power, wanted.points, wanted.order)]
        if not matches:
            self.report.problems.append(f"line {entry.line}: no allocation '{entry.text}' "
                                        "in ORDERS")
            return
        why = fates.get((wanted.power, wanted.points, wanted.order), "")
        got = why.split(":", 1)[0] if why else ""
        if got != _DP_OUTCOMES[entry.outcome]:
            self.report.problems.append(
                f"line {entry.line}: {entry.power}: {entry.text}: expected {entry.outcome}, "
                f"got {why or 'COUNTED'}")
