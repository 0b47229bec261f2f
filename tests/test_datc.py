"""The DATC and the published jDip/godip case files, run through the case runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawspeaker.cases.casefile import parse_case_file, read_case_file
from lawspeaker.cases.runner import run_case, run_files

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


# --- variants with heirs: whole positions through phases.adjudicate ---------------------

S9_FILES = {"census.txt": 11, "examples.txt": 10, "heirs.txt": 10, "thralls.txt": 19,
            "vassals.txt": 29}


def test_the_heir_case_files_are_run() -> None:
    """The S9 Complete case files for heirs, thralls, vassals and the Census are collected
    by the parametrised test above, case by case."""
    counts = {p.name: len(read_case_file(p)) for p in S9}
    assert {n: counts.get(n) for n in S9_FILES} == S9_FILES
    ids = [i for i, _ in S9_CASES]
    assert len(ids) == len(set(ids))


def test_the_cli_passes_every_s9_case_file() -> None:
    from click.testing import CliRunner

    from lawspeaker.cli import main

    result = CliRunner().invoke(main, ["datc", *map(str, S9)])
    assert result.exit_code == 0, result.output
    total = sum(len(read_case_file(p)) for p in S9)
    assert result.output.rstrip().endswith(f"{total} passed, 0 failed")


MARRIAGE = """\
VARIANT_ALL s9-complete
CASE m.1
PRESTATE_SETPHASE Autumn 1, Movement
PRESTATE_SUPPLYCENTER_OWNERS
	Aesir: A asg
	Aesir: A him
	Dokkalfar: A sva
	Dokkalfar: A che
	Dokkalfar: A per
PRESTATE
	Dokkalfar: F per
PRESTATE_HEIRS
	Aesir: asg
	Dokkalfar: sva
ORDERS
	Aesir: Heir Aesir Marry Heir Dokkalfar at Permyak
	Dokkalfar: Heir Dokkalfar Marry Heir Aesir at Permyak
POSTSTATE
POSTSTATE_RESULTS
	SUCCESS: Aesir: Heir Aesir Marry Heir Dokkalfar at Permyak
POSTSTATE_HEIRS
	Aesir: per
	Dokkalfar: per
POSTSTATE_SUPPLYCENTER_OWNERS
	Aesir: A asg
	Aesir: A him
	Dokkalfar: A sva
	Dokkalfar: A che
	vDA: A per
POSTSTATE_POWERS
	vDA: vassal Dokkalfar Aesir at per
	Aesir: major
	Permyak: gone
POSTSTATE_GAME
	Game: continues
POSTSTATE_EVENTS
	Event: the vassal vDA is created
END
"""


def _run(text: str, file: str = "inline.txt"):  # type: ignore[no-untyped-def]
    (case,) = parse_case_file(text, file)
    return run_case(case)


def test_a_vassal_marriage_case_passes_and_reports_the_census() -> None:
    report = _run(MARRIAGE)
    assert report.passed, report.problems
    assert any("vDA" in event for event in report.events)


@pytest.mark.parametrize(("old", "new", "problem"), [
    ("	Aesir: per\n	Dokkalfar: per\n", "	Aesir: asg\n	Dokkalfar: per\n",
     "heirs: expected but missing [Aesir in asg]; unexpected [Aesir married in per]"),
    ("	vDA: A per\n", "	Dokkalfar: A per\n", "per: expected Dokkalfar, got vDA"),
    ("vDA: vassal Dokkalfar Aesir at per", "vDA: vassal Aesir Dokkalfar",
     "expected vDA to be a vassal of Aesir and Dokkalfar"),
    ("vDA: vassal Dokkalfar Aesir at per", "vDA: vassal Dokkalfar Aesir at mar",
     "with its capital in mar, it is a vassal of Dokkalfar and Aesir with its capital in per"),
    ("Aesir: major", "Aesir: eliminated", "expected Aesir to be eliminated, it is major"),
    ("Permyak: gone", "Permyak: minor", "expected Permyak to be a minor, it is not in play"),
    ("Permyak: gone", "vDA: gone", "expected vDA to be gone, it is a vassal"),
    ("Game: continues", "Game: Solo: Aesir",
     "expected the game to end 'Solo: Aesir', but it continues"),
    ("Event: the vassal vDA is created", "Event: the vassal vAD is created",
     "no event 'the vassal vAD is created'"),
    ("SUCCESS: Aesir: Heir Aesir", "FAILURE: Aesir: Heir Aesir", "expected FAILURE, got SUCCEEDS"),
    ("POSTSTATE\n", "POSTSTATE\n	Dokkalfar: F per\n",
     "units: expected but missing [Dokkalfar F per]"),
])
def test_wrong_expectations_fail(old: str, new: str, problem: str) -> None:
    """Every check can fail: one wrong expectation makes the case fail, saying why."""
    assert old in MARRIAGE
    report = _run(MARRIAGE.replace(old, new, 1))
    assert not report.passed
    assert any(problem in p for p in report.problems), report.problems


def test_an_empty_heirs_section_expects_no_heirs() -> None:
    text = MARRIAGE.replace("	Aesir: per\n	Dokkalfar: per\n", "", 1)
    report = _run(text)
    assert report.problems == ["heirs: expected but missing []; unexpected "
                               "[Aesir married in per, Dokkalfar married in per]"]


def test_cases_without_heirs_have_none() -> None:
    """Old S9 cases keep their 1 DP allotment: no PRESTATE_HEIRS, no heirs."""
    text = """VARIANT_ALL s9-complete
