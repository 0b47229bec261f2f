"""Issue 24, a variant designer's path: "the standard map with DP-controlled neutral
units" as a folder that extends ``standard`` by name, kept under a path with capitals,
checked by ``map check``, named by case files relative to themselves, and played on
the server; and every mistake the issue found passing silently, reported."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from lawspeaker.cli import main
from lawspeaker.engine.phases import initial_position
from lawspeaker.rules.dp import allotment
from lawspeaker.service import GM, PUBLIC
from lawspeaker.sim.randomplay import play
from lawspeaker.variants import available_variants, check_variant, load_variant
from lawspeaker.variants.loader_components import COMPONENT_KEYS
from lawspeaker.web import create_app
from lawspeaker.web.offers import offered_variants

NEUTRAL = ("bel", "bul", "den", "gre", "hol", "nwy", "por", "rum", "ser", "spa", "swe", "tun")
"""The standard map's neutral centres."""

STD_DP = """\
name: std-dp
title: Standard with DP neutrals
base: standard
components: [minor_powers, diplomacy_points]
minors:
""" + "".join(f"  {c}: A\n" for c in NEUTRAL)


def designer_folder(root: Path, text: str = STD_DP, name: str = "StdDP") -> Path:
    folder = root / "My Variants" / name
    folder.mkdir(parents=True)
    (folder / "variant.yaml").write_text(text, encoding="utf-8")
    return folder


def messages(folder: Path) -> list[str]:
    return [p.message for p in check_variant(folder)]


def problem_with(folder: Path, text: str) -> tuple[str, int | None, str, str]:
    """The one problem whose message holds ``text``."""
    found = [p for p in check_variant(folder) if text in p.message]
    assert len(found) == 1, check_variant(folder)
    return found[0].file, found[0].line, found[0].message, found[0].fix


# --- the designer's folder works everywhere ------------------------------------------------

