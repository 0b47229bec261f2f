"""The heir and vassal sections of a case (S9 Complete, OOD; ``lawspeaker datc``).

Such a case describes a whole position (heirs, thralls, vassals, pending
marriages, GM drops) and is played with :func:`lawspeaker.engine.phases.adjudicate`,
so marriages, the Census and Winter heir builds are part of it. :class:`HeirSections`
builds that position from the ``PRESTATE_HEIRS``, ``..._VASSALS``, ``..._HEIR_BUILT``,
``..._DROPPED`` and ``..._MARRIAGES`` sections and checks the ``POSTSTATE_HEIRS``,
``..._SUPPLYCENTER_OWNERS``, ``..._POWERS``, ``..._GAME`` and ``..._EVENTS`` sections
(docs/case-format.md). It owns the vassals it reads; the runner
(:mod:`lawspeaker.cases.runner`) plays the phase and checks the units and results.
"""

from __future__ import annotations

import re

from ..core.board import Dislodged, Heir, Marriage, Phase, Position, PowerState, Unit
from ..core.geography import normalise_name
from ..engine.phases import Adjudication, minor_name
from .casefile import Case, Entry, marriage_parts
from .context import CaseContext, CaseError
from .previous import previous_moves

__all__ = ["HEIR_SECTIONS", "HeirSections", "heir_sections_used"]

