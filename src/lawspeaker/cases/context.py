"""One case being run: what it is run on, and how its lines name powers, places and orders.

The runner (:mod:`lawspeaker.cases.runner`) and the section handlers for heirs
(:mod:`lawspeaker.cases.heirs`) and the Favor Map (:mod:`lawspeaker.cases.favor`)
all read the same case against the same variant and rules, and report into the
same :class:`~lawspeaker.cases.report.CaseReport`; a :class:`CaseContext` holds
those, and the name readers they share, so that a unit line means the same power
in every section. Reading names can create minor powers (``Minor`` in a unit line)
and may accept the vassals a case declares, so the context owns those two sets.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from ..core.board import PhaseKind, Unit
from ..core.geography import UnitType, UnknownNameError, province_of
from ..core.notation import OrderSyntaxError, parse_order
from ..core.orders import HeirOrder, Order
from ..core.ruleset import Rules
from ..engine.phases import minor_name
from ..rules.dp import Allocation, parse_allocation
from ..variants import Variant, load_variant, locate
from .casefile import Case, Entry
from .report import CaseReport

__all__ = ["CaseContext", "CaseError"]


class CaseError(ValueError):
    """A case that cannot be read (an unknown power, a malformed line): reported as one
    line, with the case's file and line, as that case's failure."""


def case_variant(case: Case) -> Variant:
    """The variant ``VARIANT_ALL`` names: a bundled name (any case), or a folder
    relative to the case file (its path keeps its case); ``standard`` when none."""
    if not case.variant:
        return load_variant("standard")
    here = Path(case.file).parent if case.file != "<string>" else None
    folder = locate(case.variant, here, f"VARIANT_ALL {case.variant}")
    return load_variant(folder)


class CaseContext:
    """The case, its report, its variant and rules, and the readers of its names."""

    def __init__(self, case: Case, overrides: Mapping[str, str], report: CaseReport) -> None:
        self.case = case
        self.report = report
        self.variant: Variant = case_variant(case)
        self.rules: Rules = self.variant.rules.with_options(**{**case.rules, **overrides})
        self.capitals = self.variant.capital_names()
        self.minors: set[str] = set()
        """Minor powers named by the case's lines so far (``Minor`` or another name)."""
        self.vassal_names: set[str] = set()
        """Vassals the case declares (``PRESTATE_VASSALS``), which lines may name as powers."""

    def owner(self, entry: Entry, province: str) -> str:
        """The power of a unit line. In variants with minor powers, ``Minor``
        (or any name that is not a major power or a vassal) is the minor power there."""
        try:
            return self.variant.power_named(entry.power, fuzzy=True)
        except ValueError as exc:
            if entry.power.strip() in self.vassal_names or \
                    entry.power.strip() in self.variant.nuclear:
                return entry.power.strip()  # a vassal, or a nuclear power (Dissolution §8)
            if not self.variant.uses("minor_powers"):
                raise CaseError(f"line {entry.line}: {exc}") from None
        name = (minor_name(self.variant, province) if entry.power.strip().lower() == "minor"
                else entry.power.strip())
        self.minors.add(name)
        return name

    def power(self, entry: Entry) -> str:
        try:
            return self.variant.power_named(entry.power, fuzzy=True)
        except ValueError as exc:
            raise CaseError(f"line {entry.line}: {exc}") from None

    def major_or_vassal(self, entry: Entry) -> str:
        if entry.power.strip() in self.vassal_names:
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
            raise CaseError(f"line {entry.line}: {exc}") from None
        if centre and not self.variant.map.provinces[prov].is_sc:
            raise CaseError(f"line {entry.line}: {self.variant.map.name_of(prov)} is not a "
                            "supply centre")
        return prov

    def unit(self, entry: Entry) -> Unit:
        words = entry.text.split(None, 1)
        if len(words) != 2 or words[0].upper() not in ("A", "F", "W"):
            raise CaseError(f"line {entry.line}: expected a unit like 'A lon', got "
                            f"'{entry.text}'")
        utype = UnitType(words[0].upper())
        try:
            order = parse_order(self.variant.map, f"{words[0]} {words[1]} H", "")
        except OrderSyntaxError as exc:
            raise CaseError(f"line {entry.line}: {exc}") from None
        loc = order.location
        prov = self.variant.map.provinces[province_of(loc)]
        if utype is UnitType.FLEET and prov.coasts and "/" not in loc:
            raise CaseError(f"line {entry.line}: say which coast of {prov.name} the fleet is on")
        power = self.owner(entry, prov.key)
        nuclear = self.variant.nuclear.get(power)
        # Minor units, wings and nuclear units but the US Navy's are stationary
        # (S9 §7.2, Dissolution §3.7).
        stationary = (power in self.minors or utype is UnitType.WING
                      or (nuclear is not None and not nuclear.mobile))
        return Unit(power, utype, loc if utype is UnitType.FLEET else prov.key,
                    stationary=stationary)

    def order(self, entry: Entry, kind: PhaseKind) -> Order:
        try:
            order = parse_order(self.variant.map, entry.text, "", kind, capitals=self.capitals)
        except OrderSyntaxError as exc:
            raise CaseError(f"line {entry.line}: {exc}") from None
        if isinstance(order, HeirOrder):  # an heir's order: the power given on the line
            return dataclasses.replace(order, power=self.major_or_vassal(entry))
        # An order's power is a major power, or (DP variants) a minor power,
        # as in PRESTATE_RESULTS lines such as 'FAILURE: Minor: F per - ylg'.
        return dataclasses.replace(order, power=self.owner(entry, order.province))

    def allocation(self, entry: Entry) -> Allocation:
        try:
            return parse_allocation(self.variant.map, entry.text, self.power(entry),
                                    capitals=self.capitals)
        except OrderSyntaxError as exc:
            raise CaseError(f"line {entry.line}: {exc}") from None