def test_a_folder_extending_standard_by_name_passes_map_check(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    designer_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["map", "check", "My Variants/StdDP"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        "std-dp: OK — 75 provinces, 34 supply centres (12 neutral), 7 powers with 22 "
        "starting units, 12 minor powers, no wings, no nuclear units")


def test_the_folder_plays_with_dp_and_the_s9_allotment(tmp_path: Path) -> None:
    var = load_variant(designer_folder(tmp_path))
    assert var.path == (tmp_path / "My Variants" / "StdDP").resolve()
    assert set(var.minors) == set(NEUTRAL) and var.uses("diplomacy_points")
    position = initial_position(var)
    assert allotment(var, position, "France") == 1  # S9 §9.2: its own capital
    final = play(var, random.Random(4), years=2)  # the simulations take it as any other
    assert final.phase != position.phase


def test_a_case_file_names_the_folder_relative_to_itself(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    designer_folder(tmp_path)
    cases = tmp_path / "My Variants" / "Cases"
    cases.mkdir()
    (cases / "dp.txt").write_text("""\
VARIANT_ALL ../StdDP
CASE stddp.most-dp-wins
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tFrance: A bur
\tMinor: A bel
ORDERS
\tFrance: 1 DP to A bel - hol
\tEngland: 1 DP to A bel - hol
\tGermany: 1 DP to A bel H
POSTSTATE_CHOSEN
\tMinor: A bel - hol
POSTSTATE_SAME
POSTSTATE_RESULTS
\tCOUNTED: France: 1 DP to A bel - hol
\tCOUNTED: England: 1 DP to A bel - hol
\tCOUNTED: Germany: 1 DP to A bel H
\tFAILURE: Minor: A bel - hol
END
""", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["datc", str(cases / "dp.txt")])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output
    monkeypatch.chdir(tmp_path)  # any working directory, a relative path to the file too
    result = CliRunner().invoke(main, ["datc", "My Variants/Cases/dp.txt"])
    assert result.exit_code == 0, result.output


def test_a_case_file_naming_a_missing_folder_says_folders_are_read_from_it(
        tmp_path: Path) -> None:
    designer_folder(tmp_path)
    case = tmp_path / "case.txt"
    case.write_text("VARIANT_ALL My Variants/stddp\nCASE x\nORDERS\nEND\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["datc", str(case)])
    assert result.exit_code != 0
    assert "no such variant 'My Variants/stddp'" in result.output
    assert "a folder with a variant.yaml, relative to the file that names it" in result.output


def test_the_folder_starts_a_game_on_the_server(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path)
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", tick=0, variants=[folder])
    svc = app.state.service
    client = TestClient(app)
    client.get(f"/join/{svc.issue_link(None, actor=GM)}")
    assert "std-dp" in client.get("/").text  # offered by name in the GM's form
    bearer = {"Authorization": f"Bearer {svc.issue_link(None, actor=GM)}"}
    r = client.post("/api/v1/games", headers=bearer,
                    json={"variant": "std-dp", "name": "Neutral Europe"})
    assert r.status_code == 200, r.text
    r = client.get("/api/v1/games/Neutral Europe", headers=bearer)
    assert r.status_code == 200 and r.json()["variant"] == "std-dp", r.text
    assert svc.variant_of("Neutral Europe", actor=PUBLIC).path == folder.resolve()
    assert len(svc.position("Neutral Europe", None, actor=PUBLIC).units) == 22 + 12
    page = client.get("/games/Neutral Europe")
    assert page.status_code == 200 and "Standard with DP neutrals" in page.text
    svg = client.get("/games/Neutral Europe/map.svg")
    assert svg.status_code == 200 and "Belgium" in svg.text


def test_the_gm_starts_a_game_from_the_folder_at_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    designer_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "g.db")
    result = CliRunner().invoke(main, ["game", "--db", db, "new", "My Variants/StdDP", "N1"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["game", "--db", db, "show", "N1"])
    assert "std-dp" in result.output or "Standard with DP neutrals" in result.output


def test_a_folder_named_as_a_bundled_variant_is_refused_by_the_server(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, STD_DP.replace("name: std-dp", "name: Standard"))
    with pytest.raises(ValueError, match="named 'Standard', as a bundled variant is"):
        offered_variants([folder])
    twin = designer_folder(tmp_path, STD_DP, name="Twin")
    with pytest.raises(ValueError, match=r"as the folder .*StdDP is"):
        offered_variants([designer_folder(tmp_path / "b"), twin])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "s.db"), "--port",
                                       str(port), "--variant", str(folder)])
    assert result.exit_code != 0 and "as a bundled variant is" in result.output
    assert not (tmp_path / "s.db").exists()
    broken = designer_folder(tmp_path, STD_DP.replace("  tun: A\n", ""), name="Broken")
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "s.db"), "--port",
                                       str(port), "--variant", str(broken)])
    assert result.exit_code != 0 and f"variant folder {broken}: variant.yaml:5:" \
        in result.output and "missing: tun" in result.output
    assert not (tmp_path / "s.db").exists()


# --- base: --------------------------------------------------------------------------------

def test_base_names_a_folder_relative_to_the_file_and_chains(tmp_path: Path) -> None:
    first = designer_folder(tmp_path)
    second = designer_folder(tmp_path, "name: second\nbase: ../StdDP\n", name="Second")
    assert load_variant(second).minors == load_variant(first).minors
    third = designer_folder(tmp_path, "name: third\nbase: s9-complete\n", name="Third")
    var = load_variant(third)  # s9-complete's own base, s9-basic, gives the map and powers
    assert len(var.powers) == 9 and len(var.minors) == 15 and var.uses("heirs")


def test_a_base_that_is_not_there_is_reported_at_its_line(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, "name: x\ntitle: X\nbase: standrad\n")
    (problem,) = check_variant(folder)
    assert (problem.file, problem.line) == ("variant.yaml", 3)
    assert problem.message.startswith("base: no such variant 'standrad': not a bundled variant")
    assert "relative to the file that names it" in problem.fix


