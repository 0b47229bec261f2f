"""Loading and checking variant folders (docs/variant-format.md).

Each broken copy of a tiny five-province variant must be reported with the
file and the line a designer has to fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lawspeaker
from lawspeaker import Terrain, UnitType

VARIANT_YAML = """\
name: tiny
title: Tiny test variant
map: map.yaml
calendar:
  first_year: 1901
  phases:
    - [Spring, movement]
    - [Fall, movement]
    - [Winter, adjustment]
rules:
  victory_centres: 2
expect:
  provinces: 5
  supply_centres: 3
  powers: 2
powers:
  Westria:
    adjective: Westrian
    abbreviation: W
    capital: alp
    homes: [alp]
    units: [F alp]
  Wessex:
    adjective: Saxon
    abbreviation: X
    capital: cha
    homes: [cha, bra]
    units: [A cha, F bra]
"""

MAP_YAML = """\
provinces:
  alp:
    name: Alpha
    aliases: [Alfa]
    type: coastal
    sc: 1
    links:
      both: [bra]
      army: [cha, spl]
      fleet: [sea, spl/sc]
  bra:
    name: Bravo
    type: coastal
    sc: 1
    links:
      both: [alp]
      fleet: [sea]
  cha:
    name: Charlie
    type: land
    sc: 1
    links:
      army: [alp, spl]
  sea:
    name: Open Sea
    type: sea
    links:
      fleet: [alp, bra, spl/nc]
  spl:
    name: Split
    type: coastal
    coasts: [nc, sc]
    links:
      army: [alp, cha]
      fleet:
        nc: [sea]
        sc: [alp]
"""


def write_variant(folder: Path, file: str = "", old: str = "", new: str = "") -> Path:
    """Write the tiny variant to ``folder``, with ``old`` replaced by ``new`` in ``file``."""
    texts = {"variant.yaml": VARIANT_YAML, "map.yaml": MAP_YAML}
    if file:
        assert old in texts[file], f"{old!r} not in {file}"
        texts[file] = texts[file].replace(old, new, 1)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def line_of(file: str, text: str) -> int:
    """1-based line of the first line of the tiny variant's ``file`` containing ``text``."""
    source = {"variant.yaml": VARIANT_YAML, "map.yaml": MAP_YAML}[file]
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.fixture()
def tiny(tmp_path: Path) -> lawspeaker.Variant:
    return lawspeaker.load_variant(write_variant(tmp_path / "tiny"))


# Each case: (file, old, new, the line to blame (text on it, before the edit), message part).
BROKEN = {
    "asymmetric link": ("map.yaml", "army: [alp, spl]", "army: [alp, spl, bra]",
                        "army: [alp, spl]", "cha-bra: army link not listed under bra"),
    "unknown province": ("map.yaml", "army: [alp, spl]", "army: [alp, spl, xyz]",
                         "army: [alp, spl]", "cha: links to unknown province 'xyz'"),
    "fleet link into land": ("map.yaml", "fleet: [alp, bra, spl/nc]",
                             "fleet: [alp, bra, spl/nc, cha]", "fleet: [alp, bra, spl/nc]",
                             "sea-cha: fleet link touches land space cha"),
    "army link into sea": ("map.yaml", "army: [alp, spl]", "army: [alp, spl, sea]",
                           "army: [alp, spl]", "cha-sea: army link touches sea space sea"),
    "missing coast": ("map.yaml", "fleet: [alp, bra, spl/nc]", "fleet: [alp, bra, spl]",
                      "fleet: [alp, bra, spl/nc]",
                      "sea: fleet link to 'spl' must name a coast (spl/nc, spl/sc)"),
    "both on one side": ("map.yaml", "      both: [alp]\n      fleet: [sea]",
                         "      army: [alp]\n      fleet: [sea, alp]", "both: [bra]",
                         "alp-bra: 'both' on one side only"),
    "alias used twice": ("map.yaml", "    name: Bravo\n", "    name: Bravo\n    aliases: [Alfa]\n",
                         "  bra:", "bra: name 'Alfa' is also used by alp"),
    "name equal to another's": ("map.yaml", "    name: Bravo\n", "    name: ALPHA\n", "  bra:",
                                "bra: name 'ALPHA' is also used by alp"),
    "home not a centre": ("variant.yaml", "homes: [alp]", "homes: [alp, spl]", "  Westria:",
                          "Westria: home 'spl' is not a supply centre"),
    "home not a province": ("variant.yaml", "homes: [alp]", "homes: [alp, zzz]", "  Westria:",
                            "Westria: home 'zzz' is not a province"),
    "capital not a home": ("variant.yaml", "capital: alp", "capital: bra", "capital: alp",
                           "Westria: capital must be a home centre"),
    "bad unit line": ("variant.yaml", "units: [F alp]", "units: [F alp, Z spl]",
                      "units: [F alp]", "Westria: unit 'Z spl' must look like"),
    "fleet on a split coast without its coast": (
        "variant.yaml", "units: [F alp]", "units: [F spl]", "units: [F alp]",
        "Westria: a fleet cannot stand at 'spl'"),
    "invalid YAML": ("map.yaml", "    type: land\n", "    type: land: oops\n", "type: land",
                     "not valid YAML"),
    "unknown rules option": ("variant.yaml", "victory_centres: 2", "victory_centre: 2",
                             "rules:", "unknown rules option(s): victory_centre"),
    "expected count": ("variant.yaml", "provinces: 5", "provinces: 6", "provinces: 5",
                       "expected 6 provinces, found 5"),
    "bad phase": ("variant.yaml", "[Fall, movement]", "[Fall, moving]", "[Fall, movement]",
                  "each phase is [Season, movement|retreat|adjustment]"),
}


