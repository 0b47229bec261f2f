"""Tests for lawspeaker.cases.casefile, the DATC text case-file parser."""

from __future__ import annotations

import pickle
import timeit
from pathlib import Path

import pytest

from lawspeaker.cases.casefile import (
    KEYWORDS,
    SECTIONS,
    Case,
    CaseFileError,
    Entry,
    ResultEntry,
    marriage_parts,
    parse_case_file,
    read_case_file,
)

SHARED = Path(__file__).resolve().parent / "cases" / "jdip"  # copies of ../shared/datc
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"shared DATC fixtures not found at {SHARED}"
)

SHARED_COUNTS = {
    "datc_v2.4_06.txt": 167,
    "real.txt": 4,
    "dipai.txt": 9,
    "diplicity_errors.txt": 1,
    "droidippy_errors.txt": 4,
}


def _one(text: str) -> Case:
    cases = parse_case_file(text, "t.txt")
    assert len(cases) == 1
    return cases[0]


@pytest.fixture(scope="module")
def datc24() -> dict[str, Case]:
    if not SHARED.is_dir():
        pytest.skip(f"shared DATC fixtures not found at {SHARED}")
    return {case.id: case for case in read_case_file(SHARED / "datc_v2.4_06.txt")}


# --- the shared fixture files -------------------------------------------------------------


@needs_shared
@pytest.mark.parametrize(("name", "count"), sorted(SHARED_COUNTS.items()))
def test_shared_file_case_count(name: str, count: int) -> None:
    path = SHARED / name
    cases = read_case_file(path)
    assert len(cases) == count
    assert all(case.file == str(path) and case.variant == "Standard" for case in cases)
    assert all(case.prestate for case in cases)


@needs_shared
def test_every_shared_txt_file_parses() -> None:
    names = {path.name for path in SHARED.glob("*.txt")}
    assert set(SHARED_COUNTS) <= names
    for path in sorted(SHARED.glob("*.txt")):
        assert read_case_file(path), path


@needs_shared
def test_datc24_is_fast() -> None:
    text = (SHARED / "datc_v2.4_06.txt").read_text(encoding="utf-8")
    assert min(timeit.repeat(lambda: parse_case_file(text), number=1, repeat=5)) < 0.05


def test_id_and_title(datc24: dict[str, Case]) -> None:
    case = datc24["6.A.5"]
    assert case.title == "6.A.5 (Move to own sector with convoy)"
    assert case.line == 104
    assert case.phase == ("Spring", 1901, "movement")
    assert datc24["6.A.1"].title == "6.A.1"
    assert datc24["6.A.1"].poststate_same and datc24["6.A.1"].poststate is None


def test_prestate_results_6h1(datc24: dict[str, Case]) -> None:
    case = datc24["6.H.1"]
    assert case.phase == ("Spring", 1901, "retreat")
    assert case.prestate_dislodged[1] == Entry("Turkey", "F gre", 3068)
    assert len(case.prestate_results) == 7
    assert case.prestate_results[0] == ResultEntry("FAILURE", "Austria", "F tri H", 3070)
    assert case.prestate_results[3] == ResultEntry("SUCCESS", "Italy", "A ven S A tyr-tri", 3073)
    # the comment after the order and the commented-out section are gone
    assert case.orders[1] == Entry("Austria", "A ser S F tri-alb", 3079)
    assert case.poststate_dislodged == ()
    assert case.poststate is not None and len(case.poststate) == 5


def test_supply_centre_owners_6b14(datc24: dict[str, Case]) -> None:
    case = datc24["6.B.14"]
    assert case.phase == ("Fall", 1901, "adjustment")
    owners = (Entry("Russia", "A stp", 491), Entry("Russia", "A mos", 492))
    assert case.supply_centre_owners == owners
    assert case.orders == (Entry("Russia", "Build F stp", 496),)
    assert datc24["6.A.1"].supply_centre_owners is None


def test_cases_without_phase_line(datc24: dict[str, Case]) -> None:
    for number in range(14, 19):
        case = datc24[f"6.G.{number}."]
        assert case.phase is None
        assert case.title.startswith(f"6.G.{number}. TEST CASE")
    assert datc24["6.G.13"].phase == ("Spring", 1901, "movement")