def test_a_circle_of_bases_is_reported(tmp_path: Path) -> None:
    designer_folder(tmp_path, "name: a\nbase: ../B\n", name="A")
    b = designer_folder(tmp_path, "name: b\nbase: ../A\n", name="B")
    assert any("a circle of bases" in m for m in messages(b))


def test_extending_dissolution_takes_its_favor_board(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, "name: dis2\nbase: dissolution\n", name="Dis")
    from lawspeaker.rules.favor import favor_board

    var = load_variant(folder)
    assert favor_board(var).slices == favor_board(load_variant("dissolution")).slices


# --- every silent mistake is reported ------------------------------------------------------

@pytest.mark.parametrize("key", sorted(COMPONENT_KEYS))
def test_a_key_without_its_component_is_reported(tmp_path: Path, key: str) -> None:
    component, _origin = COMPONENT_KEYS[key]
    values = {"minors": "{bel: A}", "heirs": "{France: par}", "dp_allotment": "{per_unit: 1}",
              "minor_colours": "{tan: [bel]}", "minor_pairs": "{Low: [bel, hol]}",
              "nuclear": "{NATO: {territories: [], units: []}}"}
    folder = designer_folder(tmp_path, f"name: x\nbase: standard\n{key}: {values[key]}\n")
    file, line, message, fix = problem_with(folder, f"'{key}' is read only with")
    assert (file, line) == ("variant.yaml", 3)
    assert f"the '{component}' component" in message
    assert fix == f"add {component} to components:, or remove '{key}'"


def test_minors_without_minor_powers_is_reported(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, STD_DP.replace("[minor_powers, diplomacy_points]",
                                                      "[]"))
    file, line, _message, _fix = problem_with(folder, "'minors' is read only")
    assert (file, line) == ("variant.yaml", 5)


def test_diplomacy_points_without_minor_powers_is_reported(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, "name: x\nbase: standard\ncomponents: "
                                       "[diplomacy_points]\n")
    file, line, message, fix = problem_with(folder, "'diplomacy_points' component needs")
    assert (file, line) == ("variant.yaml", 3)
    assert "'minor_powers'" in message and fix == "add minor_powers to components:"


@pytest.mark.parametrize("components,needed", [
    ("[neutral_limits, minor_powers]", "diplomacy_points"),
    ("[favor_map]", "nuclear_powers"),
    ("[heirs, minor_powers]", "diplomacy_points"),
])
def test_a_component_without_the_ones_it_needs_is_reported(tmp_path: Path, components: str,
                                                          needed: str) -> None:
    minors = "minors: {" + ", ".join(f"{c}: A" for c in NEUTRAL) + "}\n"
    folder = designer_folder(tmp_path, f"name: x\nbase: standard\ncomponents: {components}\n"
                             + minors)
    assert any(f"component needs '{needed}'" in m for m in messages(folder)), messages(folder)


def test_nuclear_powers_without_nuclear_is_reported(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, "name: x\nbase: standard\ncomponents: "
                                       "[nuclear_powers]\n")
    file, line, _message, fix = problem_with(folder, "needs its powers under 'nuclear:'")
    assert (file, line) == ("variant.yaml", 3) and "nuclear:" in fix


def test_favor_without_nuclear_powers_is_reported_once(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, "name: x\nbase: dissolution\ncomponents: "
                                       "[minor_powers, diplomacy_points, wings]\n")
    file, line, _message, fix = problem_with(folder, "'favor' is Favor with nuclear powers")
    assert file.endswith("dissolution/variant.yaml") and line is not None
    assert fix.startswith("add nuclear_powers to components:")
    assert not any("which is not a nuclear power" in m for m in messages(folder))


