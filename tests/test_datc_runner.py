"""The case runner never lets one case stop a run (issue 17).

A bug in the engine that raises while one case is adjudicated is that case's failure:
reported with the case's name and the traceback, while the other cases still run, the
summary line still comes, and the exit status says something failed. The bug is simulated
by a resolver that raises whenever a unit stands in Munich.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import lawspeaker.cases.runner
from lawspeaker.cases.runner import run_files
from lawspeaker.cli import main

CASES = """VARIANT_ALL Standard

CASE ok.1 (a plain move)
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	France: A par
ORDERS
	France: A par - bur
POSTSTATE
	France: A bur
END

CASE crash.2 (the engine raises)
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	Germany: A mun
ORDERS
	Germany: A mun - bur
POSTSTATE
	Germany: A bur
END

CASE ok.3 (another plain move)
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	Austria: A vie
ORDERS
	Austria: A vie - boh
POSTSTATE
	Austria: A boh
END
"""


@pytest.fixture
def crashing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    real = lawspeaker.cases.runner.resolve_movement

    def resolve(game_map, units, *args, **kwargs):  # type: ignore[no-untyped-def]
        if "mun" in units:
            raise TypeError("simulated bug in the resolver")
        return real(game_map, units, *args, **kwargs)

    monkeypatch.setattr(lawspeaker.cases.runner, "resolve_movement", resolve)
    path = tmp_path / "cases.txt"
    path.write_text(CASES, encoding="utf-8")
    yield path


def test_an_exception_in_one_case_is_that_cases_failure(crashing: Path) -> None:
    reports = run_files([crashing])
    assert [(r.case.id, r.status) for r in reports] == [
        ("ok.1", "PASS"), ("crash.2", "FAIL"), ("ok.3", "PASS")]
    problem = "\n".join(reports[1].problems)
    assert "case crash.2 raised TypeError: simulated bug in the resolver" in problem
    assert "Traceback (most recent call last)" in problem
    assert f"{crashing}:13:" in problem  # the file and the line of its CASE


def test_the_cli_reports_the_crash_and_goes_on_to_the_summary(crashing: Path) -> None:
    result = CliRunner().invoke(main, ["datc", str(crashing)])
    out = result.output
    assert result.exit_code == 1
    assert "FAIL    crash.2" in out and "PASS    ok.3" in out
    assert "raised TypeError: simulated bug in the resolver" in out
    assert 'in resolve\n' in out  # the traceback reaches the raising frame
    assert out.rstrip().splitlines()[-1] == "2 passed, 1 failed"


def test_a_recursion_error_is_reported_in_a_readable_length(
        monkeypatch: pytest.MonkeyPatch, crashing: Path) -> None:
    """A thousand frames of recursion are cut to the first and the last ones."""
    def recurse(game_map, units, *args, **kwargs):  # type: ignore[no-untyped-def]
        return recurse(game_map, units, *args, **kwargs)

    monkeypatch.setattr(lawspeaker.cases.runner, "resolve_movement", recurse)
    reports = run_files([crashing])
    assert [r.status for r in reports] == ["FAIL"] * 3
    problem = reports[0].problems[0]
    assert "case ok.1 raised RecursionError" in problem
    assert "frames left out" in problem and len(problem.splitlines()) < 80
    assert problem.rstrip().endswith("RecursionError: maximum recursion depth exceeded")