def test_raw_strings_kept(datc24: dict[str, Case]) -> None:
    assert datc24["6.A.5"].orders[-1] == Entry("Germnay", "A wal SUPPORTS F lon-yor", 117)
    # 6.B.6 writes two unit lines in the colon-less godip form
    case = datc24["6.B.6"]
    assert case.poststate is not None
    assert case.poststate[0] == Entry("Italy", "F gol", 368)
    assert case.poststate_dislodged == (Entry("France", "f mid", 373),)


@needs_shared
def test_duplicate_ids_are_both_kept() -> None:
    cases = read_case_file(SHARED / "datc_v2.4_06.txt")
    assert [case.line for case in cases if case.id == "6.F.14"] == [2092, 2115]


# --- inline texts ---------------------------------------------------------------------------

FULL = """\
# a file header
VARIANT_ALL Standard
RULES edition=2000 builds=home

CASE X.1 retreat with everything   # trailing comment
PRESTATE_SETPHASE fall 1902 , RETREAT
PRESTATE_SUPPLYCENTER_OWNERS
\tEngland: lon
PRESTATE
\tEngland:A lon
    France : F eng
Germany: A mun: odd
PRESTATE_DISLODGED
  England: F nth
PRESTATE_RESULTS
\tSUCCESS: France: F bel-nth
\tFAILURE: England: F nth H
\tILLEGAL: England: A lon-par
ORDERS
\tEngland: F nth-yor
POSTSTATE
POSTSTATE_DISLODGED
POSTSTATE_RESULTS
\tSUCCESS: England: F nth-yor
END
"""


def test_full_case() -> None:
    case = _one(FULL)
    assert (case.id, case.file, case.line) == ("X.1", "t.txt", 5)
    assert case.title == "X.1 retreat with everything"
    assert case.variant == "Standard"
    assert dict(case.rules) == {"edition": "2000", "builds": "home"}
    assert case.phase == ("fall", 1902, "retreat")
    assert case.supply_centre_owners == (Entry("England", "lon", 8),)
    assert case.prestate == (
        Entry("England", "A lon", 10),
        Entry("France", "F eng", 11),
        Entry("Germany", "A mun: odd", 12),
    )
    assert case.prestate_dislodged == (Entry("England", "F nth", 14),)
    assert [r.outcome for r in case.prestate_results] == ["SUCCESS", "FAILURE", "ILLEGAL"]
    assert case.orders == (Entry("England", "F nth-yor", 20),)
    assert case.poststate == ()
    assert case.poststate_dislodged == ()
    assert case.poststate_same is False
    assert case.poststate_results == (ResultEntry("SUCCESS", "England", "F nth-yor", 24),)


def test_windows_line_ends_and_bom() -> None:
    case = _one("\ufeff" + FULL.replace("\n", "\r\n"))
    assert case.orders == (Entry("England", "F nth-yor", 20),)


def test_repeated_sections_are_merged_in_order() -> None:
    text = """CASE m
PRESTATE
 England: F nth
ORDERS
 England: F nth-yor
PRESTATE
 France: A par
ORDERS
 France: A par-bur
END
"""
    case = _one(text)
    assert [e.power for e in case.prestate] == ["England", "France"]
    assert case.orders == (Entry("England", "F nth-yor", 5), Entry("France", "A par-bur", 9))
    assert case.variant == "" and case.phase is None and dict(case.rules) == {}


def test_variant_all_changes_later_cases() -> None:
    text = "CASE a\nEND\nVARIANT_ALL Standard\nCASE b\nEND\nVARIANT_ALL Ancient Med\nCASE c\nEND\n"
    assert [c.variant for c in parse_case_file(text)] == ["", "Standard", "Ancient Med"]


def test_rules_file_and_case_level() -> None:
    text = """RULES edition=2000 builds=home
CASE a
RULES builds=owned victory_centres=18
RULES multiple_orders=last
PRESTATE
END
RULES edition=2023
CASE b
END
"""
    first, second = parse_case_file(text)
    assert list(first.rules) == ["edition", "builds", "victory_centres", "multiple_orders"]
    assert list(first.rules.values()) == ["2000", "owned", "18", "last"]
    assert dict(second.rules) == {"edition": "2023", "builds": "home"}


