"""The DATC and the published jDip/godip case files, run through the case runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawspeaker.casefile import read_case_file
from lawspeaker.datc import run_case, run_files

CASES = Path(__file__).parent / "cases"
V31 = sorted((CASES / "datc_v3_1").glob("*.txt"))
JDIP = sorted((CASES / "jdip").glob("*.txt"))


def _ids(paths: list[Path]) -> list[tuple[str, object]]:
    return [(f"{p.name}:{c.id}", c) for p in paths for c in read_case_file(p)]


V31_CASES = _ids(V31)


def test_every_datc_v3_1_case_is_transcribed() -> None:
    """DATC v3.1 chapter 6 has 164 test cases; each has a CASE of its own id."""
    ids = {c.id.split(".retreat")[0] for _, c in V31_CASES}
    ids = {i for i in ids if i.count(".") == 2}
    assert len(ids) == 164
    per_section = {s: sum(1 for i in ids if i.startswith(f"6.{s}.")) for s in "ABCDEFGHIJ"}
    assert per_section == {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20,
                           "H": 16, "I": 7, "J": 11}


@pytest.mark.parametrize("case", [c for _, c in V31_CASES], ids=[i for i, _ in V31_CASES])
def test_datc_v3_1_case_passes_under_2023_rules(case) -> None:  # type: ignore[no-untyped-def]
    report = run_case(case)
    assert report.passed, "\n".join(report.problems)


@pytest.mark.parametrize("path", JDIP, ids=[p.name for p in JDIP])
def test_published_case_files_pass_under_2000_rules(path: Path) -> None:
    """datc_v2.4_06.txt and the other jDip files assume the pre-2023 rules."""
    reports = run_files([path], {"edition": "2000"})
    failures = {r.case.id: r.problems for r in reports if not r.passed}
    assert not failures


def test_2023_rules_change_exactly_the_cases_the_datc_says() -> None:
    """DATC 3.0 changed 6.G.8 (no land fallback for 'via convoy') and the civil
    disorder cases (distance to owned centres); 2.4's 6.J.3 and 6.J.5 expect the
    old distances, so under 2023 rules exactly these three differ."""
    reports = run_files([CASES / "jdip" / "datc_v2.4_06.txt"])
    assert {r.case.id for r in reports if not r.passed} == {"6.G.8", "6.J.3", "6.J.5"}


S9 = sorted((CASES / "s9").glob("*.txt"))
S9_CASES = _ids(S9)


@pytest.mark.parametrize("case", [c for _, c in S9_CASES], ids=[i for i, _ in S9_CASES])
def test_saga_of_the_nine_case_passes(case) -> None:  # type: ignore[no-untyped-def]
    """S9 rules as case files: DP, minor powers, stationary units, builds."""
    report = run_case(case)
    assert report.passed, "\n".join(report.problems)
