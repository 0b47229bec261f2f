"""The report of ``lawspeaker map check``: every problem once, with file, line and fix,
then a summary of what the variant holds.

The loader finds most problems as it reads (:func:`~lawspeaker.variants.loader.load`).
A check that needs the whole variant is one function in :data:`CHECKS`: it is given
the loaded :class:`~lawspeaker.variants.model.Variant` and returns its problems, each a
:class:`~lawspeaker.variants.model.Problem` (file, line, message, fix); adding a check is
adding a function there. Problems are named by file relative to the variant's folder
(``variant.yaml``, ``map.yaml``, ``../base/variant.yaml``); :meth:`CheckReport.lines` puts
the folder as the user named it in front, so each is a path an editor opens.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.geography import UnitType
from .locate import is_bundled, locate
from .model import Problem, Variant, VariantError

__all__ = ["CHECKS", "Check", "CheckReport", "check_report", "summary"]

Check = Callable[[Variant], Iterable[Problem]]
"""One check of a loaded variant: its problems (file, line, message, fix)."""

CHECKS: list[Check] = []
"""Checks run on a variant the loader read without problems, in this order."""


@dataclass
class CheckReport:
    """What ``map check`` found in one variant."""

    named: str
    """The variant as the user named it (a bundled name or a folder)."""
    folder: Path | None
    variant: Variant | None
    problems: list[Problem] = field(default_factory=list)

    def shown(self, problem: Problem) -> str:
        """Where a problem is: its file under the folder as the user named it."""
        file = problem.file
        if self.folder is not None and not is_bundled(self.folder) \
                and not os.path.isabs(file) and file != self.named:
            file = os.path.normpath(os.path.join(self.named, file))
        return f"{file}:{problem.line}" if problem.line else file

    def lines(self) -> list[str]:
        """Each problem as ``file:line: message``, its fix on the line below."""
        out = []
        for p in self.problems:
            out.append(f"{self.shown(p)}: {p.message}")
            if p.fix:
                out.append(f"    fix: {p.fix}")
        return out


def check_report(named: str) -> CheckReport:
    """Load the variant ``named`` (a bundled name, or a folder relative to the current
    directory), run every check, and report each problem once."""
    try:
        folder = locate(named)
    except VariantError as exc:
        return CheckReport(named, None, None, exc.problems)
    from .loader import load

    variant, problems = load(folder)
    report = CheckReport(named, folder, variant, [])
    found = list(problems)
    if variant is not None:
        for check in CHECKS:
            found.extend(check(variant))
    for problem in found:
        if problem not in report.problems:
            report.problems.append(problem)
    return report


def _count(n: int, one: str, many: str) -> str:
    return f"{'no' if n == 0 else n} {one if n == 1 else many}"


def summary(variant: Variant) -> str:
    """What the variant holds: provinces, centres (neutral ones), powers and their
    units, minor powers (thralls), wings, nuclear powers and their units."""
    provinces = variant.map.provinces.values()
    centres = sum(1 for p in provinces if p.is_sc)
    homes = {h for p in variant.powers.values() for h in p.homes}
    neutral = sum(1 for k, p in variant.map.provinces.items() if p.is_sc and k not in homes)
    thralls = sum(1 for p, where in variant.heirs.items()
                  if where != variant.powers[p].capital)
    nuclear_units = [u for n in variant.nuclear.values() for u in n.units]
    wings = sum(1 for u in (*variant.starting_units, *nuclear_units)
                if u.type is UnitType.WING)
    parts = [
        _count(len(variant.map.provinces), "province", "provinces"),
        _count(centres, "supply centre", "supply centres") + f" ({neutral} neutral)",
        _count(len(variant.powers), "power", "powers") + " with "
        + _count(len(variant.starting_units), "starting unit", "starting units"),
        _count(len(variant.minors) - thralls, "minor power", "minor powers")
        + (f" and {_count(thralls, 'thrall', 'thralls')}" if thralls else ""),
        _count(wings, "wing", "wings"),
        (_count(len(variant.nuclear), "nuclear power", "nuclear powers") + " with "
         if variant.nuclear else "")
        + _count(len(nuclear_units), "nuclear unit", "nuclear units"),
    ]
    return f"{variant.name}: OK — {', '.join(parts)}" + (
        " (map reconstructed; see the variant's notes)" if variant.reconstructed else "")