def test_poststate_results_illegal() -> None:
    text = """CASE i
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tEngland: F nth
ORDERS
\tEngland: F nth-pic
POSTSTATE_SAME
POSTSTATE_RESULTS
\tILLEGAL: England: F nth-pic
END
"""
    case = _one(text)
    assert case.poststate_same and case.poststate is None
    assert case.poststate_results == (ResultEntry("ILLEGAL", "England", "F nth-pic", 9),)


def test_recognised_keywords() -> None:
    sections = "PRESTATE PRESTATE_DISLODGED PRESTATE_RESULTS PRESTATE_SUPPLYCENTER_OWNERS ORDERS"
    sections += " POSTSTATE POSTSTATE_DISLODGED POSTSTATE_SAME POSTSTATE_RESULTS POSTSTATE_CHOSEN"
    sections += " PRESTATE_HEIRS PRESTATE_VASSALS PRESTATE_HEIR_BUILT PRESTATE_DROPPED"
    sections += " PRESTATE_MARRIAGES POSTSTATE_HEIRS POSTSTATE_SUPPLYCENTER_OWNERS"
    sections += " POSTSTATE_POWERS POSTSTATE_GAME POSTSTATE_EVENTS"
    sections += " PRESTATE_FAVOR PRESTATE_EXILES"  # Dissolution §11.3, §5.3
    sections += " PRESTATE_EMBASSIES PRESTATE_KICKED PRESTATE_RETALIATED VIOLATIONS"  # §11
    sections += " POSTSTATE_EMBASSIES POSTSTATE_FAVOR POSTSTATE_VIOLATIONS POSTSTATE_KICKS"
    sections += " POSTSTATE_EMBASSY_RETREATS"
    lines = "CASE END VARIANT_ALL RULES PRESTATE_SETPHASE"
    assert set(SECTIONS) == set(sections.split())
    assert set((sections + " " + lines).split()) == KEYWORDS


HEIRS = """\
VARIANT_ALL s9-complete
CASE h.1 heirs, vassals and what the Census must do
PRESTATE_SETPHASE Autumn 3, Movement
PRESTATE_HEIRS
\tAesir: asg
\tAesir: per   # married
PRESTATE_VASSALS
\tvDA: mar
\tvJZ: thu Jotnar
PRESTATE_HEIR_BUILT
\tAesir: 2
PRESTATE_DROPPED
\tYmir: Eliminate
PRESTATE_MARRIAGES
\tMadr: Aesir at bif
ORDERS
POSTSTATE_HEIRS
\tAesir: per
POSTSTATE_SUPPLYCENTER_OWNERS
\tvDA: A mar
\tMadr F bif
POSTSTATE_POWERS
\tPermyak: thrall Aesir
\tvDA: vassal Dokkalfar Aesir at mar
\tvJZ: vassal Jotnar
\tYmir: eliminated
POSTSTATE_GAME
\tGame: Draw: Aesir, Jotnar, Zwergar
POSTSTATE_EVENTS
\tEvent: Ymir is eliminated: the GM forced it
END
"""


def test_heir_sections() -> None:
    case = _one(HEIRS)
    assert case.prestate_heirs == (Entry("Aesir", "asg", 5), Entry("Aesir", "per", 6))
    assert case.prestate_vassals == (Entry("vDA", "mar", 8), Entry("vJZ", "thu Jotnar", 9))
    assert case.prestate_heir_built == (Entry("Aesir", "2", 11),)
    assert case.prestate_dropped == (Entry("Ymir", "Eliminate", 13),)
    assert case.prestate_marriages == (Entry("Madr", "Aesir at bif", 15),)
    assert marriage_parts(case.prestate_marriages[0].text) == ("Aesir", "bif")
    assert case.poststate_heirs == (Entry("Aesir", "per", 18),)
    # the owners section accepts the godip colon-less form, like PRESTATE_SUPPLYCENTER_OWNERS
    assert case.poststate_supply_centre_owners == (Entry("vDA", "A mar", 20),
                                                   Entry("Madr", "F bif", 21))
    assert [e.text for e in case.poststate_powers] == [
        "thrall Aesir", "vassal Dokkalfar Aesir at mar", "vassal Jotnar", "eliminated"]
    assert case.poststate_game == Entry("Game", "Draw: Aesir, Jotnar, Zwergar", 28)
    assert case.poststate_events == (
        Entry("Event", "Ymir is eliminated: the GM forced it", 30),)