CASE d
PRESTATE_SETPHASE Spring 1, Movement
PRESTATE
	Minor: F per
ORDERS
	Aesir: 2 DP to F per - ylg
POSTSTATE_SAME
POSTSTATE_HEIRS
POSTSTATE_RESULTS
	REJECTED: Aesir: 2 DP to F per - ylg
END
"""
    report = _run(text)
    assert report.passed, report.problems


@pytest.mark.parametrize(("section", "message"), [
    ("PRESTATE_HEIRS\n	Aesir: him\n", "line 5: a married heir of Aesir in Himinbjorg needs "
     "a minor power there"),
    ("PRESTATE_HEIRS\n	Aesir: xyz\n", "line 5: "),
    ("PRESTATE_HEIRS\n	Aesir: ylg\n", "line 5: Ylg is not a supply centre"),
    ("PRESTATE_HEIRS\n	Nobody: asg\n", "line 5: unknown power 'Nobody'"),
    ("PRESTATE_HEIRS\n	Aesir: asg\n	Aesir: asg\n", "line 6: Aesir already has an heir"),
    ("PRESTATE_VASSALS\n	vXA: per\n", "line 5: no single power has the abbreviation 'X'"),
    ("PRESTATE_VASSALS\n	DA: per\n", "line 5: a vassal is named 'v' + the giver's"),
    ("PRESTATE_VASSALS\n	vDA: per Madr\n", "line 5: the controllers of vDA can only be "
     "Dokkalfar and Aesir"),
    ("PRESTATE_MARRIAGES\n	Dokkalfar: Nobody at per\n", "line 5: unknown power 'Nobody'"),
    ("POSTSTATE_POWERS\n	Aesir: thrall Madr\n", "line 5: Aesir is a major power"),
    ("POSTSTATE_POWERS\n	Permyak: major\n", "line 5: Permyak is not a major power"),
    ("PRESTATE\n	vDA: F per\n", "vDA: a vassal must be given in PRESTATE_VASSALS"),
])
def test_errors_in_heir_sections_name_the_line(section: str, message: str) -> None:
    text = ("VARIANT_ALL s9-complete\nCASE e\nPRESTATE_SETPHASE Spring 2, Movement\n"
            + section + "ORDERS\nPOSTSTATE_SAME\nEND\n")
    report = _run(text, "bad.txt")
    assert not report.passed
    assert report.problems[0].startswith("bad.txt:2: "), report.problems
    assert message in report.problems[0], report.problems


def test_a_phase_the_variant_does_not_have_is_an_error() -> None:
    text = "VARIANT_ALL s9-complete\nCASE p\nPRESTATE_SETPHASE Fall 1, Movement\nORDERS\n" \
           "POSTSTATE_SAME\nEND\n"
    report = _run(text, "bad.txt")
    assert report.problems == ["bad.txt:2: s9-complete has no Fall movement phase (its "
                               "phases: Spring movement, Spring retreat, Autumn movement, "
                               "Autumn retreat, Autumn census, Winter adjustment)"]


def test_heir_sections_need_a_variant_with_heirs() -> None:
    text = "VARIANT_ALL Standard\nCASE s\nPRESTATE\n	England: F lon\nPRESTATE_HEIRS\n" \
           "	England: lon\nORDERS\nPOSTSTATE_SAME\nEND\n"
    report = _run(text, "std.txt")
    assert report.problems == ["std.txt:2: PRESTATE_HEIRS need a variant with heirs (the "
                               "'heirs' component); standard has none"]
    empty = "VARIANT_ALL Standard\nCASE s\nPRESTATE\n	England: F lon\nORDERS\n" \
            "POSTSTATE_SAME\nPOSTSTATE_HEIRS\nEND\n"
    assert _run(empty).problems == ["inline.txt:2: POSTSTATE_HEIRS need a variant with heirs "
                                    "(the 'heirs' component); standard has none"]


def test_season_names_follow_the_variant() -> None:
    """'autumn' is read as the variant's 'Autumn', so the marriage phase is recognised."""
    report = _run(MARRIAGE.replace("Autumn 1, Movement", "autumn 1, movement"))
    assert report.passed, report.problems


