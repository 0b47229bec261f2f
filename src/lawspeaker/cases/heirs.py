"""The case runner's part for variants with heirs (``lawspeaker datc``).

Such a case describes a whole position (heirs, thralls, vassals, pending
marriages, GM drops) and is played with :func:`lawspeaker.engine.phases.adjudicate`,
so marriages, the Census and Winter heir builds are part of it; these methods
build that position and check the ``POSTSTATE_HEIRS``, ``..._SUPPLYCENTER_OWNERS``,
``..._POWERS``, ``..._GAME`` and ``..._EVENTS`` sections (docs/case-format.md).
They are mixed into the runner in :mod:`lawspeaker.cases.runner`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..core.board import Dislodged, Heir, Marriage, Phase, Position, PowerState, Unit
from ..core.geography import UnknownNameError, normalise_name, province_of
from ..core.orders import Order
from ..engine.phases import Adjudication, adjudicate, minor_name
from ..engine.retreats import retreat_options
from ..rules.dp import is_allocation
from .casefile import Entry, marriage_parts

if TYPE_CHECKING:
    from ..variants import Variant
    from .casefile import Case
    from .report import CaseReport

class _CaseError(ValueError):
    pass


#: Sections that only make sense in variants with heirs (the ``heirs`` component).
_HEIR_SECTIONS = {
    "PRESTATE_HEIRS": "prestate_heirs",
    "PRESTATE_VASSALS": "prestate_vassals",
    "PRESTATE_HEIR_BUILT": "prestate_heir_built",
    "PRESTATE_DROPPED": "prestate_dropped",
    "PRESTATE_MARRIAGES": "prestate_marriages",
    "POSTSTATE_HEIRS": "poststate_heirs",
    "POSTSTATE_SUPPLYCENTER_OWNERS": "poststate_supply_centre_owners",
    "POSTSTATE_POWERS": "poststate_powers",
    "POSTSTATE_GAME": "poststate_game",
    "POSTSTATE_EVENTS": "poststate_events",
}
_VASSAL_NAME = re.compile(r"v([A-Z])([A-Z])(\d*)")


class HeirCaseMixin:
    """Methods of the case runner for variants with heirs."""

    case: Case
    report: CaseReport
    variant: Variant

    def major_or_vassal(self, entry: Entry) -> str:
        if entry.power.strip() in self.vassals:
            return entry.power.strip()
        return self.power(entry)

    def province(self, entry: Entry, text: str, centre: bool = True) -> str:
        """A province named in a line (``asg``, ``Asgard``, ``A asg``); a supply centre
        unless ``centre`` is false."""
        words = text.split()
        if len(words) > 1 and words[0].upper() in ("A", "F"):
            text = " ".join(words[1:])
        try:
            prov = province_of(self.variant.map.lookup(text))
        except UnknownNameError as exc:
            raise _CaseError(f"line {entry.line}: {exc}") from None
        if centre and not self.variant.map.provinces[prov].is_sc:
            raise _CaseError(f"line {entry.line}: {self.variant.map.name_of(prov)} is not a "
                             "supply centre")
        return prov

    def full_phase(self) -> Phase:
        """The case's phase, spelled as the variant spells its seasons."""
        if self.case.phase is None:
            season, kind = self.variant.phases[0]
            return Phase(season, self.variant.first_year, kind)
        season, year, kind = self.case.phase
        for name, phase_kind in self.variant.phases:
            if name.lower() == season.lower() and phase_kind.value == kind:
                return Phase(name, year, phase_kind)
        known = ", ".join(f"{s} {k.value}" for s, k in self.variant.phases)
        raise _CaseError(f"{self.variant.name} has no {season} {kind} phase (its phases: "
                         f"{known})")

    def by_initial(self, entry: Entry, letter: str) -> str:
        found = [p.name for p in self.variant.powers.values() if p.abbreviation[:1] == letter]
        if len(found) != 1:
            raise _CaseError(f"line {entry.line}: no single power has the abbreviation "
                             f"'{letter}' in vassal name '{entry.power}'")
        return found[0]

    def read_vassals(self) -> None:
        """``PRESTATE_VASSALS``: ``vDA: per`` (giver Dokkalfar, receiver Aesir), or
        ``vDA: per Dokkalfar`` for a vassal kept by one controller (S9 §3.4 step 5)."""
        for entry in self.case.prestate_vassals:
            name = entry.power.strip()
            match = _VASSAL_NAME.fullmatch(name)
            if match is None:
                raise _CaseError(f"line {entry.line}: a vassal is named 'v' + the giver's and "
                                 f"the receiver's initials, like 'vDA', got '{name}'")
            if name in self.vassals:
                raise _CaseError(f"line {entry.line}: vassal {name} given twice")
            pair = (self.by_initial(entry, match[1]), self.by_initial(entry, match[2]))
            if pair[0] == pair[1]:
                raise _CaseError(f"line {entry.line}: a vassal has two different controllers")
            words = entry.text.split()
            named: list[str] = []
            while len(words) > 1:
                try:
                    named.insert(0, self.variant.power_named(words[-1]))
                except ValueError:
                    break
                words.pop()
            capital = self.province(entry, " ".join(words))
            if not set(named) <= set(pair) or len(set(named)) != len(named):
                raise _CaseError(f"line {entry.line}: the controllers of {name} can only be "
                                 f"{pair[0]} and {pair[1]}")
            controllers = tuple(p for p in pair if p in named) if named else pair
            self.vassals[name] = PowerState("vassal", controllers, capital)

    def full_owners(self, units: list[Unit]) -> dict[str, str]:
        if self.case.supply_centre_owners is None:
            owners = {h: p.name for p in self.variant.powers.values() for h in p.homes}
            owners.update({u.province: u.power for u in units if u.power in self.minors
                           and self.variant.map.provinces[u.province].is_sc})
        else:
            owners = {}
            for entry in self.case.supply_centre_owners:
                prov = self.province(entry, entry.text)
                owners[prov] = self.owner(entry, prov)
        for name, state in self.vassals.items():
            assert state.capital is not None
            if self.case.supply_centre_owners is None or state.capital not in owners:
                owners[state.capital] = name
        return owners

    def read_heirs(self, owners: dict[str, str]) -> tuple[list[Heir], dict[str, PowerState]]:
        """``PRESTATE_HEIRS``: unmarried in the capital, else married to a thrall or in a
        vassal's capital (S9 §7.1, §10.2)."""
        heirs: list[Heir] = []
        thralls: dict[str, PowerState] = {}
        names = self.variant.map.name_of
        for entry in self.case.prestate_heirs:
            power = self.power(entry)
            prov = self.province(entry, entry.text)
            married = prov != self.variant.powers[power].capital
            heir = Heir(power, prov, married)
            if heir in heirs:
                raise _CaseError(f"line {entry.line}: {power} already has an heir in "
                                 f"{names(prov)} (S9 §10.2)")
            heirs.append(heir)
            if not married:
                continue
            vassal = next((n for n, s in self.vassals.items() if s.capital == prov), None)
            if vassal is not None:
                if power not in self.vassals[vassal].controllers:
                    raise _CaseError(f"line {entry.line}: {power} does not control {vassal}, "
                                     f"so its heir cannot be married in {names(prov)}")
                continue
            owner = owners.get(prov)
            if owner is None and self.case.supply_centre_owners is None:
                owner = owners[prov] = minor_name(self.variant, prov)
                self.minors.add(owner)
            if owner is None or owner in self.variant.powers or owner in self.vassals:
                raise _CaseError(
                    f"line {entry.line}: a married heir of {power} in {names(prov)} needs a "
                    f"minor power there (which becomes its thrall) or a vassal's capital; "
                    f"{names(prov)} is owned by {owner or 'nobody'}")
            if owner in thralls:
                raise _CaseError(f"line {entry.line}: {owner} is already the thrall of "
                                 f"{thralls[owner].controllers[0]}")
            thralls[owner] = PowerState("thrall", (power,))
        return heirs, thralls

    def full_position(self, phase: Phase) -> Position:
        case = self.case
        self.read_vassals()
        units = [self.unit(e) for e in case.prestate]
        dislodged_units = [self.unit(e) for e in case.prestate_dislodged]
        owners = self.full_owners(units)
        undeclared = sorted(n for n in self.minors if _VASSAL_NAME.fullmatch(n))
        if undeclared:
            raise _CaseError(f"{', '.join(undeclared)}: a vassal must be given in "
                             "PRESTATE_VASSALS")
        heirs, thralls = self.read_heirs(owners)
        powers: dict[str, PowerState] = {name: PowerState("minor") for name in self.minors}
        powers.update(thralls)
        powers.update(self.vassals)
        heir_built = {self.power(e): int(e.text) for e in case.prestate_heir_built}
        dropped = {self.power(e) for e in case.prestate_dropped}
        marriages = []
        for entry in case.prestate_marriages:
            receiver, where = marriage_parts(entry.text)
            marriages.append(Marriage(
                self.power(entry), self.power(Entry(receiver, entry.text, entry.line)),
                self.province(entry, where)))
        attackers, standoffs = self.previous_moves(units, dislodged_units)
        return Position.from_units(
            self.variant.name, phase, units, owners,
            [Dislodged(u, attackers.get(u.province)) for u in dislodged_units], standoffs,
            powers_in_play=powers, heirs=heirs, heir_built=heir_built, marriages=marriages,
            dropped=dropped)

    def run_with_heirs(self) -> None:
        case = self.case
        phase = self.full_phase()
        position = self.full_position(phase)
        orders: list[Order] = []
        for e in case.orders:
            if is_allocation(e.text):
                self.allocations.append((e, self.allocation(e)))
            else:
                orders.append(self.order(e, phase.kind))
        try:
            done = adjudicate(self.variant, position, orders, self.rules,
                              [a for _, a in self.allocations])
        except (KeyError, ValueError) as exc:
            raise _CaseError(f"the engine could not adjudicate the case: {exc!r}") from None
        self.dp = done.dp
        self.report.results = done.results
        self.report.events = done.events
        if case.poststate_chosen:
            if self.dp is None:
                raise _CaseError("POSTSTATE_CHOSEN: no DP were resolved in this case")
            self.check_chosen(position)
        after = done.position
        checks = [case.poststate_same, case.poststate is not None, case.poststate_results,
                  case.poststate_chosen, case.poststate_heirs is not None,
                  case.poststate_supply_centre_owners is not None, case.poststate_powers,
                  case.poststate_game is not None, case.poststate_events]
        if not any(checks):
            raise _CaseError("the case states no outcome: give POSTSTATE, POSTSTATE_SAME, "
                             "POSTSTATE_RESULTS or another POSTSTATE_ section")
        if case.poststate_same or case.poststate is not None:
            if case.poststate_same:
                expected = list(position.units.values())
                expected_dislodged: list[Unit] = []
            else:
                expected = [self.unit(e) for e in case.poststate or ()]
                expected_dislodged = [self.unit(e) for e in case.poststate_dislodged]
            self.compare("units", expected, list(after.units.values()))
            # As in jDip files, dislodged units with no retreat may be left out.
            listed = {(u.power, u.type, u.location) for u in expected_dislodged}
            dislodged_after = [
                d.unit for d in (after.dislodged.values() or done.dislodged)
                if retreat_options(self.variant, after, d)
                or (d.unit.power, d.unit.type, d.unit.location) in listed]
            self.compare("dislodged units", expected_dislodged, dislodged_after)
        self.check_results(done.results, phase.kind)
        self.check_heirs(after)
        self.check_owners(after)
        self.check_powers(after)
        self.check_game(after)
        self.check_events(done)

    def check_heirs(self, after: Position) -> None:
        """POSTSTATE_HEIRS: exactly these heirs, married unless in their capital."""
        if self.case.poststate_heirs is None:
            return
        expected = []
        for entry in self.case.poststate_heirs:
            power = self.power(entry)
            prov = self.province(entry, entry.text)
            expected.append(Heir(power, prov, prov != self.variant.powers[power].capital))

        def show(h: Heir) -> str:
            return f"{h.power} {'married in' if h.married else 'in'} {h.location}"

        want, got = sorted(expected), sorted(after.heirs)
        if want != got:
            missing = [show(h) for h in want if h not in got]
            extra = [show(h) for h in got if h not in want]
            self.report.problems.append(f"heirs: expected but missing [{', '.join(missing)}]; "
                                        f"unexpected [{', '.join(extra)}]")

    def post_owner(self, entry: Entry, prov: str) -> str:
        """A power named in a POSTSTATE line: a major, ``Minor`` (the minor power named
        after ``prov``) or any other name as written."""
        name = entry.power.strip()
        if name.lower() == "minor":
            return minor_name(self.variant, prov)
        try:
            return self.variant.power_named(name)
        except ValueError:
            return name

    def check_owners(self, after: Position) -> None:
        """POSTSTATE_SUPPLYCENTER_OWNERS: exactly these owners."""
        if self.case.poststate_supply_centre_owners is None:
            return
        expected: dict[str, str] = {}
        for entry in self.case.poststate_supply_centre_owners:
            prov = self.province(entry, entry.text)
            expected[prov] = self.post_owner(entry, prov)
        if expected != dict(after.owners):
            provinces = sorted(set(expected) | set(after.owners))
            wrong = [f"{p}: expected {expected.get(p, 'nobody')}, got "
                     f"{after.owners.get(p, 'nobody')}" for p in provinces
                     if expected.get(p) != after.owners.get(p)]
            self.report.problems.append(f"supply centre owners: {'; '.join(wrong)}")

    def check_powers(self, after: Position) -> None:
        """POSTSTATE_POWERS: ``Permyak: thrall Aesir``, ``Aesir: eliminated`` ..."""
        for entry in self.case.poststate_powers:
            words = entry.text.split()
            kind = words[0].lower()
            capital = None
            if len(words) >= 3 and words[-2].lower() == "at":
                capital = self.province(entry, words[-1])
                words = words[:-2]
            controllers = self.powers_in(entry, words[1:])
            if len(controllers) not in {"thrall": (1,), "vassal": (1, 2)}.get(kind, (0,)):
                raise _CaseError(f"line {entry.line}: a {kind} has "
                                 f"{'one' if kind == 'thrall' else 'one or two'} controllers")
            name = entry.power.strip()
            name = next((n for n in after.powers_in_play
                         if normalise_name(n) == normalise_name(name)), name)
            try:
                name = self.variant.power_named(name)
                major = True
            except ValueError:
                major = False
            state = after.powers_in_play.get(name)
            if major:
                if kind not in ("major", "eliminated", "gone"):
                    raise _CaseError(f"line {entry.line}: {name} is a major power: say "
                                     "'major' or 'eliminated'")
                alive = name in after.owners.values()
                got = "major" if alive else "eliminated"
                if (kind == "major") != alive:
                    self.report.problems.append(f"line {entry.line}: expected {name} to be "
                                                f"{kind}, it is {got}")
                continue
            if kind == "major":
                raise _CaseError(f"line {entry.line}: {name} is not a major power")
            if state is None:
                if kind not in ("gone", "eliminated"):
                    self.report.problems.append(f"line {entry.line}: expected {name} to be a "
                                                f"{kind}, it is not in play")
                continue
            if kind in ("gone", "eliminated"):
                self.report.problems.append(f"line {entry.line}: expected {name} to be gone, "
                                            f"it is a {self.describe(state)}")
                continue
            if state.kind != kind or state.controllers != controllers or (
                    capital is not None and state.capital != capital):
                wanted = self.describe(PowerState(kind, controllers, capital or state.capital))
                self.report.problems.append(f"line {entry.line}: expected {name} to be a "
                                            f"{wanted}, it is a {self.describe(state)}")

    def powers_in(self, entry: Entry, words: list[str]) -> tuple[str, ...]:
        """Major powers named one after another, names of several words included
        (``Golden Horde Kalmar Union``): the longest name that fits wins."""
        out: list[str] = []
        i = 0
        while i < len(words):
            for j in range(len(words), i, -1):
                try:
                    out.append(self.variant.power_named(" ".join(words[i:j]).strip(",")))
                except ValueError:
                    continue
                i = j
                break
            else:
                raise _CaseError(f"line {entry.line}: unknown power '{words[i]}'")
        return tuple(out)

    @staticmethod
    def describe(state: PowerState) -> str:
        text = state.kind
        if state.controllers:
            text += " of " + " and ".join(state.controllers)
        if state.kind == "vassal" and state.capital:
            text += f" with its capital in {state.capital}"
        return text

    def check_game(self, after: Position) -> None:
        """POSTSTATE_GAME: ``continues`` or the exact result text (``Solo: Aesir``)."""
        entry = self.case.poststate_game
        if entry is None:
            return
        wanted = None if entry.text.lower() == "continues" else entry.text
        if after.result != wanted:
            expected = "continue" if wanted is None else f"end '{wanted}'"
            got = "it continues" if after.result is None else f"it ended '{after.result}'"
            self.report.problems.append(f"line {entry.line}: expected the game to {expected}, "
                                        f"but {got}")

    def check_events(self, done: Adjudication) -> None:
        """POSTSTATE_EVENTS: each text is part of one of the Census's report lines."""
        for entry in self.case.poststate_events:
            if not any(entry.text in event for event in done.events):
                shown = "; ".join(done.events) or "none"
                self.report.problems.append(f"line {entry.line}: no event '{entry.text}' "
                                            f"(events: {shown})")

