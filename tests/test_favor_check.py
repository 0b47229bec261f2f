"""``lawspeaker map check`` validates favor.yaml (Dissolution §11): a broken Favor board
is reported with its file and line, like the rest of a variant, never as a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import lawspeaker
from lawspeaker.cli import main
from lawspeaker.variants import VariantError, check_variant

SOURCE = Path(lawspeaker.__file__).parent / "variants" / "dissolution"


def broken(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of Dissolution whose favor.yaml has ``old`` replaced by ``new``."""
    folder = tmp_path / "dissolution"
    shutil.copytree(SOURCE, folder)
    favor = folder / "favor.yaml"
    text = favor.read_text(encoding="utf-8")
    assert old in text
    favor.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def line_of(folder: Path, text: str) -> int:
    lines = (folder / "favor.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_the_shipped_favor_board_is_valid() -> None:
    assert check_variant("dissolution") == []


@pytest.mark.parametrize(("old", "new", "marker", "message"), [
    ("    N1q: [6, -1]", "    N1q: [6, 0]", "N1q: [6, 0]", "N1q and N1p are both at [6, 0]"),
    ("    N1q: [6, -1]", "    N9q: [6, -1]", "N9q", "'N9q' is not a hex label"),
    ("    N1q: [6, -1]", "    N1q: [6]", "N1q: [6]", "N1q needs axial coordinates"),
    ("  I: Israel", "  I: Mossad", "I: Mossad", "'Mossad' is not a nuclear power"),
    ("    Egypt: [N2j, U1p, I1q, B1p, R1p]", "    Egypt: [N3f, U1p, I1q, B1p, R1p]",
     "Egypt: [N3f", "Egypt's NATO Embassy is on N3f, of Favor 3; its §7 Favor value is 2"),
    ("    Egypt: [N2j, U1p, I1q, B1p, R1p]", "    Egypt: [N1s, U1p, I1q, B1p, R1p]",
     "Ethiopia: [N1s", "N1s holds two Embassies, Egypt's and Ethiopia's"),
    ("    Egypt: [N2j, U1p, I1q, B1p, R1p]", "    Egypt: [N2j, U1p, I1q, B1p]",
     "Egypt: [N2j, U1p, I1q, B1p]", "Egypt needs 5 spaces"),
    ("borders: [[N, U], [U, I], [I, B], [B, R]]", "borders: [[N, U], [U, X], [I, B], [B, R]]",
     "borders:", "border ['U', 'X']: expected two slice letters"),
])
def test_a_broken_favor_board_is_reported_with_its_line(tmp_path: Path, old: str, new: str,
                                                         marker: str, message: str) -> None:
    folder = broken(tmp_path, old, new)
    problems = check_variant(folder)
    hits = [p for p in problems if message in p.message]
    assert hits, [str(p) for p in problems]
    assert hits[0].file == "favor.yaml"
    assert hits[0].line == line_of(folder, marker)
    with pytest.raises(VariantError):  # the engine never sees a broken board
        lawspeaker.load_variant(folder)


def test_map_check_lists_the_problem_not_a_traceback(tmp_path: Path) -> None:
    folder = broken(tmp_path, "    N1q: [6, -1]\n", "")
    run = CliRunner().invoke(main, ["map", "check", str(folder)])
    assert run.exit_code == 1
    assert "favor.yaml" in run.output and "slice N has 19 hexes, not 20 (§11.1)" in run.output
    assert "Traceback" not in run.output
    assert run.exception is None or isinstance(run.exception, SystemExit)


def test_an_unreadable_favor_file_is_reported(tmp_path: Path) -> None:
    folder = broken(tmp_path, "slices:", "slices: [")
    problems = check_variant(folder)
    assert any(p.file == "favor.yaml" and "not valid YAML" in p.message for p in problems)
    (folder / "favor.yaml").unlink()
    assert any(p.file == "favor.yaml" and "and there is none" in p.message
               for p in check_variant(folder))
