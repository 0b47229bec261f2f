"""The Favor Map picture (lawspeaker.render.draw_favor, Dissolution §11): every hex,
perimeter and Embassy by element id, kicked and must-hold marks, Winter results as
arrows in their outcome's colour, determinism, a PNG, and the CLI's --favor."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import lawspeaker
from lawspeaker.cli import main
from lawspeaker.core.board import Phase, PhaseKind
from lawspeaker.core.notation import parse_order
from lawspeaker.engine.phases import adjudicate, initial_position
from lawspeaker.render import Drawing, draw_favor
from lawspeaker.render.palette import STYLE
from lawspeaker.render.png import PNG_SIGNATURE
from lawspeaker.rules.favor import favor_board, named_setup

VARIANT = lawspeaker.load_variant("dissolution")
SVG = "{http://www.w3.org/2000/svg}"


def ids(drawing: Drawing) -> dict[str, ET.Element]:
    root = ET.fromstring(drawing.svg())
    found = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(found) == len(set(found)), "element ids must be unique"
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def winter() -> tuple[lawspeaker.Position, tuple[lawspeaker.OrderResult, ...]]:
    """Ex 11.7.4.5 on the Legacy Favor Map, Romania kicked from NATO this year."""
    start = initial_position(VARIANT).replace(
        phase=Phase("Winter", 1992, PhaseKind.ADJUSTMENT),
        embassies=named_setup(VARIANT, "legacy"), kicked={"Romania": ("NATO",)})
    orders = [parse_order(VARIANT.map, text, power, PhaseKind.ADJUSTMENT) for power, text in (
        ("Kazakhstan", "E I1p - I2o"), ("Poland", "E I1q S I1p - I2o"),
        ("Ukraine", "E B1s - B2m"), ("Poland", "E B1r - B2m"), ("Romania", "E N1s - N2m"))]
    return start, adjudicate(VARIANT, start, orders).results


def test_every_hex_perimeter_and_embassy_is_drawn() -> None:
    found = ids(draw_favor(VARIANT))
    board = favor_board(VARIANT)
    for space in board.coords:
        assert f"favor-hex-{space}" in found
        assert space in "".join(found[f"favor-hex-{space}"].itertext())
    for letter in board.slices:
        assert f"favor-perimeter-{letter}0z" in found
    embassies = [i for i in found if i.startswith("favor-embassy-")]
    assert len(embassies) == 10 * 5  # §11.1: one per slice for each player
    title = "".join(found["favor-embassy-et-russia"].find(f"{SVG}title").itertext())
    assert title == "Ethiopia's Russia Embassy on R0z: Favor 0"  # Ex 11.3.1.1


def test_an_embassy_is_in_its_players_colour() -> None:
    found = ids(draw_favor(VARIANT))
    chip = found["favor-embassy-eg-nato"].find(f"{SVG}circle")
    assert chip is not None and chip.get("fill") == VARIANT.powers["Egypt"].colour


def test_winter_results_are_arrows_in_their_outcomes_colour_with_marks() -> None:
    position, results = winter()
    found = ids(draw_favor(VARIANT, position, results=results))
    move = found["favor-order-ka-I1p"]
    assert move.find(f"{SVG}path").get("stroke") == STYLE.succeeds
    bounced = found["favor-order-uk-B1s"]
    assert bounced.find(f"{SVG}path").get("stroke") == STYLE.fails
    assert "Bounced 1v1" in "".join(bounced.find(f"{SVG}title").itertext())
    illegal = found["favor-order-ro-N1s"]  # kicked: must hold (§11.5.3)
    assert illegal.find(f"{SVG}path").get("stroke") == STYLE.illegal
    kicked = found["favor-embassy-ro-nato"]
    assert kicked.find(f"{SVG}circle[@class='favor-kicked']") is not None


def test_the_picture_is_deterministic_and_renders() -> None:
    position, results = winter()
    one = draw_favor(VARIANT, position, results=results)
    assert one.svg() == draw_favor(VARIANT, position, results=results).svg()
    assert one.png(0.5).startswith(PNG_SIGNATURE)


def test_a_variant_without_a_favor_map_is_refused() -> None:
    with pytest.raises(ValueError, match="no Favor Map"):
        draw_favor("standard")


def test_the_cli_draws_the_favor_map(tmp_path) -> None:
    position, _ = winter()
    saved = tmp_path / "winter.json"
    saved.write_text(position.to_json(), encoding="utf-8")
    orders = tmp_path / "winter.txt"
    orders.write_text("Kazakhstan: E I1p - I2o\nPoland: E I1q S I1p - I2o\n", encoding="utf-8")
    out = tmp_path / "favor.svg"
    run = CliRunner().invoke(main, ["map", "draw", "dissolution", "--favor", "--position",
                                    str(saved), "--orders", str(orders), "-o", str(out)])
    assert run.exit_code == 0, run.output
    assert 'id="favor-order-ka-I1p"' in out.read_text(encoding="utf-8")
    refused = CliRunner().invoke(main, ["map", "draw", "standard", "--favor"])
    assert refused.exit_code != 0 and "no Favor Map" in refused.output
