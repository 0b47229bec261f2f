"""`lawspeaker adjudicate` as a GM uses it: forum posts in, a clear one-line
error for bad input, nothing printed or saved when anything is wrong (issue 13 §2-§3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import lawspeaker
from lawspeaker.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["adjudicate", *args])


def error_line(result: Result) -> str:
    """The last line of the output: the ``Error: ...`` line."""
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    return result.output.strip().splitlines()[-1]


@pytest.fixture
def orders(tmp_path: Path) -> Path:
    path = tmp_path / "orders.txt"
    path.write_text("**England**\n- F London moves to North Sea\nFrance orders:\n"
                    "1. A Par - Bur // go\n", encoding="utf-8")
    return path


def test_a_forum_post_is_adjudicated(orders: Path) -> None:
    result = run(str(orders))
    assert result.exit_code == 0, result.output
    assert "   F London - North Sea: Move succeeds" in result.output
    assert "   A Paris - Burgundy: Move succeeds" in result.output
    assert "Next: Fall 1901 Movement" in result.output


def test_save_into_a_missing_folder_fails_before_printing(orders: Path, tmp_path: Path) -> None:
    result = run(str(orders), "--save", str(tmp_path / "nowhere" / "next.json"))
    assert error_line(result) == (f"Error: cannot save to {tmp_path / 'nowhere' / 'next.json'}:"
                                  f" the folder {tmp_path / 'nowhere'} does not exist")
    assert "Move succeeds" not in result.output
    assert not (tmp_path / "nowhere").exists()


def test_save_writes_the_next_position(orders: Path, tmp_path: Path) -> None:
    target = tmp_path / "next.json"
    assert run(str(orders), "--save", str(target)).exit_code == 0
    saved = lawspeaker.Position.from_json(target.read_text(encoding="utf-8"))
    assert saved.units["bur"].power == "France"


def test_position_without_orders_is_refused(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(lawspeaker.initial_position(lawspeaker.load_variant("standard")).to_json(),
                   encoding="utf-8")
    assert error_line(run("--position", str(pos))) == (
        "Error: give an orders file with --position (without one, the bundled first turn "
        "would be replayed on that position)")


def test_a_finished_game_is_not_adjudicated(orders: Path, tmp_path: Path) -> None:
    start = lawspeaker.initial_position(lawspeaker.load_variant("standard"))
    pos = tmp_path / "over.json"
    pos.write_text(start.replace(result="Solo: England").to_json(), encoding="utf-8")
    before = pos.read_text(encoding="utf-8")
    assert error_line(run(str(orders), "--position", str(pos))) == (
        "Error: the game is over (Solo: England): there is nothing to adjudicate")
    assert pos.read_text(encoding="utf-8") == before


def test_a_hand_edited_position_gives_what_and_where(orders: Path, tmp_path: Path) -> None:
    data = lawspeaker.initial_position(lawspeaker.load_variant("standard")).to_dict()
    data["units"][0]["type"] = "X"
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(data), encoding="utf-8")
    assert error_line(run(str(orders), "--position", str(pos))) == (
        f"Error: {pos}: units[0].type: unknown unit type 'X' (types: A, F, W)")


def test_a_position_of_another_variant(orders: Path, tmp_path: Path) -> None:
    pos = tmp_path / "ood.json"
    pos.write_text(lawspeaker.initial_position(lawspeaker.load_variant("ood")).to_json(),
                   encoding="utf-8")
    assert error_line(run(str(orders), "--position", str(pos))) == (
        f"Error: {pos}: variant: this is a position of 'ood', not of 'standard'")


def test_a_cp1252_file_is_read_and_the_gm_told(tmp_path: Path) -> None:
    path = tmp_path / "ood.txt"
    path.write_bytes("Kalmar Union:\nF Lübeck - Baltic Sea\n".encode("cp1252"))
    result = run("--variant", "ood", str(path))
    assert result.exit_code == 0, result.output
    assert f"Note: {path} is not UTF-8; read as Windows-1252." in result.output


def test_a_binary_file_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "orders.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert error_line(run(str(path))) == (
        f"Error: {path} is a binary file, not text (a zero byte at byte 9)")


def test_wrong_phase_orders_stop_everything_with_their_line(tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text("Russia:\nA Mos - Ukr\nBuild A War\n", encoding="utf-8")
    result = run(str(path))
    assert f"{path}:3: a build is not an order for an orders (movement) phase" in result.output
    assert error_line(result) == "Error: 1 line(s) could not be used; nothing was adjudicated"
    assert "Move succeeds" not in result.output


def test_no_census_heading_without_a_census_and_no_next_after_the_end(tmp_path: Path) -> None:
    """Standard Diplomacy has no Census: its Fall captures come under 'Supply centres'."""
    variant = lawspeaker.load_variant("standard")
    start = lawspeaker.initial_position(variant)
    fall = start.replace(phase=lawspeaker.Phase("Fall", 1901, lawspeaker.PhaseKind.MOVEMENT),
                         units={**start.units, "bur": lawspeaker.Unit(
                             "France", lawspeaker.UnitType.ARMY, "bur")})
    pos = tmp_path / "fall.json"
    pos.write_text(fall.to_json(), encoding="utf-8")
    path = tmp_path / "orders.txt"
    path.write_text("England: F Lon - Nth\n", encoding="utf-8")
    out = run(str(path), "--position", str(pos)).output
    assert "Census:" not in out
    assert "Supply centres:" not in out  # nothing changed hands
    path.write_text("France: A Bur - Bel\nFrance: A Mar - Spa\n", encoding="utf-8")
    out = run(str(path), "--position", str(pos), "--rules", "victory_centres=5").output
    assert "Supply centres:\n  France captures Belgium\n  France captures Spain" in out
    assert "Game over: Solo: France" in out
    assert "Next:" not in out