def test_favor_map_without_favor_yaml_is_reported(tmp_path: Path) -> None:
    from lawspeaker.variants import VARIANTS_DIR

    folder = tmp_path / "Dis"
    folder.mkdir()
    text = (VARIANTS_DIR / "dissolution" / "variant.yaml").read_text(encoding="utf-8")
    (folder / "variant.yaml").write_text(text.replace(
        "map: map.yaml", f"map: {VARIANTS_DIR / 'dissolution' / 'map.yaml'}"), encoding="utf-8")
    (problem,) = check_variant(folder)
    assert problem.file == "favor.yaml" and "there is none" in problem.message
    assert problem.fix.startswith("add favor.yaml")


def test_an_unknown_key_is_reported_with_the_nearest_one(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, STD_DP.replace("minors:", "minor:"))
    file, line, _message, fix = problem_with(folder, "unknown key 'minor'")
    assert (file, line, fix) == ("variant.yaml", 5, "did you mean 'minors'?")


def test_a_bad_minor_entry_is_reported_once_not_again_as_missing(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, STD_DP.replace("spa: A", "spa: X"))
    (problem,) = check_variant(folder)
    assert "minor power in 'spa'" in problem.message and problem.line == 15


def test_missing_neutral_centres_are_one_problem_with_the_fix(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, STD_DP.replace("  spa: A\n", "").replace(
        "  tun: A\n", ""))
    (problem,) = check_variant(folder)
    assert problem.message.endswith("under 'minors:' (S9 §9.0); missing: spa, tun")
    assert problem.fix == "add each to minors: with its unit type, A or F (spa: A, tun: A)"
    assert problem.line == 5


def test_a_power_without_a_capital_under_the_s9_allotment_is_reported(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, STD_DP.replace("base: standard", "base: ../Std"))
    std = tmp_path / "My Variants" / "Std"
    std.mkdir()
    from lawspeaker.variants import VARIANTS_DIR

    text = (VARIANTS_DIR / "standard" / "variant.yaml").read_text(encoding="utf-8")
    (std / "variant.yaml").write_text(text.replace("    capital: vie\n", "").replace(
        "map: map.yaml", f"map: {VARIANTS_DIR / 'standard' / 'map.yaml'}"), encoding="utf-8")
    file, _line, message, fix = problem_with(folder, "Austria has no capital")
    assert file == "../Std/variant.yaml" and "S9 §9.2" in message and "dp_allotment" in fix


def test_map_check_prints_each_problem_once_with_its_fix(tmp_path: Path) -> None:
    folder = designer_folder(tmp_path, "name: x\nbase: standard\ncomponents: "
                                       "[diplomacy_points]\ndp_allotment: {per_unit: 1}\n")
    result = CliRunner().invoke(main, ["map", "check", str(folder)])
    assert result.exit_code != 0
    lines = result.output.splitlines()
    assert lines[0] == (f"{folder}/variant.yaml:3: the 'diplomacy_points' component needs "
                        "'minor_powers': DP choose the orders of the minor powers' units "
                        "(S9 §9.0, Dissolution §5)")
    assert lines[1] == "    fix: add minor_powers to components:"
    assert lines[-1] == f"Error: 1 problem in {folder}"


def test_map_check_counts_wings_and_nuclear_units() -> None:
    result = CliRunner().invoke(main, ["map", "check", "dissolution"])
    assert "31 minor powers, 9 wings, 5 nuclear powers with 16 nuclear units" in result.output
    result = CliRunner().invoke(main, ["map", "check", "ood"])
    assert "22 minor powers and 8 thralls" in result.output


# --- the DP allotments any variant may choose -----------------------------------------------