def test_tiny_variant_is_clean(tmp_path: Path) -> None:
    """The unbroken fixture has no problems, so each broken copy tests one mistake."""
    assert lawspeaker.check_variant(write_variant(tmp_path / "tiny")) == []


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_check_variant_reports_problem_with_file_and_line(tmp_path: Path, case: str) -> None:
    """map check: every problem names its file and line (docs/variant-format.md)."""
    file, old, new, blame, message = BROKEN[case]
    problems = lawspeaker.check_variant(write_variant(tmp_path / "v", file, old, new))
    found = [(p.file, p.line) for p in problems if message in p.message]
    assert found, [str(p) for p in problems]
    assert found[0] == (file, line_of(file, blame))


def test_problem_prints_as_file_colon_line(tmp_path: Path) -> None:
    """Problems print as ``file:line: message``, as compilers do."""
    folder = write_variant(tmp_path / "v", "variant.yaml", "provinces: 5", "provinces: 6")
    (problem,) = lawspeaker.check_variant(folder)
    assert str(problem) == f"variant.yaml:{line_of('variant.yaml', 'provinces: 5')}: " \
                           "expected 6 provinces, found 5"


def test_several_problems_are_all_reported_in_one_pass(tmp_path: Path) -> None:
    """A designer fixes everything in one pass: problems in both files come back together."""
    folder = write_variant(tmp_path / "v", "variant.yaml", "capital: alp", "capital: bra")
    text = (folder / "map.yaml").read_text().replace("army: [alp, spl]", "army: [alp, spl, xyz]")
    (folder / "map.yaml").write_text(text)
    files = {p.file for p in lawspeaker.check_variant(folder)}
    assert files == {"map.yaml", "variant.yaml"}


def test_missing_map_file_is_reported(tmp_path: Path) -> None:
    """A variant.yaml naming a map that is not there."""
    folder = write_variant(tmp_path / "v", "variant.yaml", "map: map.yaml", "map: world.yaml")
    assert [(p.file, p.message) for p in lawspeaker.check_variant(folder)] == [
        ("world.yaml", "file not found")]


def test_unknown_variant_name_is_a_problem_not_a_crash() -> None:
    """check_variant on a name that is neither bundled nor a folder."""
    (problem,) = lawspeaker.check_variant("no-such-variant")
    assert "no such variant" in problem.message
    assert "standard" in problem.message


def test_load_variant_raises_variant_error_listing_every_problem(tmp_path: Path) -> None:
    """load_variant refuses broken data and says what is wrong."""
    folder = write_variant(tmp_path / "v", "variant.yaml", "capital: alp", "capital: bra")
    text = (folder / "map.yaml").read_text().replace("army: [alp, spl]", "army: [alp, spl, xyz]")
    (folder / "map.yaml").write_text(text)
    with pytest.raises(lawspeaker.VariantError) as caught:
        lawspeaker.load_variant(folder)
    messages = [p.message for p in caught.value.problems]
    assert "Westria: capital must be a home centre" in messages
    assert "cha: links to unknown province 'xyz'" in messages
    assert "capital must be a home centre" in str(caught.value)


def test_clean_variant_loads_with_its_data(tiny: lawspeaker.Variant) -> None:
    """A clean folder loads: powers, units, calendar and rules come from the files."""
    assert (tiny.name, tiny.title, tiny.first_year) == ("tiny", "Tiny test variant", 1901)
    assert [s for s, _ in tiny.phases] == ["Spring", "Fall", "Winter"]
    assert tiny.rules.victory_centres == 2
    assert {str(u) for u in tiny.starting_units} == {"F alp", "A cha", "F bra"}
    assert tiny.powers["Wessex"].homes == ("cha", "bra")
    assert tiny.home_of("bra") == "Wessex"
    assert tiny.home_of("sea") is None


