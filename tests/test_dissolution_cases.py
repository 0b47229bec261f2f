"""The Dissolution case files (tests/cases/dissolution/), run through the case runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawspeaker.cases.casefile import read_case_file
from lawspeaker.cases.runner import run_case

FILES = sorted((Path(__file__).parent / "cases" / "dissolution").glob("*.txt"))
CASES = [(f"{p.name}:{c.id}", c) for p in FILES for c in read_case_file(p)]


def test_the_worked_examples_are_there() -> None:
    ids = {c.id for _, c in CASES}
    for example in ("3.10.2.1", "3.10.2.2", "3.10.2.3", "3.10.2.4", "3.11.1.1", "3.11.1.2",
                    "3.11.1.3", "4.6.1.1", "5.1.3.1", "5.1.3.2", "5.1.3.3", "9.3.1.1",
                    "9.3.1.2", "11.4.1.1", "11.4.1.2"):
        assert f"dis.ex.{example}" in ids


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_dissolution_case(case) -> None:
    report = run_case(case)
    assert report.passed, report.problems