def test_the_documented_heir_example_passes() -> None:
    """docs/case-format.md's example for variants with heirs is a passing case."""
    doc = (Path(__file__).parent.parent / "docs" / "case-format.md").read_text("utf-8")
    blocks = doc.split("```")[1::2]  # the text inside each fence
    (text,) = [b for b in blocks if "PRESTATE_HEIRS" in b and "VARIANT_ALL" in b]
    (case,) = parse_case_file(text, "case-format.md")
    report = run_case(case)
    assert report.passed, report.problems


# --- Order of the Dragon: the rulebook's examples and figures, whole positions ----------

OOD = sorted((CASES / "ood").glob("*.txt"))
OOD_CASES = _ids(OOD)


@pytest.mark.parametrize("case", [c for _, c in OOD_CASES], ids=[i for i, _ in OOD_CASES])
def test_order_of_the_dragon_case_passes(case) -> None:  # type: ignore[no-untyped-def]
    """OOD v1.2.0 as case files: the worked examples (Ex 3.0.1, 9.1.1, 10.3.1-2, 10.4.0),
    the figure scenarios (Fig. 18-22), the starting DP, heir names and builds, rebuilds on
    the starting coast, vassals and the Census."""
    report = run_case(case)
    assert report.passed, "\n".join(report.problems)


OOD_FILES = {"builds.txt": 8, "census.txt": 7, "examples.txt": 14, "setup.txt": 16,
             "vassals.txt": 16}


def test_the_ood_case_files_are_run() -> None:
    counts = {p.name: len(read_case_file(p)) for p in OOD}
    assert {n: counts.get(n) for n in OOD_FILES} == OOD_FILES
    ids = [i for i, _ in OOD_CASES]
    assert len(ids) == len(set(ids))


def test_the_cli_passes_every_ood_case_file() -> None:
    from click.testing import CliRunner

    from lawspeaker.cli import main

    result = CliRunner().invoke(main, ["datc", *map(str, OOD)])
    assert result.exit_code == 0, result.output
    total = sum(len(read_case_file(p)) for p in OOD)
    assert result.output.rstrip().endswith(f"{total} passed, 0 failed")


OOD_THRALL_CASE = """VARIANT_ALL ood
CASE runner.names
PRESTATE_SETPHASE Spring 1, Movement
PRESTATE
	Golden Horde: A sar
	Minor: F lub/ec
	Minor: A mai
PRESTATE_HEIRS
	Kalmar Union: ros
	Golden Horde: ker
ORDERS
	Kalmar Union: Heir Kalmar Union Marry Mainz
	Kalmar Union: 2 DP to A Mainz Marry Heir Kalmar Union
	Golden Horde: A Sarai - Volga-Don
POSTSTATE_POWERS
	Mainz: thrall Kalmar Union
	Lubeck: minor
	Kerch: thrall Golden Horde
POSTSTATE_RESULTS
	SUCCESS: Kalmar Union: H Ros Marry Mai
	SUCCESS: Golden Horde: sar - vol
END
"""


def test_results_powers_and_minor_names_may_be_written_as_players_write_them() -> None:
    """Multi-word powers, a minor's name without its diacritic, and result orders
    written with or without unit types all match (docs/case-format.md)."""
    report = _run(OOD_THRALL_CASE)
    assert report.passed, report.problems
    wrong = _run(OOD_THRALL_CASE.replace("Mainz: thrall Kalmar Union",
                                         "Mainz: thrall Golden Horde"))
    assert any("thrall of Golden Horde" in p for p in wrong.problems), wrong.problems


def test_a_vassal_with_three_controllers_is_an_error_naming_the_line() -> None:
    text = OOD_THRALL_CASE.replace("Kerch: thrall Golden Horde",
                                   "vNC: vassal Naples Castile Hungary")
    report = _run(text)
    assert any("line 18: a vassal has one or two controllers" in p for p in report.problems), \
        report.problems
