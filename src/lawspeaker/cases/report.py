"""The outcome of one case: its problems, the results and the Census report."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.results import OrderResult
from .casefile import Case


@dataclass
class CaseReport:
    case: Case
    problems: list[str] = field(default_factory=list)
    results: tuple[OrderResult, ...] = ()
    erratum: str | None = None
    events: tuple[str, ...] = ()
    """Variants with heirs: the public report of the Census that followed the phase."""

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def status(self) -> str:
        if self.erratum is not None:
            return "ERRATUM" if self.problems else "FAIL"
        return "PASS" if self.passed else "FAIL"