def test_heir_sections_default_to_absent() -> None:
    case = _one(FULL)
    assert case.prestate_heirs == case.prestate_vassals == case.prestate_marriages == ()
    assert case.prestate_heir_built == case.prestate_dropped == ()
    assert case.poststate_heirs is None and case.poststate_supply_centre_owners is None
    assert case.poststate_powers == case.poststate_events == ()
    assert case.poststate_game is None


def test_empty_poststate_heirs_means_no_heirs() -> None:
    case = _one("CASE e\nPOSTSTATE_HEIRS\nPOSTSTATE_SUPPLYCENTER_OWNERS\nEND\n")
    assert case.poststate_heirs == () and case.poststate_supply_centre_owners == ()


def test_empty_file() -> None:
    assert parse_case_file("# only a comment\n\n   \n") == []


# --- errors ----------------------------------------------------------------------------------

ERRORS = [
    ("CASE a\nPRESTATE\nBOGUS_SECTION\nEND\n", 3, "unknown keyword 'BOGUS_SECTION'"),
    ("CASE a\nPRESTATE\n ENGLAND A lon\nEND\n", 3, "unknown keyword 'ENGLAND'"),
    ("CASE a\n England: A lon\nEND\n", 2, "line outside a section"),
    ("CASE a\nPOSTSTATE_SAME\n England: A lon\nEND\n", 3, "after POSTSTATE_SAME"),
    ("CASE a\nPRESTATE\n A\nPRESTATE_SETPHASE Spring 1901, Movement\n", 3, "'Power: text'"),
    (" England: A lon\n", 1, "line outside a case"),
    ("CASE a\nPRESTATE\n", 1, "case 'a' has no END"),
    ("CASE a\nPRESTATE\nCASE b\nEND\n", 3, "has no END"),
    ("VARIANT_ALL Standard\nEND\n", 2, "END outside a case"),
    ("\n\nORDERS\n", 3, "ORDERS outside a case"),
    ("PRESTATE_SETPHASE Spring 1901, Movement\n", 1, "PRESTATE_SETPHASE outside a case"),
    ("CASE a\nPRESTATE\n A lon\nEND\n", 3, "expected 'Power: text' in PRESTATE"),
    ("CASE a\nPRESTATE\n England:\nEND\n", 3, "expected 'Power: text'"),
    ("CASE a\nPRESTATE\n : A lon\nEND\n", 3, "expected 'Power: text'"),
    ("CASE a\nORDERS\n England A lon-yor\nEND\n", 3, "expected 'Power: text' in ORDERS"),
    ("CASE a\nPRESTATE_RESULTS\n England: A lon-yor\nEND\n", 3, "'SUCCESS:', 'FAILURE:'"),
    ("CASE a\nPOSTSTATE_RESULTS\n\n WIN: England: A lon\nEND\n", 4, "'ILLEGAL:'"),
    ("CASE a\nPOSTSTATE_RESULTS\n SUCCESS: England A lon\nEND\n", 3, "'SUCCESS: Power: text'"),
    ("CASE a\nPRESTATE_SETPHASE Spring 1901, Build\nEND\n", 2, "bad phase"),
    ("CASE a\nPRESTATE_SETPHASE Spring, Movement\nEND\n", 2, "bad phase"),
    ("CASE a\nPRESTATE_SETPHASE\nEND\n", 2, "bad phase"),
    ("CASE a\nPRESTATE_SETPHASE Spring 1901, Movement extra\nEND\n", 2, "bad phase"),
    ("CASE a\n" + "PRESTATE_SETPHASE Fall 1901, Movement\n" * 2, 3, "second PRESTATE_SETPHASE"),
    ("CASE a\nORDERS x\nEND\n", 2, "ORDERS takes no argument"),
    ("CASE a\nEND now\n", 2, "END takes no argument"),
    ("CASE\n", 1, "CASE needs an id"),
    ("VARIANT_ALL\n", 1, "VARIANT_ALL needs a variant name"),
    ("CASE a\nVARIANT_ALL Standard\nEND\n", 2, "VARIANT_ALL inside a case"),
    ("RULES\n", 1, "at least one key=value"),
    ("RULES edition\n", 1, "key=value items, got 'edition'"),
    ("CASE a\nRULES edition=2000 edition=2023\nEND\n", 2, "'edition' twice"),
    ("CASE a\nRULES =2000\nEND\n", 2, "key=value"),
    ("CASE a\nPOSTSTATE_SAME\nPOSTSTATE\nEND\n", 3, "conflicts with POSTSTATE_SAME"),
    ("CASE a\nPOSTSTATE\nPOSTSTATE_SAME\nEND\n", 3, "conflicts with POSTSTATE"),
    ("CASE a\nPOSTSTATE_DISLODGED\nPOSTSTATE_SAME\nEND\n", 3, "with POSTSTATE_DISLODGED"),
    ("CASE a\nPOSTSTATE_SAME\nPOSTSTATE_DISLODGED\nEND\n", 3, "conflicts with POSTSTATE_SAME"),
    # sections for variants with heirs
    ("CASE a\nPRESTATE_HEIRS\n Aesir asg\nEND\n", 3, "'Power: text' in PRESTATE_HEIRS"),
    ("CASE a\nPRESTATE_HEIR_BUILT\n Aesir: last\nEND\n", 3, "'Power: year'"),
    ("CASE a\nPRESTATE_DROPPED\n Aesir: yes\nEND\n", 3, "'Power: eliminate'"),
    ("CASE a\nPRESTATE_MARRIAGES\n Dokkalfar: Aesir\nEND\n", 3, "'Giver: Receiver at"),
    ("CASE a\nPOSTSTATE_POWERS\n Aesir: dead\nEND\n", 3, "'major' or 'eliminated'"),
    ("CASE a\nPOSTSTATE_POWERS\n Permyak: thrall\nEND\n", 3, "'thrall' takes its controlling"),
    ("CASE a\nPOSTSTATE_POWERS\n Aesir: major Madr\nEND\n", 3, "'major' takes no powers"),
    ("CASE a\nPOSTSTATE_GAME\n Result: continues\nEND\n", 3, "expected 'Game: text'"),
    ("CASE a\nPOSTSTATE_GAME\n Game: continues\n Game: continues\nEND\n", 4,
     "only one 'Game:' line"),
    ("CASE a\nPOSTSTATE_EVENTS\n Aesir captures Permyak\nEND\n", 3, "'Power: text'"),
    ("CASE a\nPOSTSTATE_EVENTS\n Events: Aesir captures Permyak\nEND\n", 3,
     "expected 'Event: text' in POSTSTATE_EVENTS"),
    ("CASE a\nPOSTSTATE_HEIRS x\nEND\n", 2, "POSTSTATE_HEIRS takes no argument"),
]


@pytest.mark.parametrize(("text", "line", "fragment"), ERRORS)
def test_errors(text: str, line: int, fragment: str) -> None:
    with pytest.raises(CaseFileError) as info:
        parse_case_file(text, "bad.txt")
    error = info.value
    assert (error.file, error.line) == ("bad.txt", line)
    assert str(error).startswith(f"bad.txt:{line}: ")
    assert fragment in str(error)


def test_error_is_value_error_and_pickles() -> None:
    error = CaseFileError("f.txt", 7, "boom")
    assert isinstance(error, ValueError)
    assert str(error) == "f.txt:7: boom"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.file, copy.line, copy.message, str(copy)) == ("f.txt", 7, "boom", str(error))


def test_read_case_file_names_path(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("CASE ü\nPRESTATE\n Österreich: A vie\nEND\n", encoding="utf-8")
    (case,) = read_case_file(good)
    assert case.file == str(good) and case.prestate == (Entry("Österreich", "A vie", 3),)
    bad = tmp_path / "bad.txt"
    bad.write_text("CASE a\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"bad\.txt:1: case 'a' has no END"):
        read_case_file(str(bad))