@pytest.mark.parametrize("allot,expected", [
    ("", 1),                                            # S9 §9.2: own capital (no heirs)
    ("dp_allotment: {per_unit: 1}\n", 3),               # Dissolution §5.2.1: 1 per unit
    ("dp_allotment: {per_unit: 1, unit_cap: 2}\n", 2),  # §5.2.1: at most 4 (here 2)
    ("dp_allotment: {per_unit: 1, minimum: 5}\n", 5),   # §5.2.3: at least 1 (here 5)
])
def test_any_variant_may_choose_each_allotment(tmp_path: Path, allot: str,
                                               expected: int) -> None:
    var = load_variant(designer_folder(tmp_path, STD_DP + allot))
    assert allotment(var, initial_position(var), "France") == expected


def test_the_s9_allotment_counts_an_unmarried_heir_in_the_capital(tmp_path: Path) -> None:
    text = STD_DP.replace("[minor_powers, diplomacy_points]",
                          "[minor_powers, diplomacy_points, heirs]")
    var = load_variant(designer_folder(tmp_path, text))
    assert allotment(var, initial_position(var), "France") == 2  # S9 §9.2: capital + heir


# --- variant new ----------------------------------------------------------------------------

@pytest.mark.parametrize("base", available_variants())
def test_variant_new_writes_a_folder_that_passes_map_check(tmp_path: Path, base: str) -> None:
    result = CliRunner().invoke(main, ["variant", "new", "Mine", "--base", base,
                                       "--dir", str(tmp_path / "My Variants")])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "My Variants" / "Mine"
    text = (folder / "variant.yaml").read_text(encoding="utf-8")
    assert f"base: {base}" in text
    for component in ("minor_powers", "diplomacy_points", "heirs", "wings", "nuclear_powers",
                      "victory_points", "neutral_limits", "favor_map"):
        assert f"- {component}" in text
    assert check_variant(folder) == []
    assert load_variant(folder).components == load_variant(base).components


def test_variant_new_uncommented_is_the_tutorial_variant(tmp_path: Path) -> None:
    CliRunner().invoke(main, ["variant", "new", "Mine", "--dir", str(tmp_path)])
    path = tmp_path / "Mine" / "variant.yaml"
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(("#   - minor_powers", "#   - diplomacy_points", "# minors:")) or \
                (line.startswith("#   ") and line[4:7] in NEUTRAL):
            line = line[2:]
        lines.append(line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert check_variant(path.parent) == []
    assert set(load_variant(path.parent).minors) == set(NEUTRAL)


def test_variant_new_from_a_folder_names_it_relative(tmp_path: Path) -> None:
    designer_folder(tmp_path)
    result = CliRunner().invoke(main, ["variant", "new", "Next", "--base",
                                       str(tmp_path / "My Variants" / "StdDP"),
                                       "--dir", str(tmp_path / "Other")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "Other" / "Next" / "variant.yaml").read_text(encoding="utf-8")
    assert "base: ../../My Variants/StdDP" in text
    assert "# minors: the base's 12 minor powers" in text
    assert check_variant(tmp_path / "Other" / "Next") == []


@pytest.mark.parametrize("name,error", [("standard", "a bundled variant's name"),
                                        ("../x", "cannot name a variant")])
def test_variant_new_refuses_a_name(tmp_path: Path, name: str, error: str) -> None:
    result = CliRunner().invoke(main, ["variant", "new", name, "--dir", str(tmp_path)])
    assert result.exit_code != 0 and error in result.output


def test_variant_new_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "Mine").mkdir()
    result = CliRunner().invoke(main, ["variant", "new", "Mine", "--dir", str(tmp_path)])
    assert result.exit_code != 0 and "already exists: nothing was written" in result.output


def test_the_tutorials_finished_folder_passes_map_check() -> None:
    """docs/variant-format.md's tutorial ends with docs/examples/std-dp."""
    folder = Path(__file__).parent.parent / "docs" / "examples" / "std-dp"
    assert check_variant(folder) == []
    var = load_variant(folder)
    assert set(var.minors) == set(NEUTRAL) and var.uses("diplomacy_points")
