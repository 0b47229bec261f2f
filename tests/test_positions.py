"""A saved position someone truncated or edited by hand: one clear error saying
what is wrong and where, never a traceback (issue 13 §3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import lawspeaker
from lawspeaker.engine.positions import PositionError, read_position


@pytest.fixture(scope="module")
def start(standard: lawspeaker.Variant) -> dict[str, Any]:
    return lawspeaker.initial_position(standard).to_dict()


def edited(start: dict[str, Any], change: Any) -> str:
    data = json.loads(json.dumps(start))
    change(data)
    return json.dumps(data)


def test_a_saved_position_reads_back_unchanged(standard: lawspeaker.Variant) -> None:
    position = lawspeaker.initial_position(standard)
    assert read_position(standard, position.to_json()) == position


@pytest.mark.parametrize("change,where,message", [
    (lambda d: d["units"][0].update(location="xyz"), "units[0].location",
     "unknown province 'xyz' in Diplomacy"),
    (lambda d: d["units"][0].update(type="X"), "units[0].type",
     "unknown unit type 'X' (types: A, F"),
    (lambda d: d["units"][1].update(location=d["units"][0]["location"]), "units[1]",
     "two units in "),
    (lambda d: d["units"][0].update(power="Prussia"), "units[0].power",
     "unknown power 'Prussia'"),
    (lambda d: d["units"][0].update(power="Englnd"), "units[0].power",
     "unknown power 'Englnd' (did you mean England?)"),
    (lambda d: d["units"][0].pop("location"), "units[0].location", "missing"),
    (lambda d: d.pop("phase"), "phase", "missing"),
    (lambda d: d["phase"].update(kind="lunch"), "phase.kind", "unknown phase kind 'lunch'"),
    (lambda d: d["phase"].update(year="1901"), "phase.year", "expected a whole number"),
    (lambda d: d["owners"].update(ukr="Russia"), "owners.ukr",
     "Ukraine is not a supply centre"),
    (lambda d: d.update(variant="ood"), "variant",
     "this is a position of 'ood', not of 'standard'"),
    (lambda d: d.update(units={"lon": 1}), "units", "expected a list"),
    (lambda d: d["units"].append("A Par"), "units[22]",
     "a unit is an object with power, type and location"),
])
def test_each_hand_edit_gives_one_error_saying_what_and_where(
        standard: lawspeaker.Variant, start: dict[str, Any], change: Any, where: str,
        message: str) -> None:
    with pytest.raises(PositionError) as error:
        read_position(standard, edited(start, change))
    assert error.value.where == where
    assert message in error.value.reason


def test_a_truncated_file_says_it_ends_too_early(standard: lawspeaker.Variant) -> None:
    text = lawspeaker.initial_position(standard).to_json()
    with pytest.raises(PositionError, match=r"^line \d+ column \d+: not valid JSON \(the file "
                                            r"ends too early\)"):
        read_position(standard, text[: len(text) // 2])


def test_a_position_of_another_variant_is_refused() -> None:
    ood = lawspeaker.load_variant("ood")
    s9 = lawspeaker.load_variant("s9-complete")
    with pytest.raises(PositionError, match="this is a position of 'ood', not of 's9-complete'"):
        read_position(s9, lawspeaker.initial_position(ood).to_json())