def test_clean_variant_adjacency_queries(tiny: lawspeaker.Variant) -> None:
    """'both' gives army and fleet borders; per-coast fleet links stay per coast."""
    m = tiny.map
    assert m.provinces["sea"].terrain is Terrain.SEA and m.provinces["sea"].can_convoy
    assert m.can_move(UnitType.ARMY, "alp", "bra") and m.can_move(UnitType.FLEET, "alp", "bra")
    assert m.can_move(UnitType.ARMY, "alp", "cha")
    assert not m.can_move(UnitType.FLEET, "alp", "cha")
    assert m.can_move(UnitType.FLEET, "alp", "spl/sc")
    assert not m.can_move(UnitType.FLEET, "alp", "spl/nc")
    assert m.can_move(UnitType.FLEET, "sea", "spl/nc")
    assert m.reaches(UnitType.FLEET, "sea", "spl")
    assert m.lookup("alfa") == "alp"
    assert m.convoy_path_exists("alp", "bra")


@pytest.mark.parametrize("text,power", [
    ("Westria", "Westria"), ("WESSEX", "Wessex"),
    ("Westrian", "Westria"), ("saxon", "Wessex"),        # adjective
    ("W", "Westria"), ("x", "Wessex"),                   # abbreviation
    ("Westr", "Westria"), ("Wess", "Wessex"),            # unique prefix
])
def test_power_named_accepts_name_adjective_abbreviation_and_prefix(
        tiny: lawspeaker.Variant, text: str, power: str) -> None:
    """Powers may be named as players write them."""
    assert tiny.power_named(text) == power


@pytest.mark.parametrize("text", ["We", "Wesex", "Gondor", ""])
def test_power_named_rejects_ambiguous_misspelt_or_unknown(
        tiny: lawspeaker.Variant, text: str) -> None:
    """'We' fits both powers; a misspelling needs fuzzy=True."""
    with pytest.raises(ValueError, match="unknown power"):
        tiny.power_named(text)


def test_power_named_fuzzy_accepts_a_close_misspelling_only_when_asked(
        tiny: lawspeaker.Variant) -> None:
    """A GM reading 'Wesex' knows it means Wessex; strict look-ups do not guess."""
    assert tiny.power_named("Wesex", fuzzy=True) == "Wessex"
    assert tiny.power_named("Westra", fuzzy=True) == "Westria"
    with pytest.raises(ValueError):
        tiny.power_named("Gondor", fuzzy=True)


def test_unknown_rules_option_is_the_only_problem_reported(tmp_path: Path) -> None:
    """A misspelt rules option should not also trigger a spurious victory_centres error."""
    folder = write_variant(tmp_path / "v", "variant.yaml", "victory_centres: 2",
                           "victory_centre: 2")
    messages = [p.message for p in lawspeaker.check_variant(folder)]
    assert not [m for m in messages if "victory_centres exceeds" in m], messages


MALFORMED = {
    "power that is not a mapping": ("variant.yaml", "  Westria:\n    adjective: Westrian\n"
                                    "    abbreviation: W\n    capital: alp\n    homes: [alp]\n"
                                    "    units: [F alp]\n", "  Westria: 5\n"),
    "calendar that is not a mapping": ("variant.yaml", "calendar:\n  first_year: 1901\n",
                                       "calendar: 1901\nold_calendar:\n  first_year: 1901\n"),
    "links that are a list": ("map.yaml", "    links:\n      army: [alp, spl]\n",
                              "    links: [alp, spl]\n"),
    "non-numeric expected count": ("variant.yaml", "provinces: 5", "provinces: five"),
    "non-numeric first year": ("variant.yaml", "first_year: 1901", "first_year: soon"),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_wrongly_shaped_data_is_reported_not_raised(tmp_path: Path, case: str) -> None:
    """check_variant returns every problem; it never raises on a designer's typo."""
    file, old, new = MALFORMED[case]
    problems = lawspeaker.check_variant(write_variant(tmp_path / "v", file, old, new))
    assert any(p.file == file for p in problems)


def test_aliases_written_as_a_plain_string_are_not_split_into_letters(tmp_path: Path) -> None:
    """'aliases: Alfa' must not make every letter a name of Alpha."""
    folder = write_variant(tmp_path / "v", "map.yaml", "aliases: [Alfa]", "aliases: Alfa")
    problems = lawspeaker.check_variant(folder)
    if not problems:
        variant = lawspeaker.load_variant(folder)
        assert variant.map.provinces["alp"].aliases == ("Alfa",)


def test_two_starting_units_in_one_province_are_reported_with_a_line(tmp_path: Path) -> None:
    """Every problem carries its line (variants.py docstring)."""
    folder = write_variant(tmp_path / "v", "variant.yaml", "units: [F alp]",
                           "units: [F alp, A cha]")
    (problem,) = lawspeaker.check_variant(folder)
    assert problem.message == "two starting units in cha"
    assert problem.line is not None


def test_army_link_into_sea_is_blamed_on_the_army_line_even_with_a_fleet_link(
        tmp_path: Path) -> None:
    """Alpha borders the sea by fleet; a wrong army link to it is on the 'army:' line."""
    folder = write_variant(tmp_path / "v", "map.yaml", "army: [cha, spl]", "army: [cha, spl, sea]")
    lines = [p.line for p in lawspeaker.check_variant(folder)
             if "alp-sea: army link touches sea space sea" in p.message]
    assert lines == [line_of("map.yaml", "army: [cha, spl]")]