#: Sections that only make sense in variants with heirs (the ``heirs`` component).
HEIR_SECTIONS = {
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


def heir_sections_used(case: Case) -> list[str]:
    """The heir sections a case gives (an error in a variant without heirs)."""
    optional = ("poststate_heirs", "poststate_supply_centre_owners")  # None when absent
    return [k for k, attr in HEIR_SECTIONS.items()
            if (getattr(case, attr) is not None if attr in optional
                else getattr(case, attr))]


class HeirSections:
    """Reads a case's heir sections into a position, and checks its POSTSTATE ones."""

    def __init__(self, ctx: CaseContext) -> None:
        self.ctx = ctx
        self.vassals: dict[str, PowerState] = {}
        """``PRESTATE_VASSALS``: name (``vDA``) -> the vassal's state."""

    def phase(self) -> Phase:
        """The case's phase, spelled as the variant spells its seasons."""
        if self.ctx.case.phase is None:
            season, kind = self.ctx.variant.phases[0]
            return Phase(season, self.ctx.variant.first_year, kind)
        season, year, kind = self.ctx.case.phase
        for name, phase_kind in self.ctx.variant.phases:
            if name.lower() == season.lower() and phase_kind.value == kind:
                return Phase(name, year, phase_kind)
        known = ", ".join(f"{s} {k.value}" for s, k in self.ctx.variant.phases)
        raise CaseError(f"{self.ctx.variant.name} has no {season} {kind} phase (its phases: "
                         f"{known})")

    def _by_initial(self, entry: Entry, letter: str) -> str:
        found = [p.name for p in self.ctx.variant.powers.values() if p.abbreviation[:1] == letter]
        if len(found) != 1:
            raise CaseError(f"line {entry.line}: no single power has the abbreviation "
                             f"'{letter}' in vassal name '{entry.power}'")
        return found[0]

    def _read_vassals(self) -> None:
        """``PRESTATE_VASSALS``: ``vDA: per`` (giver Dokkalfar, receiver Aesir), or
        ``vDA: per Dokkalfar`` for a vassal kept by one controller (S9 §3.4 step 5)."""
        for entry in self.ctx.case.prestate_vassals:
            name = entry.power.strip()
            match = _VASSAL_NAME.fullmatch(name)
            if match is None:
                raise CaseError(f"line {entry.line}: a vassal is named 'v' + the giver's and "
                                 f"the receiver's initials, like 'vDA', got '{name}'")
            if name in self.vassals:
                raise CaseError(f"line {entry.line}: vassal {name} given twice")
            pair = (self._by_initial(entry, match[1]), self._by_initial(entry, match[2]))
            if pair[0] == pair[1]:
                raise CaseError(f"line {entry.line}: a vassal has two different controllers")
            words = entry.text.split()
            named: list[str] = []
            while len(words) > 1:
                try:
                    named.insert(0, self.ctx.variant.power_named(words[-1]))
                except ValueError:
                    break
                words.pop()
            capital = self.ctx.province(entry, " ".join(words))
            if not set(named) <= set(pair) or len(set(named)) != len(named):
                raise CaseError(f"line {entry.line}: the controllers of {name} can only be "
                                 f"{pair[0]} and {pair[1]}")
            controllers = tuple(p for p in pair if p in named) if named else pair
            self.vassals[name] = PowerState("vassal", controllers, capital)
        self.ctx.vassal_names.update(self.vassals)  # unit and order lines may name them

    def _owners(self, units: list[Unit]) -> dict[str, str]:
        if self.ctx.case.supply_centre_owners is None:
            owners = {h: p.name for p in self.ctx.variant.powers.values() for h in p.homes}
            owners.update({u.province: u.power for u in units if u.power in self.ctx.minors
                           and self.ctx.variant.map.provinces[u.province].is_sc})
        else:
            owners = {}
            for entry in self.ctx.case.supply_centre_owners:
                prov = self.ctx.province(entry, entry.text)
                owners[prov] = self.ctx.owner(entry, prov)
        for name, state in self.vassals.items():
            assert state.capital is not None
            if self.ctx.case.supply_centre_owners is None or state.capital not in owners:
                owners[state.capital] = name
        return owners

    def _read_heirs(self, owners: dict[str, str]) -> tuple[list[Heir], dict[str, PowerState]]:
        """``PRESTATE_HEIRS``: unmarried in the capital, else married to a thrall or in a
        vassal's capital (S9 §7.1, §10.2)."""
        heirs: list[Heir] = []
        thralls: dict[str, PowerState] = {}
        names = self.ctx.variant.map.name_of
        for entry in self.ctx.case.prestate_heirs:
            power = self.ctx.power(entry)
            prov = self.ctx.province(entry, entry.text)
            married = prov != self.ctx.variant.powers[power].capital
            heir = Heir(power, prov, married)
            if heir in heirs:
                raise CaseError(f"line {entry.line}: {power} already has an heir in "
                                 f"{names(prov)} (S9 §10.2)")
            heirs.append(heir)
            if not married:
                continue
            vassal = next((n for n, s in self.vassals.items() if s.capital == prov), None)
            if vassal is not None:
                if power not in self.vassals[vassal].controllers:
                    raise CaseError(f"line {entry.line}: {power} does not control {vassal}, "
                                     f"so its heir cannot be married in {names(prov)}")
                continue
            owner = owners.get(prov)
            if owner is None and self.ctx.case.supply_centre_owners is None:
                owner = owners[prov] = minor_name(self.ctx.variant, prov)
                self.ctx.minors.add(owner)
            if owner is None or owner in self.ctx.variant.powers or owner in self.vassals:
                raise CaseError(
                    f"line {entry.line}: a married heir of {power} in {names(prov)} needs a "
                    f"minor power there (which becomes its thrall) or a vassal's capital; "
                    f"{names(prov)} is owned by {owner or 'nobody'}")
            if owner in thralls:
                raise CaseError(f"line {entry.line}: {owner} is already the thrall of "
                                 f"{thralls[owner].controllers[0]}")
            thralls[owner] = PowerState("thrall", (power,))
        return heirs, thralls

    def position(self, phase: Phase) -> Position:
        """The whole position the case describes: units, owners, vassals, heirs and their
        thralls, heirs built, dropped players, pending marriages, and what the phase
        before left (dislodging attackers, standoffs)."""
        case = self.ctx.case
        self._read_vassals()
        units = [self.ctx.unit(e) for e in case.prestate]
        dislodged_units = [self.ctx.unit(e) for e in case.prestate_dislodged]
        owners = self._owners(units)
        undeclared = sorted(n for n in self.ctx.minors if _VASSAL_NAME.fullmatch(n))
        if undeclared:
            raise CaseError(f"{', '.join(undeclared)}: a vassal must be given in "
                             "PRESTATE_VASSALS")
        heirs, thralls = self._read_heirs(owners)
        powers: dict[str, PowerState] = {name: PowerState("minor") for name in self.ctx.minors}
        powers.update(thralls)
        powers.update(self.vassals)
        heir_built = {self.ctx.power(e): int(e.text) for e in case.prestate_heir_built}
        dropped = {self.ctx.power(e) for e in case.prestate_dropped}
        marriages = []
        for entry in case.prestate_marriages:
            receiver, where = marriage_parts(entry.text)
            marriages.append(Marriage(
                self.ctx.power(entry), self.ctx.power(Entry(receiver, entry.text, entry.line)),
                self.ctx.province(entry, where)))
        attackers, standoffs = previous_moves(self.ctx, units, dislodged_units)
        return Position.from_units(
            self.ctx.variant.name, phase, units, owners,
            [Dislodged(u, attackers.get(u.province)) for u in dislodged_units], standoffs,
            powers_in_play=powers, heirs=heirs, heir_built=heir_built, marriages=marriages,
            dropped=dropped)

    def check(self, after: Position, done: Adjudication) -> None:
        """The heir sections of POSTSTATE, against the position the phase led to."""
        self.check_heirs(after)
        self.check_owners(after)
        self.check_powers(after)
        self.check_game(after)
        self.check_events(done)

    def check_heirs(self, after: Position) -> None:
        """POSTSTATE_HEIRS: exactly these heirs, married unless in their capital."""
        if self.ctx.case.poststate_heirs is None:
            return
        expected = []
        for entry in self.ctx.case.poststate_heirs:
            power = self.ctx.power(entry)
            prov = self.ctx.province(entry, entry.text)
            expected.append(Heir(power, prov, prov != self.ctx.variant.powers[power].capital))

        def show(h: Heir) -> str:
            return f"{h.power} {'married in' if h.married else 'in'} {h.location}"

        want, got = sorted(expected), sorted(after.heirs)
        if want != got:
            missing = [show(h) for h in want if h not in got]
            extra = [show(h) for h in got if h not in want]
            self.ctx.report.problems.append(f"heirs: expected but missing [{', '.join(missing)}]; "
                                            f"unexpected [{', '.join(extra)}]")

    def post_owner(self, entry: Entry, prov: str) -> str:
        """A power named in a POSTSTATE line: a major, ``Minor`` (the minor power named
        after ``prov``) or any other name as written."""
        name = entry.power.strip()
        if name.lower() == "minor":
            return minor_name(self.ctx.variant, prov)
        try:
            return self.ctx.variant.power_named(name)
        except ValueError:
            return name

    def check_owners(self, after: Position) -> None:
        """POSTSTATE_SUPPLYCENTER_OWNERS: exactly these owners."""
        if self.ctx.case.poststate_supply_centre_owners is None:
            return
        expected: dict[str, str] = {}
        for entry in self.ctx.case.poststate_supply_centre_owners:
            prov = self.ctx.province(entry, entry.text)
            expected[prov] = self.post_owner(entry, prov)
        if expected != dict(after.owners):
            provinces = sorted(set(expected) | set(after.owners))
            wrong = [f"{p}: expected {expected.get(p, 'nobody')}, got "
                     f"{after.owners.get(p, 'nobody')}" for p in provinces
                     if expected.get(p) != after.owners.get(p)]
            self.ctx.report.problems.append(f"supply centre owners: {'; '.join(wrong)}")

    def check_powers(self, after: Position) -> None:
        """POSTSTATE_POWERS: ``Permyak: thrall Aesir``, ``Aesir: eliminated`` ..."""
        for entry in self.ctx.case.poststate_powers:
            words = entry.text.split()
            kind = words[0].lower()
            capital = None
            if len(words) >= 3 and words[-2].lower() == "at":
                capital = self.ctx.province(entry, words[-1])
                words = words[:-2]
            controllers = self.powers_in(entry, words[1:])
            if len(controllers) not in {"thrall": (1,), "vassal": (1, 2)}.get(kind, (0,)):
                raise CaseError(f"line {entry.line}: a {kind} has "
                                 f"{'one' if kind == 'thrall' else 'one or two'} controllers")
            name = entry.power.strip()
            name = next((n for n in after.powers_in_play
                         if normalise_name(n) == normalise_name(name)), name)
            try:
                name = self.ctx.variant.power_named(name)
                major = True
            except ValueError:
                major = False
            state = after.powers_in_play.get(name)
            if major:
                if kind not in ("major", "eliminated", "gone"):
                    raise CaseError(f"line {entry.line}: {name} is a major power: say "
                                     "'major' or 'eliminated'")
                alive = name in after.owners.values()
                got = "major" if alive else "eliminated"
                if (kind == "major") != alive:
                    self.ctx.report.problems.append(f"line {entry.line}: expected {name} to be "
                                                    f"{kind}, it is {got}")
                continue
            if kind == "major":
                raise CaseError(f"line {entry.line}: {name} is not a major power")
            if state is None:
                if kind not in ("gone", "eliminated"):
                    self.ctx.report.problems.append(f"line {entry.line}: expected {name} to be a "
                                                    f"{kind}, it is not in play")
                continue
            if kind in ("gone", "eliminated"):
                self.ctx.report.problems.append(f"line {entry.line}: expected {name} to be gone, "
                                                f"it is a {self.describe(state)}")
                continue
            if state.kind != kind or state.controllers != controllers or (
                    capital is not None and state.capital != capital):
                wanted = self.describe(PowerState(kind, controllers, capital or state.capital))
                self.ctx.report.problems.append(f"line {entry.line}: expected {name} to be a "
                                                f"{wanted}, it is a {self.describe(state)}")

    def powers_in(self, entry: Entry, words: list[str]) -> tuple[str, ...]:
        """Major powers named one after another, names of several words included
        (``Golden Horde Kalmar Union``): the longest name that fits wins."""
        out: list[str] = []
        i = 0
        while i < len(words):
            for j in range(len(words), i, -1):
                try:
                    out.append(self.ctx.variant.power_named(" ".join(words[i:j]).strip(",")))
                except ValueError:
                    continue
                i = j
                break
            else:
                raise CaseError(f"line {entry.line}: unknown power '{words[i]}'")
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
        entry = self.ctx.case.poststate_game
        if entry is None:
            return
        wanted = None if entry.text.lower() == "continues" else entry.text
        if after.result != wanted:
            expected = "continue" if wanted is None else f"end '{wanted}'"
            got = "it continues" if after.result is None else f"it ended '{after.result}'"
            self.ctx.report.problems.append(f"line {entry.line}: expected the game to {expected}, "
                                            f"but {got}")

    def check_events(self, done: Adjudication) -> None:
        """POSTSTATE_EVENTS: each text is part of one of the Census's report lines."""
        for entry in self.ctx.case.poststate_events:
            if not any(entry.text in event for event in done.events):
                shown = "; ".join(done.events) or "none"
                self.ctx.report.problems.append(f"line {entry.line}: no event '{entry.text}' "
                                                f"(events: {shown})")

