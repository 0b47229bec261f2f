"""A variant's types: Variant, its powers, year names and the problems a check finds.

Read from the files by :mod:`.loader`; the package re-exports them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..core.board import Phase, PhaseKind, Unit
from ..core.geography import GameMap, UnitType
from ..core.ruleset import Rules

_CITATION = re.compile(r"\bS9 (§\d+(?:\.\d+)*(?:(?:,\s*|\s*-\s*|–)§\d+(?:\.\d+)*)*)")

_SECTION = re.compile(r"§(\d+(?:\.\d+)*)")

KNOWN_COMPONENTS = frozenset({"minor_powers", "diplomacy_points", "heirs", "wings",
                              "nuclear_powers", "victory_points", "neutral_limits",
                              "favor_map"})
"""Rule components a variant may switch on in ``components:``."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in a variant's files: the file, its line when known, what is
    wrong, and (when the check knows it) how to fix it."""

    file: str
    line: int | None
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}" + (f" (fix: {self.fix})" if self.fix else "")


class VariantError(ValueError):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True, slots=True)
class Power:
    name: str
    adjective: str
    abbreviation: str
    colour: str
    capital: str | None
    homes: tuple[str, ...]
    kind: str = "major"


@dataclass(frozen=True, slots=True)
class NuclearPower:
    """A neutral nuclear power (Dissolution §3.6, §8). Its units are ordered by DP
    like a minor's, but they are invulnerable (§3.8) and it never builds or
    disbands (§4.5); its territories never change hands (§6.1)."""

    name: str
    abbreviation: str
    colour: str
    territories: tuple[str, ...]
    """Provinces that are this power's territory for the whole game (§8.x.1)."""
    units: tuple[Unit, ...]
    """Its starting units; stationary unless ``mobile`` (§3.7)."""
    mobile: bool = False
    """The US Navy's fleets move (§8.5.3); every other nuclear unit is stationary."""
    barred: tuple[str, ...] = ()
    """Spaces its units may never be ordered into (§8.5.4: the US Navy and the
    Unified Deep Water System)."""
    spares: tuple[str, ...] = ()
    """Powers whose units it is never ordered to attack, or to support or convoy
    an attack on (§9.2.3: the US Navy spares NATO and Israel)."""
    cohesion: bool = True
    """Whether the Cohesion rule binds its units (§9.2; not the US Navy, §9.2.3)."""
    deception: bool = True
    """Whether the Deception rule protects it (§9.1; not the US Navy)."""


_ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth",
             "Ninth", "Tenth", "Eleventh", "Twelfth", "Thirteenth", "Fourteenth", "Fifteenth",
             "Sixteenth", "Seventeenth", "Eighteenth", "Nineteenth", "Twentieth")


@dataclass(frozen=True, slots=True)
class Seed:
    """An extra point a province's territory grows from (``seeds:`` in
    ``map.yaml``), in the map's own ``xy`` units: a designer's way to shape a
    territory without drawing it (docs/maps.md)."""

    province: str
    xy: tuple[float, float]
    file: str = field(default="map.yaml", compare=False)
    line: int | None = field(default=None, compare=False)

    @property
    def where(self) -> str:
        """``map.yaml:12``: where the seed is written (as ``map check`` names places)."""
        return self.file + (f":{self.line}" if self.line is not None else "")


@dataclass(frozen=True, slots=True)
class YearNames:
    """How game years are named when they are not plain numbers.

    S9 §2.0: each game "year" is a Metonic cycle of 19 years; the first is
    the First Cycle, 400 BCE, the second 381 BCE. ``format`` may use
    ``{ordinal}`` (First, Second...), ``{number}`` (1, 2...) and ``{year}``.
    """

    start: int
    step: int
    format: str

    def label(self, index: int) -> str:
        ordinal = _ORDINALS[index] if 0 <= index < len(_ORDINALS) else f"{index + 1}th"
        return self.format.format(ordinal=ordinal, number=index + 1,
                                  year=self.start + index * self.step)


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    map: GameMap
    powers: Mapping[str, Power]
    starting_units: tuple[Unit, ...]
    rules: Rules
    phases: tuple[tuple[str, PhaseKind], ...]
    """One game year's phases in order, as (season, kind)."""
    first_year: int
    reconstructed: bool = False
    path: Path | None = field(default=None, compare=False)
    year_names: YearNames | None = None
    phase_names: Mapping[str, str] = field(default_factory=dict)
    components: frozenset[str] = frozenset()
    """Optional rule components this variant switches on (``minor_powers``,
    ``diplomacy_points``...)."""
    minors: Mapping[str, UnitType] = field(default_factory=dict)
    """Neutral centre -> the unit type its minor power starts with (S9 §9.0)."""
    minor_locations: Mapping[str, str] = field(default_factory=dict)
    """Neutral centre -> where its minor's unit starts, with the coast on a
    split-coast centre (``lub/ec``, OOD §6.11); missing means the centre itself."""
    heirs: Mapping[str, str] = field(default_factory=dict)
    """With the ``heirs`` component: major power -> where its heir starts, its
    capital (unmarried, S9 §6) or a minor's centre (married: that minor
    starts as the power's thrall, as in Order of the Dragon §6)."""
    nuclear: Mapping[str, NuclearPower] = field(default_factory=dict)
    """With ``nuclear_powers``: the neutral nuclear powers by name (Dissolution §8)."""
    minor_colours: Mapping[str, str] = field(default_factory=dict)
    """Minor centre -> its colour class (Dissolution §3.5: ``tan``, ``bronze``,
    ``chocolate`` for paired minors); flavour only, the rules treat them alike."""
    minor_pairs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Paired minor power -> its two centres (Dissolution §3.5.3, §9.2.1)."""
    favor: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Player power -> nuclear power -> starting Favor value (Dissolution §7)."""
    dp_allotment: Mapping[str, int] = field(default_factory=dict)
    """How DP are allotted when not by the S9 formula (Dissolution §5.2, §5.3):
    ``per_unit``, ``unit_cap``, ``oil``, ``minimum``, ``exile``; empty for S9 §9.2."""
    seeds: tuple[Seed, ...] = ()
    """Extra points the territories grow from (``seeds:`` in ``map.yaml``)."""
    favor_path: Path | None = field(default=None, compare=False)
    """``favor.yaml`` (Dissolution §11), from the variant's folder or the nearest
    ``base:`` that has one; ``None`` without the ``favor_map`` component."""
    rulebook: str = ""
    """The name players cite the variant's rulebook by (``S9``, ``OOD``);
    empty for a variant whose texts cite no rulebook of their own."""
    sections: Mapping[str, str] = field(default_factory=dict)
    """Where a rule the engine cites by its S9 section number is in this
    variant's rulebook, when the number differs (OOD §3.3 is S9 §3.4).
    Subsections follow their section: ``3.4`` -> ``3.3`` maps §3.4.2 to §3.3.2."""

    def uses(self, component: str) -> bool:
        return component in self.components

    @cached_property  # a variant is immutable: worked out once, on first use
    def oil_centres(self) -> frozenset[str]:
        """Centres flagged ``oil`` in the map (Dissolution §5.2.2)."""
        return frozenset(k for k, p in self.map.provinces.items() if "oil" in p.flags)

    @cached_property
    def invulnerable_powers(self) -> frozenset[str]:
        """Powers whose units cannot be dislodged: the nuclear powers (Dissolution §3.8)."""
        return frozenset(self.nuclear)

    @cached_property
    def phase_index(self) -> Mapping[tuple[str, PhaseKind], int]:
        """(season, kind) -> its place in :attr:`phases`: the engine steps through the
        calendar after every phase, and a look-up is cheaper than a search."""
        index: dict[tuple[str, PhaseKind], int] = {}
        for i, entry in enumerate(self.phases):
            index.setdefault(entry, i)
        return index

    @cached_property
    def has_census(self) -> bool:
        """Whether the calendar has a Census phase (S9 §2.1); without one, the Census
        runs at the start of the adjustment phase, as in the standard game."""
        return any(kind is PhaseKind.CENSUS for _, kind in self.phases)

    @cached_property
    def centre_values(self) -> Mapping[str, int]:
        """Province -> how many centres it counts for (0 for a province that is no
        supply centre): kept, as the Census counts them every year."""
        return {k: p.sc_value for k, p in self.map.provinces.items()}

    @cached_property
    def centres_count_one(self) -> bool:
        """Whether every supply centre counts for one, as in most variants."""
        return all(v == 1 for v in self.centre_values.values() if v)

    def cite(self, text: str) -> str:
        """``text`` with every ``S9 §...`` citation turned into this variant's
        rulebook and section: ``(S9 §3.4 step 1)`` reads ``(OOD §3.3 step 1)``
        in an Order of the Dragon game. Texts players read pass through here."""
        if not self.rulebook or (self.rulebook == "S9" and not self.sections) \
                or "S9 §" not in text:  # most texts cite nothing: no regular expression
            return text
        return _CITATION.sub(lambda m: self.rulebook + " " + _SECTION.sub(
            lambda s: "§" + self._section(s.group(1)), m.group(1)), text)

    def _section(self, number: str) -> str:
        parts = number.split(".")
        for cut in range(len(parts), 0, -1):
            mapped = self.sections.get(".".join(parts[:cut]))
            if mapped is not None:
                return ".".join([mapped, *parts[cut:]])
        return number

    def year_label(self, year: int) -> str:
        """The year as players name it: ``1901``, or ``Second Cycle (381 BCE)``."""
        return self.year_names.label(year - self.first_year) if self.year_names else str(year)

    def phase_label(self, phase: Phase) -> str:
        kind = self.phase_names.get(phase.kind.value, phase.kind.value.capitalize())
        if self.year_names:
            return f"{phase.season} {kind}, {self.year_label(phase.year)}"
        return f"{phase.season} {phase.year} {kind}"

    def starting_type(self, province: str) -> UnitType | None:
        """The unit type in ``province`` at the start of the game (S9 §3.4, §8.4)."""
        for unit in self.starting_units:
            if unit.province == province:
                return unit.type
        return self.minors.get(province)

    def starting_location(self, province: str) -> str | None:
        """Where the unit in ``province`` stood at the start of the game, with
        its coast: minors and thralls rebuild there (OOD §8.2: a fleet in
        Toledo on the west coast, in Lübeck on the east coast)."""
        for unit in self.starting_units:
            if unit.province == province:
                return unit.location
        if province in self.minors:
            return self.minor_locations.get(province, province)
        return None

    def capital_names(self) -> dict[str, str]:
        """Lower-case power names and adjectives -> capital, for reading
        ``Heir Aesir`` (S9 §7.1: an heir is named by its power or its place)."""
        names: dict[str, str] = {}
        for p in self.powers.values():
            if p.capital:
                names[p.name.lower()] = names[p.adjective.lower()] = p.capital
        return names

    def home_of(self, province: str) -> str | None:
        for power in self.powers.values():
            if province in power.homes:
                return power.name
        return None

    def power_named(self, text: str, fuzzy: bool = False) -> str:
        """Resolve a power by name, adjective or abbreviation (case-insensitive).

        A unique prefix also works. With ``fuzzy``, so does a unique close
        misspelling (``Germnay``), as a GM reading orders would allow.
        """
        wanted = text.strip().lower()
        for p in self.powers.values():
            if wanted in (p.name.lower(), p.adjective.lower(), p.abbreviation.lower()):
                return p.name
        matches = [p.name for p in self.powers.values() if p.name.lower().startswith(wanted)]
        if len(matches) == 1 and wanted:
            return matches[0]
        if fuzzy:
            names = {p.name.lower(): p.name for p in self.powers.values()}
            close = difflib.get_close_matches(wanted, list(names), n=2, cutoff=0.8)
            if len(close) == 1:
                return names[close[0]]
        names = {n.lower(): p.name for p in self.powers.values() for n in (p.name, p.adjective)}
        close = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)
        guesses = list(dict.fromkeys(names[c] for c in close))
        if guesses:
            raise ValueError(f"unknown power '{text.strip()}' (did you mean "
                             f"{' or '.join(guesses)}?)")
        raise ValueError(f"unknown power '{text.strip()}' (powers: {', '.join(self.powers)})")
